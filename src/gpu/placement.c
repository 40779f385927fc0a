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
 * SpMV saves the CPU a, b, c, which cost more than the copies) where it costs the MSMs no chunk
 * size or window that its matrices streamed would keep (msms_lose), then either with its
 * matrices streamed from host memory for the SpMV (two chunk buffers beside the witness and,
 * streamed, two of a, b, c at a time; the plan, coefficients and bitmaps on the device), then
 * either with a, b, c from the CPU.
 *
 * Streamed: the bases stay in host memory and the stages run one after another, so the peak is
 * the largest of: the NTTs (a, b, c), the H MSM (its scalars and an MSM's workspace), the L/A/B
 * MSMs of a batch (every proof's witness, each one's buckets, one chunk's 0/1 split, an MSM's
 * workspace); where L, A and B run beside the last proof's H MSM, the last two together, L, A and
 * B with CUZK_GPU_BESIDE_BUFS chunk buffers; where they run apart, on their own streams from the
 * batch's start (gpu.stream_lab_concurrent), the larger of the NTTs' and the H MSM's plus theirs,
 * with chunk buffers of their own. With compact witnesses (gpu.stream_compact_permille; the
 * precompiled circuit's SpMV copy of each witness made compact: compact_witness.cuh) each proof's
 * witness is its compact form's size, and it stays on the device through every stage of the
 * batch from its SpMV on. An MSM's workspace is its two chunk buffers (cap points of the
 * largest kind, G2 or G1 with phi), its digit arrays, its bucket arrays (two: the running sum and the chunk's) and
 * the first round's slots. Among the chunks, window limits and batch sizes that fit, `better`
 * picks one: the H MSM (the most compute, its copies hidden) gets its own window limit; the L,
 * A, B MSMs, bound by their copies, first a second proof per pass (half the copies), then wider
 * windows (fewer sums), then more proofs. */
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
#define CHUNK_LOG_GOOD 22 /* below this, the per-chunk work (merges, launches) starts to count */
#define WINDOW_MAX 21
#define WINDOW_MAX_H 22 /* the split H MSM's own limit (msm.cuh: 6 windows of 129-bit halves) */
#define WINDOW_MIN 12
#define BATCH_MAX 10 /* a 32 GiB PoRep's partitions: more proofs per pass would wait on witnesses */

/* where a, b, c come from: the precompiled circuit on the device, its matrices streamed, the CPU */
enum { PCE_NONE = 0, PCE_DEVICE = 1, PCE_STREAMED = 2 };

const char *cuzk_gpu_placement_name(cuzk_gpu_placement_kind k)
{
    return k == CUZK_GPU_MAPPED ? "mapped" : k == CUZK_GPU_STREAMED ? "streamed" : "resident";
}

bool cuzk_gpu_placement_streams(const cuzk_gpu_placement *pl) { return pl && pl->kind != CUZK_GPU_RESIDENT; }

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

static uint64_t words_bytes(uint64_t bits) { return (bits + 63) / 64 * 8; }

/* a matrix's long-row plan as spmv.cuh's spmv_plan_build makes it: the rows of more than
 * CUZK_GPU_SPMV_SEG terms, their segments, the groups of every level, and the partial sums the
 * SpMV keeps (the segments' and those of every level but the last) */
typedef struct {
    uint64_t nlong, nseg, groups, partials;
} spmv_plan_size;

static uint64_t segments_of(uint32_t len) { return (len + CUZK_GPU_SPMV_SEG - 1) / CUZK_GPU_SPMV_SEG; }

static spmv_plan_size plan_size(const uint32_t *row_ptr, size_t nrows)
{
    spmv_plan_size z = {0, 0, 0, 0};
    uint64_t most = 0; /* the most segments of a row: the levels below come from it */
    for (size_t r = 0; r < nrows; r++) {
        const uint32_t len = row_ptr[r + 1] - row_ptr[r];
        if (len <= CUZK_GPU_SPMV_SEG) continue;
        const uint64_t s = segments_of(len);
        z.nlong++;
        z.nseg += s;
        if (s > most) most = s;
    }
    if (!z.nlong) return z;
    unsigned inner = 0; /* levels before the last: while some row has more than SEG sums */
    for (uint64_t t = most; t > CUZK_GPU_SPMV_SEG; t = (t + CUZK_GPU_SPMV_SEG - 1) / CUZK_GPU_SPMV_SEG) inner++;
    z.partials = z.nseg;
    z.groups = z.nlong; /* the last level: one group per row */
    for (size_t r = 0; inner && r < nrows; r++) {
        const uint32_t len = row_ptr[r + 1] - row_ptr[r];
        if (len <= CUZK_GPU_SPMV_SEG) continue;
        uint64_t c = segments_of(len);
        for (unsigned l = 0; l < inner; l++) {
            c = (c + CUZK_GPU_SPMV_SEG - 1) / CUZK_GPU_SPMV_SEG;
            z.partials += c;
            z.groups += c;
        }
    }
    return z;
}

uint64_t cuzk_gpu_pce_stream_bytes(const cuzk_pce *p)
{
    uint64_t b = (uint64_t)p->ncoeffs * FR_BYTES + 2 * words_bytes(p->num_aux) + words_bytes(p->num_inputs);
    const uint64_t n = (uint64_t)p->num_constraints + p->num_inputs;
    uint64_t N = 1;
    while (N < n) N <<= 1;
    for (int k = 0; k < 3; k++) {
        /* the plan's arrays (long rows, segments' begin and end, group offsets and one more per
         * level) on the device, and the SpMV's partial sums: A's go into b's vector, not yet
         * made, where they fit it (spmv_pass::matrix's spare), B's and C's beside a and b */
        const spmv_plan_size z = plan_size(p->row_ptr[k], p->num_constraints);
        b += 4 * (z.nlong + 2 * z.nseg) + 4 * (z.groups + 32);
        if (k > 0 || z.partials > N) b += z.partials * FR_BYTES;
    }
    return b + (64u << 10); /* each array at a 256-byte boundary */
}

/* the device bytes of a circuit whose matrices are streamed: measured, or for a circuit not yet
 * recorded its bitmaps and a 64th of its size (the coefficient table and the long-row plan) */
static uint64_t pce_stream_bytes_of(const cuzk_gpu_shape *sh)
{
    if (sh->pce_stream_bytes) return sh->pce_stream_bytes;
    return 2 * words_bytes(sh->num_aux) + words_bytes(sh->num_inputs) + sh->pce_bytes / 64;
}

/* the precompiled circuit's device bytes in mode pce */
static uint64_t pce_device_bytes(const cuzk_gpu_shape *sh, int pce)
{
    return pce == PCE_DEVICE ? sh->pce_bytes : pce == PCE_STREAMED ? pce_stream_bytes_of(sh) : 0;
}

/* the SpMV's two chunk buffers of streamed matrices */
static uint64_t pce_chunks(int pce) { return pce == PCE_STREAMED ? 2 * CUZK_GPU_PCE_CHUNK_BYTES : 0; }

/* windows of c bits for scalars of `bits` bits (msm.cuh: signed digits) */
static uint64_t windows(unsigned c, unsigned bits) { return (bits + c - 1) / c; }

/* the (key, value) entries of a chunk of cap scalars: one per window and scalar part (per: 2
 * with the scalar split, whose halves have 129 bits) */
static uint64_t msm_entries(uint64_t cap, unsigned per, unsigned c)
{
    return windows(c, per == 2 ? 129 : 256) * per * cap;
}

/* an MSM's device workspace over chunks of cap bases: per entries per scalar, window bits at
 * most c, xyzz bytes per point */
static uint64_t msm_bytes(uint64_t cap, unsigned per, unsigned c, unsigned xyzz, unsigned sms)
{
    const uint64_t nw = windows(c, per == 2 ? 129 : 256);
    const uint64_t M = msm_entries(cap, per, c);
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

/* The streamed placement's stages' peaks beside the precompiled circuit: the SpMV and the NTTs,
 * the H MSM with windows of at most c_h bits, the L/A/B MSMs with at most c. The NTTs: a, b, c
 * uploaded from the CPU; or, with the SpMV (pce), the witness on the device, the chunk buffers
 * of streamed matrices and two of a, b, c (c is made once a b is, in b's place: prover.cu's
 * setup_pce_h). */
static uint64_t ntt_peak(const cuzk_gpu_shape *sh, int pce, unsigned batch, uint64_t cw)
{
    const uint64_t w = (uint64_t)sh->num_inputs + sh->num_aux;
    return pce ? 2 * domain(sh) * FR_BYTES + w * FR_BYTES + pce_chunks(pce) + batch * cw : 3 * domain(sh) * FR_BYTES;
}

/* (the witness leaves the device after the SpMV, for L, A and B to bring back, or stays in compact
 * form: the caller adds it); ahead: the next
 * chunk's digits sorted while one is summed, in a second set of keys and values */
static uint64_t h_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c_h, bool glv, bool ahead)
{
    const unsigned per = glv ? 2 : 1;
    const uint64_t second_set = ahead ? 2 * msm_entries(cap, per, c_h) * 4 : 0;
    return domain(sh) * FR_BYTES + msm_bytes(cap, per, c_h, XYZZ_G1, sh->sms) + second_set;
}

/* an MSM's bucket array (windows of at most c bits) */
static uint64_t bucket_bytes(unsigned c, unsigned xyzz) { return windows(c, 256) * ((uint64_t)1 << (c - 1)) * xyzz; }

/* three density bitmaps with their ranks */
static uint64_t densities_bytes(const cuzk_gpu_shape *sh)
{
    const uint64_t w = (uint64_t)sh->num_inputs + sh->num_aux;
    return 3 * (w / 8 + 8) + 2 * (w / 16 + 8);
}

/* a proof's witness on the device: the assignment and the densities */
static uint64_t witness_bytes(const cuzk_gpu_shape *sh)
{
    return ((uint64_t)sh->num_inputs + sh->num_aux) * FR_BYTES + densities_bytes(sh);
}

/* a proof's witness in compact form for L, A and B (prover.cu's compact_witness), made from its
 * SpMV copy: the inputs, two bits per aux value, a rank per 64 of them (and the counts they are
 * made from), room for `vals` other values; the densities */
static uint64_t compact_bytes(const cuzk_gpu_shape *sh, uint64_t vals)
{
    return (uint64_t)sh->num_inputs * FR_BYTES + 2 * words_bytes(sh->num_aux) + 2 * 4 * (sh->num_aux / 64 + 2) +
        vals * FR_BYTES + densities_bytes(sh);
}

/* L, A and B for a batch of `batch` proofs (streamed_batch): their witnesses (full, or of cw
 * bytes each in compact form, with one chunk's values expanded), each proof's buckets beyond the
 * pipeline's own, the MSM's workspace and one chunk's 0/1 split (the class bytes, four word
 * arrays, the ones list, the tail's scalars and indices) */
static uint64_t lab_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c, unsigned batch, uint64_t cw)
{
    const unsigned c2 = c > 20 ? 20 : c;
    const uint64_t split = cap * (1 + 16 + 4 + FR_BYTES + 4) + (cw ? cap * FR_BYTES : 0);
    const uint64_t m1 = msm_bytes(cap, 1, c, XYZZ_G1, sh->sms) + (batch - 1) * bucket_bytes(c, XYZZ_G1),
                   m2 = msm_bytes(cap, 1, c2, XYZZ_G2, sh->sms) + (batch - 1) * bucket_bytes(c2, XYZZ_G2);
    return batch * (cw ? cw : witness_bytes(sh)) + split + (m1 > m2 ? m1 : m2);
}

/* the peak of a batch: each proof's NTTs and H MSM in turn (its witness, if uploaded for the
 * SpMV, gone before the H MSM), then L, A and B with every proof's witness on the device; or,
 * beside, L, A and B (with chunk buffers of their own) during the last proof's H MSM. wit_h:
 * witnesses on the device beside the last H MSM, uploaded for L, A and B (L, A, B after it).
 * cw: each proof's witness kept in compact form from its SpMV on (cw bytes), through every
 * later stage of the batch; 0: full witnesses, uploaded again for L, A and B */
static uint64_t streamed_peak(const cuzk_gpu_shape *sh, uint64_t cap, unsigned c, unsigned c_h, bool glv, bool ahead,
                              int pce, unsigned batch, bool beside, unsigned wit_h, uint64_t cw)
{
    const uint64_t h = h_peak(sh, cap, c_h, glv, ahead) + (cw ? batch * cw : wit_h * witness_bytes(sh)),
                   lab = lab_peak(sh, cap, c, batch, cw);
    const uint64_t more_bufs = (CUZK_GPU_BESIDE_BUFS - 2) * cap * G2_BYTES; /* msm_bytes counts two */
    return max3(ntt_peak(sh, pce, batch, cw), h, beside ? h + lab + more_bufs : lab) + FIXED_BYTES;
}

static double gib(uint64_t b) { return (double)b / (double)(1ull << 30); }

static uint64_t resident_ws(const cuzk_gpu_shape *sh, bool glv)
{
    return (glv ? RESIDENT_WS_GLV : RESIDENT_WS_PLAIN) * domain(sh) + FIXED_BYTES;
}

/* what a placement's a, b, c come from, in its why */
static const char *abc_source(int pce)
{
    return pce == PCE_DEVICE  ? "the precompiled circuit"
        : pce == PCE_STREAMED ? "the precompiled circuit's matrices streamed for the SpMV"
                              : "a, b, c from the CPU";
}

/* resident, a, b, c as pce says */
static bool place_resident(const cuzk_gpu_shape *sh, uint64_t room, bool glv_ok, int pce, cuzk_gpu_placement *out)
{
    /* phi(H) (a faster H MSM) where it fits */
    for (int glv = glv_ok ? 1 : 0; glv >= 0; glv--) {
        const uint64_t pb = params_bytes(sh, glv), cb = pce_device_bytes(sh, pce),
                       ws = resident_ws(sh, glv) + pce_chunks(pce);
        if (pb + cb + ws > room) continue;
        out->kind = CUZK_GPU_RESIDENT;
        out->batch_max = 1;
        out->h_glv = glv;
        out->pce_on_device = pce == PCE_DEVICE;
        out->pce_streamed = pce == PCE_STREAMED;
        out->params_device_bytes = pb;
        out->pce_device_bytes = cb;
        out->workspace_bytes = ws;
        out->room = room;
        snprintf(out->why, sizeof out->why,
                 "resident: parameters %.2f GiB%s, %s and a proof's workspace %.2f GiB fit the %.2f GiB the "
                 "device may use",
                 gib(pb), glv ? " (phi(H) included)" : "", abc_source(pce), gib(ws), gib(room));
        return true;
    }
    return false;
}

/* A streamed candidate: chunks of 2^cl bases, windows of at most c bits (H: c_h), batches of up
 * to `batch` proofs; ok when it fits. */
typedef struct {
    bool ok;
    unsigned cl, c, c_h, batch;
    bool beside;     /* L, A, B beside the last H MSM */
    bool ahead;      /* the H MSM sorts a chunk ahead */
    unsigned lab_cl; /* L, A, B on their own streams beside the batch, in chunks of 2^lab_cl (0: not) */
    bool compact;    /* the batch's witnesses kept in compact form from their SpMV on */
} stream_pick;

/* Which of two candidates is better: chunks of at least 2^CHUNK_LOG_GOOD (smaller ones multiply
 * the per-chunk work), then L, A, B apart (their copies hidden behind every proof's compute),
 * then a second proof per pass (it halves the L, A, B copies, the most the link carries; measured
 * ahead of the next on an H100 at 24 GiB), then L, A, B beside the H MSM (their copies hidden
 * behind its sums), then L, A, B chunks at least 8 times the buckets of a window (each chunk's
 * buckets are merged into the running ones: 2^(c-1) additions per window, against a chunk's one
 * per scalar), then wider windows (fewer bucket sums), then more proofs per pass, then the H
 * MSM's windows, then larger chunks (H's, then L, A, B's own), then H sorting a chunk ahead, then
 * full witnesses over compact ones (a witness with more other values than the compact form has
 * room for costs its L, A, B a copy of its values a piece at a time). */
#define PICK_KEYS 12
/* a candidate's keys for `better`, most significant first */
static void pick_keys(const stream_pick *p, unsigned k[PICK_KEYS])
{
    const unsigned lab_cl = p->lab_cl ? p->lab_cl : p->cl; /* the L, A, B MSMs' chunks */
    const unsigned keys[PICK_KEYS] = {p->cl >= CHUNK_LOG_GOOD,
                                      p->lab_cl > 0,
                                      p->batch >= 2,
                                      p->beside,
                                      lab_cl >= p->c - 1 + 3,
                                      p->c,
                                      p->batch,
                                      p->c_h,
                                      p->cl,
                                      p->lab_cl,
                                      p->ahead,
                                      !p->compact};
    memcpy(k, keys, sizeof keys);
}

static bool better(const stream_pick *a, const stream_pick *b)
{
    if (!b->ok) return a->ok;
    if (!a->ok) return false;
    unsigned ka[PICK_KEYS], kb[PICK_KEYS];
    pick_keys(a, ka);
    pick_keys(b, kb);
    for (int i = 0; i < PICK_KEYS; i++)
        if (ka[i] != kb[i]) return ka[i] > kb[i];
    return false;
}

/* L, A, B on their own streams beside a batch (prover.cu's lab_apart), beside main_peak (the
 * larger of the NTTs' and the H MSM's, h's chunks and windows): per batch of at most `batch`
 * proofs and chunk of at most h's (not below 2^least), the widest windows that fit, each a
 * candidate for best */
static void apart_picks(const cuzk_gpu_shape *sh, uint64_t room, uint64_t main_peak, const stream_pick *h,
                        unsigned least, unsigned batch, stream_pick *best)
{
    for (unsigned b = 1; b <= batch; b++)
        for (unsigned cl = h->cl; cl + 1 > least; cl--) {
            unsigned c = WINDOW_MAX;
            while (c >= WINDOW_MIN && main_peak + lab_peak(sh, (uint64_t)1 << cl, c, b, 0) + FIXED_BYTES > room) c--;
            if (c < WINDOW_MIN) continue;
            stream_pick t = *h;
            t.c = c;
            t.batch = b;
            t.beside = false;
            t.lab_cl = cl;
            t.compact = false;
            if (better(&t, best)) *best = t;
        }
}

/* What a streamed placement may do, from the tuning: chunks of 2^chunk_log bases (0: the largest
 * that fit), at most batch_most proofs per pass; beside_ok: L, A, B may run beside the H MSM;
 * wit_ok: witnesses may go to the device during the last H MSM; apart_ok: L, A, B may run on
 * their own streams beside the batch; compact_vals: with the precompiled circuit, the other
 * values a compact witness has room for (0: full witnesses only) */
typedef struct {
    unsigned chunk_log, batch_most;
    bool beside_ok, wit_ok, apart_ok;
    uint64_t compact_vals;
} stream_opts;

/* the H MSM's widest windows beside `beside` bytes (with chunks of cap bases), WINDOW_MIN - 1
 * where none fit */
static unsigned h_windows(const cuzk_gpu_shape *sh, uint64_t cap, bool glv, uint64_t beside, uint64_t room)
{
    unsigned c_h = glv ? WINDOW_MAX_H : WINDOW_MAX;
    while (c_h >= WINDOW_MIN && h_peak(sh, cap, c_h, glv, false) + beside + FIXED_BYTES > room) c_h--;
    return c_h;
}

/* streamed, a, b, c as pce says, as o allows */
static bool place_streamed(const cuzk_gpu_shape *sh, uint64_t room, bool glv, const stream_opts *o, int pce,
                           cuzk_gpu_placement *out)
{
    unsigned top = o->chunk_log ? o->chunk_log : CHUNK_LOG_MAX, bottom = o->chunk_log ? o->chunk_log : CHUNK_LOG_MIN;
    /* no chunk larger than the largest section needs */
    const uint64_t most = max3(sh->n_h, sh->n_l, max3(sh->n_a, sh->n_b, 1));
    while (!o->chunk_log && top > bottom && ((uint64_t)1 << (top - 1)) >= most) top--;
    const uint64_t pce_b = pce_device_bytes(sh, pce);
    /* compact witnesses: for circuits whose values are nearly all 0 or 1 (for others the values
     * would be copied from the host a piece at a time, four times a proof), made from the SpMV's
     * copy of each witness */
    const uint64_t cw = sh->mostly_bits && pce != PCE_NONE && o->compact_vals ? compact_bytes(sh, o->compact_vals) : 0;
    stream_pick best = {false, 0, 0, 0, 0, false, false, 0, false};
    for (unsigned cl = top; cl + 1 > bottom; cl--) {
        const uint64_t cap = (uint64_t)1 << cl;
        /* the H MSM's widest windows alone (no witnesses beside it) */
        const unsigned top_h = h_windows(sh, cap, glv, pce_b, room);
        if (top_h < WINDOW_MIN) continue;
        /* the sort ahead where it fits with those windows (it hid 20 to 25 ms of a 0.8 s H MSM on
         * an H100; narrower windows or smaller chunks would cost more than that) */
        const bool ahead = h_peak(sh, cap, top_h, glv, true) + FIXED_BYTES + pce_b <= room;
        /* per batch size, the widest windows of L, A, B that fit beside the batch's witnesses;
         * then, beside the H MSM's workspace too, where they keep those windows: narrower ones
         * add more sums than the copies hidden save (H100, 24 GiB: H at 21 bits beside L, A, B
         * at 17 took 3.53 s a batch of two, against 3.41 s one after another at 22 and 21).
         * Compact witnesses stay beside every stage: the H MSM's windows, and its sort ahead,
         * are those that fit beside the batch's */
        for (int compact = 0; compact <= (cw ? 1 : 0); compact++)
            for (unsigned batch = 1; batch <= o->batch_most; batch++) {
                const uint64_t kept = compact ? batch * cw : 0;
                const unsigned c_h = compact ? h_windows(sh, cap, glv, pce_b + kept, room) : top_h;
                if (c_h < WINDOW_MIN) break;
                const bool a = compact ? h_peak(sh, cap, c_h, glv, true) + kept + FIXED_BYTES + pce_b <= room : ahead;
                const uint64_t w = compact ? cw : 0;
                unsigned c = WINDOW_MAX;
                while (c >= WINDOW_MIN &&
                       streamed_peak(sh, cap, c, c_h, glv, a, pce, batch, false, 0, w) + pce_b > room)
                    c--;
                if (c < WINDOW_MIN) break;
                /* those windows, and the widest that keep the chunks at least 8 times a window's
                 * buckets (better's key: narrower but merged less often) */
                const unsigned keep8 = cl - 2, cs[2] = {c, keep8 >= WINDOW_MIN && keep8 < c ? keep8 : c};
                for (int k = 0; k < (cs[1] != c ? 2 : 1); k++) {
                    const bool beside = o->beside_ok &&
                        streamed_peak(sh, cap, cs[k], c_h, glv, a, pce, batch, true, 0, w) + pce_b <= room;
                    stream_pick t = {true, cl, cs[k], c_h, batch, beside, a, 0, compact != 0};
                    if (better(&t, &best)) best = t;
                }
            }
        /* L, A, B apart, beside this H MSM's workspace (with its sort ahead, and without: worth
         * less than them) and the NTTs': their own chunks (not below 2^CHUNK_LOG_GOOD where H's
         * are not), windows and batch; their witnesses uploaded from the batch's start, full */
        for (int a = ahead ? 1 : 0; o->apart_ok && a >= 0; a--) {
            const stream_pick h = {true, cl, 0, top_h, 1, false, a != 0, 0, false};
            apart_picks(sh, room - pce_b, max3(ntt_peak(sh, pce, 0, 0), h_peak(sh, cap, top_h, glv, a != 0), 0), &h,
                        cl < CHUNK_LOG_GOOD ? cl : CHUNK_LOG_GOOD, o->batch_most, &best);
        }
    }
    if (!best.ok) return false;
    const uint64_t cap = (uint64_t)1 << best.cl, lab_cap = best.lab_cl ? (uint64_t)1 << best.lab_cl : 0;
    const uint64_t w = best.compact ? cw : 0;
    /* L, A, B after H, full witnesses: as many of the batch's witnesses as fit beside the last H
     * MSM go to the device during it (the link carries them while H's chunks are summed), chosen
     * after the rest so that they cost nothing else */
    unsigned wit_h = best.beside || best.lab_cl || best.compact || !o->wit_ok ? 0 : best.batch;
    while (wit_h > 0 &&
           streamed_peak(sh, cap, best.c, best.c_h, glv, best.ahead, pce, best.batch, false, wit_h, 0) + pce_b > room)
        wit_h--;
    const uint64_t peak = best.lab_cl
        ? max3(ntt_peak(sh, pce, 0, 0), h_peak(sh, cap, best.c_h, glv, best.ahead), 0) +
            lab_peak(sh, lab_cap, best.c, best.batch, 0) + FIXED_BYTES + pce_b
        : streamed_peak(sh, cap, best.c, best.c_h, glv, best.ahead, pce, best.batch, best.beside, wit_h, w) + pce_b;
    out->kind = CUZK_GPU_STREAMED;
    out->h_glv = glv;
    out->pce_on_device = pce == PCE_DEVICE;
    out->pce_streamed = pce == PCE_STREAMED;
    out->params_device_bytes = 0;
    out->pce_device_bytes = pce_b;
    out->workspace_bytes = peak - pce_b;
    out->pinned_host_bytes = params_bytes(sh, false);
    out->chunk_points = cap;
    out->window_max = best.c;
    out->window_max_h = best.c_h;
    out->batch_max = best.batch;
    out->lab_beside_h = best.beside;
    out->h_sort_ahead = best.ahead;
    out->witnesses_before_h = wit_h;
    out->lab_concurrent = best.lab_cl > 0;
    out->lab_chunk_points = lab_cap;
    out->compact_vals = best.compact ? o->compact_vals : 0;
    return true;
}

/* Whether streamed placement a gives the MSMs less than b: smaller chunks, narrower windows
 * (L, A, B's or H's), no second proof per pass, or no L, A, B beside H or no sort ahead that b
 * has. More proofs per pass beyond two do not count: the engine's default witness buffers batch
 * two (engine.witness_buffers), and a pass's copies are halved by the second. */
static bool msms_lose(const cuzk_gpu_placement *a, const cuzk_gpu_placement *b)
{
    if (a->lab_concurrent != b->lab_concurrent) return b->lab_concurrent;
    return a->chunk_points < b->chunk_points || a->window_max < b->window_max || a->window_max_h < b->window_max_h ||
        (a->batch_max < 2 && b->batch_max >= 2) || (!a->lab_beside_h && b->lab_beside_h) ||
        (!a->h_sort_ahead && b->h_sort_ahead) || a->lab_chunk_points < b->lab_chunk_points;
}

/* the witnesses a streamed placement uploads during the last H MSM, in words for its why */
static const char *wit_words(const cuzk_gpu_placement *pl)
{
    if (pl->compact_vals) return ", the witnesses kept in compact form from their SpMV on";
    if (!pl->witnesses_before_h) return "";
    if (pl->witnesses_before_h == 1) return ", a witness uploaded during the last H MSM";
    return pl->witnesses_before_h >= pl->batch_max ? ", the witnesses uploaded during the last H MSM"
                                                   : ", some witnesses uploaded during the last H MSM";
}

/* where a streamed placement's L, A, B run, in words for its why */
static const char *lab_words(const cuzk_gpu_placement *pl, char *w, size_t size)
{
    if (pl->lab_beside_h) return ", L, A, B beside the H MSM";
    if (!pl->lab_concurrent) return "";
    snprintf(w, size, ", L, A, B on their own streams beside the batch (chunks of 2^%u bases)",
             log2_ceil(pl->lab_chunk_points));
    return w;
}

/* a streamed placement's why: what it is (head), where its bases are (where), its sizes */
static void streamed_why(cuzk_gpu_placement *out, const char *head, const char *where)
{
    char lw[96];
    snprintf(out->why, sizeof out->why,
             "%s: parameters %.2f GiB %s, chunks of 2^%u bases, windows of at most %u bits (H: %u), up to %u "
             "proof%s per pass over the bases%s%s%s, workspace %.2f GiB%s of the %.2f GiB the device may use",
             head, gib(out->kind == CUZK_GPU_MAPPED ? out->file_bytes : out->pinned_host_bytes), where,
             log2_ceil(out->chunk_points), out->window_max, out->window_max_h, out->batch_max,
             out->batch_max == 1 ? "" : "s", lab_words(out, lw, sizeof lw),
             out->h_sort_ahead ? ", H sorting a chunk ahead" : "", wit_words(out), gib(out->workspace_bytes),
             out->pce_on_device      ? " plus the precompiled circuit"
                 : out->pce_streamed ? " plus the precompiled circuit's plan (its matrices streamed for the SpMV)"
                                     : "",
             gib(out->room));
}

/* a streamed placement made mapped, its why headed by head */
static void make_mapped(cuzk_gpu_placement *pl, const char *dir, const char *head)
{
    if (pl->kind == CUZK_GPU_STREAMED) {
        pl->file_bytes = pl->pinned_host_bytes;
        pl->pinned_host_bytes = 0;
        pl->kind = CUZK_GPU_MAPPED;
    }
    char where[160];
    snprintf(where, sizeof where, "in a scratch file in %.120s", dir && dir[0] ? dir : "/var/tmp");
    streamed_why(pl, head, where);
}

void cuzk_gpu_place_mapped(cuzk_gpu_placement *pl, const char *dir, uint64_t host_room)
{
    if (pl->kind == CUZK_GPU_RESIDENT) return;
    const uint64_t need = pl->kind == CUZK_GPU_MAPPED ? pl->file_bytes : pl->pinned_host_bytes;
    char head[160];
    snprintf(head, sizeof head, "mapped: the host budget has room for %.2f GiB, not the parameters' %.2f GiB",
             gib(host_room), gib(need));
    make_mapped(pl, dir, head);
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
    const bool any = !strcmp(mode, "auto"), res = !strcmp(mode, "resident"), map = !strcmp(mode, "mapped"),
               str = !strcmp(mode, "streamed") || map;
    if (!any && !res && !str)
        return cuzk_fail(CUZK_EINVAL, "gpu.placement is \"%s\": it must be auto, resident, streamed or mapped", mode);
    const bool glv = cfg->h_glv && sh->n_h > 0 && 2 * (uint64_t)sh->n_h < 0x7fffffffu;
    bool placed = false;
    const stream_opts so = {
        cfg->stream_chunk_log,
        cfg->stream_batch ? cfg->stream_batch : BATCH_MAX,
        cfg->stream_beside,
        cfg->stream_witnesses_during_h,
        cfg->stream_lab_concurrent,
        cfg->stream_compact_permille ? (sh->num_aux * (uint64_t)cfg->stream_compact_permille + 999) / 1000 : 0};
    const int modes[3] = {PCE_DEVICE, PCE_STREAMED, PCE_NONE};
    for (int i = 0; i < 3 && !placed; i++) {
        const int pce = modes[i];
        if ((pce == PCE_DEVICE && !cfg->pce_on_device) || (pce == PCE_STREAMED && !cfg->pce_stream) ||
            (pce != PCE_NONE && sh->pce_bytes == 0))
            continue;
        placed = !str && place_resident(sh, room, glv, pce, out);
        if (!placed && !res) placed = place_streamed(sh, room, glv, &so, pce, out);
        /* streamed, the circuit on the device only where it costs the MSMs nothing that its
         * matrices streamed would keep */
        cuzk_gpu_placement alt;
        memset(&alt, 0, sizeof alt);
        if (placed && out->kind == CUZK_GPU_STREAMED && pce == PCE_DEVICE && cfg->pce_stream &&
            place_streamed(sh, room, glv, &so, PCE_STREAMED, &alt) && msms_lose(out, &alt))
            *out = alt;
    }
    if (placed && out->kind == CUZK_GPU_RESIDENT) return CUZK_OK;
    if (res)
        return cuzk_fail(CUZK_EINVAL,
                         "gpu.placement is resident, but the parameters (%.2f GiB) and a proof's workspace (%.2f "
                         "GiB) do not fit the %.2f GiB the device may use",
                         gib(params_bytes(sh, false)), gib(resident_ws(sh, false)), gib(room));
    if (placed) {
        out->room = room;
        streamed_why(out, str ? (map ? "mapped (gpu.placement)" : "streamed (gpu.placement)") : "streamed",
                     "in host memory");
        if (map) make_mapped(out, cfg->stream_file_dir, "mapped (gpu.placement)");
        return CUZK_OK;
    }
    const unsigned cl = cfg->stream_chunk_log ? cfg->stream_chunk_log : CHUNK_LOG_MIN;
    return cuzk_fail(
        CUZK_EBUDGET,
        "the device may use %.2f GiB; a proof of this circuit (domain 2^%u, %zu private values) needs "
        "at least %.2f GiB even with its parameters streamed from host memory (chunks of 2^%u bases, "
        "windows of %u bits)",
        gib(room), log2_ceil(domain(sh)), sh->num_aux,
        gib(streamed_peak(sh, (uint64_t)1 << cl, WINDOW_MIN, WINDOW_MIN, glv, false, PCE_NONE, 1, false, 0, 0)), cl,
        WINDOW_MIN);
}
