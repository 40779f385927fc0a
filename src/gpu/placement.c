/* Where a prover keeps a circuit's parameters on a GPU (cuzk_gpu_place in gpu.h): the sizes of
 * each placement's device memory, from the circuit's shape and the prover's stages. Plain C,
 * the same with and without CUDA, so the choice is tested on machines without a GPU.
 *
 * Resident: every base on the device (phi(H) beside H where it fits: 96 bytes more per H point),
 * the precompiled circuit where it fits too, and the workspace of the overlapped stages (L, A, B
 * beside the NTTs) per domain element as measured for a 32 GiB partition (the memory pool's
 * high-water mark): about 231 bytes with the H MSM's split (H200, the circuit's 52 bytes per
 * element apart), 196 without (H100, a, b, c from the CPU); the constants add a margin.
 *
 * The order of preference: resident with the precompiled circuit, then streamed with it (its
 * SpMV saves the CPU a, b, c, which cost more than the copies), then either without it.
 *
 * Streamed: the bases stay in host memory and the stages run one after another, so the peak is
 * the largest of: the NTTs (a, b, c), the H MSM (its scalars and an MSM's workspace), the L/A/B
 * MSMs (the assignment, the 0/1 split's tail and scratch, an MSM's workspace). An MSM's workspace
 * is its two chunk buffers (cap points of the largest kind, G2 or G1 with phi), its digit
 * arrays, its bucket arrays (two: the running sum and the chunk's) and the first round's slots.
 * The largest chunk whose peak fits is chosen, then per stage the largest window limit: the H
 * MSM (the most compute, its copies hidden) and the L, A, B MSMs (bound by their copies, beside
 * the split's arrays) each get their own, since wider windows cost bucket memory and save sums. */
#include <stdio.h>
#include <string.h>

#include "cuzk/gpu.h"

#define G1_BYTES 96u
#define G2_BYTES 192u
#define FR_BYTES 32u
#define XYZZ_G1 192u /* an XYZZ point: four coordinates */
#define XYZZ_G2 384u
#define RESIDENT_WS_GLV 240u /* bytes per domain element */
#define RESIDENT_WS_PLAIN 205u
#define FIXED_BYTES (256ull << 20) /* NTT tables, sort and scan scratch, the host's small buffers */
#define CHUNK_LOG_MAX 24
#define CHUNK_LOG_MIN 10
#define WINDOW_MAX 21
#define WINDOW_MAX_H 22 /* the split H MSM's own limit (msm.cuh: 6 windows of 129-bit halves) */
#define WINDOW_MIN 12

const char *cuzk_gpu_placement_name(cuzk_gpu_placement_kind k)
{
    return k == CUZK_GPU_STREAMED ? "streamed" : "resident";
}

static unsigned log2_ceil(uint64_t v)
{
    unsigned l = 0;
    while (l < 63 && ((uint64_t)1 << l) < v) l++;
    return l;
}

static uint64_t domain(const cuzk_gpu_shape *sh) { return (uint64_t)1 << log2_ceil(sh->n ? sh->n : 1); }

static uint64_t params_bytes(const cuzk_gpu_shape *sh, bool glv)
{
    return ((uint64_t)sh->n_h * (glv ? 2 : 1) + sh->n_l + sh->n_a + sh->n_b) * G1_BYTES + (uint64_t)sh->n_b * G2_BYTES;
}

/* windows of c bits for scalars of `bits` bits (msm.cuh: signed digits) */
static uint64_t windows(unsigned c, unsigned bits) { return (bits + c - 1) / c; }

/* an MSM's device workspace over chunks of cap bases: per entries per scalar (2 with the
 * scalar split, whose halves have 129 bits), window bits at most c, xyzz bytes per point */
