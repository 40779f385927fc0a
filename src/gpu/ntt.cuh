/* Radix-2 NTT over Fr in passes of up to 11 bits, each pass one kernel over shared memory.
 *
 * A transform of size 2^n is split into passes over bit ranges [s_lo, s_lo + b). For DIF
 * (natural in, bit-reversed out; Gentleman-Sande) the passes go from the top bits down: a pass
 * loads, for each index n0 below 2^s_lo, the 2^b elements n0 + 2^s_lo * p, runs b butterfly
 * stages in shared memory (a size-2^b DFT, output bit-reversed), multiplies by the twiddle
 * w_M^(n0 * k1) of the enclosing size-M sub-transform (M = 2^(s_lo+b), k1 = bitrev_b(p)) and
 * stores back in place (the four-step decomposition applied recursively). DIT (bit-reversed
 * in, natural out; Cooley-Tukey) is the transposed flow graph: the same passes bottom up, each
 * twiddling first and then running its stages in the opposite order with transposed
 * butterflies. A block holds 2^g neighbouring n0 columns so that loads are 2^g * 32 bytes
 * contiguous.
 *
 * Twiddles are powers of w = a primitive 2^28-th root of unity (the one the CPU NTT uses,
 * 7^((r-1)/2^28)), read as TL[e mod 2^10] * TM[e >> 10] from a 32 KiB and an 8 MiB table.
 * In-block twiddles are multiples of 2^17, and so are the twiddles between the passes of a
 * transform of up to 2^18 elements (for 2^27: the middle pass): those cost one load and no
 * multiplication. The top pass of a larger transform needs every power of its root: it
 * reads them from a full table (w_M^i for i < M/2, w_M^(i + M/2) = -w_M^i; 32 M bytes, kept
 * per device where memory allows) or else multiplies two entries. The twiddles read in one
 * load are Shoup pairs (w, floor(w 2^256 / r)), whose product with a value takes about two
 * thirds of a Montgomery product's instructions (fr_shoup.cuh). Inverse transforms use
 * w^-e = w^(2^28-e). Coset factors c * g^j (or g^-j) use two more table pairs (split at
 * 2^14), and are applied while loading the first pass or storing the last one, so the H
 * pipeline needs no separate scaling or bit-reversal passes.
 *
 * Natural order out (ntt_run with scratch): the DIF output sits at bit-reversed positions.
 * Given a second buffer, the first pass reads the data and writes the scratch buffer, and the
 * last pass reads the scratch buffer and writes each element to its bit-reversed position in
 * the data: its blocks take 2^g rows of consecutive top digits (each row a contiguous run of
 * the scratch buffer), so every store is a run of 2^g elements. That saves the separate
 * bit-reversal pass (2.6 ms of 45 for 2^27 on the H200). */
#ifndef CUZK_GPU_NTT_CUH
#define CUZK_GPU_NTT_CUH

#include "gpu/exec.cuh"
#include "gpu/fr_shoup.cuh"

#define NTT_LOG_MAX 28
#define NTT_TW_BITS 10 /* w tables: w^i for i < 2^10 and w^(i 2^10) for i < 2^18 */
#define NTT_TW_N (1u << NTT_TW_BITS)
#define NTT_TM_N (1u << (NTT_LOG_MAX - NTT_TW_BITS))
#define NTT_TAB_BITS 14 /* coset tables: g^i and g^(i 2^14) for i < 2^14 */
#define NTT_TAB_N (1u << NTT_TAB_BITS)
#define NTT_PASS_MAX 11
static_assert(NTT_LOG_MAX - NTT_PASS_MAX >= NTT_TW_BITS, "in-block twiddles must be one load (ntt_tw_hi)");

struct ntt_tables {
    const fr_t *tl, *tm;   /* w^i (i < 2^10), w^(i 2^10) (i < 2^18) */
    const fr_t *gl, *gh;   /* g^i, g^(i 2^14) (i < 2^14) */
    const fr_t *gil, *gih; /* g^-i, g^(-i 2^14) */
    const fr_t *gihc;      /* gih in canonical form: g^-i times it is canonical */
    const fr_shoup_t *tms; /* tm as Shoup pairs (fr_shoup.cuh): the twiddles one load reads */
    const fr_shoup_t *tf;  /* full table: w_M^i for i < M/2, M = 2^tf_log (or NULL), Shoup pairs */
    unsigned tf_log;
};

