/* Parameters made and written section by section, so a setup never holds every point at once
 * (a 32 GiB PoRep's are 47 GB): the setup hands each section to a sink in the file's order
 * (the key first, then h, l, a, b_g1, b_g2), and the writer puts each into a .params file as it
 * comes. The same bytes as cuzk_groth16_setup_with followed by cuzk_groth16_params_write. */
#ifndef CUZK_GROTH16_PARAMS_WRITER_H
#define CUZK_GROTH16_PARAMS_WRITER_H

#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A .params file being written: through a temporary beside path, renamed into place only by
 * commit (every section given, in order); abort (or any failure) leaves nothing. */
typedef struct cuzk_groth16_params_writer cuzk_groth16_params_writer;
cuzk_status cuzk_groth16_params_writer_open(cuzk_groth16_params_writer **out, const char *path) CUZK_WARN_UNUSED;
cuzk_status cuzk_groth16_params_writer_vk(cuzk_groth16_params_writer *w, const cuzk_groth16_vk *vk) CUZK_WARN_UNUSED;
/* Section CUZK_PARAMS_H ... B_G2 in order: n blst affine points (G2 for B_G2). */
cuzk_status cuzk_groth16_params_writer_section(cuzk_groth16_params_writer *w, int section, const void *pts,
                                               size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_groth16_params_writer_commit(cuzk_groth16_params_writer *w) CUZK_WARN_UNUSED; /* and frees w */
void cuzk_groth16_params_writer_abort(cuzk_groth16_params_writer *w);                          /* frees w */

/* Where a setup's output goes: the key once made (before any query section), then each query
 * section, whole, in file order. section takes the points over (the sink frees them with
 * cuzk_big_free(pts, n * sizeof the point)). A nonzero status stops the setup. */
typedef struct {
    cuzk_status (*vk)(void *ctx, const cuzk_groth16_vk *vk);
    cuzk_status (*section)(void *ctx, int section, void *pts, size_t n);
    void *ctx;
} cuzk_groth16_setup_sink;
/* cuzk_groth16_setup_with, section by section into sink. */
cuzk_status cuzk_groth16_setup_stream(const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                      const cuzk_fixed_base_ops *ops,
                                      const cuzk_groth16_setup_sink *sink) CUZK_WARN_UNUSED;
/* ... reporting its progress to progress (NULL: none), as cuzk_groth16_setup_progress does. */
cuzk_status cuzk_groth16_setup_stream_progress(const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                               const cuzk_fixed_base_ops *ops, const cuzk_groth16_setup_sink *sink,
                                               const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
