/* Multi-scalar multiplication: Pippenger with signed windows and sorted buckets, and the
 * Groth16 0/1 split. Written against an executor (exec.cuh), for G1 (F = fp_t) and G2
 * (F = fp2_t).
 *
 * core (scalars canonical, each with a base index):
 *   1. digits: every scalar gives ceil(256/c) signed c-bit digits d (|d| <= 2^(c-1)); a nonzero
 *      digit of window w becomes the pair (key = w*2^(c-1) + |d|-1, value = base index | sign).
 *      With the scalar split (G1, glv.cuh, msm_config.phi_off) each scalar is two 128-bit
 *      halves on a base and its phi image: ceil(129/c) digits each.
 *   2. sort the pairs by key (radix sort over the key's bits): each bucket's points are adjacent.
 *   3. accumulate, load-balanced: thread t sums the fixed range [tS, tS+S) run by run (one
 *      mixed add per point). A run that is a whole bucket is added into the bucket; a run cut by
 *      the range's edge is a partial sum, written to one of the thread's two slots. The slots
 *      are compacted (still sorted by key) and the same step sums them again until none is left.
 *      Every thread does the same work whatever the scalar distribution (all-equal scalars
 *      included).
 *   4. buckets -> window sums: running sums over groups of 2^msm_reduce_bits buckets, in
 *      levels (see msm_pippenger::finish), with no scalar multiplication on the device.
 *   5. the host adds the windows (Horner, 2^c per step) with blst.
 *   Large inputs are processed in chunks of scalars (the first of several smaller, see
 *   msm_core); a chunk after the first completes its own bucket array, which is then added
 *   into the running one.
 * split (Montgomery scalars, optional density bitmap): zero scalars are skipped, points of
 *   one-scalars are summed directly (one mixed add each), the rest is compacted (canonical
 *   scalar + base index) for the core. */
#ifndef CUZK_GPU_MSM_CUH
#define CUZK_GPU_MSM_CUH

#include "gpu/curve.cuh"
#include "gpu/exec.cuh"
#include "gpu/glv.cuh"

#define MSM_SENTINEL 0xffffffffu

enum { IDX_ARRAY = 0, IDX_IDENTITY = 1, IDX_BITREV = 2 };

/* where scalar i's base is: idx[i], off + i, or bitrev(i) over logn bits, less sub (the first
 * base of a chunk of bases streamed from host memory, msm_stream.cuh; 0 otherwise) */
struct idx_map {
    const uint32_t *idx;
    uint32_t mode, off, logn;
    uint32_t sub;
    HD uint32_t operator()(size_t i) const
    {
        return (mode == IDX_ARRAY          ? idx[i]
                    : mode == IDX_IDENTITY ? off + (uint32_t)i
                                           : bitrev((uint32_t)i, logn)) -
            sub;
    }
};

/* Montgomery -> canonical, in place or into another buffer */
struct k_from_mont {
    const fr_t *in;
    fr_t *out;
    HD void operator()(size_t i) const
    {
        fr_t t = in[i];
        fr_from_mont(t, t);
        out[i] = t;
    }
};

/* the signed c-bit digits of the scalar s (8 words) in windows 0..nw-1, window w's pair at
 * [w * stride + o] */
HD void msm_emit_digits(const uint32_t *s, uint32_t base, unsigned c, unsigned nw, uint32_t *keys, uint32_t *vals,
                        size_t stride, size_t o)
{
    const uint32_t half = 1u << (c - 1), full = 1u << c, mask = full - 1;
    uint32_t carry = 0;
    for (unsigned w = 0; w < nw; w++) {
        unsigned bit = w * c, word = bit >> 5, sh = bit & 31;
        uint32_t raw = word < 8 ? s[word] >> sh : 0;
        if (sh + c > 32 && word + 1 < 8) raw |= s[word + 1] << (32 - sh);
        uint32_t d = (raw & mask) + carry;
        uint32_t mag, sign;
        if (d > half) {
            mag = full - d;
            sign = 1;
            carry = 1;
        } else {
            mag = d;
            sign = 0;
            carry = 0;
        }
        size_t at = (size_t)w * stride + o;
        if (mag == 0) {
            keys[at] = MSM_SENTINEL;
            vals[at] = 0;
        } else {
            keys[at] = w * half + (mag - 1);
            vals[at] = base | (sign << 31);
        }
    }
}

struct k_digits {
    const fr_t *scalars; /* canonical, chunk-relative */
    idx_map map;         /* applied to the global index start + i */
    size_t start, m;
    unsigned c, nw;
    uint32_t *keys, *vals; /* window-major: [w * m + i] */
    HD void operator()(size_t i) const { msm_emit_digits(scalars[i].v, map(start + i), c, nw, keys, vals, m, i); }
};

/* The same with the scalar split (glv.cuh): k1 on the base, k2 on its phi image at base +
 * phi_off, window-major [w * 2m + i] and [w * 2m + m + i] */
