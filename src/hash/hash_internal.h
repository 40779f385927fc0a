/* Internals of the native hashes, exposed to the unit tests: the two SHA-256 compression
 * paths (so each can be tested against the other), the Poseidon round-number search, the
 * Grain round-constant generator and the small matrix helpers the preprocessing uses. */
#ifndef CUZK_HASH_INTERNAL_H
#define CUZK_HASH_INTERNAL_H

#include "cuzk/hash.h"

/* ---------------------------------------------------------------- SHA-256 */
/* Compress n consecutive 64-byte blocks into state. */
void cuzk_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t n);
/* The x86 SHA extensions path; only call it when cuzk_sha256_have_shani() is true. */
void cuzk_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n);
/* True when this build has the SHA-NI path and the CPU supports it. */
bool cuzk_sha256_have_shani(void);
/* The path cuzk_sha256_* use: SHA-NI when available, portable otherwise. */
void cuzk_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t n);

/* ---------------------------------------------------------------- Poseidon */
#define CUZK_POSEIDON_MAX_WIDTH 12 /* arity 11 */

/* cuzk_poseidon_constants_get with the failure's status: CUZK_EINVAL for an unsupported arity. */
cuzk_status cuzk_poseidon_constants_lookup(unsigned arity, const cuzk_poseidon_constants **out) CUZK_WARN_UNUSED;

/* neptune's calc_round_numbers(t, security_margin) for a 256-bit prime and 128-bit security,
 * evaluated in single precision as neptune does. */
void cuzk_poseidon_round_numbers(unsigned t, bool security_margin, unsigned *r_f, unsigned *r_p);
/* n round constants from the Grain LFSR seeded with (field = 1, sbox = 1, field_size = 255, t,
 * r_f, r_p); candidates are 255-bit big-endian integers, rejected when >= r. */
void cuzk_poseidon_grain_constants(cuzk_fr *out, size_t n, unsigned t, unsigned r_f, unsigned r_p);

/* Square t x t matrices of Fr, row-major m[i * t + j]; t <= CUZK_POSEIDON_MAX_WIDTH.
 * Outputs may not alias inputs. (v * m for a row vector v, neptune's apply_matrix, is
 * cuzk_fr_row_times_matrix in ff.h.) */
/* out = a * b. */
void cuzk_mat_mul(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b, unsigned t);
/* out = m^-1; false (out unspecified) when m is singular. */
bool cuzk_mat_invert(cuzk_fr *out, const cuzk_fr *m, unsigned t);
bool cuzk_mat_is_identity(const cuzk_fr *m, unsigned t);
/* neptune's generate_mds: m[i][j] = 1 / (i + (t + j)). */
void cuzk_poseidon_cauchy_mds(cuzk_fr *m, unsigned t);
/* neptune's factor_to_sparse_matrixes(m, n): pre_sparse (t x t) and n sparse matrices,
 * w_hat[k * t ..] (first column) and v_rest[k * (t - 1) ..] (first row without [0][0]),
 * in the order the partial rounds use them. false when a minor is singular. */
bool cuzk_poseidon_factor_sparse(cuzk_fr *pre_sparse, cuzk_fr *w_hat, cuzk_fr *v_rest, const cuzk_fr *m, unsigned t,
                                 unsigned n);
/* neptune's compress_round_constants with every partial round preprocessed:
 * r_f * t + r_p constants from the (r_f + r_p) * t round constants. */
void cuzk_poseidon_compress_constants(cuzk_fr *out, const cuzk_fr *rc, const cuzk_fr *m_inv, unsigned t, unsigned r_f,
                                      unsigned r_p);

#endif
