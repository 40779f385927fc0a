/* Small primitives the Filecoin graph and challenge code needs and nothing else in cuzk uses:
 * BLAKE2b (RFC 7693; unkeyed 64-byte digests for the Feistel round function, keyed 32-byte
 * digests for synthetic challenges) and the ChaCha block function (8 rounds for the DRG's
 * ChaCha8Rng, 20 rounds for the synthetic-challenge stream cipher).
 *
 * Written from the specifications (RFC 7693, RFC 8439); the word layouts that Filecoin's Rust
 * dependencies use are described next to each function. Internal to src/filecoin. */
#ifndef CUZK_FIL_CRYPTO_H
#define CUZK_FIL_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- BLAKE2b */
typedef struct {
    uint64_t h[8];
    uint64_t t;        /* bytes compressed so far (inputs here never exceed 2^64) */
    uint8_t buf[128];
    size_t buf_len;
    size_t out_len;
} fil_blake2b;

/* out_len in 1..64, key_len in 0..64 (key may be NULL when key_len is 0). */
void fil_blake2b_init(fil_blake2b *s, size_t out_len, const void *key, size_t key_len);
void fil_blake2b_update(fil_blake2b *s, const void *data, size_t n);
void fil_blake2b_final(fil_blake2b *s, uint8_t *out);
/* Unkeyed BLAKE2b-512 of a short message. */
void fil_blake2b_512(uint8_t out[64], const void *data, size_t n);

/* ---------------------------------------------------------------- ChaCha */
/* One block: the 16 output words of ChaCha with `rounds` rounds (8 or 20) on the state
 * constants || key (8 LE words) || w12 w13 w14 w15. */
void fil_chacha_block(uint32_t out[16], const uint32_t key[8], const uint32_t w[4], unsigned rounds);
/* Reads 32 key bytes as 8 little-endian words. */
void fil_chacha_key(uint32_t key[8], const uint8_t bytes[32]);

/* rand_chacha's ChaCha8Rng::from_seed(seed) as used through rand's gen::<u64>(): the key is the
 * seed, w12..w13 a 64-bit block counter from 0, w14..w15 the stream id 0. The output words are
 * consumed in order and a u64 is (word[i+1] << 32) | word[i]. All callers draw u64s only, so a
 * u64 never straddles a block. */
typedef struct {
    uint32_t key[8];
    uint32_t block[16];
    uint64_t counter; /* next block to generate */
    unsigned pos;     /* next word in block; 16 = exhausted */
} fil_chacha8_rng;
void fil_chacha8_rng_init(fil_chacha8_rng *r, const uint8_t seed[32]);
uint64_t fil_chacha8_rng_u64(fil_chacha8_rng *r);

/* The IETF ChaCha20 stream cipher (RFC 8439 layout: w12 = 32-bit block counter, w13..w15 =
 * the 96-bit nonce), as the RustCrypto `chacha20` crate applies it: keystream byte `pos`
 * onward, xored into buf (pass zeros to read the keystream). */
void fil_chacha20_keystream(uint8_t *buf, size_t n, const uint8_t key[32], const uint8_t nonce[12],
                            uint64_t pos);

#endif