struct k_digits_glv {
    const fr_t *scalars;
    idx_map map;
    size_t start, m;
    unsigned c, nw;
    uint32_t phi_off;
    uint32_t *keys, *vals;
    HD void operator()(size_t i) const
    {
        uint32_t k1[8], k2[8];
        glv_split(scalars[i], k1, k2);
        const uint32_t base = map(start + i);
        msm_emit_digits(k1, base, c, nw, keys, vals, 2 * m, i);
        msm_emit_digits(k2, base + phi_off, c, nw, keys, vals, 2 * m, m + i);
    }
};

/* One accumulation round over sorted (key, value) pairs. FROM_POINTS: values are base
 * indices with a sign bit (round 1); otherwise XYZZ partial sums (later rounds). */
template <class F, bool FROM_POINTS> struct k_accum {
    const uint32_t *keys;
    const uint32_t *vals;   /* FROM_POINTS */
    const xyzz_t<F> *pvals; /* !FROM_POINTS */
    const affine_t<F> *bases;
    size_t n;
    uint32_t S;
    xyzz_t<F> *buckets;
    uint32_t *slot_keys; /* 2 per thread */
    xyzz_t<F> *slot_vals;

    /* a finished run [rs, re) of key k: the whole bucket goes into it, a cut one to a slot */
    HD void flush(size_t t, size_t begin, size_t end, size_t rs, size_t re, uint32_t k, const xyzz_t<F> &acc) const
    {
        const bool left_cut = rs == begin && begin > 0 && keys[begin - 1] == k;
        const bool right_cut = re == end && end < n && keys[end] == k;
        if (!left_cut && !right_cut) {
            /* within one chunk every bucket is completed exactly once: a store, no addition
             * (an addition here, on a path each thread of a warp takes at different times,
             * would serialize the warp) */
            buckets[k] = acc;
        } else {
            size_t slot = 2 * t + (left_cut ? 0 : 1);
            slot_keys[slot] = k;
            slot_vals[slot] = acc;
        }
    }
    HD affine_t<F> load(size_t j) const
    {
        uint32_t v = vals[j];
        affine_t<F> p = bases[v & 0x7fffffffu];
        if (v >> 31) neg(p);
        return p;
    }
    HD void operator()(size_t t) const
    {
        size_t begin = t * S, end = begin + S < n ? begin + S : n;
        slot_keys[2 * t] = MSM_SENTINEL;
        slot_keys[2 * t + 1] = MSM_SENTINEL;
        if (begin >= end) return;
        uint32_t cur = keys[begin];
        if (cur == MSM_SENTINEL) return; /* sorted: only sentinels follow */
        size_t rs = begin;
        xyzz_t<F> acc;
        set_inf(acc);
        if (FROM_POINTS) {
            /* (loading the next point before adding the current one was measured slower: it
             * costs registers the capped kernel does not have) */
            for (size_t j = begin; j < end; j++) {
                const uint32_t k = keys[j];
                const affine_t<F> p = load(j);
                if (k != cur) {
                    flush(t, begin, end, rs, j, cur, acc);
                    if (k == MSM_SENTINEL) return;
                    set_inf(acc);
                    cur = k;
                    rs = j;
                }
                if (!is_inf(p)) xyzz_madd(acc, p);
            }
        } else {
            for (size_t j = begin; j < end; j++) {
                const uint32_t k = keys[j];
                if (k != cur) {
                    flush(t, begin, end, rs, j, cur, acc);
                    if (k == MSM_SENTINEL) return;
                    set_inf(acc);
                    cur = k;
                    rs = j;
                }
                xyzz_add(acc, pvals[j]);
            }
        }
        flush(t, begin, end, rs, end, cur, acc);
    }
};

/* total[i] += part[i]: one chunk's buckets into the running ones */
template <class F> struct k_bucket_merge {
    xyzz_t<F> *total;
    const xyzz_t<F> *part;
    HD void operator()(size_t i) const
    {
        xyzz_t<F> r = total[i];
        xyzz_add(r, part[i]);
        total[i] = r;
    }
};

struct k_flag_valid {
    const uint32_t *keys;
    uint32_t *flags;
    HD void operator()(size_t i) const { flags[i] = keys[i] != MSM_SENTINEL; }
};

template <class F> struct k_compact_slots {
    const uint32_t *keys;
    const xyzz_t<F> *vals;
    const uint32_t *pos;
    uint32_t *out_keys;
    xyzz_t<F> *out_vals;
    HD void operator()(size_t i) const
    {
        if (keys[i] == MSM_SENTINEL) return;
        out_keys[pos[i]] = keys[i];
        out_vals[pos[i]] = vals[i];
    }
};

/* One level of the bucket reduction, per window w and group g of L consecutive entries of
 * X (m per window): T = sum_j j X[gL + j] and S = sum_j X[gL + j], by a running sum from the
 * top (no scalar multiplication on the device). */
