/* The strict JSON reader behind the C1 parser (see fil_json.h for why it exists). */
#include <stdarg.h>
#include <string.h>

#include "cuzk/ff.h"
#include "fil_json.h"

/* Container state is not stacked: whether an object or array has had an element yet is read
 * off the input itself. Right after '{' or '[' the previous significant byte is that bracket;
 * after an element it is the element's last byte, which can never be an opening bracket. */

void fj_init(fj_reader *r, const uint8_t *json, size_t len)
{
    r->start = r->p = json;
    r->end = json + len;
    r->depth = 0;
}

void fj_path(const fj_reader *r, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < r->depth && o + 1 < cap; i++) {
        const fj_seg *s = &r->path[i];
        int n;
        if (s->key) n = snprintf(out + o, cap - o, "%s%.*s", o ? "." : "", (int)(s->klen > 80 ? 80 : s->klen), s->key);
        else n = snprintf(out + o, cap - o, "[%llu]", (unsigned long long)s->index);
        if (n < 0) break;
        o += (size_t)n;
        if (o >= cap) {
            o = cap - 1;
            break;
        }
    }
    if (o == 0 && cap > 7) snprintf(out, cap, "(top)");
}

cuzk_status fj_error(fj_reader *r, const char *fmt, ...)
{
    char path[512], msg[512];
    fj_path(r, path, sizeof path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_fail(CUZK_EFORMAT, "%s: %s (byte %zu)", path, msg, (size_t)(r->p - r->start));
}

/* What the next token is, for error messages. */
static const char *token_kind(fj_reader *r)
{
    fj_ws(r);
    if (r->p >= r->end) return "end of input";
    switch (*r->p) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case '-': return "a negative number";
    default:
        if (*r->p >= '0' && *r->p <= '9') return "a number";
        return "an unexpected character";
    }
}

static cuzk_status push(fj_reader *r, const char *key, size_t klen, uint64_t index)
{
    if (r->depth >= FJ_MAX_DEPTH) return fj_error(r, "nesting deeper than %d levels", FJ_MAX_DEPTH);
    r->path[r->depth].key = key;
    r->path[r->depth].klen = klen;
    r->path[r->depth].index = index;
    r->depth++;
    return CUZK_OK;
}

cuzk_status fj_obj_begin(fj_reader *r)
{
    fj_ws(r);
    if (r->p >= r->end || *r->p != '{') return fj_error(r, "expected an object, got %s", token_kind(r));
    r->p++;
    return CUZK_OK;
}

/* After '{' / '[' or after an element: true when the previous significant byte opened the
 * container, i.e. no element has been read yet. */