/* w_(2^L)^i for 0 < i < 2^L from the full table (tf_log >= L) */
HD fr_shoup_t ntt_tw_full(const ntt_tables &tb, uint32_t i, unsigned L, bool *neg)
{
    const uint32_t half = 1u << (L - 1);
    *neg = (i & half) != 0;
    return tb.tf[(size_t)(i & (half - 1)) << (tb.tf_log - L)];
}

/* w^e for e a multiple of 2^10 (one load, no branch): in-block twiddles, and those between
 * the passes of transforms up to 2^18 */
HD fr_shoup_t ntt_tw_hi(const ntt_tables &tb, uint32_t e, bool inverse)
{
    if (inverse) e = (0u - e) & ((1u << NTT_LOG_MAX) - 1);
    return tb.tms[e >> NTT_TW_BITS];
}

HD fr_t ntt_tw(const ntt_tables &tb, uint32_t e, bool inverse)
{
    if (inverse) e = (0u - e) & ((1u << NTT_LOG_MAX) - 1);
    uint32_t lo = e & (NTT_TW_N - 1), hi = e >> NTT_TW_BITS;
    if (lo == 0) return tb.tm[hi];
    if (hi == 0) return tb.tl[lo];
    fr_t r;
    mul(r, tb.tl[lo], tb.tm[hi]);
    return r;
}

enum { NTT_NR = 0, NTT_RN = 1 }; /* order: natural->bitrev (DIF), bitrev->natural (DIT) */
enum { SCALE_NONE = 0, SCALE_PRE = 1, SCALE_POST = 2 };
enum { POW_NONE = 0, POW_G = 1, POW_GINV = 2 };

struct ntt_scale {
    int where, pow;
    bool has_c;
    fr_t c;
    /* POW_GINV in a transform's last pass only: the factor g^-j is made from the canonical
     * high table, so the product (and the output) is canonical instead of Montgomery form at
     * no cost (the H MSM's scalars) */
    bool canonical_out;
};

/* Shared-memory layout of a pass's tile: element e's two 16-byte halves sit at 16-byte slots
 * f(e) and f(e) ^ 1, with f(e) = 2 sigma(e) + beta(e). Fold e's bits by position mod 3
 * (h = e ^ e >> 3 ^ e >> 6 ^ e >> 9, for tiles of up to 2^11 elements): sigma is e with its
 * two low bits replaced by h's (a permutation), beta is h's bit 2. f is linear over GF(2)
 * (f(e ^ d) = f(e) ^ f(d)). The eight lanes that one shared-memory wavefront serves reach
 * eight different slots mod 8 whenever they differ in three element bits of consecutive
 * positions: the load and store phases (positions 0, 1, 2) and the butterfly stages whose
 * lanes 0-2 take three upper bits (all but the last three stages of a pass; those are at
 * most 2-way). */
HD uint32_t ntt_swz(uint32_t e)
{
    uint32_t h = e ^ (e >> 3) ^ (e >> 6) ^ (e >> 9);
    return (((e & ~3u) | (h & 3)) << 1) | ((h >> 2) & 1);
}

HD fr_t sm_get(const uint4 *sm, uint32_t f)
{
    fr_t v;
    const uint4 lo = sm[f], hi = sm[f ^ 1];
    v.v[0] = lo.x, v.v[1] = lo.y, v.v[2] = lo.z, v.v[3] = lo.w;
    v.v[4] = hi.x, v.v[5] = hi.y, v.v[6] = hi.z, v.v[7] = hi.w;
    return v;
}
HD void sm_put(uint4 *sm, uint32_t f, const fr_t &v)
{
    sm[f] = make_uint4(v.v[0], v.v[1], v.v[2], v.v[3]);
    sm[f ^ 1] = make_uint4(v.v[4], v.v[5], v.v[6], v.v[7]);
}