static uint64_t msm_bytes(uint64_t cap, unsigned per, unsigned c, unsigned xyzz, unsigned sms)
{
    const uint64_t nw = windows(c, per == 2 ? 129 : 256);
    const uint64_t M = nw * per * cap;
    const uint64_t buffers = 2 * cap * G2_BYTES; /* two chunk buffers: G2, or G1 with phi */
    const uint64_t digits = 4 * M * 4;           /* keys, values and the sort's other pair */
    const uint64_t buckets = 2 * nw * ((uint64_t)1 << (c - 1)) * xyzz;
    uint64_t nslots = 2 * ((M + 15) / 16), most = 4096ull * (sms ? sms : 132);
    if (nslots > most) nslots = most;
    const uint64_t slots = nslots * (16 + 2ull * xyzz);
    const uint64_t reduce = 4 * nw * (((uint64_t)1 << (c - 1)) / 16 + 1) * xyzz;
    return buffers + digits + buckets + slots + reduce;
}

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* The streamed placement's stages' peaks beside the precompiled circuit (pce: the witness is on
 * the device from the start, for the SpMV): the NTTs, the H MSM with windows of at most c_h
 * bits, the L/A/B MSMs with at most c. */
static uint64_t ntt_peak(const cuzk_gpu_shape *sh, bool pce)
{
    const uint64_t w = (uint64_t)sh->num_inputs + sh->num_aux;
    return 3 * domain(sh) * FR_BYTES + (pce ? w * FR_BYTES : 0);
}

static uint64_t h_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c_h, bool glv, bool pce)
{
    const uint64_t w = (uint64_t)sh->num_inputs + sh->num_aux;
    return domain(sh) * FR_BYTES + msm_bytes(cap, glv ? 2 : 1, c_h, XYZZ_G1, sh->sms) + (pce ? w * FR_BYTES : 0);
}

static uint64_t lab_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c)
{
    const uint64_t w = (uint64_t)sh->num_inputs + sh->num_aux;
    /* the assignment, the tail's scalars and indices, the split's class bytes, four word
     * arrays and the ones list */
    const uint64_t split = w * FR_BYTES + w * FR_BYTES + 4 * w + w + 16 * w + 4 * w;
    const uint64_t m1 = msm_bytes(cap, 1, c, XYZZ_G1, sh->sms),
                   m2 = msm_bytes(cap, 1, c > 20 ? 20 : c, XYZZ_G2, sh->sms);
    return split + (m1 > m2 ? m1 : m2);
}

static uint64_t streamed_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c, unsigned c_h, bool glv, bool pce)
{
    return max3(ntt_peak(sh, pce), h_peak(sh, cap, c_h, glv, pce), lab_peak(sh, cap, c)) + FIXED_BYTES;
}

static double gib(uint64_t b) { return (double)b / (double)(1ull << 30); }

static uint64_t resident_ws(const cuzk_gpu_shape *sh, bool glv)
{
    return (glv ? RESIDENT_WS_GLV : RESIDENT_WS_PLAIN) * domain(sh) + FIXED_BYTES;
}

/* resident, with the precompiled circuit (pce 1) or without (0) */
static bool place_resident(const cuzk_gpu_shape *sh, uint64_t room, bool glv_ok, int pce, cuzk_gpu_placement *out)
{
    /* phi(H) (a faster H MSM) where it fits */
    for (int glv = glv_ok ? 1 : 0; glv >= 0; glv--) {
        const uint64_t pb = params_bytes(sh, glv), cb = pce ? sh->pce_bytes : 0, ws = resident_ws(sh, glv);
        if (pb + cb + ws > room) continue;
        out->kind = CUZK_GPU_RESIDENT;
        out->h_glv = glv;
        out->pce_on_device = pce;
        out->params_device_bytes = pb;
        out->pce_device_bytes = cb;
        out->workspace_bytes = ws;
        snprintf(out->why, sizeof out->why,
                 "resident: parameters %.2f GiB%s, %s and a proof's workspace %.2f GiB fit the %.2f GiB the "
                 "device may use",
                 gib(pb), glv ? " (phi(H) included)" : "", pce ? "the precompiled circuit" : "a, b, c from the CPU",
                 gib(ws), gib(room));
        return true;
    }
    return false;
}

