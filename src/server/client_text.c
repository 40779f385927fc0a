/* What a client is told in a status message or a job's error: no paths of the server (the
 * daemon's folders by their key, other absolute paths cut to their last part, which is what
 * names the file) and no control characters (a newline would split a log line or a terminal
 * line on the client's side). The job log keeps the full text for the operator. */
#include <string.h>

#include "server_internal.h"

/* Whether an absolute path may start at text + i (after a separator, not inside a word). */
static bool path_starts(const char *text, size_t i)
{
    if (text[i] != '/' || !text[i + 1] || text[i + 1] == '/' || text[i + 1] == ' ') return false;
    return i == 0 || strchr(" \t(['\"=,", text[i - 1]) != NULL;
}

/* The end of a path token starting at p (a space, quote, bracket, comma, semicolon or colon). */
static const char *path_end(const char *p)
{
    while (*p && !strchr(" \t'\"()[],;:", *p) && (unsigned char)*p >= 0x20) p++;
    return p;
}

static size_t put(char *out, size_t n, size_t cap, const char *s, size_t len)
{
    for (size_t i = 0; i < len && n + 1 < cap; i++) out[n++] = s[i];
    return n;
}

void rpc_client_text(const cuzk_server_config *cfg, char *text, size_t cap)
{
    if (!cap) return;
    const char *dirs[2] = {cfg->param_dir, cfg->cache_dir}, *keys[2] = {"[param_dir]", "[cache_dir]"};
    char out[2048];
    size_t n = 0, len = strnlen(text, cap);
    text[len < cap ? len : cap - 1] = 0;
    for (size_t i = 0; text[i] && n + 1 < sizeof out;) {
        if (path_starts(text, i)) {
            const char *end = path_end(text + i);
            bool named = false;
            for (int d = 0; d < 2 && !named; d++) {
                size_t dl = strlen(dirs[d]);
                while (dl > 1 && dirs[d][dl - 1] == '/') dl--;
                if (dl > 1 && !strncmp(text + i, dirs[d], dl) && (text + i + dl == end || text[i + dl] == '/')) {
                    n = put(out, n, sizeof out, keys[d], strlen(keys[d]));
                    i += dl;
                    named = true;
                }
            }
            if (named) continue;
            const char *last = text + i + 1;
            for (const char *p = text + i; p < end; p++)
                if (*p == '/' && p + 1 < end) last = p + 1;
            n = put(out, n, sizeof out, ".../", 4);
            n = put(out, n, sizeof out, last, (size_t)(end - last));
            i = (size_t)(end - text);
            continue;
        }
        unsigned char c = (unsigned char)text[i++];
        out[n++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    out[n] = 0;
    size_t keep = n < cap - 1 ? n : cap - 1;
    memcpy(text, out, keep);
    text[keep] = 0;
}
