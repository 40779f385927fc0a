/* a, b, c = A w, B w, C w from the precompiled circuit (include/cuzk/pce.h), written once
 * against the executor interface (exec.cuh) so the host emulation runs the same code as the
 * device. The result is cuzk_pce_evaluate's bit for bit: every value is a fully reduced
 * Montgomery residue and field addition is associative, so the order in which a row's terms
 * are summed does not change the bytes.
 *
 * Scheme. Rows are short (PoRep: A 2.4, B 1.0, C 2.2 terms on average) with a few long ones
 * (tens to about a thousand terms: in porep:2KiB 0.3% of the A rows exceed 16 terms, the
 * longest has 929). One thread per row is the right shape for the short rows (coalesced
 * row offsets, no inter-thread reduction), but a warp runs as long as its longest row, so a
 * row of 929 terms would hold 31 idle lanes for 929 steps, and a circuit with one row of
 * millions of terms would serialize on it. A warp per row would waste 30 of 32 lanes on the
 * short rows that are almost all of the work. So:
 *   1. rows of at most SPMV_SEG terms: one thread each (rows with more terms are skipped);
 *   2. longer rows are cut, at setup, into segments of SPMV_SEG terms; one thread per segment
 *      writes its partial sum;
 *   3. partial sums are added in groups of at most SPMV_SEG per thread, level after level
 *      (a row of L terms needs about log_SEG(L) levels; the last level has one group per long
 *      row and writes the row's output).
 * Every thread therefore handles at most SPMV_SEG terms or partial sums, whatever the row
 * lengths. The plan (segments, groups) depends only on the matrices and is built once, on
 * the host, when the circuit is uploaded. SPMV_SEG = 16: rows of 9..16 terms are rare (0.16%
 * of porep:2KiB's A rows) and a warp that meets one costs at most 16 steps; the rows above
 * it are few (0.3%), so the extra passes over them should be small. This is verified for
 * equality (host emulation in CI, and test_gpu wherever a device is present); its speed on
 * the device, and the choice of 16, are not yet measured.
 *
 * Streamed matrices (cuzk_gpu_pce_create_streamed, a GPU without room for them): the row
 * offsets, columns and coefficient indices stay in page-locked host memory and cross the link
 * in chunks of whole rows (spmv_chunk: its rows, their terms, the long rows' segments among
 * them) through two device buffers, the copy of the next chunk beside the kernels of this one.
 * The kernels are the same: each takes the first row, term and segment its arrays start at
 * (0 for resident matrices). A long row's segments are summed with its chunk; the reduction
 * levels, which read only partial sums and the plan (kept on the device), run after the
 * matrix's last chunk.
 *
 * Terms: coefficient index 0 (+1) adds, 1 (-1) subtracts; any other coefficient is skipped
 * when the variable is 0 and added as it is when the variable is 1 (most of a PoRep witness
 * is bits), otherwise multiplied: the CPU's special cases (src/r1cs/pce.c). */
#ifndef CUZK_GPU_SPMV_CUH
#define CUZK_GPU_SPMV_CUH

#include <vector>

#include "gpu/exec.cuh"
#include "gpu/field.cuh"

extern "C" {
#include "cuzk/pce.h"
}

#define SPMV_SEG CUZK_GPU_SPMV_SEG /* most terms (or partial sums) one thread adds */
#define SPMV_MAX_LEVELS 32         /* enough for 2^32 terms with groups of 2 (the smallest plan) */

/* One matrix in executor memory, with its long-row plan. */
struct spmv_matrix {
    const uint32_t *row_ptr, *col, *coeff;
    uint32_t seg;                        /* SPMV_SEG, or smaller to exercise the plan in tests */
    uint32_t nlong;                      /* rows of more than seg terms */
    const uint32_t *long_row;            /* their row indices, ascending */
    uint32_t nseg;                       /* segments of the long rows, row by row */
    const uint32_t *seg_begin, *seg_end; /* term ranges */
    unsigned nlevels;                    /* reduction levels (>= 1 when nlong > 0) */
    uint32_t ngrp[SPMV_MAX_LEVELS];
    const uint32_t *grp_ptr[SPMV_MAX_LEVELS]; /* ngrp + 1 offsets into the previous level's sums */
    size_t partials;                          /* scratch sums: nseg + the groups of every level but the last */
};