template <class F> struct k_group_reduce {
    const xyzz_t<F> *X;
    uint32_t m, L, G;
    xyzz_t<F> *T, *S; /* [w * G + g] */
    HD void operator()(size_t t) const
    {
        uint32_t w = (uint32_t)(t / G), g = (uint32_t)(t % G);
        uint32_t lo = g * L, hi = lo + L < m ? lo + L : m;
        const xyzz_t<F> *B = X + (size_t)w * m;
        if constexpr (sizeof(F) > sizeof(fp_t)) {
            /* G2: s += B[i] and tt += s through one inlined addition in the loop, on the two
             * sums in local memory (acc[0] = s, acc[1] = tt): two inlined additions would
             * double the code and keep both sums in the registers that the addition needs
             * (on the H200 the first reduction level of G2 2^24 took 57 ms with two
             * out-of-line calls, 42 with the sums in local memory, 32 with this) */
            xyzz_t<F> acc[2];
            set_inf(acc[0]);
            set_inf(acc[1]);
            const uint32_t steps = hi > lo ? 2 * (hi - lo) - 1 : 0;
            for (uint32_t k = 0; k < steps; k++) {
                const uint32_t odd = k & 1;
                xyzz_add(acc[odd], odd ? acc[0] : B[hi - 1 - k / 2]);
            }
            T[t] = acc[1];
            S[t] = acc[0];
        } else {
            xyzz_t<F> s, tt;
            set_inf(s);
            set_inf(tt);
            for (uint32_t i = hi; i > lo + 1; i--) {
                xyzz_add(s, B[i - 1]);
                xyzz_add(tt, s);
            }
            if (hi > lo) xyzz_add(s, B[lo]);
            T[t] = tt;
            S[t] = s;
        }
    }
};

/* out[w * Gout + q] = sum of in[w * Gin + q*K .. q*K + K) */
template <class F> struct k_sum_groups {
    const xyzz_t<F> *in;
    xyzz_t<F> *out;
    uint32_t Gin, Gout, K;
    HD void operator()(size_t t) const
    {
        uint32_t w = (uint32_t)(t / Gout), q = (uint32_t)(t % Gout);
        xyzz_t<F> acc;
        set_inf(acc);
        for (uint32_t j = 0; j < K; j++) {
            uint32_t x = q * K + j;
            if (x < Gin) xyzz_add(acc, in[(size_t)w * Gin + x]);
        }
        out[t] = acc;
    }
};

/* ---------------------------------------------------------------- 0/1 split */
/* A density filter: variable J = shift + j (j: the position in the scalars given, which start at
 * variable `shift`) takes part when bit J is set; its base is off + rank(J). */
struct density_map {
    const uint64_t *words; /* NULL: every variable, base off + J */
    const uint32_t *rank;  /* exclusive prefix popcount per word (msm_classify makes it if NULL) */
    uint32_t off;
    uint32_t shift;
    HD bool on(size_t j) const
    {
        j += shift;
        return !words || ((words[j >> 6] >> (j & 63)) & 1);
    }
    HD uint32_t base(size_t j) const
    {
        j += shift;
        if (!words) return off + (uint32_t)j;
        uint64_t below = words[j >> 6] & ((((uint64_t)1) << (j & 63)) - 1);
        return off + rank[j >> 6] + popc64(below);
    }
};

/* out[t] = the variable of the (d_t)-th set bit of a density (its rank d_t), nvars where d_t is
 * the popcount: where the variables of a range of bases begin */
struct k_density_select {
    const uint64_t *words;
    const uint32_t *rank;
    size_t nwords, nvars;
    const uint32_t *d;
    uint32_t *out;
    HD void operator()(size_t t) const
    {
        const uint32_t want = d[t];
        /* the last word whose rank is <= want and that has a set bit past it */
        size_t lo = 0, hi = nwords;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (rank[mid] <= want) lo = mid + 1;
            else hi = mid;
        }
        /* words [0, lo) have rank <= want: the bit is in word lo - 1 or past the end */
        if (lo == 0) {
            out[t] = 0;
            return;
        }
        size_t w = lo - 1;
        uint64_t v = words[w];
        uint32_t k = want - rank[w];
        if (w * 64 + 64 > nvars) v &= (((uint64_t)1) << (nvars - w * 64)) - 1;
        if ((uint32_t)popc64(v) <= k) { /* past the last set bit */
            out[t] = (uint32_t)nvars;
            return;
        }
        for (unsigned b = 0; b < 64; b++)
            if ((v >> b) & 1) {
                if (k == 0) {
                    out[t] = (uint32_t)(w * 64 + b);
                    return;
                }
                k--;
            }
        out[t] = (uint32_t)nvars;
    }
};

struct k_popc_words {
    const uint64_t *words;
    size_t nbits;
    uint32_t *out;
    HD void operator()(size_t w) const
    {
        uint64_t v = words[w];
        size_t rem = nbits - w * 64;
        if (rem < 64) v &= (((uint64_t)1) << rem) - 1;
        out[w] = popc64(v);
    }
};

/* class: 0 skip (zero or not in the density), 1 one, 2 other */
struct k_classify {
    const fr_t *s;
    density_map dm;
    uint8_t *cls;
    uint32_t *tail_flag, *one_flag;
    HD void operator()(size_t j) const
    {
        uint8_t c = 0;
        if (dm.on(j)) {
            const fr_t v = s[j];
            c = is_zero(v) ? 0 : fr_is_one(v) ? 1 : 2;
        }
        cls[j] = c;
        tail_flag[j] = c == 2;
        one_flag[j] = c == 1;
    }
};

/* the tail (canonical scalar, base index) and the list of one-scalar base indices, both
 * compacted in order */
