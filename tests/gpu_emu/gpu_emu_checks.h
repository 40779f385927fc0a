/* Host emulation of the single GPU kernels (CUDA builds only, tests only): field, curve, GLV,
 * twiddle-table, NTT and MSM code of src/gpu run on the CPU and checked against blst and the
 * CPU layer by tests/unit/test_gpu_emu.c. Slow; meant for small sizes. */
#ifndef CUZK_GPU_EMU_CHECKS_H
#define CUZK_GPU_EMU_CHECKS_H

#include "cuzk/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fp, Fr, Fp2 operations and every multiplication and squaring form against blst on `iters`
 * random inputs; G1/G2 point formulas against blst, special cases included. */
cuzk_status cuzk_gpu_emu_field_check(uint64_t seed, int iters) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_curve_check(uint64_t seed, int iters) CUZK_WARN_UNUSED;
/* glv.cuh: phi(P) = [lambda] P, and the scalar split k = k1 + k2 lambda */
cuzk_status cuzk_gpu_emu_glv_check(uint64_t seed, int iters) CUZK_WARN_UNUSED;
/* NTT twiddle and coset tables: w^e and g^j read from the tables against powers computed
 * directly, for random and edge exponents (both table halves, products of two entries). */
cuzk_status cuzk_gpu_emu_twiddle_check(uint64_t seed, int iters) CUZK_WARN_UNUSED;

/* cfg: the tuning (pass and tile sizes, tables; NULL: the defaults) */
cuzk_status cuzk_gpu_emu_ntt(cuzk_fr *data, unsigned log_n, cuzk_gpu_ntt_kind kind,
                             const cuzk_gpu_config *cfg) CUZK_WARN_UNUSED;

/* tuning: c = window bits (0 auto), chunk = scalars per chunk (0 auto), s1 = first-round
 * range per thread (0 auto); host_pieces: the scalars take the host-memory path (uploaded
 * and summed piece by piece, a piece being a chunk); glv (G1): the scalar split over the
 * bases and their phi images */
typedef struct {
    unsigned c;
    size_t chunk;
    unsigned s1;
    int host_pieces;
    int glv;
} cuzk_gpu_emu_msm_cfg;
cuzk_status cuzk_gpu_emu_msm_g1(blst_p1 *out, const blst_p1_affine *bases, const cuzk_fr *scalars, size_t n, bool split,
                                const cuzk_gpu_emu_msm_cfg *cfg) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_msm_g2(blst_p2 *out, const blst_p2_affine *bases, const cuzk_fr *scalars, size_t n, bool split,
                                const cuzk_gpu_emu_msm_cfg *cfg) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_synthetic_points(void *out, size_t n, bool g2, uint64_t seed) CUZK_WARN_UNUSED;
/* The device's fixed-base multiplication (parameter generation), emulated: out[i] = scalars[i] * base. */
cuzk_status cuzk_gpu_emu_fixed_base_g1(blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars,
                                       size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_fixed_base_g2(blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars,
                                       size_t n) CUZK_WARN_UNUSED;
/* The H coefficients (N - 1 values, natural order) as the GPU pipeline computes them. */
cuzk_status cuzk_gpu_emu_compute_h(cuzk_fr *h_out, const cuzk_groth16_witness *w) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
