/* Exact integer parsing (include/cuzk/base.h). */
#include "cuzk/base.h"

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