/* streamed, with the precompiled circuit (pce 1) or without (0) */
static bool place_streamed(const cuzk_gpu_shape *sh, uint64_t room, bool glv, unsigned chunk_log, int pce,
                           cuzk_gpu_placement *out)
{
    unsigned top = chunk_log ? chunk_log : CHUNK_LOG_MAX, bottom = chunk_log ? chunk_log : CHUNK_LOG_MIN;
    /* no chunk larger than the largest section needs */
    const uint64_t most = max3(sh->n_h, sh->n_l, max3(sh->n_a, sh->n_b, 1));
    while (!chunk_log && top > bottom && ((uint64_t)1 << (top - 1)) >= most) top--;
    const uint64_t pce_b = pce ? sh->pce_bytes : 0;
    for (unsigned cl = top; cl + 1 > bottom; cl--) {
        const uint64_t cap = (uint64_t)1 << cl;
        /* the widest windows each stage's peak allows; the stages do not overlap */
        unsigned c = WINDOW_MAX, c_h = glv ? WINDOW_MAX_H : WINDOW_MAX;
        while (c >= WINDOW_MIN && max3(ntt_peak(sh, pce), lab_peak(sh, cap, c), 0) + FIXED_BYTES + pce_b > room) c--;
        while (c_h >= WINDOW_MIN && h_peak(sh, cap, c_h, glv, pce) + FIXED_BYTES + pce_b > room) c_h--;
        if (c < WINDOW_MIN || c_h < WINDOW_MIN) continue;
        const uint64_t peak = streamed_peak(sh, cap, c, c_h, glv, pce) + pce_b;
        out->kind = CUZK_GPU_STREAMED;
        out->h_glv = glv;
        out->pce_on_device = pce;
        out->params_device_bytes = 0;
        out->pce_device_bytes = pce_b;
        out->workspace_bytes = peak - pce_b;
        out->pinned_host_bytes = params_bytes(sh, false);
        out->chunk_points = cap;
        out->window_max = c;
        out->window_max_h = c_h;
        return true;
    }
    return false;
}

cuzk_status cuzk_gpu_place(const cuzk_gpu_shape *sh, uint64_t room, const cuzk_gpu_config *cfg, cuzk_gpu_placement *out)
{
    cuzk_gpu_config dflt;
    if (!cfg) {
        cuzk_gpu_config_default(&dflt);
        cfg = &dflt;
    }
    memset(out, 0, sizeof *out);
    const char *mode = cfg->placement[0] ? cfg->placement : "auto";
    const bool any = !strcmp(mode, "auto"), res = !strcmp(mode, "resident"), str = !strcmp(mode, "streamed");
    if (!any && !res && !str)
        return cuzk_fail(CUZK_EINVAL, "gpu.placement is \"%s\": it must be auto, resident or streamed", mode);
    const bool glv = cfg->h_glv && sh->n_h > 0 && 2 * (uint64_t)sh->n_h < 0x7fffffffu;
    bool placed = false;
    for (int pce = sh->pce_bytes > 0; pce >= 0 && !placed; pce--) {
        placed = !str && place_resident(sh, room, glv, pce, out);
        if (!placed && !res) placed = place_streamed(sh, room, glv, cfg->stream_chunk_log, pce, out);
    }
    if (placed && out->kind == CUZK_GPU_RESIDENT) return CUZK_OK;
    if (res)
        return cuzk_fail(CUZK_EINVAL,
                         "gpu.placement is resident, but the parameters (%.2f GiB) and a proof's workspace (%.2f "
                         "GiB) do not fit the %.2f GiB the device may use",
                         gib(params_bytes(sh, false)), gib(resident_ws(sh, false)), gib(room));
    if (placed) {
        snprintf(out->why, sizeof out->why,
                 "streamed%s: parameters %.2f GiB in host memory, chunks of 2^%u bases, windows of at most %u "
                 "bits (H: %u), workspace %.2f GiB%s of the %.2f GiB the device may use",
                 str ? " (gpu.placement)" : "", gib(out->pinned_host_bytes), log2_ceil(out->chunk_points),
                 out->window_max, out->window_max_h, gib(out->workspace_bytes),
                 out->pce_on_device ? " plus the precompiled circuit" : "", gib(room));
        return CUZK_OK;
    }
    const unsigned cl = cfg->stream_chunk_log ? cfg->stream_chunk_log : CHUNK_LOG_MIN;
    return cuzk_fail(CUZK_EBUDGET,
                     "the device may use %.2f GiB; a proof of this circuit (domain 2^%u, %zu private values) needs "
                     "at least %.2f GiB even with its parameters streamed from host memory (chunks of 2^%u bases, "
                     "windows of %u bits)",
                     gib(room), log2_ceil(domain(sh)), sh->num_aux,
                     gib(streamed_peak(sh, (uint64_t)1 << cl, WINDOW_MIN, WINDOW_MIN, glv, false)), cl, WINDOW_MIN);
}