static bool at_container_start(const fj_reader *r, char open)
{
    const uint8_t *q = r->p;
    while (q > r->start) {
        q--;
        if (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t') continue;
        return *q == (uint8_t)open;
    }
    return false;
}

cuzk_status fj_obj_next(fj_reader *r, bool *has, const char **key, size_t *klen)
{
    bool first = at_container_start(r, '{');
    fj_ws(r);
    if (r->p >= r->end) return fj_error(r, "unterminated object");
    if (*r->p == '}') {
        r->p++;
        *has = false;
        return CUZK_OK;
    }
    if (!first) {
        if (*r->p != ',') return fj_error(r, "expected ',' or '}' in object, got %s", token_kind(r));
        r->p++;
        fj_ws(r);
    }
    if (r->p >= r->end || *r->p != '"') return fj_error(r, "expected a key string, got %s", token_kind(r));
    const uint8_t *s;
    size_t n;
    bool esc;
    cuzk_status st = fj_string_raw(r, &s, &n, &esc);
    if (st != CUZK_OK) return st;
    if (esc) {
        if (r->depth >= FJ_MAX_DEPTH) return fj_error(r, "nesting deeper than %d levels", FJ_MAX_DEPTH);
        char *buf = r->keybuf;
        if ((st = fj_unescape(r, s, n, buf, sizeof r->keybuf, &n)) != CUZK_OK) return st;
        s = (const uint8_t *)buf;
    }
    fj_ws(r);
    if (r->p >= r->end || *r->p != ':') return fj_error(r, "expected ':' after key, got %s", token_kind(r));
    r->p++;
    *key = (const char *)s;
    *klen = n;
    *has = true;
    return push(r, (const char *)s, n, 0);
}

cuzk_status fj_arr_begin(fj_reader *r)
{
    fj_ws(r);
    if (r->p >= r->end || *r->p != '[') return fj_error(r, "expected an array, got %s", token_kind(r));
    r->p++;
    return CUZK_OK;
}

cuzk_status fj_arr_next(fj_reader *r, bool *has)
{
    bool first = at_container_start(r, '[');
    fj_ws(r);
    if (r->p >= r->end) return fj_error(r, "unterminated array");
    if (*r->p == ']') {
        r->p++;
        *has = false;
        return CUZK_OK;
    }
    uint64_t index = 0;
    if (!first) {
        if (*r->p != ',') return fj_error(r, "expected ',' or ']' in array, got %s", token_kind(r));
        r->p++;
        /* the caller popped the previous element's segment; its index is still in the slot */
        index = r->path[r->depth].index + 1;
    }
    *has = true;
    return push(r, NULL, 0, index);
}

/* Skips one value (any JSON) without validating it deeply; used only to count the elements of
 * an array that is already known to be too long, so the error can report the real count. */
static bool skip_value(fj_reader *r)
{
    long depth = 0;
    fj_ws(r);
    do {
        if (r->p >= r->end) return false;
        uint8_t c = *r->p++;
        if (c == '"') {
            while (r->p < r->end && *r->p != '"') r->p += *r->p == '\\' ? 2 : 1;
            if (r->p >= r->end) return false;
            r->p++;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if (c == ']' || c == '}') {
            depth--;
            if (depth < 0) return false;
        } else if (depth == 0) {
            /* a scalar at top level: consume its remaining characters */
            while (r->p < r->end && *r->p != ',' && *r->p != ']' && *r->p != '}' && *r->p != ' ' && *r->p != '\n' &&
                   *r->p != '\r' && *r->p != '\t')
                r->p++;
        }
        if (depth > 0) {
            while (r->p < r->end && *r->p != '"' && *r->p != '[' && *r->p != '{' && *r->p != ']' && *r->p != '}')
                r->p++;
        }
    } while (depth > 0);
    return true;
}

cuzk_status fj_too_many(fj_reader *r, uint64_t expected, const char *what)
{
    const uint8_t *at = r->p;
    uint64_t n = expected;
    fj_pop(r);
    for (;;) {
        if (!skip_value(r)) break;
        n++;
        fj_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        break;
    }
    r->p = at;
    return fj_error(r, "expected %llu %s, got %llu", (unsigned long long)expected, what, (unsigned long long)n);
}

cuzk_status fj_u64(fj_reader *r, uint64_t max, uint64_t *v)
{
    fj_ws(r);
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') {
        const char *k = token_kind(r);
        return fj_error(r, "expected an unsigned integer, got %s", k);
    }
    const uint8_t *s = r->p;
    uint64_t x = 0;
    bool overflow = false;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        unsigned d = *r->p - '0';
        if (x > (UINT64_MAX - d) / 10) overflow = true;
        else x = x * 10 + d;
        r->p++;
    }
    if (r->p - s > 1 && *s == '0') {
        r->p = s;
        return fj_error(r, "invalid number: leading zero");
    }
    if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E')) {
        r->p = s;
        return fj_error(r, "expected an integer, got a floating point number");
    }
    if (overflow || x > max) {
        int n = (int)(r->p - s) > 40 ? 40 : (int)(r->p - s);
        r->p = s;
        return fj_error(r, "integer %.*s%s out of range (at most %llu)", n, (const char *)s, n == 40 ? "..." : "",
                        (unsigned long long)max);
    }
    *v = x;
    return CUZK_OK;
}

cuzk_status fj_i64(fj_reader *r, int64_t *v)
{
    fj_ws(r);
    bool neg = r->p < r->end && *r->p == '-';
    if (neg) {
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9') return fj_error(r, "invalid number after '-'");
    }
    uint64_t x;
    cuzk_status st = fj_u64(r, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &x);
    if (st != CUZK_OK) return st;
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    if (neg && x == 0) *v = 0;
    return CUZK_OK;
}

cuzk_status fj_null(fj_reader *r)
{
    fj_ws(r);
    if (r->end - r->p >= 4 && memcmp(r->p, "null", 4) == 0) {
        r->p += 4;
        return CUZK_OK;
    }
    return fj_error(r, "expected null, got %s", token_kind(r));
}

cuzk_status fj_string_raw(fj_reader *r, const uint8_t **s, size_t *len, bool *escaped)
{
    fj_ws(r);
    if (r->p >= r->end || *r->p != '"') return fj_error(r, "expected a string, got %s", token_kind(r));
    const uint8_t *q = r->p + 1;
    bool esc = false;
    /* memchr to the next quote, then check for backslashes and control characters before it */
    for (;;) {
        const uint8_t *e = memchr(q, '"', (size_t)(r->end - q));
        if (!e) return fj_error(r, "unterminated string");
        bool escaped_quote = false;
        for (const uint8_t *c = q; c < e; c++) {
            if (*c < 0x20) {
                r->p = c;
                return fj_error(r, "control character in string");
            }
            if (*c == '\\') {
                esc = true;
                c++;
                if (c == e) { /* the quote is escaped: keep looking after it */
                    escaped_quote = true;
                    break;
                }
            }
        }
        if (escaped_quote) {
            q = e + 1;
            continue;
        }
        *s = r->p + 1;
        *len = (size_t)(e - (r->p + 1));
        *escaped = esc;
        r->p = e + 1;
        return CUZK_OK;
    }
}