/* One pass: a block loads its tile (phase 0), runs one butterfly stage per phase through
 * shared memory, nt threads taking the butterflies in turn, and stores (last phase).
 * Values stay below 2r (field.cuh, lazy forms) until the transform's last pass stores them.
 * Measured against a pass that keeps 8 (or 4) elements per thread in registers and runs
 * three (two) stages between exchanges: 56.0 ms against 72.5 (62.6) for 2^27 on the H200.
 * The transform is bound by its multiplications, and the register form halves occupancy.
 * With the layout above and warp-uniform twiddles, radix-4 steps (two stages per exchange,
 * four elements per thread) still gained nothing: 44.4 against 44.3 ms; reading each
 * butterfly's twiddle one butterfly ahead (63 instead of 48 registers) lost: 46.4 against
 * 45.2 ms, and so did reading it before the butterfly's shared-memory reads: 40.2 against
 * 38.9 ms. SCALED: the pass applies an ntt_scale (the first or last pass of a coset or
 * inverse transform); the other passes are a kernel without that code. */
template <bool SCALED> struct k_ntt_pass {
    const fr_t *src; /* read from; written to dst (the same buffer, or scratch and data) */
    fr_t *dst;
    ntt_tables tb;
    unsigned log_n, s_lo, b, g;
    bool dit, inverse, twiddle, last;
    bool top_full;    /* the top pass's twiddles come from the full table */
    bool natural_out; /* the last DIF pass, storing at bit-reversed positions (dst != src) */
    unsigned b0;      /* with natural_out: the top pass's bits */
    ntt_scale sc;
    bool sc_bitrev; /* the element's coefficient index is bitrev(pos) */

    HD unsigned nphases() const { return b + 2; }
    HD size_t pos(unsigned blk, unsigned e, uint32_t *n0_out, uint32_t *p_out) const
    {
        uint32_t groups = (1u << s_lo) >> g;
        uint32_t H = blk / groups, n0 = ((blk % groups) << g) + (e & ((1u << g) - 1)), p = e >> g;
        *n0_out = n0;
        *p_out = p;
        return ((size_t)H << (s_lo + b)) + n0 + ((size_t)p << s_lo);
    }
    /* natural_out (s_lo = 0): block = (middle M, run of 2^g top digits f0); row p of column c
     * is read at top digit bitrev(f0), middle M, low digit p, and its transform output (row
     * p holds frequency digit bitrev(p)) goes to the whole position's bit reversal */
    HD size_t pos_nat(unsigned blk, unsigned e, size_t *out) const
    {
        const unsigned mid = log_n - b0 - b;
        const uint32_t runs = (1u << b0) >> g, M = blk / runs;
        const uint32_t f0 = ((blk % runs) << g) | (e & ((1u << g) - 1)), p = e >> g;
        *out = ((size_t)bitrev(p, b) << (log_n - b)) | ((size_t)bitrev(M, mid) << b0) | f0;
        return ((size_t)bitrev(f0, b0) << (log_n - b0)) | ((size_t)M << b) | p;
    }
    HD void inter(fr_t &v, uint32_t n0, uint32_t p) const
    {
        uint32_t k1 = bitrev(p, b);
        if (top_full) { /* w_N^(n0 k1), N = 2^log_n: one load, a negation for half of them */
            uint32_t i = n0 * k1;
            if (i == 0) return;
            if (inverse) i = (1u << log_n) - i;
            bool neg;
            const fr_shoup_t t = ntt_tw_full(tb, i, log_n, &neg);
            mul_shoup_lazy(v, v, t);
            if (neg) {
                const fr_t z = {};
                sub_lazy(v, z, v);
            }
            return;
        }
        uint32_t e = (n0 * k1) << (NTT_LOG_MAX - s_lo - b);
        if (e == 0) return;
        if (s_lo + b + NTT_TW_BITS <= NTT_LOG_MAX) {
            mul_shoup_lazy(v, v, ntt_tw_hi(tb, e, inverse));
        } else {
            const fr_t t = ntt_tw(tb, e, inverse);
            mul_lazy(v, t, v);
        }
    }
    /* j: the element's coefficient index */
    HD void scale(fr_t &v, uint32_t j) const
    {
        /* Montgomery products: Shoup pairs here (two products by table pairs, one by c's),
         * tried while scaled and unscaled passes were still one kernel, made that kernel
         * slower on the H200, forward transforms included (2^27 forward 32.5 -> 33.35 ms,
         * coset forward 37.2 -> 38.05); not measured again since the split */
        if (sc.pow != POW_NONE) {
            const fr_t *lo = sc.pow == POW_G ? tb.gl : tb.gil;
            const fr_t *hi = sc.pow == POW_G ? tb.gh : sc.canonical_out ? tb.gihc : tb.gih;
            fr_t f;
            mul(f, lo[j & (NTT_TAB_N - 1)], hi[j >> NTT_TAB_BITS]);
            mul_lazy(v, f, v);
        }
        if (sc.has_c) mul_lazy(v, sc.c, v);
    }
    /* in-block: exponents are multiples of 2^(28 - b) >= 2^17 */
    HD fr_shoup_t tw(unsigned j, uint32_t t) const { return ntt_tw_hi(tb, t << (NTT_LOG_MAX - j - 1), inverse); }

    /* Stage j: pairs p, p + 2^j with p = upper * 2^(j+1) + t, twiddle w_(2^(j+1))^t. The
     * butterfly index is (t, c, upper) from the top bit down: the lanes of a warp take upper
     * and c, so t (and with it the twiddle) is the same across the warp while nb + g >= 5:
     * one broadcast load, and warps of t = 0 skip the multiplication. */
    HD void radix2(uint4 *sm, unsigned tid, unsigned nt, unsigned j) const
    {
        const unsigned tile = 1u << (b + g), nb = b - 1 - j;
        const uint32_t um = (1u << nb) - 1, gm = (1u << g) - 1, f_step = ntt_swz(1u << (j + g));
        for (unsigned q = tid; q < tile / 2; q += nt) {
            uint32_t upper = q & um, c = (q >> nb) & gm, t = q >> (g + nb);
            uint32_t p = (upper << (j + 1)) | t;
            uint32_t f1 = ntt_swz((p << g) | c), f2 = f1 ^ f_step;
            fr_t u = sm_get(sm, f1), w = sm_get(sm, f2), s;
            if (dit && t) mul_shoup_lazy(w, w, tw(j, t));
            add_lazy(s, u, w);
            sub_lazy(w, u, w);
            if (!dit && t) mul_shoup_lazy(w, w, tw(j, t));
            sm_put(sm, f1, s);
            sm_put(sm, f2, w);
        }
    }
    HD void phase(unsigned blk, unsigned tid, unsigned nt, void *smem, unsigned ph) const
    {
        uint4 *sm = (uint4 *)smem;
        const unsigned tile = 1u << (b + g);
        if (ph == 0) {
            for (unsigned e = tid; e < tile; e += nt) {
                uint32_t n0 = 0, p = 0;
                size_t q_out, q = natural_out ? pos_nat(blk, e, &q_out) : pos(blk, e, &n0, &p);
                fr_t v = src[q];
                if (SCALED && sc.where == SCALE_PRE) scale(v, sc_bitrev ? bitrev((uint32_t)q, log_n) : (uint32_t)q);
                if (dit && twiddle) inter(v, n0, p);
                sm_put(sm, ntt_swz(e), v);
            }
        } else if (ph <= b) {
            radix2(sm, tid, nt, dit ? ph - 1 : b - ph);
        } else {
            for (unsigned e = tid; e < tile; e += nt) {
                uint32_t n0 = 0, p = 0;
                size_t q, j;
                if (natural_out) {
                    pos_nat(blk, e, &q);
                    j = q;
                } else {
                    q = pos(blk, e, &n0, &p);
                    j = sc_bitrev ? bitrev((uint32_t)q, log_n) : (uint32_t)q;
                }
                fr_t v = sm_get(sm, ntt_swz(e));
                if (!dit && twiddle) inter(v, n0, p);
                if (SCALED && sc.where == SCALE_POST) scale(v, (uint32_t)j);
                if (last) reduce_lazy(v, v);
                dst[q] = v;
            }
        }
    }
};

