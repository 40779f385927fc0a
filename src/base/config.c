/* Configuration tables (include/cuzk/config.h): defaults, exact parsing, formatting. */
#include "cuzk/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static cuzk_status parse_bool(const cuzk_config_key *k, const char *v, bool *out)
{
    static const char *yes[] = {"1", "true", "yes", "on"}, *no[] = {"0", "false", "no", "off"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(v, yes[i])) return *out = true, CUZK_OK;
        if (!strcasecmp(v, no[i])) return *out = false, CUZK_OK;
    }
    return cuzk_fail(CUZK_EINVAL, "%s.%s: '%s' is not a boolean (true/false, yes/no, on/off, 1/0)", k->section, k->name,
                     v);
}

/* decimal digits only, no sign, no overflow */
static cuzk_status parse_u64(const cuzk_config_key *k, const char *v, uint64_t *out)
{
    if (!*v) return cuzk_fail(CUZK_EINVAL, "%s.%s: empty value, expected an integer", k->section, k->name);
    uint64_t x = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9')
            return cuzk_fail(CUZK_EINVAL, "%s.%s: '%s' is not a non-negative decimal integer", k->section, k->name, v);
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return cuzk_fail(CUZK_EINVAL, "%s.%s: '%s' is too large", k->section, k->name, v);
        x = x * 10 + d;
    }
    if (x < k->min || x > k->max)
        return cuzk_fail(CUZK_EINVAL, "%s.%s: %s is outside %llu..%llu", k->section, k->name, v,
                         (unsigned long long)k->min, (unsigned long long)k->max);
    *out = x;
    return CUZK_OK;
}

cuzk_status cuzk_config_set(const cuzk_config_key *k, void *base, const char *value)
{
    char *field = (char *)base + k->offset;
    uint64_t x;
    cuzk_status st;
    switch (k->type) {
    case CUZK_CFG_BOOL: return parse_bool(k, value, (bool *)field);
    case CUZK_CFG_UINT:
        if ((st = parse_u64(k, value, &x))) return st;
        *(unsigned *)field = (unsigned)x; /* max <= UINT_MAX in every table (checked by the tests) */
        return CUZK_OK;
    case CUZK_CFG_U64:
        if ((st = parse_u64(k, value, &x))) return st;
        *(uint64_t *)field = x;
        return CUZK_OK;
    case CUZK_CFG_STR:
        if (strlen(value) >= k->max)
            return cuzk_fail(CUZK_EINVAL, "%s.%s: the value is %zu bytes long, at most %llu are accepted", k->section,
                             k->name, strlen(value), (unsigned long long)k->max - 1);
        memcpy(field, value, strlen(value) + 1);
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_EINTERNAL, "%s.%s: unknown key type", k->section, k->name);
}

void cuzk_config_defaults(const cuzk_config_key *keys, size_t n, void *base)
{
    for (size_t i = 0; i < n; i++)
        if (cuzk_config_set(&keys[i], base, keys[i].dflt)) {
            /* a default outside its own range is a bug in the table; the tests catch it */
            cuzk_clear_error();
        }
}

const cuzk_config_key *cuzk_config_find(const cuzk_config_key *keys, size_t n, const char *section, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name)) return &keys[i];
    return NULL;
}

void cuzk_config_format(const cuzk_config_key *k, const void *base, char *out, size_t cap)
{
    const char *field = (const char *)base + k->offset;
    switch (k->type) {
    case CUZK_CFG_BOOL: snprintf(out, cap, "%s", *(const bool *)field ? "true" : "false"); break;
    case CUZK_CFG_UINT: snprintf(out, cap, "%u", *(const unsigned *)field); break;
    case CUZK_CFG_U64: snprintf(out, cap, "%llu", (unsigned long long)*(const uint64_t *)field); break;
    case CUZK_CFG_STR: snprintf(out, cap, "%s", field); break;
    }
}
