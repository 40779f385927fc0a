/* SHA-256 (FIPS 180-4): streaming init/update/final, one-shot, and the bare compression
 * function. Sealing computes ~10^8 compressions, so on x86 CPUs with the SHA extensions the
 * block function uses them (sha256_shani.c); the portable path is used everywhere else. */
#include <string.h>

#include "hash_internal.h"

const uint32_t CUZK_SHA256_IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

const uint32_t *cuzk_sha256_k(void) { return K; }

static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

void cuzk_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    for (; n > 0; n--, blocks += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++) w[i] = load_be32(blocks + 4 * i);
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
            uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

void cuzk_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    if (cuzk_sha256_have_shani()) cuzk_sha256_blocks_shani(state, blocks, n);
    else cuzk_sha256_blocks_portable(state, blocks, n);
}

void cuzk_sha256_compress(uint32_t state[8], const uint8_t block[64]) { cuzk_sha256_blocks(state, block, 1); }

void cuzk_sha256_init(cuzk_sha256_ctx *c)
{
    memcpy(c->h, CUZK_SHA256_IV, sizeof c->h);
    c->len = 0;
    c->buf_len = 0;
}

void cuzk_sha256_update(cuzk_sha256_ctx *c, const void *data, size_t n)
{
    if (n == 0) return; /* data may be NULL then */
    const uint8_t *p = data;
    c->len += n;
    if (c->buf_len > 0) {
        size_t take = 64 - c->buf_len < n ? 64 - c->buf_len : n;
        memcpy(c->buf + c->buf_len, p, take);
        c->buf_len += take;
        p += take;
        n -= take;
        if (c->buf_len < 64) return;
        cuzk_sha256_blocks(c->h, c->buf, 1);
        c->buf_len = 0;
    }
    if (n >= 64) { /* whole blocks straight from the input */
        cuzk_sha256_blocks(c->h, p, n / 64);
        p += n & ~(size_t)63;
        n &= 63;
    }
    memcpy(c->buf, p, n);
    c->buf_len = n;
}

void cuzk_sha256_final(cuzk_sha256_ctx *c, uint8_t out[32])
{
    uint64_t bits = c->len * 8;
    c->buf[c->buf_len++] = 0x80;
    if (c->buf_len > 56) { /* no room for the length: pad out this block */
        memset(c->buf + c->buf_len, 0, 64 - c->buf_len);
        cuzk_sha256_blocks(c->h, c->buf, 1);
        c->buf_len = 0;
    }
    memset(c->buf + c->buf_len, 0, 56 - c->buf_len);
    for (int i = 0; i < 8; i++) c->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    cuzk_sha256_blocks(c->h, c->buf, 1);
    for (int i = 0; i < 8; i++) store_be32(out + 4 * i, c->h[i]);
    c->buf_len = 0;
}

void cuzk_sha256(uint8_t out[32], const void *data, size_t n)
{
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    cuzk_sha256_update(&c, data, n);
    cuzk_sha256_final(&c, out);
}

bool cuzk_sha256_uses_shani(void) { return cuzk_sha256_have_shani(); }