struct k_bitrev {
    fr_t *data;
    unsigned log_n;
    HD void operator()(size_t i) const
    {
        uint32_t j = bitrev((uint32_t)i, log_n);
        if (i < j) {
            fr_t t = data[i];
            data[i] = data[j];
            data[j] = t;
        }
    }
};

/* The same permutation in tiles, for 2^log_n >= 2^(2k+1): an index is (a, m, b) with k-bit
 * a and b around the middle bits m, and bitrev(a, m, b) = (rev b, rev m, rev a). Block m
 * (m <= rev m) loads the 2^k x 2^k tiles of m and of rev m (rows a, contiguous columns b),
 * and stores each transposed into the other's place (rows rev b, contiguous columns rev a):
 * every global access is a run of 2^k elements, where the pairwise swap above touches a
 * scattered 32-byte element per thread on one side. Shared-memory rows are padded by 16
 * bytes and kept in bit-reversed order, so that the column reads of 8 lanes (rows rev a)
 * fall in different banks. */
#define NTT_BITREV_K 5
struct k_bitrev_tiles {
    fr_t *data;
    unsigned log_n;
    static const unsigned side = 1u << NTT_BITREV_K, row = 2 * side + 1; /* uint4 per row */
    HD unsigned nphases() const { return 2; }
    HD void phase(unsigned blk, unsigned tid, unsigned nt, void *smem, unsigned ph) const
    {
        const unsigned K = NTT_BITREV_K, mb = log_n - 2 * K, hi_sh = log_n - K;
        const uint32_t m = blk, mr = bitrev(m, mb);
        if (m > mr) return; /* the pair is done by block mr */
        uint4 *sm = (uint4 *)smem;
        const unsigned tiles = m == mr ? 1 : 2, mask = side - 1;
        for (unsigned e = tid; e < tiles * side * side; e += nt) {
            unsigned which = e >> (2 * K), r = (e >> K) & mask, col = e & mask;
            uint4 *tile = sm + which * side * row;
            if (ph == 0) { /* a = r, b = col of tile `which`, kept in row rev a */
                uint32_t mm = which ? mr : m;
                sm_put(tile + bitrev(r, K) * row, 2 * col, data[((size_t)r << hi_sh) | ((size_t)mm << K) | col]);
            } else { /* output row r = rev b, column col = rev a, into the other middle */
                uint32_t dest = which ? m : mr;
                fr_t v = sm_get(tile + col * row, 2 * bitrev(r, K));
                data[((size_t)r << hi_sh) | ((size_t)dest << K) | col] = v;
            }
        }
    }
};