struct k_scatter_split {
    const fr_t *s;
    const uint8_t *cls;
    const uint32_t *pos, *pos1;
    density_map dm;
    uint32_t start, start1;
    fr_t *tail_s; /* canonical */
    uint32_t *tail_idx, *ones_idx;
    HD void operator()(size_t j) const
    {
        const uint8_t c = cls[j];
        if (c == 2) {
            uint32_t p = start + pos[j];
            fr_t v = s[j];
            fr_from_mont(v, v);
            tail_s[p] = v;
            tail_idx[p] = dm.base(j);
        } else if (c == 1) {
            ones_idx[start1 + pos1[j]] = dm.base(j);
        }
    }
};

/* partial[t] = sum of bases[idx[i]] for i in [tK, tK + K): a compacted list, so every lane
 * of a warp adds on every step */
template <class F> struct k_ones {
    const uint32_t *idx;
    const affine_t<F> *bases;
    size_t n;
    uint32_t K;
    xyzz_t<F> *partial;
    uint32_t sub; /* base idx[j] is at bases[idx[j] - sub] */
    HD void operator()(size_t t) const
    {
        xyzz_t<F> acc;
        set_inf(acc);
        size_t b = t * K, e = b + K < n ? b + K : n;
        for (size_t j = b; j < e; j++) {
            const affine_t<F> p = bases[idx[j] - sub];
            if (!is_inf(p)) xyzz_madd(acc, p);
        }
        partial[t] = acc;
    }
};

/* ---------------------------------------------------------------- orchestration */
/* The first-round accumulation kernel decides the MSM's speed. G1 runs it capped at 128
 * registers (16 warps per SM, small spills; cuzk_gpu_config.msm_accum_reg_cap off selects the
 * uncapped build, which measured no faster). G2 needs about 255 registers; capping it at 168
 * was much slower, so it runs uncapped (docs/BENCHMARKS.md). */
template <class X, class F> static void msm_launch_accum(X &x, size_t T, const k_accum<F, true> &k)
{
    if constexpr (sizeof(F) == sizeof(fp_t)) {
        if (!x.cfg->msm_accum_reg_cap) x.parallel(T, k);
        else x.template parallel_lb<4>(T, k);
    } else {
        x.parallel(T, k);
    }
}

/* scalars per chunk: 2^25 (2^26 with the scalar split, whose chunks hold half as many
 * windows and whose merges add twice as many buckets) unless the tuning's msm_chunk (at
 * least 1024) says otherwise (for measurement; it reaches the prover's MSMs too) */
static inline size_t msm_default_chunk(const cuzk_gpu_config &t, bool split = false)
{
    return t.msm_chunk >= 1024 ? (size_t)t.msm_chunk : (size_t)1 << (split ? 26 : 25);
}

/* buckets per group in the bucket reduction, as a power of two: 2^4 by default (2..6; the
 * host combination of the levels reads the same value). Smaller groups give the first level
 * more threads with shorter running sums (it filled the GPU only 1.6 times with groups of 64). */
static inline unsigned msm_reduce_bits(const cuzk_gpu_config &t)
{
    return t.msm_reduce_bits >= 2 && t.msm_reduce_bits <= 6 ? t.msm_reduce_bits : 4;
}

/* MSMs of several host-scalar pieces (msm_impl.cuh) or device chunks (msm_core): the first
 * is 2^msm_first_shift (default 3) times smaller */
static inline unsigned msm_first_shift(const cuzk_gpu_config &t)
{
    return t.msm_first_shift > 8 ? 8 : t.msm_first_shift;
}

struct msm_config {
    unsigned c;       /* window bits; 0: chosen from n */
    size_t chunk;     /* scalars per chunk; 0: default */
    uint32_t S1;      /* first-round range per thread; 0: chosen */
    uint32_t S2;      /* later rounds; 0: 8 */
    uint32_t phi_off; /* G1 only: phi(bases[i]) is bases[phi_off + i], use the scalar split */
    unsigned c_max;   /* most window bits when chosen (0: the core's own limit): fewer buckets */
    unsigned merges;  /* the add() calls expected after the first (streamed: one per chunk of bases),
                         each merging a full set of buckets: counted when the windows are chosen */
    bool sort_ahead;  /* streamed_single: the next chunk's digits are sorted on the side stream while
                         this chunk is summed (a second set of keys and values, 2 M words more) */
};

/* windows for scalars of `bits` bits with signed digits: below r < 2^255 (256 with the last
 * carry), or the split's halves below 2^128 (129) */
static inline unsigned msm_nwindows(unsigned c, unsigned bits = 256) { return (bits + c - 1) / c; }

static inline unsigned msm_choose_c(size_t n, unsigned cmax, unsigned bits = 256, unsigned merges = 0)
{
    /* n mixed adds per window against ~3 full adds per bucket to reduce it, and per merge of
     * a later add()'s buckets into the running ones one full add (about 2 mixed) per bucket:
     * a streamed MSM over few tail scalars in many chunks wants narrower windows (the B G2 MSM
     * of a 32 GiB partition took 522 ms at 20 bits, 141 ms at 17) */
    double best = 1e300;
    unsigned bc = 4;
    for (unsigned c = 4; c <= cmax; c++) {
        double nw = msm_nwindows(c, bits);
        double cost = (double)n * nw + (3.0 + 2.0 * merges) * nw * (double)(1u << (c - 1));
        if (cost < best) {
            best = cost;
            bc = c;
        }
    }
    return bc;
}

