/* Host-side glue: XYZZ results to blst points, window recombination, NTT tables, device
 * contexts (their tables), the default tuning, and the device helpers of gpu.h
 * (availability, buffers). */
#include <mutex>

#include "gpu/internal.cuh"

extern "C" {
#include "cuzk/ff.h"
}

static_assert(sizeof(fp_t) == sizeof(blst_fp), "fp layout");
static_assert(sizeof(fr_t) == sizeof(blst_fr), "fr layout");
static_assert(sizeof(g1_affine) == sizeof(blst_p1_affine), "g1 layout");
static_assert(sizeof(g2_affine) == sizeof(blst_p2_affine), "g2 layout");

/* Jacobian (X ZZ, Y ZZZ, ZZ) is the same point: x = X ZZ / ZZ^2, y = Y ZZZ / ZZ^3 = Y / ZZZ */
void xyzz_to_p1(blst_p1 *out, const g1_xyzz &p)
{
    const blst_fp *X = (const blst_fp *)&p.X, *Y = (const blst_fp *)&p.Y, *ZZ = (const blst_fp *)&p.ZZ,
                  *ZZZ = (const blst_fp *)&p.ZZZ;
    if (is_zero(p.ZZ)) {
        memset(out, 0, sizeof *out);
        return;
    }
    blst_fp_mul(&out->x, X, ZZ);
    blst_fp_mul(&out->y, Y, ZZZ);
    out->z = *ZZ;
}

void xyzz_to_p2(blst_p2 *out, const g2_xyzz &p)
{
    const blst_fp2 *X = (const blst_fp2 *)&p.X, *Y = (const blst_fp2 *)&p.Y, *ZZ = (const blst_fp2 *)&p.ZZ,
                   *ZZZ = (const blst_fp2 *)&p.ZZZ;
    if (is_zero(p.ZZ)) {
        memset(out, 0, sizeof *out);
        return;
    }
    blst_fp2_mul(&out->x, X, ZZ);
    blst_fp2_mul(&out->y, Y, ZZZ);
    out->z = *ZZ;
}

/* ---------------------------------------------------------------- NTT tables */
/* lo[i] = base^i (i < nlo), hi[i] = base^(i nlo) (i < nhi) */
static void powers(std::vector<fr_t> &lo, std::vector<fr_t> &hi, const cuzk_fr &base, unsigned nlo, unsigned nhi)
{
    lo.resize(nlo);
    hi.resize(nhi);
    cuzk_fr x = CUZK_FR_ONE;
    for (unsigned i = 0; i < nlo; i++) {
        memcpy(&lo[i], &x, 32);
        cuzk_fr_mul(&x, &x, &base);
    }
    /* x = base^nlo */
    cuzk_fr step = x, y = CUZK_FR_ONE;
    for (unsigned i = 0; i < nhi; i++) {
        memcpy(&hi[i], &y, 32);
        cuzk_fr_mul(&y, &y, &step);
    }
}

/* Shoup pairs of Montgomery values */
static std::vector<fr_shoup_t> shoup_pairs(const std::vector<fr_t> &mont)
{
    std::vector<fr_shoup_t> s(mont.size());
    for (size_t i = 0; i < mont.size(); i++) fr_shoup_from_mont(s[i], mont[i]);
    return s;
}

const ntt_host_tables &ntt_host_tables_get()
{
    static ntt_host_tables t;
    static std::once_flag once;
    std::call_once(once, [] {
        cuzk_fr w, g, gi;
        cuzk_fr_root_of_unity(&w, NTT_LOG_MAX);
        cuzk_fr_from_u64(&g, CUZK_FR_GENERATOR);
        cuzk_fr_inv(&gi, &g);
        powers(t.tl, t.tm, w, NTT_TW_N, NTT_TM_N);
        t.tms = shoup_pairs(t.tm);
        powers(t.gl, t.gh, g, NTT_TAB_N, NTT_TAB_N);
        powers(t.gil, t.gih, gi, NTT_TAB_N, NTT_TAB_N);
        t.gihc.resize(NTT_TAB_N);
        for (unsigned i = 0; i < NTT_TAB_N; i++) {
            cuzk_fr v;
            memcpy(&v, &t.gih[i], 32);
            cuzk_fr_to_bytes_le((uint8_t *)&t.gihc[i], &v); /* canonical, as 32-bit limbs */
        }
        /* full table for the emulation's sizes: w_(2^13)^i = w^(i 2^15) = TM[i 2^5] */
        t.tf.resize((size_t)1 << (NTT_HOST_FULL_LOG - 1));
        for (size_t i = 0; i < t.tf.size(); i++) t.tf[i] = t.tms[i << (NTT_LOG_MAX - NTT_HOST_FULL_LOG - NTT_TW_BITS)];
    });
    return t;
}