/* natural <-> bit-reversed order, in place */
template <class X> static void ntt_bitrev(X &x, fr_t *data, unsigned log_n)
{
    if (log_n < 2 * NTT_BITREV_K + 1) {
        k_bitrev kb = {data, log_n};
        x.parallel((size_t)1 << log_n, kb);
    } else {
        k_bitrev_tiles kt = {data, log_n};
        x.blocks(1u << (log_n - 2 * NTT_BITREV_K), 256, (size_t)2 * kt.side * kt.row * sizeof(uint4), kt);
    }
    x.mark("ntt bit reversal");
}

/* a = a * b (a, b, c made one at a time: the product first, c after it in b's place) */
struct k_h_product {
    fr_t *a;
    const fr_t *b;
    HD void operator()(size_t i) const
    {
        fr_t t;
        mul(t, a[i], b[i]);
        a[i] = t;
    }
};

/* a = (a - c) * z, a holding a * b: the same arithmetic as k_h_combine, so the same bytes */
struct k_h_combine_product {
    fr_t *a;
    const fr_t *c;
    fr_shoup_t z;
    HD void operator()(size_t i) const
    {
        fr_t t;
        sub(t, a[i], c[i]);
        mul_shoup_lazy(t, t, z);
        reduce_lazy(t, t);
        a[i] = t;
    }
};

/* a = (a * b - c) * z */
struct k_h_combine {
    fr_t *a;
    const fr_t *b, *c;
    fr_shoup_t z;
    HD void operator()(size_t i) const
    {
        fr_t t;
        mul(t, a[i], b[i]);
        sub(t, t, c[i]);
        mul_shoup_lazy(t, t, z);
        reduce_lazy(t, t);
        a[i] = t;
    }
};

/* Tuning (cuzk_gpu_config, the executor's): ntt_pass_bits, the most row bits per pass
 * (small values let the emulation tests run many passes on small sizes), ntt_tile_bits, the
 * most elements per block as a power of two, and ntt_threads per block; values are clamped
 * to what the kernels support. Tiles of 2^10 with 128 threads measured best on the H200
 * (docs/BENCHMARKS.md). ntt_full_table off: the top pass multiplies two table entries
 * instead; ntt_natural_out off: natural-order transforms run in place and reverse bits in a
 * separate pass (both for measurement). */