static inline int bits_for(uint64_t v) /* smallest b with v < 2^b */
{
    int b = 0;
    while (b < 64 && (v >> b)) b++;
    return b;
}

/* Sums `count` groups of G XYZZ points (each group contiguous) down to one point per group;
 * returns the device buffer holding the `count` sums (either `a` or `tmp`). K points per
 * thread and step (tuning msm_sum_k, default 4): the steps are chains of full additions on
 * few threads, so short chains win (docs/BENCHMARKS.md). */
template <class X, class F>
static xyzz_t<F> *msm_sum_down(X &x, xyzz_t<F> *a, xyzz_t<F> *tmp, uint32_t count, uint32_t G)
{
    const uint32_t K = x.cfg->msm_sum_k >= 2 && x.cfg->msm_sum_k <= 64 ? x.cfg->msm_sum_k : 4;
    while (G > 1 && x.ok()) {
        uint32_t Gout = (G + K - 1) / K;
        k_sum_groups<F> k = {a, tmp, G, Gout, K};
        x.parallel((size_t)count * Gout, k);
        xyzz_t<F> *s = a;
        a = tmp;
        tmp = s;
        G = Gout;
    }
    return a;
}

/* The Pippenger core, fed in chunks (so that a caller can upload the next chunk's scalars
 * while one is summed): begin() sizes the windows for about n scalars, add() sums up to
 * `chunk` scalars into the buckets, finish() reduces the buckets and leaves in win_out (host)
 * the reduction levels, nw points each: level l < levels: sum_g T_g of that level; level
 * `levels`: the total S. Window w's sum is S_w + sum_l L^l T_{l,w} (L = 2^msm_reduce_bits;
 * msm_impl.cuh combines them with blst). At most MSM_MAX_LEVELS - 1 levels. */
