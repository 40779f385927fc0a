/* The fast path the engine proves through: the witness (parts in parallel) into reused buffers,
 * a, b, c from the precompiled circuit, recorded once per circuit shape. For the engine, and for
 * the benchmarks and tests that time or check a step of it alone; not an installed header. */
#ifndef CUZK_PROVE_PATH_H
#define CUZK_PROVE_PATH_H

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

/* Records c's precompiled circuit (a RECORD pass) into pce. */
cuzk_status cuzk_pce_record(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* Loads the precompiled circuit from path; when path does not exist or holds an older format
 * version, records it from c (a RECORD pass) and saves it there. The loaded circuit must have
 * c's counts. */
cuzk_status cuzk_pce_load_or_record(const char *path, const cuzk_circuit *c, cuzk_pce *pce,
                                    cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* The same two, reporting the constraints recorded to progress (NULL: none). */
cuzk_status cuzk_pce_record_progress(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                     const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;
cuzk_status cuzk_pce_load_or_record_progress(const char *path, const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                             const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;
/* The same two, given up once stop is set (NULL: never): a circuit of parts is recorded part by
 * part (a part under way is finished first), and a recording stopped is CUZK_ECANCELLED, its
 * file not written. */
cuzk_status cuzk_pce_record_until(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                  const cuzk_progress_sink *progress, const cuzk_cancel *stop) CUZK_WARN_UNUSED;
cuzk_status cuzk_pce_load_or_record_until(const char *path, const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                          const cuzk_progress_sink *progress, const cuzk_cancel *stop) CUZK_WARN_UNUSED;

/* Whether c has the precompiled circuit's shape (constraints, inputs, aux): CUZK_EINVAL naming
 * what (a file, "witness") and both shapes when not. */
cuzk_status cuzk_pce_check_circuit(const cuzk_pce *pce, const cuzk_circuit *c, const char *what) CUZK_WARN_UNUSED;
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

#ifdef __cplusplus
}
#endif
#endif
