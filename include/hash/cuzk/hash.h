/* The hash layer: native (out-of-circuit) hashes used by Filecoin. SHA-256 (SHA-NI when
 * present) and Poseidon as neptune 11.0.0 computes it (Strength::Standard,
 * HashType::MerkleTree, arities 2, 4, 8, 11); BLAKE2b and ChaCha for the graph and challenge
 * code. Circuit versions of SHA-256 and Poseidon are gadgets (include/cuzk/gadgets/).
 *
 * The Poseidon constants (Grain-LFSR round constants, the Cauchy MDS matrix 1/(i + t + j),
 * neptune's optimized-static preprocessing: compressed round constants, pre-sparse and sparse
 * matrices) are generated in code on first use and cached for the life of the process;
 * the accessors are thread-safe. */
#ifndef CUZK_HASH_H
#define CUZK_HASH_H

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- SHA-256 */
typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes hashed so far */
    uint8_t buf[64];
    size_t buf_len;
} cuzk_sha256_ctx;
void cuzk_sha256_init(cuzk_sha256_ctx *c);
void cuzk_sha256_update(cuzk_sha256_ctx *c, const void *data, size_t n);
void cuzk_sha256_final(cuzk_sha256_ctx *c, uint8_t out[32]);
void cuzk_sha256(uint8_t out[32], const void *data, size_t n);
/* Whether this CPU runs SHA-256 on its SHA extensions (SHA-NI) rather than the portable code. */
bool cuzk_sha256_uses_shani(void);
/* The bare compression function on one 64-byte block (no padding): state updated in place. */
void cuzk_sha256_compress(uint32_t state[8], const uint8_t block[64]);
extern const uint32_t CUZK_SHA256_IV[8];
/* The 64 round constants K (for the circuit version and the SHA-NI path). */
const uint32_t *cuzk_sha256_k(void);

/* ---------------------------------------------------------------- Poseidon */
typedef struct {
    unsigned arity, width;                /* width t = arity + 1 */
    unsigned full_rounds, partial_rounds; /* R_F (total, half before and half after), R_P */
    cuzk_fr domain_tag;                   /* 2^arity - 1 for HashType::MerkleTree */
    cuzk_fr *round_constants;             /* (R_F + R_P) * t, in generation order */
    cuzk_fr *mds;                         /* t * t, row-major m[i][j] */
    cuzk_fr *mds_inv;                     /* t * t */
    cuzk_fr *compressed_constants;        /* neptune's compress_round_constants: R_F * t + R_P */
    size_t compressed_len;
    cuzk_fr *pre_sparse; /* t * t, used by the last initial full round */
    /* Partial round r mixes with the sparse matrix r (state as a row vector times it):
     * w_hat is its whole first column (t entries, [0][0] included), v_rest its first row
     * without [0][0]; the rest is the identity. */
    cuzk_fr *sparse_w_hat;  /* R_P * t */
    cuzk_fr *sparse_v_rest; /* R_P * (t - 1) */
} cuzk_poseidon_constants;

/* The constants for an arity in {2, 4, 8, 11} (others: NULL, with the error set). */
const cuzk_poseidon_constants *cuzk_poseidon_constants_get(unsigned arity);
/* out = Poseidon(preimage[0..arity)), neptune's HashMode::OptimizedStatic (equal to the
 * textbook permutation, which cuzk_poseidon_hash_correct computes, for testing). */
cuzk_status cuzk_poseidon_hash(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage) CUZK_WARN_UNUSED;
cuzk_status cuzk_poseidon_hash_correct(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage) CUZK_WARN_UNUSED;
/* neptune's HashType::Custom(CType::Arbitrary(id)) domain tag, id * 2^40 (id in 1..256;
 * CUZK_EINVAL otherwise). The hash type changes nothing but the first state element. */
cuzk_status cuzk_poseidon_custom_tag(cuzk_fr *out, uint64_t id) CUZK_WARN_UNUSED;
/* Poseidon(preimage) with domain_tag as the first state element instead of the MerkleTree tag
 * (same constants): the optimized-static and the textbook computation. */
cuzk_status cuzk_poseidon_hash_tagged(cuzk_fr *out, unsigned arity, const cuzk_fr *domain_tag,
                                      const cuzk_fr *preimage) CUZK_WARN_UNUSED;
cuzk_status cuzk_poseidon_hash_tagged_correct(cuzk_fr *out, unsigned arity, const cuzk_fr *domain_tag,
                                              const cuzk_fr *preimage) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- BLAKE2b, ChaCha
 * BLAKE2b (RFC 7693; unkeyed 64-byte digests for the Feistel round function, keyed 32-byte
 * digests for synthetic challenges) and the ChaCha block function (8 rounds for the DRG's
 * ChaCha8Rng, 20 rounds for the synthetic-challenge stream cipher). Written from the
 * specifications (RFC 7693, RFC 8439); the word layouts that Filecoin's Rust dependencies use
 * are described next to each function. */
typedef struct {
    uint64_t h[8];
    uint64_t t; /* bytes compressed so far (inputs here never exceed 2^64) */
    uint8_t buf[128];
    size_t buf_len;
    size_t out_len;
} cuzk_blake2b;

/* out_len in 1..64, key_len in 0..64 (key may be NULL when key_len is 0). */
void cuzk_blake2b_init(cuzk_blake2b *s, size_t out_len, const void *key, size_t key_len);
void cuzk_blake2b_update(cuzk_blake2b *s, const void *data, size_t n);
void cuzk_blake2b_final(cuzk_blake2b *s, uint8_t *out);
/* Unkeyed BLAKE2b-512 of a short message. */
void cuzk_blake2b_512(uint8_t out[64], const void *data, size_t n);

/* ---------------------------------------------------------------- ChaCha */
/* One block: the 16 output words of ChaCha with `rounds` rounds (8 or 20) on the state
 * constants || key (8 LE words) || w12 w13 w14 w15. */
void cuzk_chacha_block(uint32_t out[16], const uint32_t key[8], const uint32_t w[4], unsigned rounds);
/* Reads 32 key bytes as 8 little-endian words. */
void cuzk_chacha_key(uint32_t key[8], const uint8_t bytes[32]);

/* rand_chacha's ChaCha8Rng::from_seed(seed) as used through rand's gen::<u64>(): the key is the
 * seed, w12..w13 a 64-bit block counter from 0, w14..w15 the stream id 0. The output words are
 * consumed in order and a u64 is (word[i+1] << 32) | word[i]. All callers draw u64s only, so a
 * u64 never straddles a block. */
typedef struct {
    uint32_t key[8];
    uint32_t block[16];
    uint64_t counter; /* next block to generate */
    unsigned pos;     /* next word in block; 16 = exhausted */
} cuzk_chacha8_rng;
void cuzk_chacha8_rng_init(cuzk_chacha8_rng *r, const uint8_t seed[32]);
uint64_t cuzk_chacha8_rng_u64(cuzk_chacha8_rng *r);

/* The IETF ChaCha20 stream cipher (RFC 8439 layout: w12 = 32-bit block counter, w13..w15 =
 * the 96-bit nonce), as the RustCrypto `chacha20` crate applies it: keystream byte `pos`
 * onward, xored into buf (pass zeros to read the keystream). */
void cuzk_chacha20_keystream(uint8_t *buf, size_t n, const uint8_t key[32], const uint8_t nonce[12], uint64_t pos);

#ifdef __cplusplus
}
#endif
#endif
