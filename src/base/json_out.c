/* Writing JSON by hand where a document is a few fixed keys (timelines, status, log lines):
 * strings escaped as RFC 8259 asks. */
#include "cuzk/base.h"

void cuzk_json_string(FILE *out, const char *v)
{
    fputc('"', out);
    for (; *v; v++) {
        unsigned char ch = (unsigned char)*v;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}
