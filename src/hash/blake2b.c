/* BLAKE2b per RFC 7693. Only short messages are hashed here (16-byte Feistel inputs, 64-byte
 * challenge seeds), so this is the plain reference structure without SIMD. */
#include <string.h>

#include "cuzk/hash.h"

static const uint64_t B2B_IV[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                   0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                   0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t B2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

#define B2B_G(a, b, c, d, x, y)         \
    do {                                \
        v[a] = v[a] + v[b] + (x);       \
        v[d] = rotr64(v[d] ^ v[a], 32); \
        v[c] = v[c] + v[d];             \
        v[b] = rotr64(v[b] ^ v[c], 24); \
        v[a] = v[a] + v[b] + (y);       \
        v[d] = rotr64(v[d] ^ v[a], 16); \
        v[c] = v[c] + v[d];             \
        v[b] = rotr64(v[b] ^ v[c], 63); \
    } while (0)

static void b2b_compress(cuzk_blake2b *s, const uint8_t block[128], int last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = s->h[i];
        v[i + 8] = B2B_IV[i];
    }
    v[12] ^= s->t; /* low word of the 128-bit counter; the high word stays 0 */
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *sg = B2B_SIGMA[r];
        B2B_G(0, 4, 8, 12, m[sg[0]], m[sg[1]]);
        B2B_G(1, 5, 9, 13, m[sg[2]], m[sg[3]]);
        B2B_G(2, 6, 10, 14, m[sg[4]], m[sg[5]]);
        B2B_G(3, 7, 11, 15, m[sg[6]], m[sg[7]]);
        B2B_G(0, 5, 10, 15, m[sg[8]], m[sg[9]]);
        B2B_G(1, 6, 11, 12, m[sg[10]], m[sg[11]]);
        B2B_G(2, 7, 8, 13, m[sg[12]], m[sg[13]]);
        B2B_G(3, 4, 9, 14, m[sg[14]], m[sg[15]]);
    }
    for (int i = 0; i < 8; i++) s->h[i] ^= v[i] ^ v[i + 8];
}

void cuzk_blake2b_init(cuzk_blake2b *s, size_t out_len, const void *key, size_t key_len)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 8; i++) s->h[i] = B2B_IV[i];
    /* parameter block word 0: digest length, key length, fanout 1, depth 1 */
    s->h[0] ^= 0x01010000ULL ^ ((uint64_t)key_len << 8) ^ (uint64_t)out_len;
    s->out_len = out_len;
    if (key_len > 0) {
        /* the key, zero-padded to a full block, is the first block */
        memcpy(s->buf, key, key_len);
        s->buf_len = 128;
    }
}

void cuzk_blake2b_update(cuzk_blake2b *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    while (n > 0) {
        if (s->buf_len == 128) {
            /* only compress a full buffer once more input follows: the last block is special */
            s->t += 128;
            b2b_compress(s, s->buf, 0);
            s->buf_len = 0;
        }
        size_t take = 128 - s->buf_len;
        if (take > n) take = n;
        memcpy(s->buf + s->buf_len, p, take);
        s->buf_len += take;
        p += take;
        n -= take;
    }
}

void cuzk_blake2b_final(cuzk_blake2b *s, uint8_t *out)
{
    s->t += s->buf_len;
    memset(s->buf + s->buf_len, 0, 128 - s->buf_len);
    b2b_compress(s, s->buf, 1);
    uint8_t full[64];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) full[8 * i + j] = (uint8_t)(s->h[i] >> (8 * j));
    memcpy(out, full, s->out_len);
}

void cuzk_blake2b_512(uint8_t out[64], const void *data, size_t n)
{
    cuzk_blake2b s;
    cuzk_blake2b_init(&s, 64, NULL, 0);
    cuzk_blake2b_update(&s, data, n);
    cuzk_blake2b_final(&s, out);
}
