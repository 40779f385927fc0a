/* Exact integer parsing (include/cuzk/base.h). */
#include "cuzk/base.h"

#include <string.h>

cuzk_status cuzk_u64_parse(const char *s, uint64_t *out)
{
    if (!*s) return cuzk_fail(CUZK_EINVAL, "an empty string is not a decimal integer");
    uint64_t x = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return cuzk_fail(CUZK_EINVAL, "'%s' is not a non-negative decimal integer", s);
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10) return cuzk_fail(CUZK_EINVAL, "%s is larger than 2^64 - 1", s);
        x = x * 10 + d;
    }
    *out = x;
    return CUZK_OK;
}

cuzk_status cuzk_u64_list_parse(const char *s, char sep, uint64_t *out, size_t n)
{
    const char *p = s;
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 < n ? strchr(p, sep) : p + strlen(p);
        if (!end) return cuzk_fail(CUZK_EINVAL, "'%s' has fewer than %zu fields", s, n);
        size_t len = (size_t)(end - p);
        char field[24];
        if (len == 0 || len >= sizeof field)
            return cuzk_fail(CUZK_EINVAL, "'%s': field %zu is %s", s, i + 1, len ? "too long" : "empty");
        memcpy(field, p, len);
        field[len] = 0;
        if (cuzk_u64_parse(field, &out[i])) return cuzk_fail_context(CUZK_EINVAL, "'%s': field %zu", s, i + 1);
        p += len + 1;
    }
    return CUZK_OK;
}
