/* Declarations shared by the src/gpu translation units: host-side conversions to blst, the
 * per-device state (NTT tables in the device context), and the G1/G2 MSM entry points instantiated once each (in
 * msm_g1.cu and msm_g2.cu) for both executors, so the heavy point kernels compile once. */
#ifndef CUZK_GPU_INTERNAL_CUH
#define CUZK_GPU_INTERNAL_CUH

#include <memory>

#include "gpu/compact_witness.cuh"
#include "gpu/msm.cuh"
#include "gpu/ntt.cuh"
#include "gpu/spmv.cuh"

extern "C" {
#include "cuzk/gpu.h"
}

/* ---------------------------------------------------------------- precompiled circuit (pce.cu) */
struct cuzk_gpu_pce {
    pce_view v;                         /* device pointers (streamed: the matrices' are host pointers) */
    std::vector<spmv_chunk> chunks[3];  /* streamed: each matrix's chunks */
    std::vector<void *> pinned;         /* streamed: the host ranges this handle page-locked */
    cuzk_density a_aux, b_input, b_aux; /* lengths and popcounts for shape checks (no words) */
    void *mem;                          /* every array, one device allocation */
    size_t mem_bytes;
    exec_dev x; /* for cuzk_gpu_pce_evaluate; proofs use the prover's */
};

/* ---------------------------------------------------------------- host glue (glue.cu) */
void xyzz_to_p1(blst_p1 *out, const g1_xyzz &p);
void xyzz_to_p2(blst_p2 *out, const g2_xyzz &p);

/* NTT tables in host memory (w = the 2^28-th root, g = 7), with a full table for the
 * emulation's sizes (up to 2^NTT_HOST_FULL_LOG) */
#define NTT_HOST_FULL_LOG 13
struct ntt_host_tables {
    std::vector<fr_t> tl, tm, gl, gh, gil, gih, gihc;
    std::vector<fr_shoup_t> tms, tf;
    ntt_tables view(const cuzk_gpu_config &cfg) const
    {
        const bool full = cfg.ntt_full_table;
        return {tl.data(),
                tm.data(),
                gl.data(),
                gh.data(),
                gil.data(),
                gih.data(),
                gihc.data(),
                tms.data(),
                full ? tf.data() : NULL,
                full ? NTT_HOST_FULL_LOG : 0u};
    }
};
const ntt_host_tables &ntt_host_tables_get();
/* The same tables in d's device memory (created on first use, freed with d; d's device is
 * made current), with the full table for transforms of 2^full_log (from 2^NTT_FULL_MIN_LOG
 * on; smaller ones never need one) unless d's tuning turns it off: the one for that size,
 * built if missing where at least keep_free bytes of device memory stay free beside it
 * (SIZE_MAX: never built here), or else a larger one. */
cuzk_status ntt_device_tables(cuzk_gpu_device *d, ntt_tables *out, unsigned full_log = 0, size_t keep_free = SIZE_MAX);

/* whether a CUDA device is there at all (for the helpers that need no context) */
cuzk_status gpu_init(void);
/* makes d's device the calling thread's current one (fails for NULL) */
cuzk_status gpu_use(const cuzk_gpu_device *d);

/* the two points a G and b G behind synthetic bases */
void synthetic_ab_g1(g1_affine *A, g1_affine *Q, uint64_t seed);
void synthetic_ab_g2(g2_affine *A, g2_affine *Q, uint64_t seed);

/* ---------------------------------------------------------------- NTT (ntt.cu) */
/* natural order in and out, one vector, data in the executor's memory; scratch (NULL or as
 * large as data) saves the bit-reversal pass */
void ntt_natural(exec_dev &x, const ntt_tables &tb, fr_t *data, unsigned log_n, cuzk_gpu_ntt_kind kind, fr_t *scratch);
void ntt_natural(exec_host &x, const ntt_tables &tb, fr_t *data, unsigned log_n, cuzk_gpu_ntt_kind kind, fr_t *scratch);
/* the H polynomial from a, b, c (N elements each, zero padded) into a, coefficients at
 * bit-reversed positions */
