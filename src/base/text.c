/* Text a client chose: identifiers checked before they name a job, a log line or a message;
 * any text made valid UTF-8 before it goes into JSON. */
#include <stdio.h>
#include <string.h>

#include "cuzk/base.h"

/* The length of the UTF-8 sequence at s[0 .. n), or 0 when it is not one (overlong forms,
 * surrogates and code points above U+10FFFF are not UTF-8 either: RFC 3629). */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    /* the second byte's range rules out overlong forms, surrogates and values past U+10FFFF */
    if (c == 0xe0 && s[1] < 0xa0) return 0;
    if (c == 0xed && s[1] > 0x9f) return 0;
    if (c == 0xf0 && s[1] < 0x90) return 0;
    if (c == 0xf4 && s[1] > 0x8f) return 0;
    return len;
}

cuzk_status cuzk_check_client_id(const char *field, const char *s, size_t len, size_t max)
{
    if (len > max) return cuzk_fail(CUZK_EINVAL, "%s: %zu bytes, at most %zu", field, len, max);
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        if (!u[i]) return cuzk_fail(CUZK_EINVAL, "%s: a NUL byte at byte %zu", field, i);
        if (u[i] < 0x20 || u[i] == 0x7f)
            return cuzk_fail(CUZK_EINVAL, "%s: a control character (0x%02x) at byte %zu", field, u[i], i);
        size_t n = utf8_sequence(u + i, len - i);
        if (!n) return cuzk_fail(CUZK_EINVAL, "%s: not valid UTF-8 at byte %zu (0x%02x)", field, i, u[i]);
        i += n;
    }
    return CUZK_OK;
}

size_t cuzk_utf8_char(const char *s, size_t n) { return n ? utf8_sequence((const unsigned char *)s, n) : 0; }

char *cuzk_utf8_repair(const char *s, char *out, size_t cap)
{
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
    size_t n = strlen(s), o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
        const char *from = len ? s + i : replacement;
        size_t take = len ? len : 3;
        if (o + take >= cap) break; /* cut at a whole character */
        memcpy(out + o, from, take);
        o += take;
        i += len ? len : 1;
    }
    out[o] = 0;
    return out;
}