const cuzk_gpu_config *gpu_config_defaults()
{
    static cuzk_gpu_config c;
    static std::once_flag once;
    std::call_once(once, [] { cuzk_gpu_config_default(&c); });
    return &c;
}

/* ---------------------------------------------------------------- device contexts */
struct cuzk_gpu_device {
    int ordinal;
    cuzk_gpu_config cfg;
    std::mutex mu;                          /* guards the tables */
    fr_t *tabs = NULL;                      /* tl, tm, gl, gh, gil, gih, gihc */
    fr_shoup_t *tabs_s = NULL;              /* tms */
    fr_shoup_t *full[NTT_LOG_MAX + 1] = {}; /* full tables built so far, by log size */
    int kernels_sm = 0, kernels_ptx = 0;    /* the architectures of the kernels as loaded (x10) */
};

__global__ void k_tw_full(fr_shoup_t *out, ntt_tables tb, unsigned L); /* below; probed at open */

/* whether the runtime sees a device (the answer does not change within a process) */
cuzk_status gpu_init(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        return cuzk_fail(CUZK_EUNSUPPORTED, "no CUDA device: %s",
                         e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    }
    return CUZK_OK;
}

cuzk_status gpu_use(const cuzk_gpu_device *d)
{
    if (!d) return cuzk_fail(CUZK_EINVAL, "no GPU device context given");
    cudaError_t e = cudaSetDevice(d->ordinal);
    return e == cudaSuccess
        ? CUZK_OK
        : cuzk_fail(CUZK_EDEVICE, "selecting CUDA device %d: %s", d->ordinal, cudaGetErrorString(e));
}

extern "C" int cuzk_gpu_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

extern "C" cuzk_status cuzk_gpu_device_open(cuzk_gpu_device **out, int ordinal, const cuzk_gpu_config *cfg)
{
    *out = NULL;
    cuzk_status st = gpu_init();
    if (st) return st;
    int n = cuzk_gpu_device_count();
    if (ordinal < 0 || ordinal >= n)
        return cuzk_fail(CUZK_EINVAL, "CUDA device %d does not exist (%d device%s present)", ordinal, n,
                         n == 1 ? "" : "s");
    cuzk_gpu_device *d = new (std::nothrow) cuzk_gpu_device();
    if (!d) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    d->ordinal = ordinal;
    d->cfg = cfg ? *cfg : *gpu_config_defaults();
    if ((st = gpu_use(d))) {
        delete d;
        return st;
    }
    /* this build's kernels for the device's architecture: its SASS, or PTX the driver compiles at
     * load; none (a GPU newer or older than every architecture built) refuses the device here,
     * at start, rather than at its first kernel */
    cudaFuncAttributes fa;
    cudaError_t ke = cudaFuncGetAttributes(&fa, (const void *)k_tw_full);
    if (ke != cudaSuccess) {
        cudaGetLastError();
        cudaDeviceProp p;
        cudaGetDeviceProperties(&p, ordinal);
        delete d;
        return cuzk_fail(CUZK_EDEVICE,
                         "CUDA device %d (%s, sm_%d%d): this build has no kernels it can run (%s); build with "
                         "-DCUZK_CUDA_ARCHS naming %d%d (docs/GPU.md, \"Architectures\")",
                         ordinal, p.name, p.major, p.minor, cudaGetErrorString(ke), p.major, p.minor);
    }
    d->kernels_sm = fa.binaryVersion;
    d->kernels_ptx = fa.ptxVersion;
    /* the memory pool keeps what is freed (release threshold = max), so repeated proofs
     * reuse their workspace instead of asking the driver again */
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, ordinal) == cudaSuccess) {
        uint64_t thr = UINT64_MAX;
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
    }
    cudaGetLastError();
    *out = d;
    return CUZK_OK;
}

extern "C" void cuzk_gpu_device_close(cuzk_gpu_device *d)
{
    if (!d) return;
    /* no message on failure: a caller closing after an error keeps that error's message
     * (cudaFree waits for the work still reading the tables) */
    if (cudaSetDevice(d->ordinal) == cudaSuccess) {
        cudaFree(d->tabs);
        cudaFree(d->tabs_s);
        for (fr_shoup_t *f : d->full) cudaFree(f);
    }
    cudaGetLastError();
    delete d;
}

extern "C" const cuzk_gpu_config *cuzk_gpu_device_config(const cuzk_gpu_device *d)
{
    return d ? &d->cfg : gpu_config_defaults();
}

extern "C" int cuzk_gpu_device_ordinal(const cuzk_gpu_device *d) { return d ? d->ordinal : 0; }

