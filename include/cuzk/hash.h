/* Native (out-of-circuit) hashes used by Filecoin: SHA-256 and Poseidon as neptune 11.0.0
 * computes it (Strength::Standard, HashType::MerkleTree, arities 2, 4, 8, 11).
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
    uint64_t len;      /* bytes hashed so far */
    uint8_t buf[64];
    size_t buf_len;
} cuzk_sha256_ctx;
void cuzk_sha256_init(cuzk_sha256_ctx *c);
void cuzk_sha256_update(cuzk_sha256_ctx *c, const void *data, size_t n);
void cuzk_sha256_final(cuzk_sha256_ctx *c, uint8_t out[32]);
void cuzk_sha256(uint8_t out[32], const void *data, size_t n);
/* The bare compression function on one 64-byte block (no padding): state updated in place. */
void cuzk_sha256_compress(uint32_t state[8], const uint8_t block[64]);
extern const uint32_t CUZK_SHA256_IV[8];

/* ---------------------------------------------------------------- Poseidon */
typedef struct {
    unsigned arity, width;            /* width t = arity + 1 */
    unsigned full_rounds, partial_rounds; /* R_F (total, half before and half after), R_P */
    cuzk_fr domain_tag;               /* 2^arity - 1 for HashType::MerkleTree */
    cuzk_fr *round_constants;         /* (R_F + R_P) * t, in generation order */
    cuzk_fr *mds;                     /* t * t, row-major m[i][j] */
    cuzk_fr *mds_inv;                 /* t * t */
    cuzk_fr *compressed_constants;    /* neptune's compress_round_constants: R_F * t + R_P */
    size_t compressed_len;
    cuzk_fr *pre_sparse;              /* t * t, used by the last initial full round */
    /* Partial round r mixes with the sparse matrix r (state as a row vector times it):
     * w_hat is its whole first column (t entries, [0][0] included), v_rest its first row
     * without [0][0]; the rest is the identity. */
    cuzk_fr *sparse_w_hat;            /* R_P * t */
    cuzk_fr *sparse_v_rest;           /* R_P * (t - 1) */
} cuzk_poseidon_constants;

/* The constants for an arity in {2, 4, 8, 11} (others: NULL, with the error set). */
const cuzk_poseidon_constants *cuzk_poseidon_constants_get(unsigned arity);
/* out = Poseidon(preimage[0..arity)), neptune's HashMode::OptimizedStatic (equal to the
 * textbook permutation, which cuzk_poseidon_hash_correct computes, for testing). */
cuzk_status cuzk_poseidon_hash(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage) CUZK_WARN_UNUSED;
cuzk_status cuzk_poseidon_hash_correct(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
