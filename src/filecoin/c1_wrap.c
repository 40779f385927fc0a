/* The C1 wrapper lotus-bench and Curio pass around: a Go struct {SectorNum int64; Phase1Out
 * []byte; SectorSize uint64} through encoding/json, which writes []byte as standard base64 with
 * padding. Base64 is OpenSSL's (EVP_EncodeBlock / EVP_DecodeBlock); the alphabet and padding
 * are checked here first because EVP_DecodeBlock tolerates whitespace and reports padding as
 * output bytes. Also: detecting which form a file is in, and reading C1 files. */
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "c1_internal.h"
#include "fil_json.h"

#define TRY(x)                          \
    do {                                \
        cuzk_status st_ = (x);          \
        if (st_ != CUZK_OK) return st_; \
    } while (0)

static cuzk_status b64_encode(const uint8_t *in, size_t n, char **out, size_t *outlen)
{
    if (n > (size_t)INT_MAX / 4 * 3 - 3) return cuzk_fail(CUZK_EINVAL, "C1 JSON too large for base64 (%zu bytes)", n);
    size_t cap = (n + 2) / 3 * 4 + 1;
    char *b = cuzk_malloc(cap);
    if (!b) return CUZK_ENOMEM;
    int len = EVP_EncodeBlock((unsigned char *)b, in, (int)n);
    if (len < 0) {
        free(b);
        return cuzk_fail(CUZK_EINTERNAL, "base64 encoding failed");
    }
    *out = b;
    *outlen = (size_t)len;
    return CUZK_OK;
}