/* Rows [r0, r1) of a streamed matrix, their terms [t0, t1) and the long rows' segments among them
 * [s0, s1), copied together: the row offsets (r1 - r0 + 1), then the columns and the
 * coefficient indices, each at a 256-byte boundary of the chunk buffer. */
struct spmv_chunk {
    uint32_t r0, r1, t0, t1, s0, s1;
};

static inline size_t spmv_align(size_t b) { return (b + 255) & ~(size_t)255; }
/* where a chunk's columns and coefficient indices start in its buffer, and its bytes */
static inline size_t spmv_chunk_col_at(size_t rows) { return spmv_align((rows + 1) * 4); }
static inline size_t spmv_chunk_coeff_at(size_t rows, size_t terms)
{
    return spmv_chunk_col_at(rows) + spmv_align(terms * 4);
}
static inline size_t spmv_chunk_bytes(size_t rows, size_t terms)
{
    return spmv_chunk_coeff_at(rows, terms) + terms * 4;
}

/* A precompiled circuit in executor memory (device, or host for the emulation). */
struct pce_view {
    size_t nc, ni, na; /* constraints (without the input rows), inputs, aux */
    spmv_matrix m[3];
    /* streamed matrices: m[k]'s row_ptr, col and coeff are in host memory, copied chunk by chunk
     * through two buffers of chunk_bytes (0: resident, every array in executor memory) */
    size_t chunk_bytes;
    const spmv_chunk *chunks[3];
    size_t nchunks[3];
    const fr_t *coeffs;
    /* density bitmaps for the prover's A and B MSMs (words), and B's input popcount */
    const uint64_t *a_aux_w, *b_in_w, *b_aux_w;
    size_t b_input_popcount;
};

/* The plan's arrays on the host, before upload (or used in place by the emulation). */
struct spmv_plan {
    uint32_t seg = SPMV_SEG;
    std::vector<uint32_t> long_row, seg_begin, seg_end;
    std::vector<std::vector<uint32_t>> grp_ptr; /* one per level */
};

/* Builds the plan of one matrix: segments of at most seg terms for the rows longer than
 * seg, then levels of groups of at most seg sums until one sum per long row is left. */
static inline void spmv_plan_build(spmv_plan &pl, const uint32_t *row_ptr, size_t nrows, uint32_t seg)
{
    if (seg < 2) seg = 2; /* groups of one would never reduce */
    pl.seg = seg;
    std::vector<uint32_t> count; /* sums per long row at the current level */
    for (size_t r = 0; r < nrows; r++) {
        uint32_t b = row_ptr[r], e = row_ptr[r + 1];
        if (e - b <= seg) continue;
        pl.long_row.push_back((uint32_t)r);
        count.push_back(0);
        for (uint32_t s = b; s < e; s += seg) {
            pl.seg_begin.push_back(s);
            pl.seg_end.push_back(e - s > seg ? s + seg : e);
            count.back()++;
        }
    }
    if (pl.long_row.empty()) return;
    for (;;) {
        uint32_t most = 0;
        for (uint32_t c : count) most = c > most ? c : most;
        /* the last level: one group per row (at most seg sums each); otherwise cut every
         * row's sums into groups of seg */
        bool last = most <= seg;
        std::vector<uint32_t> ptr(1, 0);
        for (uint32_t &c : count) {
            uint32_t groups = last ? 1 : (c + seg - 1) / seg;
            for (uint32_t g = 0; g < groups; g++) {
                uint32_t left = c - g * seg;
                ptr.push_back(ptr.back() + (last || left < seg ? left : seg));
            }
            c = groups;
        }
        pl.grp_ptr.push_back(ptr);
        if (last) break;
    }
}

/* Cuts matrix k's rows into chunks of at most `bytes` (spmv_chunk_bytes), in order; a row whose
 * terms alone do not fit fails (CUZK_EINVAL, naming it). */
