/* Configuration key tables: every key's default parses within its own range and equals what
 * cuzk_gpu_config_default sets; unsigned keys fit an unsigned int; values are parsed exactly
 * (out of range, overflow, signs, junk and non-booleans refused with the key named) and
 * formatted back as they were given. */
#include <limits.h>
#include <string.h>

#include "cuzk/config.h"
#include "cuzk/gpu.h"
#include "harness.h"

static void test_gpu_table(void)
{
    size_t n;
    const cuzk_config_key *k = cuzk_gpu_config_table(&n);
    CHECK(n == 25);
    cuzk_gpu_config a, b;
    memset(&a, 0xa5, sizeof a);
    cuzk_gpu_config_default(&a);
    memset(&b, 0x5a, sizeof b);
    for (size_t i = 0; i < n; i++) {
        CHECK(!strcmp(k[i].section, "gpu") && k[i].help && k[i].env);
        CHECK(k[i].type != CUZK_CFG_UINT || k[i].max <= UINT_MAX);
        CHECK(k[i].min <= k[i].max);
        CHECK_OK(cuzk_config_set(&k[i], &b, k[i].dflt)); /* every default within its range */
        char v[64];
        cuzk_config_format(&k[i], &a, v, sizeof v);
        CHECK(!strcmp(v, k[i].dflt)); /* the default function gives the table's values */
        CHECK(cuzk_config_find(k, n, "gpu", k[i].name) == &k[i]);
    }
    CHECK(a.ntt_tile_bits == 10 && a.ntt_threads == 128 && a.h_glv && !a.profile && a.msm_reduce_bits == 4);
    CHECK(cuzk_config_find(k, n, "gpu", "nosuch") == NULL && cuzk_config_find(k, n, "cuzk", "ntt_threads") == NULL);
}

static void test_parsing(void)
{
    size_t n;
    const cuzk_config_key *k = cuzk_gpu_config_table(&n);
    cuzk_gpu_config c;
    cuzk_gpu_config_default(&c);
    const cuzk_config_key *thr = cuzk_config_find(k, n, "gpu", "ntt_threads");
    const cuzk_config_key *chunk = cuzk_config_find(k, n, "gpu", "msm_chunk");
    const cuzk_config_key *glv = cuzk_config_find(k, n, "gpu", "h_glv");
    CHECK_OK(cuzk_config_set(thr, &c, "1024"));
    CHECK(c.ntt_threads == 1024);
    CHECK_OK(cuzk_config_set(thr, &c, "32"));
    static const char *bad_uint[] = {"1025", "31",   "-4", "+64", " 64",
                                     "64 ",  "0x40", "",   "6e1", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_uint / sizeof bad_uint[0]; i++) {
        CHECK_FAILS(cuzk_config_set(thr, &c, bad_uint[i]), CUZK_EINVAL);
        CHECK(strstr(cuzk_last_error(), "gpu.ntt_threads") != NULL);
    }
    CHECK(c.ntt_threads == 32); /* a refused value leaves the field */
    CHECK_OK(cuzk_config_set(chunk, &c, "4294967296"));
    CHECK(c.msm_chunk == 4294967296ull);
    CHECK_FAILS(cuzk_config_set(chunk, &c, "4294967297"), CUZK_EINVAL);
    CHECK_FAILS(cuzk_config_set(chunk, &c, "18446744073709551616"), CUZK_EINVAL); /* 2^64 */
    CHECK(strstr(cuzk_last_error(), "too large") != NULL);
    static const char *yes[] = {"1", "true", "YES", "On"}, *no[] = {"0", "false", "no", "OFF"};
    for (int i = 0; i < 4; i++) {
        CHECK_OK(cuzk_config_set(glv, &c, no[i]));
        CHECK(!c.h_glv);
        CHECK_OK(cuzk_config_set(glv, &c, yes[i]));
        CHECK(c.h_glv);
    }
    CHECK_FAILS(cuzk_config_set(glv, &c, "maybe"), CUZK_EINVAL);
    CHECK_FAILS(cuzk_config_set(glv, &c, ""), CUZK_EINVAL);
    char v[32];
    cuzk_config_format(chunk, &c, v, sizeof v);
    CHECK(!strcmp(v, "4294967296"));
}

int main(void)
{
    test_gpu_table();
    test_parsing();
    return harness_finish("config");
}
