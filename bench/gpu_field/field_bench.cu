/* Field multiplication throughput of each multiplication form the GPU layer uses (bench
 * gpu-field): one dependent chain of multiplications per thread, a thousand threads per
 * multiprocessor. The forms must agree on every result. Benchmark code, linked by the cli
 * only; it reads the device arithmetic of src/gpu. */
#include <string.h>

#include <vector>

#include "field_bench.h"
#include "gpu/internal.cuh"

enum { FB_FP_EO, FB_FR_EO, FB_FP_SQR_MUL, FB_FP_SQR, FB_FP_SQR_ROWS, FB_FR_SHOUP, FB_COUNT };

static const char *const fb_names[FB_COUNT] = {
    "Fp, 32-bit limbs, even/odd carry chains",   "Fr, 32-bit limbs, even/odd carry chains",
    "Fp squaring as an even/odd multiplication", "Fp squaring, even/odd, separate reduction",
    "Fp squaring, even/odd rows (the default)",  "Fr times a constant, Shoup (NTT twiddles)",
};

template <int V> __global__ void k_field_bench(uint32_t *io, size_t nthreads, int iters)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nthreads) return;
    const fp_t *in = (const fp_t *)io;
    fp_t a = in[i], b = in[nthreads + i];
    fr_t ra, rb;
    memcpy(&ra, &a, 32);
    memcpy(&rb, &b, 32);
    ra.v[7] &= 0x3fffffffu; /* below r */
    rb.v[7] &= 0x3fffffffu;
    fr_shoup_t sp; /* rb as a Shoup constant: the same products as the Montgomery forms */
    if (V == FB_FR_SHOUP) fr_shoup_from_mont(sp, rb);
    for (int k = 0; k < iters; k++) {
        if (V == FB_FP_EO) mp_mul_eo<fp_params>(a.v, a.v, b.v);
        else if (V == FB_FR_EO) mp_mul_eo<fr_params>(ra.v, ra.v, rb.v);
        else if (V == FB_FP_SQR_MUL) mp_mul_eo<fp_params>(a.v, a.v, a.v);
        else if (V == FB_FR_SHOUP) mul_shoup_lazy(ra, ra, sp);
        else if (V == FB_FP_SQR) mp_sqr_eo<fp_params>(a.v, a.v);
        else mp_sqr_rows<fp_params>(a.v, a.v);
    }
    fp_t *out = (fp_t *)io + 2 * nthreads + (size_t)V * nthreads;
    if (V == FB_FR_SHOUP) reduce_lazy(ra, ra);
    if (V == FB_FR_EO || V == FB_FR_SHOUP) {
        memset(&a, 0, sizeof a);
        memcpy(&a, &ra, 32);
    }
    out[i] = a;
}

template <int V> static void fb_launch(uint32_t *d, size_t T, int iters)
{
    k_field_bench<V><<<(unsigned)(T / 256), 256>>>(d, T, iters);
}

extern "C" const char *cuzk_gpu_field_bench_name(int i) { return i >= 0 && i < FB_COUNT ? fb_names[i] : NULL; }

