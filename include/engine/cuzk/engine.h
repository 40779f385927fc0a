/* cuzk engine: proving a circuit along the fast path — the witness (parts in parallel) into
 * reused buffers, a, b, c from the precompiled circuit, then the Groth16 prover — with every
 * stage on the job's timeline. Buffers live in a cuzk_prove_buffers that callers keep across
 * proofs, so the hot path allocates nothing large. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/pce.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_witness w; /* the last witness (its public inputs are w.input[1..]) */
    cuzk_fr *abc[3];
    size_t n; /* capacity of a, b, c */
} cuzk_prove_buffers;
void cuzk_prove_buffers_free(cuzk_prove_buffers *b);

/* Loads the precompiled circuit from path; when path does not exist, records it from c (a
 * RECORD pass) and saves it there. The loaded circuit must have c's counts. */
cuzk_status cuzk_pce_load_or_record(const char *path, const cuzk_circuit *c, cuzk_pce *pce,
                                    cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* Witness of c for seed (parts in parallel) into b->w, then a, b, c = PCE x witness into
 * b->abc (grown when too small). Stages go on tl as "<prefix>witness" and "<prefix>a, b, c". */
cuzk_status cuzk_prove_buffers_fill(cuzk_prove_buffers *b, const cuzk_circuit *c, uint64_t seed, const cuzk_pce *pce,
                                    cuzk_timeline *tl, const char *prefix) CUZK_WARN_UNUSED;
/* The witness step alone (for provers that compute a, b, c themselves from a resident
 * circuit): b->w only, checked against the PCE's counts; b->abc is left as it is. */
cuzk_status cuzk_prove_buffers_fill_witness(cuzk_prove_buffers *b, const cuzk_circuit *c, uint64_t seed,
                                            const cuzk_pce *pce, cuzk_timeline *tl,
                                            const char *prefix) CUZK_WARN_UNUSED;
/* Sizes b for pce's witness (and a, b, c when abc), so that later fills reuse the memory
 * (a caller may page-lock it once). */
cuzk_status cuzk_prove_buffers_reserve(cuzk_prove_buffers *b, const cuzk_pce *pce, bool abc) CUZK_WARN_UNUSED;
/* The prover's view of filled buffers (densities from the PCE). */
cuzk_groth16_witness cuzk_prove_buffers_witness(const cuzk_prove_buffers *b, const cuzk_pce *pce);

/* Fill, then the proof (r, s from the OS CSPRNG). Checks the parameters' shape first. */
cuzk_status cuzk_prove_with_pce(const cuzk_circuit *c, uint64_t seed, const cuzk_pce *pce, const cuzk_groth16_params *p,
                                cuzk_prove_buffers *b, cuzk_groth16_proof *out, cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- partition pipeline */
typedef struct cuzk_gpu_prover cuzk_gpu_prover;

/* Opens the circuit of partition k (the pipeline frees it). */
typedef cuzk_status (*cuzk_partition_open_fn)(void *ctx, unsigned k, cuzk_circuit **out);

/* Proves nparts partitions through the precompiled circuit, in order: a producer thread makes
 * partition k + 1's witness (into one of two buffer sets) while partition k is proved.
 * With gpu, the precompiled circuit is uploaded to the device once and each partition's a,
 * b, c are computed there from the uploaded assignment (cuzk_gpu_prove_pce), so the producer
 * makes only the witness and starts its copy to the device while the previous partition is
 * proved (cuzk_gpu_prefetch_witness); if the device has no room for the circuit, the
 * producer also makes a, b, c on the CPU and they are uploaded (cuzk_gpu_prove). Each
 * buffer set is page-locked once for the uploads, and p may be NULL (the parameters live on
 * the device). Without gpu, the producer makes a, b, c on the CPU and the CPU prover uses
 * p. proofs[k] and the public inputs (ninputs per partition, ONE omitted) are filled in
 * partition order. Stages go on tl as "partition k: witness", "partition k: a, b, c" (CPU
 * a, b, c only) and "partition k: prove". */
cuzk_status cuzk_prove_partitions(unsigned nparts, cuzk_partition_open_fn open, void *ctx, const cuzk_pce *pce,
                                  const cuzk_groth16_params *p, cuzk_gpu_prover *gpu, cuzk_groth16_proof *proofs,
                                  cuzk_fr *inputs, size_t ninputs, cuzk_timeline *tl) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