static inline cuzk_status spmv_chunks_build(std::vector<spmv_chunk> &out, const uint32_t *row_ptr, size_t nrows,
                                            const spmv_plan &pl, size_t bytes, int k)
{
    out.clear();
    size_t r = 0, s = 0;
    while (r < nrows) {
        size_t r1 = r;
        while (r1 < nrows && spmv_chunk_bytes(r1 + 1 - r, row_ptr[r1 + 1] - row_ptr[r]) <= bytes) r1++;
        if (r1 == r)
            return cuzk_fail(CUZK_EINVAL,
                             "streaming the precompiled circuit: row %zu of %c has %u terms, more than a chunk of %zu "
                             "bytes holds",
                             r, "ABC"[k], row_ptr[r + 1] - row_ptr[r], bytes);
        spmv_chunk c = {(uint32_t)r, (uint32_t)r1, row_ptr[r], row_ptr[r1], (uint32_t)s, 0};
        while (s < pl.seg_begin.size() && pl.seg_begin[s] < c.t1) s++;
        c.s1 = (uint32_t)s;
        out.push_back(c);
        r = r1;
    }
    return CUZK_OK;
}

/* The view of a plan whose arrays are at the given places (host vectors or device copies). */
static inline void spmv_matrix_set(spmv_matrix &m, const spmv_plan &pl, const uint32_t *row_ptr, const uint32_t *col,
                                   const uint32_t *coeff, const uint32_t *long_row, const uint32_t *seg_begin,
                                   const uint32_t *seg_end, const uint32_t *const *grp_ptr)
{
    m.row_ptr = row_ptr;
    m.col = col;
    m.coeff = coeff;
    m.seg = pl.seg;
    m.nlong = (uint32_t)pl.long_row.size();
    m.long_row = long_row;
    m.nseg = (uint32_t)pl.seg_begin.size();
    m.seg_begin = seg_begin;
    m.seg_end = seg_end;
    m.nlevels = (unsigned)pl.grp_ptr.size();
    m.partials = m.nseg;
    for (unsigned l = 0; l < m.nlevels; l++) {
        m.ngrp[l] = (uint32_t)pl.grp_ptr[l].size() - 1;
        m.grp_ptr[l] = grp_ptr[l];
        if (l + 1 < m.nlevels) m.partials += m.ngrp[l];
    }
}

/* A precompiled circuit used in place in host memory, with its plan (host emulation); with
 * chunk_bytes, its matrices streamed as the device streams them (fails where a row does not fit). */
struct pce_host {
    spmv_plan plan[3];
    const uint32_t *gp[3][SPMV_MAX_LEVELS];
    std::vector<spmv_chunk> chunks[3];
    pce_view v;
    cuzk_status init(const cuzk_pce *p, uint32_t seg, size_t chunk_bytes = 0)
    {
        memset(&v, 0, sizeof v);
        v.nc = p->num_constraints;
        v.ni = p->num_inputs;
        v.na = p->num_aux;
        for (int k = 0; k < 3; k++) {
            spmv_plan &pl = plan[k];
            spmv_plan_build(pl, p->row_ptr[k], p->num_constraints, seg);
            for (size_t l = 0; l < pl.grp_ptr.size(); l++) gp[k][l] = pl.grp_ptr[l].data();
            spmv_matrix_set(v.m[k], pl, p->row_ptr[k], p->col[k], p->coeff[k], pl.long_row.data(), pl.seg_begin.data(),
                            pl.seg_end.data(), gp[k]);
            cuzk_status st;
            if (chunk_bytes &&
                (st = spmv_chunks_build(chunks[k], p->row_ptr[k], p->num_constraints, pl, chunk_bytes, k)))
                return st;
            v.chunks[k] = chunks[k].data();
            v.nchunks[k] = chunks[k].size();
        }
        v.chunk_bytes = chunk_bytes;
        v.coeffs = (const fr_t *)p->coeffs;
        v.a_aux_w = p->a_aux.words;
        v.b_in_w = p->b_input.words;
        v.b_aux_w = p->b_aux.words;
        v.b_input_popcount = p->b_input.popcount;
        return CUZK_OK;
    }
};

/* ---------------------------------------------------------------- kernels */

/* acc += coefficient * value, with the CPU's special cases */
HD void spmv_term(fr_t &acc, uint32_t ci, const fr_t &v, const fr_t *coeffs)
{
    if (ci == CUZK_PCE_ONE) {
        add(acc, acc, v);
    } else if (ci == CUZK_PCE_MINUS_ONE) {
        sub(acc, acc, v);
    } else if (fr_is_one(v)) {
        add(acc, acc, coeffs[ci]);
    } else if (!is_zero(v)) {
        fr_t t;
        mul(t, v, coeffs[ci]);
        add(acc, acc, t);
    }
}