#define MSM_MAX_WINDOWS 64
#define MSM_MAX_LEVELS 8
template <class X, class F> struct msm_pippenger {
    typedef xyzz_t<F> P;
    X *x;
    const affine_t<F> *bases;
    unsigned c, nw, per; /* per: entries per scalar and window (2 with the split) */
    uint32_t half, S1, S2, phi_off;
    bool S1_auto;
    size_t chunk, M, nb, nslots;
    int end_bit;
    bool first;
    P *buckets, *cbuckets, *svals, *cvals;
    /* two sorted (key, value) sets, so that the next chunk is sorted while one is summed;
     * keys2/vals2: the sort's other buffers */
    uint32_t *keys[2], *vals[2], *keys2, *vals2, *skeys, *ckeys, *flags, *pos;

    /* first-round range per thread for Mc entries: about 2048 threads per multiprocessor */
    uint32_t range_for(size_t Mc) const
    {
        size_t target = (size_t)x->sms() * 2048;
        size_t s = (Mc + target - 1) / target;
        return (uint32_t)(s < 16 ? 16 : s > 4096 ? 4096 : s);
    }

    /* windows sized for about n scalars; no add() gets more than `most` */
    void begin(X &xx, const affine_t<F> *b, size_t n, const msm_config *cfg, size_t most)
    {
        x = &xx;
        bases = b;
        /* c = 22 (12 windows instead of 13) measured slower on the H200 at 2^26 and 2^27
         * (12.6 and 12.0 against 12.0 and 11.8 ns/point): the model undercounts the buckets.
         * With the scalar split, 22 gives 6 windows of 2n entries (7 for 20 and 21). */
        phi_off = sizeof(F) == sizeof(fp_t) && cfg ? cfg->phi_off : 0;
        per = phi_off ? 2 : 1;
        const unsigned bits = phi_off ? 129 : 256;
        unsigned cmax = phi_off ? 22 : sizeof(F) > sizeof(fp_t) ? 20 : 21;
        if (cfg && cfg->c_max >= 4 && cfg->c_max < cmax) cmax = cfg->c_max;
        c = cfg && cfg->c ? cfg->c : msm_choose_c(n * per, cmax, bits, cfg ? cfg->merges : 0);
        nw = msm_nwindows(c, bits);
        half = 1u << (c - 1);
        chunk = cfg && cfg->chunk ? cfg->chunk : msm_default_chunk(*xx.cfg, phi_off != 0);
        if (chunk > most) chunk = most ? most : 1;
        M = (size_t)nw * per * chunk;
        end_bit = bits_for((uint64_t)nw * half);
        S1 = cfg && cfg->S1 ? cfg->S1 : 0;
        S1_auto = S1 == 0;
        if (!S1) S1 = range_for(M);
        S2 = cfg && cfg->S2 ? cfg->S2 : 8;
        nslots = 2 * ((M + S1 - 1) / S1);
        nb = (size_t)nw * half;
        first = true;
        buckets = (P *)xx.alloc(nb * sizeof(P));
        /* chunks after the first complete their buckets in cbuckets, then merge */
        cbuckets = most > chunk ? (P *)xx.alloc(nb * sizeof(P)) : NULL;
        keys[0] = (uint32_t *)xx.alloc(M * 4);
        vals[0] = (uint32_t *)xx.alloc(M * 4);
        keys[1] = most > chunk ? (uint32_t *)xx.alloc(M * 4) : NULL;
        vals[1] = most > chunk ? (uint32_t *)xx.alloc(M * 4) : NULL;
        keys2 = (uint32_t *)xx.alloc(M * 4);
        vals2 = (uint32_t *)xx.alloc(M * 4);
        skeys = (uint32_t *)xx.alloc(nslots * 4);
        ckeys = (uint32_t *)xx.alloc(nslots * 4);
        svals = (P *)xx.alloc(nslots * sizeof(P));
        cvals = (P *)xx.alloc(nslots * sizeof(P));
        flags = (uint32_t *)xx.alloc(nslots * 4);
        pos = (uint32_t *)xx.alloc(nslots * 4);
        if (xx.ok()) xx.zero(buckets, nb * sizeof(P));
        xx.mark("msm setup");
    }

    /* digits and sort of m <= chunk canonical scalars into set `set` (scalar i's base is
     * map(start + i)) */
    void prepare(int set, const fr_t *scalars, idx_map map, size_t start, size_t m)
    {
        X &xx = *x;
        if (!xx.ok() || m == 0) return;
        if (m > chunk) {
            xx.err = cuzk_fail(CUZK_EINTERNAL, "MSM chunk of %zu scalars over %zu", m, chunk);
            return;
        }
        if (!keys[set]) keys[set] = (uint32_t *)xx.alloc(M * 4);
        if (!vals[set]) vals[set] = (uint32_t *)xx.alloc(M * 4);
        if (phi_off) {
            k_digits_glv kd = {scalars, map, start, m, c, nw, phi_off, keys[set], vals[set]};
            xx.parallel(m, kd);
        } else {
            k_digits kd = {scalars, map, start, m, c, nw, keys[set], vals[set]};
            xx.parallel(m, kd);
        }
        xx.mark("msm digits");
        xx.sort_pairs(keys[set], keys2, vals[set], vals2, (size_t)nw * per * m, end_bit);
        xx.mark("msm sort");
    }

    /* sums a prepared set of m scalars into the buckets */
    void accumulate(int set, size_t m)
    {
        X &xx = *x;
        if (!xx.ok() || m == 0) return;
        if (!first && !cbuckets) cbuckets = (P *)xx.alloc(nb * sizeof(P));
        size_t Mc = (size_t)nw * per * m;
        P *cb = first ? buckets : cbuckets;
        if (!first) xx.zero(cb, nb * sizeof(P));
        /* round 1: from points; a smaller chunk (the first of several) gets shorter ranges,
         * so that it still fills the GPU (never more threads than there are slots for) */
        uint32_t s1 = S1;
        if (S1_auto) {
            s1 = range_for(Mc);
            const size_t least = (Mc + nslots / 2 - 1) / (nslots / 2);
            if (s1 < least) s1 = (uint32_t)least;
        }
        size_t T = (Mc + s1 - 1) / s1;
        k_accum<F, true> ka = {keys[set], vals[set], NULL, bases, Mc, s1, cb, skeys, svals};
        msm_launch_accum(xx, T, ka);
        xx.mark("msm accumulate");
        size_t ns = 2 * T;
        while (xx.ok()) {
            k_flag_valid kf = {skeys, flags};
            xx.parallel(ns, kf);
            xx.exclusive_sum(flags, pos, ns);
            uint32_t last[2] = {0, 0};
            xx.to_host(&last[0], pos + ns - 1, 4);
            xx.to_host(&last[1], flags + ns - 1, 4);
            size_t cnt = (size_t)last[0] + last[1];
            if (!xx.ok() || cnt == 0) break;
            k_compact_slots<F> kc = {skeys, svals, pos, ckeys, cvals};
            xx.parallel(ns, kc);
            T = (cnt + S2 - 1) / S2;
            k_accum<F, false> kr = {ckeys, NULL, cvals, bases, cnt, S2, cb, skeys, svals};
            xx.parallel(T, kr);
            ns = 2 * T;
        }
        xx.mark("msm later rounds");
        if (!first) {
            k_bucket_merge<F> km = {buckets, cb};
            xx.parallel(nb, km);
            xx.mark("msm bucket merge");
        }
        first = false;
    }

    /* both steps, one after the other */
    void add(const fr_t *scalars, idx_map map, size_t start, size_t m)
    {
        prepare(0, scalars, map, start, m);
        accumulate(0, m);
    }

    /* buckets -> window sums, in levels: with X = the buckets (bucket b holds digit b + 1),
     * sum_b (b + 1) X_b = sum_b b X_b + sum_b X_b, and per level
     * sum_i i X_i = sum_g T_g + L * sum_g g S_g, the last sum being the same problem on the
     * group sums S. The device leaves, per level, sum_g T_g (summed down) and finally the
     * total S; the host combines them (log2 L doublings per level). Frees everything. */
    cuzk_status finish(P *win_out, unsigned *nw_out, unsigned *c_out, unsigned *levels_out)
    {
        release_scratch();
        cuzk_status st = reduce(buckets, win_out, nw_out, c_out, levels_out);
        x->release(buckets);
        buckets = NULL;
        return st;
    }

    /* Everything but the buckets back to the pool. Several MSMs over the same bases may share
     * one pipeline's scratch (streamed_batch), each with its own zeroed buckets: `buckets`
     * and `first` are then set before each add(), and each reduce()d on its own. */
    void release_scratch()
    {
        X &xx = *x;
        xx.release(keys[0]);
        xx.release(vals[0]);
        xx.release(keys[1]);
        xx.release(vals[1]);
        xx.release(keys2);
        xx.release(vals2);
        xx.release(skeys);
        xx.release(ckeys);
        xx.release(flags);
        xx.release(pos);
        xx.release(cvals);
        xx.release(svals);
        xx.release(cbuckets);
        keys[0] = vals[0] = keys[1] = vals[1] = keys2 = vals2 = skeys = ckeys = flags = pos = NULL;
        cvals = svals = cbuckets = NULL;
    }

    /* the window sums of buckets bk (the levels, as finish says); frees nothing of the MSM's */
    cuzk_status reduce(const P *bk, P *win_out, unsigned *nw_out, unsigned *c_out, unsigned *levels_out)
    {
        X &xx = *x;
        *nw_out = nw;
        *c_out = c;
        const uint32_t L = 1u << msm_reduce_bits(*xx.cfg);
        /* level l has G_l groups per window: G_0 = ceil(half / L), G_(l+1) = ceil(G_l / L) */
        uint32_t Gs[MSM_MAX_LEVELS];
        size_t toff[MSM_MAX_LEVELS + 1];
        unsigned nlev = 0;
        toff[0] = 0;
        for (uint32_t m = half;; nlev++) {
            if (nlev + 1 >= MSM_MAX_LEVELS) { /* c - 1 > (MSM_MAX_LEVELS - 1) log2 L */
                xx.err = cuzk_fail(CUZK_EINVAL, "MSM bucket reduction: 2^%u buckets need more than %d levels of %u",
                                   c - 1, MSM_MAX_LEVELS - 1, L);
                return xx.err;
            }
            Gs[nlev] = (m + L - 1) / L;
            toff[nlev + 1] = toff[nlev] + (size_t)nw * Gs[nlev];
            m = Gs[nlev];
            if (m == 1) break;
        }
        nlev++;
        const size_t G0 = Gs[0];
        P *T = (P *)xx.alloc(toff[nlev] * sizeof(P)), *tmp = (P *)xx.alloc(toff[nlev] * sizeof(P));
        P *Sa = (P *)xx.alloc((size_t)nw * G0 * sizeof(P)), *Sb = (P *)xx.alloc((size_t)nw * G0 * sizeof(P));
        P *lv = (P *)xx.alloc((size_t)(nlev + 1) * nw * sizeof(P));
        int side_done[MSM_MAX_LEVELS];
        for (unsigned l = 0; l < MSM_MAX_LEVELS; l++) side_done[l] = -1;
        const P *Xl = bk;
        uint32_t m = half;
        for (unsigned l = 0; l < nlev && xx.ok(); l++) {
            k_group_reduce<F> kg = {Xl, m, L, Gs[l], T + toff[l], Sa};
            xx.parallel((size_t)nw * Gs[l], kg);
            if (l == 0) xx.mark("msm reduce: first level");
            /* the sum over this level's groups is needed only at the end: it runs on the side
             * stream beside the next levels (both are chains of few threads that leave the GPU
             * mostly idle) */
            xx.side_begin();
            P *ts = msm_sum_down<X, F>(xx, T + toff[l], tmp + toff[l], nw, Gs[l]);
            xx.copy(lv + (size_t)l * nw, ts, nw * sizeof(P));
            side_done[l] = xx.side_end();
            Xl = Sa;
            P *sw = Sa;
            Sa = Sb;
            Sb = sw;
            m = Gs[l];
        }
        /* the last level's group sums (one per window) are the totals */
        xx.copy(lv + (size_t)nlev * nw, Sb, nw * sizeof(P));
        for (unsigned l = 0; l < nlev; l++) xx.wait_upload(side_done[l]);
        xx.to_host(win_out, lv, (size_t)(nlev + 1) * nw * sizeof(P));
        xx.mark("msm bucket reduce");
        *levels_out = nlev;
        xx.release(T);
        xx.release(tmp);
        xx.release(Sa);
        xx.release(Sb);
        xx.release(lv);
        return xx.err;
    }
};

