/* Writing JSON by hand where a document is a few fixed keys (timelines, status, log lines):
 * strings escaped as RFC 8259 asks. */
#include <string.h>

#include "cuzk/base.h"

void cuzk_json_string(FILE *out, const char *v)
{
    fputc('"', out);
    size_t n = strlen(v);
    for (size_t i = 0; i < n;) {
        unsigned char ch = (unsigned char)v[i];
        size_t len = cuzk_utf8_char(v + i, n - i);
        if (!len) fputs("\\ufffd", out);
        else if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fwrite(v + i, 1, len, out);
        i += len ? len : 1;
    }
    fputc('"', out);
}
