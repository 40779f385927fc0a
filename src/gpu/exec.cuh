/* Two executors for the same algorithms: the device (kernels on a CUDA stream, CUB for sort
 * and scan) and a host emulation (the same per-thread bodies run in loops on the CPU,
 * std::sort, a serial scan). The NTT, MSM and prover orchestration is written once against
 * this interface, so the whole GPU pipeline (index maths, rounds, chunking, the 0/1 split,
 * proof assembly) is tested on machines without a GPU, and the device run only has to
 * confirm what is CUDA-specific.
 *
 * Kernel bodies are functors with `HD void operator()(size_t i) const` (one logical thread)
 * or, for block kernels with shared memory, `nphases()` and `phase(block, tid, nthreads,
 * smem, ph)` with a barrier between phases. */
#ifndef CUZK_GPU_EXEC_CUH
#define CUZK_GPU_EXEC_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "cuzk/base.h"
#include "cuzk/gpu.h"
}

/* The default tuning (cuzk_gpu_config_default), made once: the executors' tuning unless the
 * device context that made them says otherwise. */
const cuzk_gpu_config *gpu_config_defaults();

/* The executors' poll between stages: the proof's cancel token, then the prover's own stop
 * token (set by the prover where another executor of the same batch failed, lab_apart). */
static inline cuzk_status exec_poll(const cuzk_cancel *cancel, const cuzk_cancel *stop)
{
    if (cuzk_cancel_requested(cancel)) return cuzk_fail(CUZK_ECANCELLED, "cancelled (between GPU stages)");
    if (cuzk_cancel_requested(stop))
        return cuzk_fail(CUZK_ECANCELLED, "stopped (between GPU stages): the batch's other executor failed");
    return CUZK_OK;
}

/* ---------------------------------------------------------------- host emulation */
struct exec_host {
    cuzk_status err = CUZK_OK;
    const cuzk_gpu_config *cfg = gpu_config_defaults(); /* tuning; never NULL */
    int sms() const { return 4; }
    bool ok() const { return err == CUZK_OK; }
    bool is_device() const { return false; }
    void *alloc(size_t bytes)
    {
        void *p = malloc(bytes ? bytes : 1);
        if (!p && err == CUZK_OK) err = cuzk_fail(CUZK_ENOMEM, "host emulation: out of memory for %zu bytes", bytes);
        return p;
    }
    void release(void *p) { free(p); }
    void zero(void *p, size_t bytes) { memset(p, 0, bytes); }
    void to_host(void *h, const void *d, size_t bytes) { memcpy(h, d, bytes); }
    void to_dev(void *d, const void *h, size_t bytes) { memcpy(d, h, bytes); }
    void copy(void *d, const void *s, size_t bytes) { memmove(d, s, bytes); }
    void sync() {}
    bool use() { return true; }
    template <class K> void parallel(size_t n, const K &k)
    {
        for (size_t i = 0; i < n; i++) k(i);
    }
    template <int MINB, class K> void parallel_lb(size_t n, const K &k) { parallel(n, k); }
    template <class K> void blocks(unsigned nblocks, unsigned nthreads, size_t smem_bytes, const K &k)
    {
        std::vector<uint8_t> smem(smem_bytes + 16);
        void *s = (void *)(((uintptr_t)smem.data() + 15) & ~(uintptr_t)15);
        unsigned nph = k.nphases();
        for (unsigned b = 0; b < nblocks; b++)
            for (unsigned ph = 0; ph < nph; ph++)
                for (unsigned t = 0; t < nthreads; t++) k.phase(b, t, nthreads, s, ph);
    }
    /* Sorts (keys, vals) by the low end_bit bits of the key; the result is in (keys, vals). */
    void sort_pairs(uint32_t *keys, uint32_t *keys_alt, uint32_t *vals, uint32_t *vals_alt, size_t n, int end_bit)
    {
        std::vector<uint64_t> kv(n);
        uint32_t mask = end_bit >= 32 ? 0xffffffffu : ((1u << end_bit) - 1);
        for (size_t i = 0; i < n; i++) kv[i] = ((uint64_t)(keys[i] & mask) << 32) | i;
        std::sort(kv.begin(), kv.end());
        for (size_t i = 0; i < n; i++) {
            keys_alt[i] = keys[kv[i] & 0xffffffffu];
            vals_alt[i] = vals[kv[i] & 0xffffffffu];
        }
        memcpy(keys, keys_alt, n * 4);
        memcpy(vals, vals_alt, n * 4);
    }
    void exclusive_sum(const uint32_t *in, uint32_t *out, size_t n)
    {
        uint32_t s = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = in[i];
            out[i] = s;
            s += v;
        }
    }
    /* uploads that may overlap compute: upload() starts one, wait_upload() orders the
     * compute stream after it */
    int upload(void *d, const void *h, size_t bytes)
    {
        memcpy(d, h, bytes);
        return 0;
    }
    void wait_upload(int) {}
    int side_mark() { return -1; }
    void side_begin(int = -1, bool = true) {}
    int side_end() { return -1; }
    void stage_begin(const char *) {}
    void stage_end() {}
    void mark(const char *) {}
    /* the proof's cancel token and the prover's stop, polled between stages (exec_dev has the same) */
    const cuzk_cancel *cancel = NULL;
    const cuzk_cancel *stop = NULL;
    /* the caller's notices that a proof's host a, b, c or assignment are read
     * (cuzk_groth16_prove_opts.abc_read, witness_read) */
    void (*abc_read)(void *ctx, size_t k) = NULL;
    void (*witness_read)(void *ctx, size_t k) = NULL;
    void *read_ctx = NULL;
    void host_wait(int) {} /* the copies are done when upload() returns */
    bool poll_cancel()
    {
        if (ok()) err = exec_poll(cancel, stop);
        return ok();
    }
    void drain() {}
};