void ntt_h_pipeline(exec_dev &x, const ntt_tables &tb, fr_t *a, fr_t *b, fr_t *c, unsigned lg, int up_a, int up_b,
                    int up_c);
void ntt_h_pipeline(exec_host &x, const ntt_tables &tb, fr_t *a, fr_t *b, fr_t *c, unsigned lg, int up_a, int up_b,
                    int up_c);
/* the same in steps, for a, b, c made one at a time (a streamed proof's SpMV then keeps two of
 * them beside its witness): a and b each to the coset (k 0, 1), a b into a (product), c to the
 * coset (k 2), then (a b - c) / z back to coefficients into a (finish_product) */
void ntt_h_coset(exec_dev &x, const ntt_tables &tb, fr_t *v, unsigned lg, int k);
void ntt_h_coset(exec_host &x, const ntt_tables &tb, fr_t *v, unsigned lg, int k);
void ntt_h_product(exec_dev &x, fr_t *a, const fr_t *b, unsigned lg);
void ntt_h_product(exec_host &x, fr_t *a, const fr_t *b, unsigned lg);
void ntt_h_finish_product(exec_dev &x, const ntt_tables &tb, fr_t *a, const fr_t *c, unsigned lg);
void ntt_h_finish_product(exec_host &x, const ntt_tables &tb, fr_t *a, const fr_t *c, unsigned lg);

/* ---------------------------------------------------------------- MSM (msm_g1.cu, msm_g2.cu) */
cuzk_status msm_core_g1(exec_dev &x, const g1_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p1 *out, unsigned *c, unsigned *nw);
cuzk_status msm_core_g1(exec_host &x, const g1_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p1 *out, unsigned *c, unsigned *nw);
cuzk_status msm_core_g2(exec_dev &x, const g2_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p2 *out, unsigned *c, unsigned *nw);
cuzk_status msm_core_g2(exec_host &x, const g2_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p2 *out, unsigned *c, unsigned *nw);
void msm_ones_g1(exec_dev &x, const uint32_t *idx, size_t n, const g1_affine *bases, blst_p1 *out);
void msm_ones_g1(exec_host &x, const uint32_t *idx, size_t n, const g1_affine *bases, blst_p1 *out);
void msm_ones_g2(exec_dev &x, const uint32_t *idx, size_t n, const g2_affine *bases, blst_p2 *out);
void msm_ones_g2(exec_host &x, const uint32_t *idx, size_t n, const g2_affine *bases, blst_p2 *out);
/* the synthetic points A + i Q for i in [from, n), into out[0, n - from) */
void gen_points_g1(exec_dev &x, g1_affine *out, size_t n, g1_affine A, g1_affine Q, size_t from = 0);
void gen_points_g1(exec_host &x, g1_affine *out, size_t n, g1_affine A, g1_affine Q, size_t from = 0);
void gen_points_g2(exec_dev &x, g2_affine *out, size_t n, g2_affine A, g2_affine Q, size_t from = 0);
void gen_points_g2(exec_host &x, g2_affine *out, size_t n, g2_affine A, g2_affine Q, size_t from = 0);

/* ---------------------------------------------------------------- streamed bases (msm_stream.cuh) */
/* Bases kept in host memory (page-locked) and copied to the device `cap` points at a time
 * through two executor buffers of cap points each (2 cap with phi: G1's phi images are made
 * beside each chunk on the device, for the scalar split). */
struct stream_ahead;
#define STREAM_BUFS_MAX 4
template <class A> struct base_stream {
    const A *host;
    size_t n, cap;
    bool phi;
    A *buf[STREAM_BUFS_MAX]; /* nbuf of them, a ring: chunk q of the MSM goes into buf[(p0 + q) % nbuf] */
    unsigned nbuf;
    stream_ahead *ahead; /* the copy ahead the buffers share with the MSMs around (NULL: none) */
};
/* The first chunk of the next streamed MSM, copied by the MSM before it while that one sums its
 * last chunk, into the buffer that chunk leaves free: the link would otherwise idle through
 * that chunk's sums, the bucket reduction and the next MSM's classification of its scalars. */
