/* cuzk field and curve layer: BLS12-381 on blst.
 *
 * Fr elements (cuzk_fr = blst_fr) are kept in Montgomery form, as blst, blstrs and sppark keep
 * them; the canonical form is 32 bytes little-endian (or big-endian where a format says so).
 * Points are blst's affine and projective types; ZCash encoding (compressed 48/96 bytes,
 * uncompressed 96/192) with on-curve and subgroup checks on decode.
 * MSM and NTT run on the process thread pool (cuzk_parallel_for). */
#ifndef CUZK_FF_H
#define CUZK_FF_H

#include <blst.h>
#include <stdbool.h>

#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef blst_fr cuzk_fr;

/* ---------------------------------------------------------------- Fr */
extern const cuzk_fr CUZK_FR_ZERO;
extern const cuzk_fr CUZK_FR_ONE;
/* The modulus r, little-endian bytes. */
extern const uint8_t CUZK_FR_MODULUS_LE[32];

void cuzk_fr_from_u64(cuzk_fr *out, uint64_t v);
/* Canonical 32-byte encodings; decoding fails (CUZK_EINVAL) when the value is >= r. */
cuzk_status cuzk_fr_from_bytes_le(cuzk_fr *out, const uint8_t in[32]) CUZK_WARN_UNUSED;
cuzk_status cuzk_fr_from_bytes_be(cuzk_fr *out, const uint8_t in[32]) CUZK_WARN_UNUSED;
void cuzk_fr_to_bytes_le(uint8_t out[32], const cuzk_fr *a);
void cuzk_fr_to_bytes_be(uint8_t out[32], const cuzk_fr *a);
/* Any 64 bytes reduced mod r (uniform when the bytes are). */
void cuzk_fr_from_wide_le(cuzk_fr *out, const uint8_t in[64]);
/* Decimal strings: digits only, no sign, value < r. */
cuzk_status cuzk_fr_from_decimal(cuzk_fr *out, const char *s) CUZK_WARN_UNUSED;
#define CUZK_FR_DECIMAL_MAX 80
void cuzk_fr_to_decimal(char out[CUZK_FR_DECIMAL_MAX], const cuzk_fr *a);

static inline void cuzk_fr_add(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) { blst_fr_add(r, a, b); }
static inline void cuzk_fr_sub(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) { blst_fr_sub(r, a, b); }
static inline void cuzk_fr_mul(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b) { blst_fr_mul(r, a, b); }
static inline void cuzk_fr_sqr(cuzk_fr *r, const cuzk_fr *a) { blst_fr_sqr(r, a); }
static inline void cuzk_fr_neg(cuzk_fr *r, const cuzk_fr *a) { blst_fr_cneg(r, a, 1); }
/* Inverse; the inverse of zero is zero. */
static inline void cuzk_fr_inv(cuzk_fr *r, const cuzk_fr *a) { blst_fr_eucl_inverse(r, a); }
/* out = s m: the row vector s (t elements) times the t x t row-major matrix m; out != s. Inline:
 * it is the inner loop of Poseidon's full rounds, natively and in the circuit's witness. */
static inline void cuzk_fr_row_times_matrix(cuzk_fr *out, const cuzk_fr *s, const cuzk_fr *m, unsigned t)
{
    cuzk_fr p;
    for (unsigned j = 0; j < t; j++) {
        cuzk_fr_mul(&out[j], &s[0], &m[j]);
        for (unsigned i = 1; i < t; i++) {
            cuzk_fr_mul(&p, &s[i], &m[i * t + j]);
            cuzk_fr_add(&out[j], &out[j], &p);
        }
    }
}
bool cuzk_fr_eq(const cuzk_fr *a, const cuzk_fr *b);
bool cuzk_fr_is_zero(const cuzk_fr *a);
bool cuzk_fr_is_one(const cuzk_fr *a);
void cuzk_fr_pow_u64(cuzk_fr *out, const cuzk_fr *a, uint64_t e);
/* Uniform element from a deterministic generator / from the OS CSPRNG. */
void cuzk_fr_random(cuzk_fr *out, cuzk_rng *rng);
cuzk_status cuzk_fr_random_os(cuzk_fr *out) CUZK_WARN_UNUSED;
/* Montgomery -> canonical scalar (blst_scalar, 32 bytes LE) for MSM and point multiplication. */
static inline void cuzk_fr_to_scalar(blst_scalar *out, const cuzk_fr *a) { blst_scalar_from_fr(out, a); }

/* 2-adicity of r - 1, and the coset shift g = 7 (the multiplicative generator). */
#define CUZK_FR_TWO_ADICITY 32
#define CUZK_FR_GENERATOR 7
/* A primitive 2^log_n-th root of unity, 7^((r-1)/2^log_n); log_n <= 32. */
void cuzk_fr_root_of_unity(cuzk_fr *out, unsigned log_n);

/* ---------------------------------------------------------------- points */
/* Decoding flags. */
enum {
    CUZK_POINT_CHECKED = 0,    /* on-curve and subgroup checks (untrusted input) */
    CUZK_POINT_UNCHECKED = 1,  /* on-curve only: for trusted parameter files */
    CUZK_POINT_NO_INFINITY = 2 /* reject the point at infinity */
};
/* ZCash encodings. `len` selects compressed (48 / 96) or uncompressed (96 / 192) and must
 * agree with the compression flag in the first byte. Errors name the defect (flags, not on
 * the curve, not in the subgroup, infinity). */