/* ---------------------------------------------------------------- device */
#ifdef __CUDACC__
template <class K> __global__ void k_parallel(size_t n, K k)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) k(i);
}

/* The same with a register cap: at least MINB blocks of 128 threads per multiprocessor, for
 * the point-addition kernels whose occupancy/register trade-off is measured (bench). */
template <class K, int MINB> __global__ void __launch_bounds__(128, MINB) k_parallel_lb(size_t n, K k)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) k(i);
}

template <class K> __global__ void k_blocks(K k)
{
    extern __shared__ uint4 smem_raw[];
    unsigned nph = k.nphases();
    for (unsigned ph = 0; ph < nph; ph++) {
        k.phase(blockIdx.x, threadIdx.x, blockDim.x, (void *)smem_raw, ph);
        __syncthreads();
    }
}
#endif

/* Device-side executor; its methods are defined in exec_dev.cu except the kernel launchers,
 * which are templates. Errors are sticky: after the first failure every call is a no-op and
 * ok() is false, with the message in cuzk_last_error(). */
struct exec_dev {
    cudaStream_t stream = 0, copy_stream = 0;
    const cuzk_gpu_config *cfg = gpu_config_defaults(); /* tuning (the device context's); never NULL */
    int ordinal = 0;                                    /* the CUDA device its streams are on */
    cuzk_status err = CUZK_OK;
    std::vector<cudaEvent_t> upload_events;
    uint64_t uploaded = 0; /* bytes copied from host memory (upload, to_dev): the link's traffic */
    int sm_count = 132;
    /* named stage timings (events), collected by the caller after sync */
    struct stage {
        const char *name;
        cudaEvent_t a, b;
    };
    std::vector<stage> stages;
    int open_stage = -1;

