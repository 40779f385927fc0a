/* The ChaCha block function (RFC 8439 §2.3) with a selectable round count, and the two ways
 * Filecoin drives it: rand_chacha's ChaCha8Rng (DRG parent sampling) and the IETF ChaCha20
 * keystream (synthetic challenges). */
#include <string.h>

#include "cuzk/hash.h"

static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

#define QR(a, b, c, d)                  \
    do {                                \
        x[a] += x[b];                   \
        x[d] = rotl32(x[d] ^ x[a], 16); \
        x[c] += x[d];                   \
        x[b] = rotl32(x[b] ^ x[c], 12); \
        x[a] += x[b];                   \
        x[d] = rotl32(x[d] ^ x[a], 8);  \
        x[c] += x[d];                   \
        x[b] = rotl32(x[b] ^ x[c], 7);  \
    } while (0)

void cuzk_chacha_block(uint32_t out[16], const uint32_t key[8], const uint32_t w[4], unsigned rounds)
{
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}; /* "expand 32-byte k" */
    for (int i = 0; i < 8; i++) in[4 + i] = key[i];
    for (int i = 0; i < 4; i++) in[12 + i] = w[i];
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned r = 0; r < rounds; r += 2) {
        QR(0, 4, 8, 12);
        QR(1, 5, 9, 13);
        QR(2, 6, 10, 14);
        QR(3, 7, 11, 15);
        QR(0, 5, 10, 15);
        QR(1, 6, 11, 12);
        QR(2, 7, 8, 13);
        QR(3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

void cuzk_chacha_key(uint32_t key[8], const uint8_t b[32])
{
    for (int i = 0; i < 8; i++)
        key[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
            (uint32_t)b[4 * i + 3] << 24;
}

void cuzk_chacha8_rng_init(cuzk_chacha8_rng *r, const uint8_t seed[32])
{
    cuzk_chacha_key(r->key, seed);
    r->counter = 0;
    r->pos = 16;
}

uint64_t cuzk_chacha8_rng_u64(cuzk_chacha8_rng *r)
{
    if (r->pos >= 16) {
        uint32_t w[4] = {(uint32_t)r->counter, (uint32_t)(r->counter >> 32), 0, 0};
        cuzk_chacha_block(r->block, r->key, w, 8);
        r->counter++;
        r->pos = 0;
    }
    uint64_t lo = r->block[r->pos], hi = r->block[r->pos + 1];
    r->pos += 2;
    return hi << 32 | lo;
}

void cuzk_chacha20_keystream(uint8_t *buf, size_t n, const uint8_t key_bytes[32], const uint8_t nonce[12], uint64_t pos)
{
    uint32_t key[8], nw[3];
    cuzk_chacha_key(key, key_bytes);
    for (int i = 0; i < 3; i++)
        nw[i] = (uint32_t)nonce[4 * i] | (uint32_t)nonce[4 * i + 1] << 8 | (uint32_t)nonce[4 * i + 2] << 16 |
            (uint32_t)nonce[4 * i + 3] << 24;
    uint64_t block = pos / 64;
    size_t off = (size_t)(pos % 64);
    while (n > 0) {
        uint32_t w[4] = {(uint32_t)block, nw[0], nw[1], nw[2]}, out[16];
        cuzk_chacha_block(out, key, w, 20);
        uint8_t ks[64];
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 4; j++) ks[4 * i + j] = (uint8_t)(out[i] >> (8 * j));
        for (; off < 64 && n > 0; off++, n--) *buf++ ^= ks[off];
        off = 0;
        block++;
    }
}