/* the sum of terms [b, e) of one matrix, whose col and coeff arrays start at term t0 */
struct spmv_terms {
    const uint32_t *col, *coeff;
    const fr_t *coeffs, *in, *aux;
    uint32_t ni, t0;
    HD fr_t sum(uint32_t b, uint32_t e) const
    {
        fr_t acc;
        set_zero(acc);
        for (uint32_t j = b - t0; j < e - t0; j++) {
            const uint32_t c = col[j];
            spmv_term(acc, coeff[j], c < ni ? in[c] : aux[c - ni], coeffs);
        }
        return acc;
    }
};

/* 1. a thread per row of at most seg terms (row_ptr starts at row r0) */
struct k_spmv_rows {
    spmv_terms t;
    const uint32_t *row_ptr;
    uint32_t seg, r0;
    fr_t *out;
    HD void operator()(size_t i) const
    {
        const uint32_t b = row_ptr[i], e = row_ptr[i + 1];
        if (e - b <= seg) out[r0 + i] = t.sum(b, e);
    }
};

/* 2. a thread per segment of a long row, from segment s0 */
struct k_spmv_segments {
    spmv_terms t;
    const uint32_t *seg_begin, *seg_end;
    uint32_t s0;
    fr_t *out;
    HD void operator()(size_t i) const
    {
        const size_t s = s0 + i;
        out[s] = t.sum(seg_begin[s], seg_end[s]);
    }
};

/* 3. a thread per group of sums; the last level writes the long rows' outputs */
struct k_spmv_reduce {
    const fr_t *in;
    const uint32_t *grp_ptr;
    const uint32_t *dest; /* NULL: out[g] */
    fr_t *out;
    HD void operator()(size_t g) const
    {
        fr_t acc;
        set_zero(acc);
        for (uint32_t j = grp_ptr[g]; j < grp_ptr[g + 1]; j++) add(acc, acc, in[j]);
        out[dest ? dest[g] : g] = acc;
    }
};

/* the appended Input(i) * 0 = 0 rows of one matrix: a = input[i] (in), b = c = 0 (in NULL) */
struct k_spmv_inputs {
    const fr_t *in;
    fr_t *out;
    HD void operator()(size_t i) const
    {
        if (in) out[i] = in[i];
        else set_zero(out[i]);
    }
};

/* The chunks of the streamed matrices in order (every matrix's, A's first), each copied into the
 * buffer its last-but-one left: send(q) issues chunk q's copy, ordered after the work issued so
 * far (which includes the buffer's last reader); take(q) orders the compute stream after it and
 * sends chunk q + 1 beside q's kernels. end() waits for any copy still in flight (the buffers go
 * after it). */
template <class X> struct spmv_feed {
    X &x;
    const pce_view &v;
    int tok[2] = {-1, -1};
    uint8_t *buf[2] = {NULL, NULL};
    std::vector<std::pair<int, size_t>> seq; /* (matrix, chunk); none for resident matrices */
    spmv_feed(X &xx, const pce_view &vv) : x(xx), v(vv)
    {
        if (!v.chunk_bytes) return;
        buf[0] = (uint8_t *)x.alloc(v.chunk_bytes);
        buf[1] = (uint8_t *)x.alloc(v.chunk_bytes);
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < v.nchunks[k]; i++) seq.push_back({k, i});
        if (!seq.empty()) send(0);
    }
    void send(size_t q)
    {
        const spmv_matrix &m = v.m[seq[q].first];
        const spmv_chunk &c = v.chunks[seq[q].first][seq[q].second];
        const size_t rows = c.r1 - c.r0, terms = c.t1 - c.t0;
        uint8_t *b = buf[q & 1];
        x.upload(b, m.row_ptr + c.r0, (rows + 1) * 4);
        x.upload(b + spmv_chunk_col_at(rows), m.col + c.t0, terms * 4);
        tok[q & 1] = x.upload(b + spmv_chunk_coeff_at(rows, terms), m.coeff + c.t0, terms * 4); /* one copy stream */
    }
    const uint8_t *take(size_t q)
    {
        x.wait_upload(tok[q & 1]);
        if (q + 1 < seq.size()) send(q + 1);
        return buf[q & 1];
    }
    void end()
    {
        x.wait_upload(tok[0]);
        x.wait_upload(tok[1]);
        x.release(buf[0]);
        x.release(buf[1]);
    }
};