/* The core over n canonical scalars in executor memory, chunk by chunk: chunk k + 1's digits
 * and sort run on the side stream while chunk k is summed (the sort is memory-bound, the
 * summing multiplication-bound). Only the first chunk's sort has nothing to hide behind:
 * when there are several, the first is 2^msm_first_shift times smaller. */
template <class X, class F>
static cuzk_status msm_core(X &x, const affine_t<F> *bases, const fr_t *scalars, idx_map map, size_t n,
                            const msm_config *cfg, xyzz_t<F> *win_out, unsigned *nw_out, unsigned *c_out,
                            unsigned *levels_out)
{
    msm_pippenger<X, F> pip;
    pip.begin(x, bases, n, cfg, n);
    const size_t ch = pip.chunk;
    size_t first = n <= ch ? n : ch >> msm_first_shift(*x.cfg);
    if (first == 0) first = 1;
    auto len = [&](size_t start) { return start == 0 ? first : n - start < ch ? n - start : ch; };
    pip.prepare(0, scalars, map, 0, first);
    for (size_t start = 0, k = 0; start < n && x.ok(); k++) {
        const size_t m = len(start), next = start + m;
        int ready = -1;
        if (next < n) {
            /* ordered after everything issued so far, so after the chunk that last used
             * this set */
            x.side_begin(-1, false);
            pip.prepare((int)((k + 1) & 1), scalars + next, map, next, len(next));
            ready = x.side_end();
        }
        pip.accumulate((int)(k & 1), m);
        x.wait_upload(ready);
        start = next;
    }
    return pip.finish(win_out, nw_out, c_out, levels_out);
}

