/* gpu.h for builds without CUDA: every entry point reports that this build cannot serve it. */
#include <stdio.h>
#include <string.h>

#include "cuzk/gpu.h"

#define NO_CUDA "built without CUDA support"

static cuzk_status no_cuda(void) { return cuzk_fail(CUZK_EUNSUPPORTED, NO_CUDA); }

bool cuzk_gpu_available(char *reason, size_t n)
{
    if (reason && n) snprintf(reason, n, NO_CUDA);
    return false;
}
int cuzk_gpu_device_count(void) { return 0; }
cuzk_status cuzk_gpu_device_open(cuzk_gpu_device **out, int ordinal, const cuzk_gpu_config *cfg)
{
    *out = NULL;
    return no_cuda();
}
void cuzk_gpu_device_close(cuzk_gpu_device *d) {}
const cuzk_gpu_config *cuzk_gpu_device_config(const cuzk_gpu_device *d) { return NULL; }
int cuzk_gpu_device_ordinal(const cuzk_gpu_device *d) { return 0; }
void cuzk_gpu_describe(const cuzk_gpu_device *d, char *out, size_t n) { snprintf(out, n, "no GPU (" NO_CUDA ")"); }
size_t cuzk_gpu_pool_bytes(const cuzk_gpu_device *d) { return 0; }
cuzk_status cuzk_gpu_mem_info(const cuzk_gpu_device *d, size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = 0;
    return no_cuda();
}
cuzk_status cuzk_gpu_malloc(const cuzk_gpu_device *d, void **ptr, size_t bytes)
{
    *ptr = NULL;
    return no_cuda();
}
void cuzk_gpu_free(void *ptr) {}
cuzk_status cuzk_gpu_host_alloc(void **ptr, size_t bytes)
{
    *ptr = NULL;
    return no_cuda();
}
void cuzk_gpu_host_free(void *ptr) {}
cuzk_status cuzk_gpu_host_register(void *ptr, size_t bytes) { return no_cuda(); }
void cuzk_gpu_host_unregister(void *ptr) {}
cuzk_status cuzk_gpu_upload(void *dev, const void *host, size_t bytes) { return no_cuda(); }
cuzk_status cuzk_gpu_download(void *host, const void *dev, size_t bytes) { return no_cuda(); }
cuzk_status cuzk_gpu_ntt(cuzk_gpu_device *d, cuzk_fr *data, unsigned log_n, size_t nvec, cuzk_gpu_ntt_kind kind,
                         bool on_device)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_msm_create_g1(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p1_affine *bases, size_t n)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_msm_create_g2(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p2_affine *bases, size_t n)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_msm_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_msm **out, size_t n, bool g2, uint64_t seed)
{
    *out = NULL;
    return no_cuda();
}
void cuzk_gpu_msm_destroy(cuzk_gpu_msm *m) {}
size_t cuzk_gpu_msm_len(const cuzk_gpu_msm *m) { return 0; }
cuzk_status cuzk_gpu_msm_g1(cuzk_gpu_msm *m, blst_p1 *out, const cuzk_fr *scalars, size_t n, int flags)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_msm_g2(cuzk_gpu_msm *m, blst_p2 *out, const cuzk_fr *scalars, size_t n, int flags)
{
    return no_cuda();
}
void cuzk_gpu_msm_last_stats(const cuzk_gpu_msm *m, cuzk_gpu_msm_stats *st) { memset(st, 0, sizeof *st); }
cuzk_status cuzk_gpu_prover_create(cuzk_gpu_device *d, cuzk_gpu_prover **out, const cuzk_groth16_params *p)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_prover_create_synthetic_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                                    const cuzk_gpu_synthetic_shape *shape, const cuzk_gpu_placement *pl)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_prover_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                             const cuzk_gpu_synthetic_shape *shape)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_prover_begin(cuzk_gpu_device *d, cuzk_gpu_prover **out, const size_t count[CUZK_PARAMS_SECTIONS],
                                  const cuzk_groth16_vk *vk)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_prover_begin_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                         const size_t count[CUZK_PARAMS_SECTIONS], const cuzk_groth16_vk *vk,
                                         const cuzk_gpu_placement *pl)
{
    *out = NULL;
    return no_cuda();
}
const cuzk_gpu_placement *cuzk_gpu_prover_placement(const cuzk_gpu_prover *pr) { return NULL; }
cuzk_status cuzk_gpu_prover_put(cuzk_gpu_prover *pr, int section, size_t first, size_t n, const void *points)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prover_commit(cuzk_gpu_prover *pr) { return no_cuda(); }
void cuzk_gpu_prover_destroy(cuzk_gpu_prover *pr) {}
cuzk_gpu_device *cuzk_gpu_prover_device(const cuzk_gpu_prover *pr) { return NULL; }
cuzk_status cuzk_gpu_prove(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                           const cuzk_fr *r, const cuzk_fr *s, cuzk_timeline *tl)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prove_with(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                                const cuzk_groth16_prove_opts *opts)
{
    return no_cuda();
}
unsigned cuzk_gpu_prover_batch_max(const cuzk_gpu_prover *pr) { return 1; }
cuzk_status cuzk_gpu_prove_batch_with(cuzk_gpu_prover *pr, size_t n, cuzk_groth16_proof *out,
                                      const cuzk_groth16_witness *const *w, const cuzk_groth16_prove_opts *opts)
{
    return no_cuda();
}
size_t cuzk_gpu_prover_own_bytes(const cuzk_gpu_prover *pr) { return 0; }
uint64_t cuzk_gpu_prover_uploaded_bytes(const cuzk_gpu_prover *pr) { return 0; }
void cuzk_gpu_prover_memory(const cuzk_gpu_prover *pr, size_t *device_bytes, size_t *pinned_host_bytes)
{
    if (device_bytes) *device_bytes = 0;
    if (pinned_host_bytes) *pinned_host_bytes = 0;
}
cuzk_status cuzk_gpu_pce_create(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p)
{
    *out = NULL;
    return no_cuda();
}
cuzk_status cuzk_gpu_pce_create_streamed(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p)
{
    *out = NULL;
    return no_cuda();
}
void cuzk_gpu_pce_destroy(cuzk_gpu_pce *g) {}
size_t cuzk_gpu_pce_bytes(const cuzk_gpu_pce *g) { return 0; }
cuzk_status cuzk_gpu_pce_evaluate(cuzk_gpu_pce *g, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b,
                                  cuzk_fr *c)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prove_pce(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                               const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na, const cuzk_fr *r,
                               const cuzk_fr *s, cuzk_timeline *tl)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prove_pce_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                                    const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                                    const cuzk_groth16_prove_opts *opts)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prove_pce_batch_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, size_t n,
                                          cuzk_groth16_proof *out, const cuzk_fr *const *input, size_t ni,
                                          const cuzk_fr *const *aux, size_t na, const cuzk_groth16_prove_opts *opts)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_prefetch_witness(cuzk_gpu_prover *pr, const cuzk_fr *input, size_t ni, const cuzk_fr *aux,
                                      size_t na)
{
    return no_cuda();
}
void cuzk_gpu_prefetch_drop(cuzk_gpu_prover *pr, const cuzk_fr *input, const cuzk_fr *aux)
{
    (void)pr;
    (void)input;
    (void)aux;
}
size_t cuzk_gpu_prefetch_hits(cuzk_gpu_prover *pr)
{
    (void)pr;
    return 0;
}
cuzk_status cuzk_gpu_synthetic_points(cuzk_gpu_device *d, void *out, size_t n, bool g2, uint64_t seed)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_fixed_base_g1(cuzk_gpu_device *d, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars,
                                   size_t n)
{
    return no_cuda();
}
cuzk_status cuzk_gpu_fixed_base_g2(cuzk_gpu_device *d, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars,
                                   size_t n)
{
    return no_cuda();
}