struct stream_ahead {
    const void *next_src = nullptr; /* before an MSM: the host bytes to copy ahead at its end */
    size_t next_bytes = 0;
    const void *src = nullptr; /* the copy ahead issued: these host bytes, */
    size_t bytes = 0;
    int slot = -1; /* into this buffer (-1: none), */
    int tok = -1;  /* this upload */
};
typedef base_stream<g1_affine> stream_g1;
typedef base_stream<g2_affine> stream_g2;
/* One MSM of a streamed batch (msm_streamed_batch_steps_*), over its variables' Montgomery scalars in
 * executor memory (s) or in compact form (cw, s NULL: each piece expanded as it comes), in up to
 * two segments: segment g's variables [0, nvars) take part where their density bit is set (every
 * one with words NULL), their bases at off + their rank, `pop` bases in all. */
struct stream_seg {
    const fr_t *s;
    const uint64_t *words;
    size_t nvars;
    uint32_t off, pop;
    const compact_witness *cw;
};
struct stream_job {
    stream_seg seg[2];
    unsigned nseg;
};

/* A streamed MSM begun and issued a chunk at a time, behind an interface that names no curve,
 * so that the prover can run one to its end (msm_run_steps) or interleave two on one compute
 * stream (the H MSM and the L, A, B MSMs beside it). step() issues the next chunk's work, false
 * once all is issued (or the executor failed); progress() is the fraction of chunks issued;
 * finish() waits, reduces and writes the sum into the out the MSM was begun with. */
struct msm_steps {
    virtual ~msm_steps() {}
    virtual bool step() = 0;
    virtual double progress() const = 0;
    virtual cuzk_status finish() = 0;
};
/* every chunk of s, then its sum */
static inline cuzk_status msm_run_steps(msm_steps &s)
{
    while (s.step()) {}
    return s.finish();
}
/* sum_{i < cnt} scalars[i] bases[idx(i)] + sum_{j < n1} bases[ones[j]], idx(i) = tail_idx[i]
 * (i where tail_idx is NULL); both lists ascending, in executor memory; scalars canonical */
std::unique_ptr<msm_steps> msm_streamed_steps_g1(exec_dev &x, const stream_g1 &bs, const fr_t *scalars,
                                                 const uint32_t *tail_idx, size_t cnt, const uint32_t *ones, size_t n1,
                                                 const msm_config *cfg, blst_p1 *out);
std::unique_ptr<msm_steps> msm_streamed_steps_g1(exec_host &x, const stream_g1 &bs, const fr_t *scalars,
                                                 const uint32_t *tail_idx, size_t cnt, const uint32_t *ones, size_t n1,
                                                 const msm_config *cfg, blst_p1 *out);

/* out[j] = job j's MSM over the streamed bases, for nj jobs sharing each chunk's copy */
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g1(exec_dev &x, const stream_g1 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p1 *out);
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g1(exec_host &x, const stream_g1 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p1 *out);
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g2(exec_dev &x, const stream_g2 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p2 *out);
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g2(exec_host &x, const stream_g2 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p2 *out);

/* ---------------------------------------------------------------- fixed base (fixed_base.cu) */
/* out[i] = scalars[i] * base (host memory in and out), through the executor's memory */
template <class X>
cuzk_status fixed_base_g1(X &x, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars, size_t n);
template <class X>
cuzk_status fixed_base_g2(X &x, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars, size_t n);

/* The MSM with the optional 0/1 split over Montgomery scalars in executor memory, or in host
 * memory (host: uploaded piece by piece, overlapped with the summing). */
template <class X>
cuzk_status msm_run_g1(X &x, const g1_affine *bases, const fr_t *s, size_t n, bool split, bool host,
                       const msm_config *cfg, blst_p1 *out, cuzk_gpu_msm_stats *st);
template <class X>
cuzk_status msm_run_g2(X &x, const g2_affine *bases, const fr_t *s, size_t n, bool split, bool host,
                       const msm_config *cfg, blst_p2 *out, cuzk_gpu_msm_stats *st);

#endif