__global__ void k_tw_full(fr_shoup_t *out, ntt_tables tb, unsigned L)
{
    const size_t n = (size_t)1 << (L - 1);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        fr_shoup_from_mont(out[i], ntt_tw(tb, (uint32_t)i << (NTT_LOG_MAX - L), false));
}

/* builds d's full table for 2^L where memory allows (errors only clear the CUDA state);
 * keep_free SIZE_MAX: never */
static void build_full(cuzk_gpu_device *d, const ntt_tables &tb, unsigned L, size_t keep_free)
{
    const size_t bytes = ((size_t)1 << (L - 1)) * sizeof(fr_shoup_t);
    size_t fr = 0, tot = 0;
    if (keep_free == SIZE_MAX) return;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess || fr < bytes || fr - bytes < keep_free) {
        cudaGetLastError();
        return;
    }
    fr_shoup_t *t = NULL;
    if (cudaMalloc((void **)&t, bytes) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    k_tw_full<<<1024, 256>>>(t, tb, L); /* grid-stride */
    if (cudaDeviceSynchronize() != cudaSuccess) {
        cudaGetLastError();
        cudaFree(t);
        return;
    }
    d->full[L] = t;
}

cuzk_status ntt_device_tables(cuzk_gpu_device *d, ntt_tables *out, unsigned full_log, size_t keep_free)
{
    cuzk_status st = gpu_use(d);
    if (st) return st;
    std::lock_guard<std::mutex> lk(d->mu);
    const ntt_host_tables &h = ntt_host_tables_get();
    const std::vector<fr_t> *v[7] = {&h.tl, &h.tm, &h.gl, &h.gh, &h.gil, &h.gih, &h.gihc};
    size_t off[8] = {0};
    for (int i = 0; i < 7; i++) off[i + 1] = off[i] + v[i]->size();
    if (!d->tabs) {
        fr_t *t = NULL;
        fr_shoup_t *ts = NULL;
        const size_t sbytes = h.tms.size() * sizeof(fr_shoup_t);
        cudaError_t e = cudaMalloc((void **)&t, off[7] * sizeof(fr_t));
        if (e == cudaSuccess) e = cudaMalloc((void **)&ts, sbytes);
        for (int i = 0; i < 7 && e == cudaSuccess; i++)
            e = cudaMemcpy(t + off[i], v[i]->data(), v[i]->size() * sizeof(fr_t), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(ts, h.tms.data(), sbytes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            cudaGetLastError(); /* not left for this thread's next launch check */
            cudaFree(t);
            cudaFree(ts);
            return cuzk_fail(CUZK_ENOMEM, "NTT tables: %s", cudaGetErrorString(e));
        }
        d->tabs = t;
        d->tabs_s = ts;
    }
    fr_t *t = d->tabs;
    *out = {t + off[0], t + off[1], t + off[2], t + off[3], t + off[4], t + off[5], t + off[6], d->tabs_s, NULL, 0};
    if (!d->cfg.ntt_full_table) return CUZK_OK;
    /* the table for exactly 2^full_log, built where memory allows; else the smallest larger
     * one (read with a stride) */
    if (full_log < NTT_FULL_MIN_LOG) return CUZK_OK; /* two entries are one load there */
    if (!d->full[full_log]) build_full(d, *out, full_log, keep_free);
    for (unsigned L = full_log; L <= NTT_LOG_MAX; L++)
        if (d->full[L]) {
            out->tf = d->full[L];
            out->tf_log = L;
            break;
        }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- synthetic bases */
static void seeded_fr(cuzk_fr *out, uint64_t seed, uint64_t k)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed * 0x9e3779b97f4a7c15ull + k);
    cuzk_fr_random(out, &rng);
}

void synthetic_ab_g1(g1_affine *A, g1_affine *Q, uint64_t seed)
{
    cuzk_fr a, b;
    seeded_fr(&a, seed, 1);
    seeded_fr(&b, seed, 2);
    blst_scalar sa, sb;
    cuzk_fr_to_scalar(&sa, &a);
    cuzk_fr_to_scalar(&sb, &b);
    blst_p1 pa, pb;
    blst_p1_mult(&pa, blst_p1_generator(), sa.b, 255);
    blst_p1_mult(&pb, blst_p1_generator(), sb.b, 255);
    blst_p1_to_affine((blst_p1_affine *)A, &pa);
    blst_p1_to_affine((blst_p1_affine *)Q, &pb);
}