static int hexval(uint8_t c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

cuzk_status fj_unescape(fj_reader *r, const uint8_t *s, size_t len, char *out, size_t cap, size_t *outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        if (s[i] != '\\') {
            cp = s[i++];
            if (o + 1 > cap) return fj_error(r, "string too long");
            out[o++] = (char)cp;
            continue;
        }
        if (i + 1 >= len) return fj_error(r, "invalid escape in string");
        uint8_t e = s[i + 1];
        i += 2;
        switch (e) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = 8; break;
        case 'f': cp = 12; break;
        case 'n': cp = 10; break;
        case 'r': cp = 13; break;
        case 't': cp = 9; break;
        case 'u': {
            if (i + 4 > len) return fj_error(r, "invalid \\u escape in string");
            cp = 0;
            for (int k = 0; k < 4; k++) {
                int h = hexval(s[i + k]);
                if (h < 0) return fj_error(r, "invalid \\u escape in string");
                cp = cp << 4 | (uint32_t)h;
            }
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00) { /* a surrogate pair */
                uint32_t lo = 0;
                if (i + 6 > len || s[i] != '\\' || s[i + 1] != 'u') return fj_error(r, "lone surrogate in string");
                for (int k = 0; k < 4; k++) {
                    int h = hexval(s[i + 2 + k]);
                    if (h < 0) return fj_error(r, "invalid \\u escape in string");
                    lo = lo << 4 | (uint32_t)h;
                }
                if (lo < 0xdc00 || lo >= 0xe000) return fj_error(r, "lone surrogate in string");
                i += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                return fj_error(r, "lone surrogate in string");
            }
            break;
        }
        default: return fj_error(r, "invalid escape '\\%c' in string", e >= 0x20 && e < 0x7f ? e : '?');
        }
        /* UTF-8 encode */
        uint8_t buf[4];
        size_t n;
        if (cp < 0x80) {
            buf[0] = (uint8_t)cp;
            n = 1;
        } else if (cp < 0x800) {
            buf[0] = (uint8_t)(0xc0 | cp >> 6);
            buf[1] = (uint8_t)(0x80 | (cp & 0x3f));
            n = 2;
        } else if (cp < 0x10000) {
            buf[0] = (uint8_t)(0xe0 | cp >> 12);
            buf[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
            buf[2] = (uint8_t)(0x80 | (cp & 0x3f));
            n = 3;
        } else {
            buf[0] = (uint8_t)(0xf0 | cp >> 18);
            buf[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
            buf[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
            buf[3] = (uint8_t)(0x80 | (cp & 0x3f));
            n = 4;
        }
        if (o + n > cap) return fj_error(r, "string too long");
        memcpy(out + o, buf, n);
        o += n;
    }
    *outlen = o;
    return CUZK_OK;
}

bool fj_is_canonical_fr(const uint8_t b[32])
{
    for (int i = 31; i >= 0; i--) {
        if (b[i] != CUZK_FR_MODULUS_LE[i]) return b[i] < CUZK_FR_MODULUS_LE[i];
    }
    return false; /* equal to r */
}

/* The general path for a 32-byte array: precise messages for whatever is wrong. */
static cuzk_status node_slow(fj_reader *r, uint8_t out[32])
{
    cuzk_status st = fj_arr_begin(r);
    if (st != CUZK_OK) return st;
    for (uint64_t i = 0;; i++) {
        bool has;
        if ((st = fj_arr_next(r, &has)) != CUZK_OK) return st;
        if (!has) {
            if (i == 32) return CUZK_OK;
            return fj_error(r, "expected 32 elements (bytes), got %llu", (unsigned long long)i);
        }
        if (i == 32) return fj_too_many(r, 32, "elements (bytes)");
        uint64_t v;
        if ((st = fj_u64(r, 255, &v)) != CUZK_OK) return st;
        out[i] = (uint8_t)v;
        fj_pop(r);
    }
}

cuzk_status fj_node(fj_reader *r, uint8_t out[32], bool canonical)
{
    const uint8_t *p = r->p, *e = r->end, *begin;
#define WS \
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++
    WS;
    begin = p;
    if (p >= e || *p != '[') goto slow;
    p++;
    for (int i = 0; i < 32; i++) {
        WS;
        if (p >= e || *p < '0' || *p > '9') goto slow;
        unsigned v = *p++ - '0';
        if (v == 0 && p < e && *p >= '0' && *p <= '9') goto slow;
        while (p < e && *p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned)(*p++ - '0');
            if (v > 255) goto slow;
        }
        out[i] = (uint8_t)v;
        WS;
        if (p >= e || *p != (i < 31 ? ',' : ']')) goto slow;
        p++;
    }
#undef WS
    r->p = p;
    goto check;
slow:
    r->p = begin;
    {
        cuzk_status st = node_slow(r, out);
        if (st != CUZK_OK) return st;
    }
check:
    if (canonical && !fj_is_canonical_fr(out)) {
        r->p = begin;
        return fj_error(r, "not a canonical field element (the little-endian value is >= r)");
    }
    return CUZK_OK;
}

cuzk_status fj_end(fj_reader *r)
{
    fj_ws(r);
    if (r->p != r->end) return fj_error(r, "trailing characters after the JSON value");
    return CUZK_OK;
}