    int sms() const { return sm_count; }
    bool ok() const { return err == CUZK_OK; }
    bool is_device() const { return true; }
    bool check(cudaError_t e, const char *what);
    void *alloc(size_t bytes);
    void *try_alloc(size_t bytes); /* NULL without an error where the memory is not there */
    void release(void *p);
    void zero(void *p, size_t bytes);
    void to_host(void *h, const void *d, size_t bytes); /* synchronous */
    void to_dev(void *d, const void *h, size_t bytes);  /* asynchronous */
    void copy(void *d, const void *s, size_t bytes);
    void sync();
    void sort_pairs(uint32_t *keys, uint32_t *keys_alt, uint32_t *vals, uint32_t *vals_alt, size_t n, int end_bit);
    void exclusive_sum(const uint32_t *in, uint32_t *out, size_t n);
    int upload(void *d, const void *h, size_t bytes);
    void wait_upload(int token);
    /* Work that may run beside the compute stream: between side_begin() and side_end() every
     * launch, copy and allocation goes to a second stream (ordered after the work issued so
     * far); side_end() returns a token that wait_upload() orders the compute stream after.
     * Nested pairs stay on the outer side stream (their token is -1). Urgent side work (the
     * prover's L, A, B beside the NTTs) runs at high priority; the rest (an MSM sorting its
     * next chunk while it sums the current one) at the compute stream's priority: at high
     * priority that sort made the H MSM take one of two speeds in the pipeline (702 or 737
     * ms from partition to partition on the H200). */
    cudaStream_t side_stream = 0, side_stream_lo = 0, main_stream = 0, side_cur = 0;
    int side_depth = 0;
    int side_mark();                                     /* a point of the compute stream to start side work at */
    void side_begin(int after = -1, bool urgent = true); /* after: a side_mark() token (-1: now) */
    int side_end();
    /* destroys the events of finished uploads and side work (call after sync) */
    void drop_events();
    void stage_begin(const char *name);
    void stage_end();
    /* cfg->profile: mark() synchronizes and prints the time since the previous mark to stderr
     * (for finding where time goes; off by default, it serializes everything) */
    double prof_t = -1;
    void mark(const char *label);
    /* makes ordinal the calling thread's device and creates the streams there (the device
     * context's ordinal and tuning, or the defaults; urgent: the compute stream at the highest
     * priority); destroy() releases streams and events */
    bool init(const cuzk_gpu_device *d = NULL, bool urgent = false);
    /* makes this executor's device the calling thread's current one (every entry point that
     * launches work calls it: callers may run on any thread) */
    bool use();
    void destroy();
    /* Seconds of each recorded stage (after sync); clears the list. */
    void take_stages(std::vector<std::pair<const char *, double>> &out);
    /* The proof's cancel token (NULL: never). poll_cancel(), called by the prover on the host
     * between stages, fails the executor with CUZK_ECANCELLED once it is set: errors being
     * sticky, no further stage issues any work and the prover falls through to its cleanup.
     * Returns ok(). stop: a second token, the prover's own (lab_apart sets it where the batch's
     * other executor failed, so that this one ends at its next poll). */
    const cuzk_cancel *cancel = NULL;
    const cuzk_cancel *stop = NULL;
    bool poll_cancel()
    {
        if (ok()) err = exec_poll(cancel, stop);
        return ok();
    }
    /* The caller's notices that a proof's host a, b, c or assignment are read
     * (cuzk_groth16_prove_opts.abc_read, witness_read), and host_wait(), which blocks the host
     * until an upload() token's copy has ended (a failed wait is left to the stream's next
     * check). */
    void (*abc_read)(void *ctx, size_t k) = NULL;
    void (*witness_read)(void *ctx, size_t k) = NULL;
    void *read_ctx = NULL;
    void host_wait(int token);
    /* Waits for everything issued on every stream, whatever the executor's state: after a
     * failure or a cancel, work already issued may still read the witness's host memory or the
     * buffers about to be freed, and the device must be idle before the next proof's
     * allocations reuse them. */
    void drain();
#ifdef __CUDACC__
    template <class K> void parallel(size_t n, const K &k)
    {
        if (!ok() || n == 0) return;
        const unsigned T = 128; /* small blocks: finer occupancy steps for register-heavy kernels */
        k_parallel<K><<<(unsigned)((n + T - 1) / T), T, 0, stream>>>(n, k);
        check(cudaGetLastError(), "kernel launch");
    }
    template <int MINB, class K> void parallel_lb(size_t n, const K &k)
    {
        if (!ok() || n == 0) return;
        const unsigned T = 128;
        k_parallel_lb<K, MINB><<<(unsigned)((n + T - 1) / T), T, 0, stream>>>(n, k);
        check(cudaGetLastError(), "kernel launch");
    }
    template <class K> void blocks(unsigned nblocks, unsigned nthreads, size_t smem_bytes, const K &k)
    {
        if (!ok() || nblocks == 0) return;
        if (smem_bytes > 48 * 1024)
            check(cudaFuncSetAttribute(k_blocks<K>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes),
                  "shared memory limit");
        k_blocks<K><<<nblocks, nthreads, smem_bytes, stream>>>(k);
        check(cudaGetLastError(), "block kernel launch");
    }
#endif
};

#endif