static inline unsigned ntt_clamp(unsigned v, unsigned lo, unsigned hi) { return v < lo ? lo : v > hi ? hi : v; }
#define NTT_FULL_MIN_LOG 19

/* pass sizes: ceil(n / max) passes, bits spread evenly (the larger ones at the bottom) */
static inline unsigned ntt_plan(const cuzk_gpu_config &cfg, unsigned log_n, unsigned bs[NTT_LOG_MAX])
{
    const unsigned mx = ntt_clamp(cfg.ntt_pass_bits, 3, NTT_PASS_MAX);
    unsigned np = (log_n + mx - 1) / mx;
    for (unsigned k = 0; k < np; k++) bs[k] = log_n / np + (k >= np - log_n % np ? 1 : 0);
    return np; /* bs[0] is the top pass */
}

/* One transform of 2^log_n elements (log_n >= 1), order NTT_NR or NTT_RN, in place. With
 * scratch (2^log_n elements, not data) an NTT_NR transform of more than one pass comes out in
 * natural order, in data (see the top of the file); returns whether it did. */
template <class X>
static bool ntt_run(X &x, const ntt_tables &tb, fr_t *data, unsigned log_n, bool inverse, int order, ntt_scale sc,
                    fr_t *scratch = NULL)
{
    unsigned bs[NTT_LOG_MAX];
    unsigned np = ntt_plan(*x.cfg, log_n, bs);
    unsigned slo[NTT_LOG_MAX];
    unsigned top = log_n;
    for (unsigned k = 0; k < np; k++) {
        top -= bs[k];
        slo[k] = top;
    }
    const unsigned tile_bits = ntt_clamp(x.cfg->ntt_tile_bits, 3, NTT_PASS_MAX);
    const bool dit = order == NTT_RN;
    const bool natural = scratch && !dit && np > 1;
    for (unsigned i = 0; i < np && x.ok(); i++) {
        unsigned k = dit ? np - 1 - i : i;
        unsigned b = bs[k], s_lo = slo[k];
        const bool last = i == np - 1, nat_out = natural && last;
        unsigned gmax = tile_bits > b ? tile_bits - b : 0;
        /* columns: neighbouring n0 below 2^s_lo, or (natural out) top digits below 2^bs[0] */
        unsigned g = nat_out ? (bs[0] < gmax ? bs[0] : gmax) : s_lo < gmax ? s_lo : gmax;
        ntt_scale psc = sc;
        psc.where = SCALE_NONE;
        if (i == 0 && sc.where == SCALE_PRE) psc.where = SCALE_PRE;
        if (last && sc.where == SCALE_POST) psc.where = SCALE_POST;
        /* coefficient index of a position: natural on the natural side */
        bool sc_bitrev = psc.where == SCALE_PRE ? dit : !dit;
        unsigned nblocks = (unsigned)(((size_t)1 << log_n) >> (b + g));
        unsigned tile = 1u << (b + g);
        unsigned nt = ntt_clamp(x.cfg->ntt_threads, 32, 1024);
        if (nt > tile / 2) nt = tile / 2 < 32 ? 32 : tile / 2;
        auto launch = [&](auto kp) {
            kp.src = natural && i > 0 ? scratch : data;
            kp.dst = natural && !last ? scratch : data;
            kp.tb = tb;
            kp.log_n = log_n;
            kp.s_lo = s_lo;
            kp.b = b;
            kp.g = g;
            kp.dit = dit;
            kp.inverse = inverse;
            kp.twiddle = s_lo > 0;
            kp.last = last;
            kp.top_full = tb.tf && tb.tf_log >= log_n && s_lo > 0 && s_lo + b == log_n;
            kp.natural_out = nat_out;
            kp.b0 = bs[0];
            kp.sc = psc;
            kp.sc_bitrev = sc_bitrev;
            x.blocks(nblocks, nt, (size_t)tile * sizeof(fr_t), kp);
        };
        if (psc.where != SCALE_NONE) launch(k_ntt_pass<true>());
        else launch(k_ntt_pass<false>());
        x.mark(dit ? "ntt pass (dit)" : nat_out ? "ntt pass (dif, natural out)" : "ntt pass (dif)");
    }
    return natural;
}

#endif
