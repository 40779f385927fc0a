/* The packed vanilla proofs of PoSt and SnapDeals jobs: round trip, and every malformed
 * packing (short, a count beyond the bytes, a length beyond the end, trailing bytes, more
 * blobs than allowed) refused before anything the size of a claim is allocated. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/blobs.h"
#include "harness.h"

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int k = 0; k < n; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static void round_trip(void)
{
    const uint8_t a[] = {1, 2, 3}, c[] = {9};
    const uint8_t *blobs[] = {a, NULL, c};
    size_t lens[] = {3, 0, 1}, len = 0;
    uint8_t *p = cuzk_blobs_pack(blobs, lens, 3, &len);
    CHECK(p && len == 4 + 3 * 8 + 4);
    const uint8_t **b = NULL;
    size_t *l = NULL, n = 0;
    CHECK_OK(cuzk_blobs_unpack(p, len, 3, &b, &l, &n));
    CHECK(n == 3 && l[0] == 3 && l[1] == 0 && l[2] == 1);
    CHECK(b && !memcmp(b[0], a, 3) && b[2][0] == 9);
    free(b);
    free(l);
    /* more blobs than the caller allows */
    CHECK_FAILS(cuzk_blobs_unpack(p, len, 2, &b, &l, &n), CUZK_EFORMAT);
    CHECK(!b && !l && n == 0);
    /* every truncation fails cleanly */
    for (size_t cut = 0; cut < len; cut++) CHECK_FAILS(cuzk_blobs_unpack(p, cut, 3, &b, &l, &n), CUZK_EFORMAT);
    /* a trailing byte */
    uint8_t *q = malloc(len + 1);
    memcpy(q, p, len);
    q[len] = 0;
    CHECK_FAILS(cuzk_blobs_unpack(q, len + 1, 3, &b, &l, &n), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "after the last blob") != NULL);
    free(q);
    free(p);
}

static void hostile_claims(void)
{
    uint8_t buf[64] = {0};
    const uint8_t **b = NULL;
    size_t *l = NULL, n = 0;
    /* no blobs */
    CHECK_FAILS(cuzk_blobs_unpack(buf, 4, 10, &b, &l, &n), CUZK_EFORMAT);
    /* 2^32 - 1 blobs claimed in 64 bytes, with a huge allowance: refused before allocating */
    put_le(buf, 0xffffffffu, 4);
    CHECK_FAILS(cuzk_blobs_unpack(buf, sizeof buf, SIZE_MAX, &b, &l, &n), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "claimed") != NULL);
    /* one blob claiming 2^63 bytes */
    put_le(buf, 1, 4);
    put_le(buf + 4, 1ull << 63, 8);
    CHECK_FAILS(cuzk_blobs_unpack(buf, sizeof buf, 10, &b, &l, &n), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "vanilla proof 0") != NULL);
    /* a second blob's length cut off */
    put_le(buf, 2, 4);
    put_le(buf + 4, 50, 8);
    CHECK_FAILS(cuzk_blobs_unpack(buf, sizeof buf, 10, &b, &l, &n), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "vanilla proof 1") != NULL);
}

/* Random corruptions of a valid packing: always a clean status, and on success the blobs lie
 * inside the buffer. */
static void fuzz(void)
{
    const uint8_t x[40] = {7}, y[5] = {8};
    const uint8_t *blobs[] = {x, y};
    size_t lens[] = {40, 5}, len = 0;
    uint8_t *p = cuzk_blobs_pack(blobs, lens, 2, &len);
    uint8_t *m = malloc(len);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 42);
    for (int it = 0; it < 20000; it++) {
        memcpy(m, p, len);
        size_t flips = 1 + cuzk_rng_next(&rng) % 3;
        for (size_t f = 0; f < flips; f++) m[cuzk_rng_next(&rng) % 16] ^= (uint8_t)(1u << (cuzk_rng_next(&rng) % 8));
        size_t use = len - cuzk_rng_next(&rng) % 4;
        const uint8_t **b = NULL;
        size_t *l = NULL, n = 0;
        cuzk_status st = cuzk_blobs_unpack(m, use, 4, &b, &l, &n);
        harness_checks++;
        if (st != CUZK_OK && st != CUZK_EFORMAT) harness_fail(__FILE__, __LINE__, "status OK or EFORMAT");
        for (size_t i = 0; !st && i < n; i++)
            if (b[i] < m || b[i] + l[i] > m + use) harness_fail(__FILE__, __LINE__, "blob inside the buffer");
        free(b);
        free(l);
    }
    free(m);
    free(p);
}

int main(void)
{
    round_trip();
    hostile_claims();
    fuzz();
    return harness_finish("test_blobs");
}