/* Scratch of the 0/1 split for n scalars at a time: cls (n bytes), four word arrays of n,
 * the rank prefix, and the ones list (room for n_ones). */
struct split_scratch {
    uint8_t *cls;
    uint32_t *flag, *pos, *flag1, *pos1, *rank, *ones_idx;
};

template <class X> static bool split_scratch_alloc(X &x, split_scratch &sc, size_t n, size_t n_ones)
{
    sc.cls = (uint8_t *)x.alloc(n ? n : 1);
    sc.flag = (uint32_t *)x.alloc(n * 4 + 4);
    sc.pos = (uint32_t *)x.alloc(n * 4 + 4);
    sc.flag1 = (uint32_t *)x.alloc(n * 4 + 4);
    sc.pos1 = (uint32_t *)x.alloc(n * 4 + 4);
    sc.rank = (uint32_t *)x.alloc((n + 63) / 64 * 4 + 4);
    sc.ones_idx = (uint32_t *)x.alloc(n_ones * 4 + 4);
    return x.ok();
}

template <class X> static void split_scratch_free(X &x, split_scratch &sc)
{
    x.release(sc.cls);
    x.release(sc.flag);
    x.release(sc.pos);
    x.release(sc.flag1);
    x.release(sc.pos1);
    x.release(sc.rank);
    x.release(sc.ones_idx);
}

/* Classifies n Montgomery scalars s[0..n) under density dm (dbits bits), appends the tail
 * (canonical scalars, base indices) at tail_s/tail_idx + start and the base indices of the
 * one-scalars at sc.ones_idx + start1. Returns the tail count; *ones gets the ones count. */
template <class X>
static size_t msm_classify(X &x, const fr_t *s, size_t n, density_map dm, size_t dbits, const split_scratch &sc,
                           fr_t *tail_s, uint32_t *tail_idx, size_t start, size_t start1, size_t *ones)
{
    *ones = 0;
    if (n == 0 || !x.ok()) return 0;
    if (dm.words && !dm.rank) {
        size_t nwords = (dbits + 63) / 64;
        k_popc_words kp = {dm.words, dbits, sc.flag};
        x.parallel(nwords, kp);
        x.exclusive_sum(sc.flag, sc.rank, nwords);
        dm.rank = sc.rank;
    }
    k_classify kc = {s, dm, sc.cls, sc.flag, sc.flag1};
    x.parallel(n, kc);
    x.exclusive_sum(sc.flag, sc.pos, n);
    x.exclusive_sum(sc.flag1, sc.pos1, n);
    uint32_t last[4] = {0, 0, 0, 0};
    x.to_host(&last[0], sc.pos + n - 1, 4);
    x.to_host(&last[1], sc.flag + n - 1, 4);
    x.to_host(&last[2], sc.pos1 + n - 1, 4);
    x.to_host(&last[3], sc.flag1 + n - 1, 4);
    k_scatter_split ks = {s,      sc.cls,   sc.pos,     sc.pos1, dm, (uint32_t)start, (uint32_t)start1,
                          tail_s, tail_idx, sc.ones_idx};
    x.parallel(n, ks);
    x.mark("split classify+compact");
    *ones = (size_t)last[2] + last[3];
    return (size_t)last[0] + last[1];
}

/* Sum of bases[idx[i] - sub], i < n, into out_host (XYZZ). */
template <class X, class F>
static void msm_ones(X &x, const uint32_t *idx, size_t n, const affine_t<F> *bases, xyzz_t<F> *out_host,
                     uint32_t sub = 0)
{
    typedef xyzz_t<F> P;
    set_inf(*out_host);
    if (n == 0 || !x.ok()) return;
    size_t target = (size_t)x.sms() * 1024;
    uint32_t K = (uint32_t)((n + target - 1) / target);
    if (K < 32) K = 32;
    size_t T = (n + K - 1) / K;
    P *part = (P *)x.alloc(T * sizeof(P)), *tmp = (P *)x.alloc(T * sizeof(P));
    k_ones<F> ko = {idx, bases, n, K, part, sub};
    x.parallel(T, ko);
    P *sum = msm_sum_down<X, F>(x, part, tmp, 1, (uint32_t)T);
    if (x.ok()) x.to_host(out_host, sum, sizeof(P));
    x.release(part);
    x.release(tmp);
    x.mark("split ones");
}

#endif