/* The SpMV of the assignment (in[ni], aux[na] in executor memory) a matrix at a time, the
 * matrices resident or streamed (pce_view.chunk_bytes): matrix(k, out) writes its nc + ni
 * entries into out, for k = 0, 1, 2 in that order (the feed's), each once; work issued between
 * them (the NTTs of what is made) runs while the next matrix's first chunk is copied. end()
 * after the last. Enqueued on the executor's stream; errors are the executor's. */
template <class X> struct spmv_pass {
    X &x;
    const pce_view &v;
    const fr_t *in, *aux;
    spmv_feed<X> feed;
    spmv_pass(X &xx, const pce_view &vv, const fr_t *i, const fr_t *a) : x(xx), v(vv), in(i), aux(a), feed(xx, vv) {}
    /* the feed's chunks run in matrix order: the first chunk of matrix k */
    size_t first_chunk(int k) const
    {
        size_t q = 0;
        for (int i = 0; i < k; i++) q += v.nchunks[i];
        return q;
    }
    /* spare: free executor memory of spare_len entries that no one reads or writes until the
     * matrix's work ends (the vector of a matrix not yet made); its long rows' partial sums go
     * there where they fit, not into an allocation of their own (placement.c counts them so:
     * cuzk_gpu_pce_stream_bytes) */
    void matrix(int k, fr_t *out, fr_t *spare = NULL, size_t spare_len = 0)
    {
        if (!x.ok()) return;
        const spmv_matrix &m = v.m[k];
        const bool streamed = v.chunk_bytes != 0;
        spmv_terms t = {m.col, m.coeff, v.coeffs, in, aux, (uint32_t)v.ni, 0};
        const bool in_spare = m.nlong && spare && m.partials <= spare_len;
        fr_t *part = in_spare ? spare : m.nlong ? (fr_t *)x.alloc(m.partials * sizeof(fr_t)) : NULL;
        if (!x.ok()) return;
        if (!streamed) {
            k_spmv_rows kr = {t, m.row_ptr, m.seg, 0, out};
            x.parallel(v.nc, kr);
            k_spmv_segments ks = {t, m.seg_begin, m.seg_end, 0, part};
            x.parallel(m.nseg, ks);
        }
        for (size_t i = 0, q = first_chunk(k); streamed && i < v.nchunks[k]; i++, q++) {
            const spmv_chunk &c = v.chunks[k][i];
            const size_t rows = c.r1 - c.r0, terms = c.t1 - c.t0;
            const uint8_t *b = feed.take(q);
            spmv_terms tc = t;
            tc.col = (const uint32_t *)(b + spmv_chunk_col_at(rows));
            tc.coeff = (const uint32_t *)(b + spmv_chunk_coeff_at(rows, terms));
            tc.t0 = c.t0;
            k_spmv_rows kr = {tc, (const uint32_t *)b, m.seg, c.r0, out};
            x.parallel(rows, kr);
            k_spmv_segments ks = {tc, m.seg_begin, m.seg_end, c.s0, part};
            x.parallel(c.s1 - c.s0, ks);
        }
        if (m.nlong) {
            const fr_t *src = part;
            size_t off = m.nseg;
            for (unsigned l = 0; l < m.nlevels; l++) {
                const bool last = l + 1 == m.nlevels;
                fr_t *dst = last ? out : part + off;
                k_spmv_reduce kg = {src, m.grp_ptr[l], last ? m.long_row : NULL, dst};
                x.parallel(m.ngrp[l], kg);
                src = dst;
                off += m.ngrp[l];
            }
            if (!in_spare) x.release(part);
        }
        k_spmv_inputs ki = {k == 0 ? in : NULL, out + v.nc};
        x.parallel(v.ni, ki);
    }
    void end() { feed.end(); }
};

/* a, b, c (nc + ni entries each, executor memory, out_len entries) for the assignment, the three
 * matrices in turn; A's partial sums in b's memory, not yet made */
template <class X>
void spmv_run(X &x, const pce_view &v, const fr_t *in, const fr_t *aux, fr_t *const out[3], size_t out_len)
{
    spmv_pass<X> p(x, v, in, aux);
    p.matrix(0, out[0], out[1], out_len);
    for (int k = 1; k < 3; k++) p.matrix(k, out[k]);
    p.end();
}

#endif
