/* Host emulation of the GPU prover (CUDA builds only): the prover's driver and the PCE
 * evaluation, defined in src/gpu next to the device paths they share code with, run on the
 * CPU for tests on machines without a GPU. Slow; meant for small sizes. The emulation of the
 * single kernels (field, curve, NTT, MSM) is test code: tests/gpu_emu/gpu_emu_checks.h. */
#ifndef CUZK_GPU_EMU_H
#define CUZK_GPU_EMU_H

#include "cuzk/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Groth16 proof through the GPU prover's driver, run on the host. */
cuzk_status cuzk_gpu_emu_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p, const cuzk_groth16_witness *w,
                               const cuzk_fr *r, const cuzk_fr *s) CUZK_WARN_UNUSED;
/* The same with the prover's options: the cancel token is polled between stages as on the
 * device (r, s and the token are used; the timeline is not). */
cuzk_status cuzk_gpu_emu_prove_with(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                    const cuzk_groth16_witness *w,
                                    const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;
/* a, b, c as the device SpMV computes them (seg: the most terms or sums per thread, 0 for
 * the device's value; small values force the long-row plan onto short rows; chunk_bytes: the
 * matrices streamed in chunks of rows of at most that many bytes, as cuzk_gpu_pce_create_streamed
 * does with CUZK_GPU_PCE_CHUNK_BYTES, 0: resident), and the proof through the resident-circuit
 * path (cuzk_gpu_prove_pce) with the circuit in host memory. */
cuzk_status cuzk_gpu_emu_pce_evaluate(const cuzk_pce *p, unsigned seg, size_t chunk_bytes, const cuzk_fr *input,
                                      const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_prove_pce(cuzk_groth16_proof *out, const cuzk_groth16_params *p, const cuzk_pce *pce,
                                   unsigned seg, const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                                   const cuzk_fr *r, const cuzk_fr *s) CUZK_WARN_UNUSED;

/* The streamed placement's prover, emulated: the bases are copied from the parameters `chunk`
 * points at a time (a chunk of one included) and summed chunk by chunk, the stages one after
 * another (or L, A, B beside H: beside); phi: the H MSM's scalar split with phi made per chunk; window_max: the most window
 * bits (0: none). A batch of n proofs of one circuit (witness j, randomizers r[j], s[j]; NULL:
 * fresh ones) shares each pass over the L, A and B bases. The same proof bytes as the resident
 * prover's. */
typedef struct {
    size_t chunk;
    bool phi;
    unsigned window_max;
    /* as cuzk_groth16_prove_opts.abc_read and witness_read (NULL: not called) */
    void (*abc_read)(void *read_ctx, size_t k);
    void (*witness_read)(void *read_ctx, size_t k);
    void *read_ctx;
    /* the precompiled circuit's path only: its matrices streamed in chunks of at most this many
     * bytes (0: resident) */
    size_t pce_chunk_bytes;
    /* the L, A and B MSMs beside the last proof's H MSM, their chunks between its chunks (the
     * placement's lab_beside_h) */
    bool beside;
    /* the H MSM sorts the next chunk's digits while it sums one (the placement's h_sort_ahead) */
    bool sort_ahead;
    /* L, A, B after H: witnesses uploaded before the last proof's H MSM (the placement's
     * witnesses_before_h) */
    unsigned witnesses_before_h;
    /* L, A, B on a thread of their own beside the batch's proofs, in chunks of lab_chunk bases (0:
     * chunk) (the placement's lab_concurrent, lab_chunk_points) */
    bool lab_concurrent;
    size_t lab_chunk;
    /* L, A, B not apart: each witness's aux kept in compact form with room for this many values
     * other than 0 and 1 (more: read from host memory a piece at a time; with a, b, c from the
     * host, always) (the placement's compact_vals; 0: full witnesses) */
    size_t compact_vals;
} cuzk_gpu_emu_stream;
cuzk_status cuzk_gpu_emu_prove_streamed(cuzk_groth16_proof *out, const cuzk_groth16_params *p, size_t n,
                                        const cuzk_groth16_witness *const *w, const cuzk_fr *r, const cuzk_fr *s,
                                        const cuzk_gpu_emu_stream *sm) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_emu_prove_pce_streamed(cuzk_groth16_proof *out, const cuzk_groth16_params *p, const cuzk_pce *pce,
                                            size_t n, const cuzk_fr *const *input, size_t ni, const cuzk_fr *const *aux,
                                            size_t na, const cuzk_fr *r, const cuzk_fr *s,
                                            const cuzk_gpu_emu_stream *sm) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