void synthetic_ab_g2(g2_affine *A, g2_affine *Q, uint64_t seed)
{
    cuzk_fr a, b;
    seeded_fr(&a, seed, 3);
    seeded_fr(&b, seed, 4);
    blst_scalar sa, sb;
    cuzk_fr_to_scalar(&sa, &a);
    cuzk_fr_to_scalar(&sb, &b);
    blst_p2 pa, pb;
    blst_p2_mult(&pa, blst_p2_generator(), sa.b, 255);
    blst_p2_mult(&pb, blst_p2_generator(), sb.b, 255);
    blst_p2_to_affine((blst_p2_affine *)A, &pa);
    blst_p2_to_affine((blst_p2_affine *)Q, &pb);
}

/* ---------------------------------------------------------------- gpu.h: device and buffers */
extern "C" bool cuzk_gpu_available(char *reason, size_t n)
{
    cuzk_status st = gpu_init();
    if (st == CUZK_OK) {
        if (reason && n) reason[0] = 0;
        return true;
    }
    if (reason && n) snprintf(reason, n, "%s", cuzk_last_error());
    return false;
}

extern "C" void cuzk_gpu_describe(const cuzk_gpu_device *d, char *out, size_t n)
{
    if (gpu_use(d)) {
        snprintf(out, n, "no GPU (%s)", cuzk_last_error());
        return;
    }
    int dev = d->ordinal;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    int clk = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);
    /* the kernels as loaded: SASS of the device's architecture (or a lower one of its major),
     * or compiled by the driver from an earlier architecture's PTX */
    char kern[64];
    if (d->kernels_sm == d->kernels_ptx) snprintf(kern, sizeof kern, "kernels sm_%d", d->kernels_sm);
    else snprintf(kern, sizeof kern, "kernels sm_%d from compute_%d PTX", d->kernels_sm, d->kernels_ptx);
    snprintf(out, n, "%s, %d SMs, %.0f MiB, sm_%d%d, %d MHz, %s", p.name, p.multiProcessorCount,
             (double)p.totalGlobalMem / (1 << 20), p.major, p.minor, clk / 1000, kern);
}

extern "C" cuzk_status cuzk_gpu_mem_info(const cuzk_gpu_device *d, size_t *free_bytes, size_t *total_bytes)
{
    cuzk_status st = gpu_use(d);
    if (st) return st;
    cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_EDEVICE, "cudaMemGetInfo: %s", cudaGetErrorString(e));
}

extern "C" size_t cuzk_gpu_pool_bytes(const cuzk_gpu_device *d)
{
    cudaMemPool_t pool;
    uint64_t v = 0;
    if (cudaDeviceGetDefaultMemPool(&pool, d->ordinal) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return (size_t)v;
}

extern "C" cuzk_status cuzk_gpu_malloc(const cuzk_gpu_device *d, void **ptr, size_t bytes)
{
    cuzk_status st = gpu_use(d);
    if (st) return st;
    cudaError_t e = cudaMalloc(ptr, bytes ? bytes : 1);
    if (e != cudaSuccess) cudaGetLastError(); /* not left for this thread's next launch check */
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "cudaMalloc(%zu): %s", bytes, cudaGetErrorString(e));
}

extern "C" void cuzk_gpu_free(void *ptr)
{
    if (ptr) cudaFree(ptr);
}

extern "C" cuzk_status cuzk_gpu_host_alloc(void **ptr, size_t bytes)
{
    cuzk_status st = gpu_init();
    if (st) return st;
    cudaError_t e = cudaHostAlloc(ptr, bytes ? bytes : 1, cudaHostAllocPortable);
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "cudaHostAlloc(%zu): %s", bytes, cudaGetErrorString(e));
}

extern "C" void cuzk_gpu_host_free(void *ptr)
{
    if (ptr) cudaFreeHost(ptr);
}

extern "C" cuzk_status cuzk_gpu_host_register(void *ptr, size_t bytes)
{
    cuzk_status st = gpu_init();
    if (st) return st;
    cudaError_t e = cudaHostRegister(ptr, bytes, cudaHostRegisterPortable);
    return e == cudaSuccess ? CUZK_OK
                            : cuzk_fail(CUZK_ENOMEM, "cudaHostRegister(%zu): %s", bytes, cudaGetErrorString(e));
}

extern "C" void cuzk_gpu_host_unregister(void *ptr)
{
    if (ptr) cudaHostUnregister(ptr);
}

extern "C" cuzk_status cuzk_gpu_upload(void *dev, const void *host, size_t bytes)
{
    cudaError_t e = cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_EDEVICE, "upload: %s", cudaGetErrorString(e));
}

extern "C" cuzk_status cuzk_gpu_download(void *host, const void *dev, size_t bytes)
{
    cudaError_t e = cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_EDEVICE, "download: %s", cudaGetErrorString(e));
}