cuzk_status cuzk_g1_decode(blst_p1_affine *out, const uint8_t *in, size_t len, int flags) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_decode(blst_p2_affine *out, const uint8_t *in, size_t len, int flags) CUZK_WARN_UNUSED;
void cuzk_g1_encode(uint8_t *out, const blst_p1_affine *p, bool compressed); /* 48 or 96 bytes */
void cuzk_g2_encode(uint8_t *out, const blst_p2_affine *p, bool compressed); /* 96 or 192 bytes */

/* Converts n projective points to affine, on this thread (one shared inversion; infinity
 * points allowed). */
void cuzk_g1_to_affine_n(blst_p1_affine *out, const blst_p1 *in, size_t n);
void cuzk_g2_to_affine_n(blst_p2_affine *out, const blst_p2 *in, size_t n);
/* The same in parallel over the pool. */
void cuzk_g1_batch_to_affine(blst_p1_affine *out, const blst_p1 *in, size_t n);
void cuzk_g2_batch_to_affine(blst_p2_affine *out, const blst_p2 *in, size_t n);

/* ---------------------------------------------------------------- MSM */
/* out = sum scalars[i] * points[i] over n terms, multithreaded (blst Pippenger, tiled over
 * points and windows). Points may include infinity (all-zero affine); scalars are Fr in
 * Montgomery form, or canonical scalars for the _scalars variants. Fails only for lack of
 * memory (CUZK_ENOMEM). */
cuzk_status cuzk_g1_msm(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_msm(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n) CUZK_WARN_UNUSED;
/* The same sums for witness-like scalars (Groth16's L, A and B): zero scalars skipped, the
 * points of one-scalars added directly, Pippenger over the rest only (when the rest is at
 * most half of the terms; else one Pippenger over all). */
cuzk_status cuzk_g1_msm_split(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars,
                              size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_msm_split(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars,
                              size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_g1_msm_scalars(blst_p1 *out, const blst_p1_affine *points, const blst_scalar *scalars,
                                size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_msm_scalars(blst_p2 *out, const blst_p2_affine *points, const blst_scalar *scalars,
                                size_t n) CUZK_WARN_UNUSED;
/* cuzk_g1_msm, cuzk_g2_msm and the split sums that give up once cancel is set (NULL: never):
 * it is polled before each tile of points x window bits, so they end CUZK_ECANCELLED (*out
 * undefined) once the tiles in flight are done; a tile is at most n / threads points over one
 * window of 2 to 21 bits (on 2 threads a 2^22-point G1 sum's tile takes about 1.5 s). */
cuzk_status cuzk_g1_msm_cancellable(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n,
                                    const cuzk_cancel *cancel) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_msm_cancellable(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n,
                                    const cuzk_cancel *cancel) CUZK_WARN_UNUSED;
cuzk_status cuzk_g1_msm_split_cancellable(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n,
                                          const cuzk_cancel *cancel) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_msm_split_cancellable(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n,
                                          const cuzk_cancel *cancel) CUZK_WARN_UNUSED;

/* Fixed-base scalar multiplication of one base by many scalars (for setup):
 * out[i] = scalars[i] * base, affine, multithreaded with a precomputed window table. */
cuzk_status cuzk_g1_fixed_base_mul(blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars,
                                   size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_fixed_base_mul(blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars,
                                   size_t n) CUZK_WARN_UNUSED;
/* The same, adding each product made to progress (NULL: none). */
cuzk_status cuzk_g1_fixed_base_mul_progress(blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars, size_t n,
                                            cuzk_progress *progress) CUZK_WARN_UNUSED;
cuzk_status cuzk_g2_fixed_base_mul_progress(blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars, size_t n,
                                            cuzk_progress *progress) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- NTT */
/* A radix-2 evaluation domain of size 2^log_n (log_n <= 28) with its twiddle table. */
typedef struct {
    unsigned log_n;
    size_t n;
    cuzk_fr omega, omega_inv, n_inv;
    cuzk_fr gen, gen_inv; /* coset shift g = 7 and its inverse */
    cuzk_fr *twiddles;    /* omega^i for i < n/2, owned */
} cuzk_ntt_domain;

#define CUZK_NTT_MAX_LOG 28
cuzk_status cuzk_ntt_domain_init(cuzk_ntt_domain *d, unsigned log_n) CUZK_WARN_UNUSED;
void cuzk_ntt_domain_free(cuzk_ntt_domain *d);
/* In place, natural order in and out: a_k <- sum_j a_j omega^(jk). */
void cuzk_ntt_forward(const cuzk_ntt_domain *d, cuzk_fr *a);
/* The inverse, including the 1/n factor. */
void cuzk_ntt_inverse(const cuzk_ntt_domain *d, cuzk_fr *a);
/* Evaluations on the coset g*H from coefficients: a_j *= g^j, then forward. */
void cuzk_ntt_coset_forward(const cuzk_ntt_domain *d, cuzk_fr *a);
/* Coefficients from evaluations on g*H: inverse, then a_j *= g^-j. */
void cuzk_ntt_coset_inverse(const cuzk_ntt_domain *d, cuzk_fr *a);
/* a_j *= c^j for j < n (parallel). */
void cuzk_fr_distribute_powers(cuzk_fr *a, size_t n, const cuzk_fr *c);

#ifdef __cplusplus
}
#endif
#endif