static int b64_class(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

static cuzk_status b64_decode(fj_reader *r, const uint8_t *s, size_t n, uint8_t **out, size_t *outlen)
{
    if (n % 4 != 0) return fj_error(r, "base64 length %zu is not a multiple of 4", n);
    if (n > (size_t)INT_MAX) return fj_error(r, "base64 string too long");
    size_t pad = 0;
    if (n >= 1 && s[n - 1] == '=') pad++;
    if (n >= 2 && s[n - 2] == '=') pad++;
    for (size_t i = 0; i < n - pad; i++)
        if (!b64_class(s[i])) return fj_error(r, "invalid base64 character at position %zu", i);
    uint8_t *b = cuzk_malloc(n / 4 * 3 + 1);
    if (!b) return CUZK_ENOMEM;
    int len = n ? EVP_DecodeBlock(b, s, (int)n) : 0;
    if (len < 0 || (size_t)len < pad) {
        free(b);
        return fj_error(r, "invalid base64");
    }
    *out = b;
    *outlen = (size_t)len - pad;
    return CUZK_OK;
}

cuzk_status cuzk_c1_wrap(uint8_t **json, size_t *len, const uint8_t *c1_json, size_t c1_len, int64_t sector_num,
                         uint64_t sector_size)
{
    *json = NULL;
    *len = 0;
    char *b64 = NULL;
    size_t blen = 0;
    TRY(b64_encode(c1_json, c1_len, &b64, &blen));
    size_t cap = blen + 128;
    char *o = cuzk_malloc(cap);
    if (!o) {
        free(b64);
        return CUZK_ENOMEM;
    }
    int head = snprintf(o, cap, "{\"SectorNum\":%lld,\"Phase1Out\":\"", (long long)sector_num);
    memcpy(o + head, b64, blen);
    int tail = snprintf(o + head + blen, cap - head - blen, "\",\"SectorSize\":%llu}", (unsigned long long)sector_size);
    free(b64);
    *json = (uint8_t *)o;
    *len = (size_t)head + blen + (size_t)tail;
    return CUZK_OK;
}

cuzk_status cuzk_c1_unwrap(const uint8_t *json, size_t len, uint8_t **c1_json, size_t *c1_len, int64_t *sector_num,
                           uint64_t *sector_size)
{
    static const char *const F[] = {"SectorNum", "Phase1Out", "SectorSize"};
    *c1_json = NULL;
    *c1_len = 0;
    fj_reader r;
    fj_init(&r, json, len);
    int64_t num = 0;
    uint64_t size = 0;
    uint8_t *inner = NULL;
    size_t inner_len = 0;
    unsigned seen = 0;
    cuzk_status st = fj_obj_begin(&r);
    while (st == CUZK_OK) {
        bool has;
        const char *k;
        size_t kl;
        if ((st = fj_obj_next(&r, &has, &k, &kl)) != CUZK_OK || !has) break;
        int f = -1;
        for (int i = 0; i < 3; i++)
            if (strlen(F[i]) == kl && memcmp(F[i], k, kl) == 0) f = i;
        if (f < 0) {
            st = fj_error(&r, "unknown field (expected SectorNum, Phase1Out, SectorSize)");
            break;
        }
        if (seen & (1u << f)) {
            st = fj_error(&r, "duplicate field");
            break;
        }
        seen |= 1u << f;
        if (f == 0) {
            st = fj_i64(&r, &num);
        } else if (f == 2) {
            st = fj_u64(&r, UINT64_MAX, &size);
        } else {
            const uint8_t *s;
            size_t n;
            bool esc;
            if ((st = fj_string_raw(&r, &s, &n, &esc)) != CUZK_OK) break;
            if (esc) { /* Go never escapes base64 characters, but "\/" is valid JSON */
                char *tmp = cuzk_malloc(n + 1);
                if (!tmp) {
                    st = CUZK_ENOMEM;
                    break;
                }
                if ((st = fj_unescape(&r, s, n, tmp, n + 1, &n)) == CUZK_OK)
                    st = b64_decode(&r, (const uint8_t *)tmp, n, &inner, &inner_len);
                free(tmp);
            } else {
                st = b64_decode(&r, s, n, &inner, &inner_len);
            }
        }
        if (st == CUZK_OK) fj_pop(&r);
    }
    if (st == CUZK_OK) {
        for (int i = 0; i < 3; i++)
            if (!(seen & (1u << i))) {
                st = fj_error(&r, "missing field \"%s\"", F[i]);
                break;
            }
    }
    if (st == CUZK_OK) st = fj_end(&r);
    if (st != CUZK_OK) {
        free(inner);
        return st;
    }
    *c1_json = inner;
    *c1_len = inner_len;
    if (sector_num) *sector_num = num;
    if (sector_size) *sector_size = size;
    return CUZK_OK;
}

/* The first key decides: the wrapper's keys and SealCommitPhase1Output's are disjoint. */
static bool looks_wrapped(const uint8_t *json, size_t len)
{
    fj_reader r;
    fj_init(&r, json, len);
    if (fj_obj_begin(&r) != CUZK_OK) return false;
    bool has;
    const char *k;
    size_t kl;
    if (fj_obj_next(&r, &has, &k, &kl) != CUZK_OK || !has) return false;
    return (kl == 9 && (memcmp(k, "SectorNum", 9) == 0 || memcmp(k, "Phase1Out", 9) == 0)) ||
        (kl == 10 && memcmp(k, "SectorSize", 10) == 0);
}

cuzk_status cuzk_c1_parse_any(cuzk_c1 **out, const uint8_t *json, size_t len, int64_t *sector_num,
                              uint64_t *sector_size)
{
    *out = NULL;
    if (!looks_wrapped(json, len)) {
        if (sector_num) *sector_num = -1;
        if (sector_size) *sector_size = 0;
        return cuzk_c1_parse(out, json, len);
    }
    uint8_t *inner;
    size_t inner_len;
    int64_t num;
    uint64_t size;
    TRY(cuzk_c1_unwrap(json, len, &inner, &inner_len, &num, &size));
    cuzk_status st = cuzk_c1_parse(out, inner, inner_len);
    free(inner);
    if (st != CUZK_OK) return cuzk_fail_context(st, "Phase1Out (decoded)");
    if (size != (*out)->info->sector_size) {
        st = cuzk_fail(CUZK_EFORMAT, "SectorSize %llu does not match registered_proof %s (%llu bytes)",
                       (unsigned long long)size, (*out)->info->name, (unsigned long long)(*out)->info->sector_size);
        cuzk_c1_free(*out);
        *out = NULL;
        return st;
    }
    if (sector_num) *sector_num = num;
    if (sector_size) *sector_size = size;
    return CUZK_OK;
}

cuzk_status cuzk_c1_parse_file(cuzk_c1 **out, const char *path, int64_t *sector_num)
{
    *out = NULL;
    cuzk_mapped_file f;
    TRY(cuzk_map_file(&f, path));
    cuzk_status st = cuzk_c1_parse_any(out, f.data, f.size, sector_num, NULL);
    cuzk_unmap_file(&f);
    if (st != CUZK_OK) return cuzk_fail_context(st, "%s", path);
    return CUZK_OK;
}