/* the device ready, and its multiprocessor count (both benchmarks size their grids by it) */
static cuzk_status bench_device(int *sms)
{
    cuzk_status st = gpu_init();
    if (st) return st;
    *sms = 132;
    cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, 0);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_field_bench(double muls_per_s[CUZK_GPU_FIELD_FORMS])
{
    static_assert(FB_COUNT == CUZK_GPU_FIELD_FORMS, "field_bench.h counts every form");
    int sms = 0;
    cuzk_status st = bench_device(&sms);
    if (st) return st;
    const size_t T = (size_t)sms * 1024;
    const int iters = 2000;
    std::vector<fp_t> h((2 + FB_COUNT) * T);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 42);
    for (size_t i = 0; i < 2 * T; i++) {
        blst_fp f;
        uint8_t bytes[48];
        cuzk_rng_bytes(&rng, bytes, 48);
        bytes[0] &= 0x0f; /* below p */
        blst_fp_from_bendian(&f, bytes);
        memcpy(&h[i], &f, 48);
    }
    uint32_t *d = NULL;
    if (cudaMalloc(&d, h.size() * sizeof(fp_t)) != cudaSuccess) return cuzk_fail(CUZK_ENOMEM, "field bench buffer");
    cudaMemcpy(d, h.data(), 2 * T * sizeof(fp_t), cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    void (*launch[FB_COUNT])(uint32_t *, size_t, int) = {fb_launch<0>, fb_launch<1>, fb_launch<2>,
                                                         fb_launch<3>, fb_launch<4>, fb_launch<5>};
    for (int v = 0; v < FB_COUNT; v++) {
        for (int rep = 0; rep < 2; rep++) { /* first run warms up */
            cudaEventRecord(a);
            launch[v](d, T, iters);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms = 0;
            cudaEventElapsedTime(&ms, a, b);
            muls_per_s[v] = (double)T * iters / (ms / 1e3);
        }
    }
    cudaError_t e = cudaGetLastError();
    cudaMemcpy(h.data(), d, h.size() * sizeof(fp_t), cudaMemcpyDeviceToHost);
    cudaFree(d);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    if (e != cudaSuccess) return cuzk_fail(CUZK_EINTERNAL, "field bench: %s", cudaGetErrorString(e));
    const fp_t *res = &h[2 * T];
    /* the squarings agree with squaring by multiplication, Shoup with the Montgomery product */
    for (int v = 0; v < FB_COUNT; v++) {
        int ref = v == FB_FR_SHOUP ? FB_FR_EO : v == FB_FP_SQR || v == FB_FP_SQR_ROWS ? FB_FP_SQR_MUL : v;
        if (v == ref) continue;
        for (size_t i = 0; i < T; i++)
            if (memcmp(&res[(size_t)v * T + i], &res[(size_t)ref * T + i], sizeof(fp_t)))
                return cuzk_fail(CUZK_EINTERNAL, "field bench: \"%s\" disagrees with \"%s\" at thread %zu", fb_names[v],
                                 fb_names[ref], i);
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- multiplier pipes */
/* MODE 0: x = x y + z (IMAD), 1: d = fma(d, e, f) (DFMA), 2: both per step; 8 independent
 * chains per thread of each kind */
#define PIPE_CHAINS 8
template <int MODE> __global__ void k_pipe_bench(uint32_t *out, double *dout, int iters, uint32_t s)
{
    uint32_t x[PIPE_CHAINS];
    double d[PIPE_CHAINS];
    for (int c = 0; c < PIPE_CHAINS; c++) {
        x[c] = threadIdx.x + c * s;
        d[c] = 1.0 + 1e-9 * (threadIdx.x + c);
    }
    const uint32_t y = s | 1, z = s * 3;
    const double e = 0.999999999, f = 1e-12;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < PIPE_CHAINS; c++) {
            if (MODE != 1) x[c] = x[c] * y + z;
            if (MODE != 0) d[c] = fma(d[c], e, f);
        }
    }
    uint32_t a = 0;
    double b = 0;
    for (int c = 0; c < PIPE_CHAINS; c++) {
        a ^= x[c];
        b += d[c];
    }
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a; /* kept so that the chains are not removed */
    dout[i] = b;
}

template <int MODE> static float pipe_ms(uint32_t *o, double *od, unsigned blocks, int iters)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    k_pipe_bench<MODE><<<blocks, 256>>>(o, od, 10, 7); /* warm-up */
    cudaEventRecord(a);
    k_pipe_bench<MODE><<<blocks, 256>>>(o, od, iters, 7);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms;
}

extern "C" cuzk_status cuzk_gpu_pipe_bench(double ops_per_s[CUZK_GPU_PIPE_FORMS])
{
    int sms = 0;
    cuzk_status st = bench_device(&sms);
    if (st) return st;
    const unsigned blocks = (unsigned)sms * 8;
    const int iters = 20000;
    uint32_t *o = NULL;
    double *od = NULL;
    if (cudaMalloc(&o, (size_t)blocks * 256 * 4) != cudaSuccess ||
        cudaMalloc(&od, (size_t)blocks * 256 * 8) != cudaSuccess) {
        cudaFree(o);
        return cuzk_fail(CUZK_ENOMEM, "pipe bench buffers");
    }
    const double steps = (double)blocks * 256 * iters * PIPE_CHAINS;
    ops_per_s[0] = steps / (pipe_ms<0>(o, od, blocks, iters) / 1e3);
    ops_per_s[1] = steps / (pipe_ms<1>(o, od, blocks, iters) / 1e3);
    ops_per_s[2] = 2 * steps / (pipe_ms<2>(o, od, blocks, iters) / 1e3);
    cudaError_t e = cudaGetLastError();
    cudaFree(o);
    cudaFree(od);
    if (e != cudaSuccess) return cuzk_fail(CUZK_EINTERNAL, "pipe bench: %s", cudaGetErrorString(e));
    return CUZK_OK;
}
