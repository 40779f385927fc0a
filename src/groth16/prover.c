/* The CPU Groth16 prover, computing exactly what bellperson's native prover computes:
 * - H: a, b and c (zero-padded to N = 2^lg rows) each inverse-transformed and evaluated on
 *   the coset g*H (g = 7), combined there as (a b - c) / Z, where Z(X) = X^N - 1 is the
 *   constant g^N - 1, and brought back by a coset inverse transform: H's N - 1 coefficients;
 * - the MSMs: H's coefficients over the h points, every aux value over l, the inputs and the
 *   aux with A density over a, the inputs and aux with B density over b_g1 and b_g2;
 * - the assembly with the randomizers r and s (cuzk_groth16_assemble):
 *   A = alpha + A_msm + r delta, B = beta + B2_msm + s delta (B2_msm the G2 MSM over b_g2),
 *   C = s A_msm + r B1_msm + rs delta + s alpha + r beta + H_msm + L_msm (B1_msm over b_g1).
 * docs/DESIGN.md ("The proving path") has the same outline. L, A and B use the 0/1 split (the
 * same sums, cheaper for witnesses that are mostly bits). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

cuzk_groth16_witness cuzk_groth16_witness_of(const cuzk_prove_result *pr)
{
    cuzk_groth16_witness w = {pr->a,   pr->b,       pr->c,      pr->n,        pr->input, pr->num_inputs,
                              pr->aux, pr->num_aux, &pr->a_aux, &pr->b_input, &pr->b_aux};
    return w;
}

cuzk_status cuzk_groth16_check_shape(const cuzk_groth16_params *p, const cuzk_groth16_witness *w)
{
    if (w->n < w->num_inputs || w->num_inputs == 0)
        return cuzk_fail(CUZK_EINVAL, "witness has %zu rows for %zu inputs: the input constraints are missing", w->n,
                         w->num_inputs);
    unsigned lg = cuzk_log2_ceil(w->n);
    if (lg > CUZK_NTT_MAX_LOG)
        return cuzk_fail(CUZK_EUNSUPPORTED, "%zu constraints need a domain of 2^%u, above the supported 2^%d", w->n, lg,
                         CUZK_NTT_MAX_LOG);
    size_t N = (size_t)1 << lg;
    if (p->vk.ic_len != w->num_inputs)
        return cuzk_fail(CUZK_EINVAL, "parameters have %zu public inputs (ic) but the witness has %zu", p->vk.ic_len,
                         w->num_inputs);
    if (p->h_len != N - 1)
        return cuzk_fail(CUZK_EINVAL,
                         "parameters have %zu h points (domain %zu) but the witness needs domain %zu (%zu rows)",
                         p->h_len, p->h_len + 1, N, w->n);
    if (p->l_len != w->num_aux)
        return cuzk_fail(CUZK_EINVAL, "parameters have %zu l points but the witness has %zu aux variables", p->l_len,
                         w->num_aux);
    if (w->a_aux_density->bits != w->num_aux || w->b_aux_density->bits != w->num_aux ||
        w->b_input_density->bits != w->num_inputs)
        return cuzk_fail(CUZK_EINVAL, "density bitmaps do not match the witness's variable counts");
    if (p->a_len != w->num_inputs + w->a_aux_density->popcount)
        return cuzk_fail(CUZK_EINVAL, "parameters have %zu a points but the circuit's A density needs %zu", p->a_len,
                         w->num_inputs + w->a_aux_density->popcount);
    size_t nb = w->b_input_density->popcount + w->b_aux_density->popcount;
    if (p->b_g1_len != nb || p->b_g2_len != nb)
        return cuzk_fail(CUZK_EINVAL,
                         "parameters have %zu b_g1 / %zu b_g2 points but the circuit's B density needs %zu",
                         p->b_g1_len, p->b_g2_len, nb);
    return CUZK_OK;
}

typedef struct {
    cuzk_fr *a;
    const cuzk_fr *b, *c;
    cuzk_fr z_inv;
} combine_ctx;

/* a = (a * b - c) / Z on the coset */
static void combine_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    combine_ctx *x = vctx;
    for (size_t i = b; i < e; i++) {
        cuzk_fr_mul(&x->a[i], &x->a[i], &x->b[i]);
        cuzk_fr_sub(&x->a[i], &x->a[i], &x->c[i]);
        cuzk_fr_mul(&x->a[i], &x->a[i], &x->z_inv);
    }
}

/* ---------------------------------------------------------------- the workspace */
void cuzk_groth16_workspace_free(cuzk_groth16_workspace *ws)
{
    for (int k = 0; k < 3; k++) cuzk_big_free(ws->v[k], ws->v_cap * sizeof(cuzk_fr));
    cuzk_big_free(ws->scratch, ws->scratch_cap * sizeof(cuzk_fr));
    if (ws->domain.twiddles) cuzk_ntt_domain_free(&ws->domain);
    memset(ws, 0, sizeof *ws);
}

/* the three N-element vectors and the domain of 2^lg, kept when they already fit */
static cuzk_status ws_reserve_h(cuzk_groth16_workspace *ws, unsigned lg, cuzk_timeline *tl)
{
    size_t N = (size_t)1 << lg;
    if (!ws->domain.twiddles || ws->domain.log_n != lg) {
        if (ws->domain.twiddles) cuzk_ntt_domain_free(&ws->domain);
        memset(&ws->domain, 0, sizeof ws->domain);
        int span = cuzk_span_begin(tl, "ntt domain");
        cuzk_status st = cuzk_ntt_domain_init(&ws->domain, lg);
        cuzk_span_end(tl, span);
        if (st) {
            memset(&ws->domain, 0, sizeof ws->domain);
            return st;
        }
    }
    if (ws->v_cap >= N) return CUZK_OK;
    for (int k = 0; k < 3; k++) {
        cuzk_big_free(ws->v[k], ws->v_cap * sizeof(cuzk_fr));
        ws->v[k] = NULL;
    }
    ws->v_cap = 0;
    for (int k = 0; k < 3; k++)
        if (!(ws->v[k] = cuzk_big_alloc(N * sizeof(cuzk_fr)))) {
            for (int j = 0; j < k; j++) cuzk_big_free(ws->v[j], N * sizeof(cuzk_fr));
            memset(ws->v, 0, sizeof ws->v);
            return CUZK_ENOMEM;
        }
    ws->v_cap = N;
    return CUZK_OK;
}

static cuzk_status ws_reserve_scratch(cuzk_groth16_workspace *ws, size_t n)
{
    if (ws->scratch_cap >= n) return CUZK_OK;
    cuzk_big_free(ws->scratch, ws->scratch_cap * sizeof(cuzk_fr));
    ws->scratch_cap = 0;
    if (!(ws->scratch = cuzk_big_alloc((n ? n : 1) * sizeof(cuzk_fr)))) return CUZK_ENOMEM;
    ws->scratch_cap = n ? n : 1;
    return CUZK_OK;
}

/* The H coefficients into ws->v[0] (N of them, *n_out = N; the last is zero). cancel is polled
 * before each of the seven transforms (one takes 0.6 s at 2^22 on 2 threads) and the combine. */
static cuzk_status compute_h_buffer(cuzk_groth16_workspace *ws, const cuzk_groth16_witness *w, cuzk_timeline *tl,
                                    const cuzk_cancel *cancel, cuzk_progress *ntts, size_t *n_out)
{
    unsigned lg = cuzk_log2_ceil(w->n);
    if (lg > CUZK_NTT_MAX_LOG)
        return cuzk_fail(CUZK_EUNSUPPORTED, "%zu constraints need a domain above 2^%d", w->n, CUZK_NTT_MAX_LOG);
    size_t N = (size_t)1 << lg;
    cuzk_status st = ws_reserve_h(ws, lg, tl);
    if (st) return st;
    const cuzk_ntt_domain *d = &ws->domain;
    cuzk_fr **v = ws->v;
    const cuzk_fr *src[3] = {w->a, w->b, w->c};
    for (int k = 0; k < 3; k++) {
        memcpy(v[k], src[k], w->n * sizeof(cuzk_fr));
        memset(v[k] + w->n, 0, (N - w->n) * sizeof(cuzk_fr)); /* the padding rows are 0 */
    }
    static const char *ifft_names[3] = {"ifft a", "ifft b", "ifft c"};
    static const char *fft_names[3] = {"coset fft a", "coset fft b", "coset fft c"};
    int span;
    for (int k = 0; k < 3; k++) {
        if ((st = cuzk_cancel_check(cancel, ifft_names[k]))) return st;
        span = cuzk_span_begin(tl, ifft_names[k]);
        cuzk_ntt_inverse(d, v[k]);
        cuzk_span_end(tl, span);
        cuzk_progress_add(ntts, 1);
        if ((st = cuzk_cancel_check(cancel, fft_names[k]))) return st;
        span = cuzk_span_begin(tl, fft_names[k]);
        cuzk_ntt_coset_forward(d, v[k]);
        cuzk_span_end(tl, span);
        cuzk_progress_add(ntts, 1);
    }
    /* Z(X) = X^N - 1 is the constant g^N - 1 on the coset g*H */
    if ((st = cuzk_cancel_check(cancel, "(ab - c) / z"))) return st;
    span = cuzk_span_begin(tl, "(ab - c) / z");
    combine_ctx x = {v[0], v[1], v[2], CUZK_FR_ZERO};
    cuzk_fr z;
    cuzk_fr_pow_u64(&z, &d->gen, N);
    cuzk_fr_sub(&z, &z, &CUZK_FR_ONE);
    cuzk_fr_inv(&x.z_inv, &z);
    cuzk_parallel_for(N, 4096, combine_range, &x);
    cuzk_span_end(tl, span);
    if ((st = cuzk_cancel_check(cancel, "coset ifft h"))) return st;
    span = cuzk_span_begin(tl, "coset ifft h");
    cuzk_ntt_coset_inverse(d, v[0]);
    cuzk_span_end(tl, span);
    cuzk_progress_add(ntts, 1);
    *n_out = N;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_compute_h(cuzk_fr *h_out, const cuzk_groth16_witness *w, cuzk_timeline *tl)
{
    cuzk_groth16_workspace ws;
    memset(&ws, 0, sizeof ws);
    size_t N;
    cuzk_status st = compute_h_buffer(&ws, w, tl, NULL, NULL, &N);
    if (!st) memcpy(h_out, ws.v[0], (N - 1) * sizeof(cuzk_fr));
    cuzk_groth16_workspace_free(&ws);
    return st;
}

/* ---------------------------------------------------------------- density gather */

#define GATHER_CHUNK_WORDS 1024 /* 65536 variables per chunk */

typedef struct {
    const cuzk_fr *src;
    const cuzk_density *d;
    cuzk_fr *dst;
    size_t *offsets; /* per chunk: where its selected values start in dst */
} gather_ctx;

/* Word w of the bitmap with bits past d->bits cleared. */
static uint64_t density_word(const cuzk_density *d, size_t w)
{
    uint64_t v = d->words[w];
    size_t rem = d->bits - w * 64;
    return rem >= 64 ? v : v & (((uint64_t)1 << rem) - 1);
}

static size_t chunk_words(const cuzk_density *d, size_t chunk, size_t *end)
{
    size_t nwords = (d->bits + 63) / 64, b = chunk * GATHER_CHUNK_WORDS;
    *end = b + GATHER_CHUNK_WORDS < nwords ? b + GATHER_CHUNK_WORDS : nwords;
    return b;
}

static void count_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    gather_ctx *g = vctx;
    for (size_t ch = b; ch < e; ch++) {
        size_t end, cnt = 0;
        for (size_t w = chunk_words(g->d, ch, &end); w < end; w++)
            cnt += (size_t)__builtin_popcountll(density_word(g->d, w));
        g->offsets[ch] = cnt;
    }
}

static void copy_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    gather_ctx *g = vctx;
    for (size_t ch = b; ch < e; ch++) {
        size_t end, o = g->offsets[ch];
        for (size_t w = chunk_words(g->d, ch, &end); w < end; w++)
            for (uint64_t v = density_word(g->d, w); v; v &= v - 1)
                g->dst[o++] = g->src[w * 64 + (size_t)__builtin_ctzll(v)];
    }
}

/* dst[0..popcount) = src[i] for the set bits i of d, in order. */
static cuzk_status gather(cuzk_fr *dst, const cuzk_fr *src, const cuzk_density *d)
{
    size_t nchunks = (d->bits + GATHER_CHUNK_WORDS * 64 - 1) / (GATHER_CHUNK_WORDS * 64);
    gather_ctx g = {src, d, dst, cuzk_calloc(nchunks + 1, sizeof(size_t))};
    if (!g.offsets) return CUZK_ENOMEM;
    cuzk_parallel_for(nchunks, 1, count_range, &g);
    size_t total = 0;
    for (size_t ch = 0; ch < nchunks; ch++) {
        size_t c = g.offsets[ch];
        g.offsets[ch] = total;
        total += c;
    }
    cuzk_parallel_for(nchunks, 1, copy_range, &g);
    free(g.offsets);
    return total == d->popcount ? CUZK_OK : cuzk_fail(CUZK_EINVAL, "density bitmap popcount is wrong");
}

/* ---------------------------------------------------------------- the proof */

static void p1_mul(blst_p1 *out, const blst_p1 *p, const cuzk_fr *k)
{
    blst_scalar s;
    cuzk_fr_to_scalar(&s, k);
    blst_p1_mult(out, p, s.b, 255);
}

static void p1_affine_mul(blst_p1 *out, const blst_p1_affine *p, const cuzk_fr *k)
{
    blst_p1 t;
    blst_p1_from_affine(&t, p);
    p1_mul(out, &t, k);
}

static void p2_affine_mul(blst_p2 *out, const blst_p2_affine *p, const cuzk_fr *k)
{
    blst_scalar s;
    blst_p2 t;
    cuzk_fr_to_scalar(&s, k);
    blst_p2_from_affine(&t, p);
    blst_p2_mult(out, &t, s.b, 255);
}

void cuzk_groth16_assemble(cuzk_groth16_proof *out, const cuzk_groth16_vk *vk, const cuzk_fr *r, const cuzk_fr *s,
                           const blst_p1 *h_msm, const blst_p1 *l_msm, const blst_p1 *a_msm, const blst_p1 *b1_msm,
                           const blst_p2 *b2_msm)
{
    blst_p1 g_a, g_c, t;
    blst_p2 g_b;
    cuzk_fr rs;
    /* A = alpha + A_msm + r delta */
    p1_affine_mul(&g_a, &vk->delta_g1, r);
    blst_p1_add_or_double_affine(&g_a, &g_a, &vk->alpha_g1);
    blst_p1_add_or_double(&g_a, &g_a, a_msm);
    /* B = beta + B2_msm + s delta */
    p2_affine_mul(&g_b, &vk->delta_g2, s);
    blst_p2_add_or_double_affine(&g_b, &g_b, &vk->beta_g2);
    blst_p2_add_or_double(&g_b, &g_b, b2_msm);
    /* C = rs delta + s alpha + r beta + s A_msm + r B1_msm + H + L */
    cuzk_fr_mul(&rs, r, s);
    p1_affine_mul(&g_c, &vk->delta_g1, &rs);
    p1_affine_mul(&t, &vk->alpha_g1, s);
    blst_p1_add_or_double(&g_c, &g_c, &t);
    p1_affine_mul(&t, &vk->beta_g1, r);
    blst_p1_add_or_double(&g_c, &g_c, &t);
    p1_mul(&t, a_msm, s);
    blst_p1_add_or_double(&g_c, &g_c, &t);
    p1_mul(&t, b1_msm, r);
    blst_p1_add_or_double(&g_c, &g_c, &t);
    blst_p1_add_or_double(&g_c, &g_c, h_msm);
    blst_p1_add_or_double(&g_c, &g_c, l_msm);
    blst_p1_to_affine(&out->a, &g_a);
    blst_p2_to_affine(&out->b, &g_b);
    blst_p1_to_affine(&out->c, &g_c);
}

cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p, const cuzk_groth16_witness *w,
                               const cuzk_fr *r_in, const cuzk_fr *s_in, cuzk_timeline *tl)
{
    cuzk_groth16_workspace ws;
    memset(&ws, 0, sizeof ws);
    cuzk_status st = cuzk_groth16_prove_ws(&ws, out, p, w, r_in, s_in, tl);
    cuzk_groth16_workspace_free(&ws);
    return st;
}

cuzk_status cuzk_groth16_prove_ws(cuzk_groth16_workspace *ws, cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                  const cuzk_groth16_witness *w, const cuzk_fr *r_in, const cuzk_fr *s_in,
                                  cuzk_timeline *tl)
{
    cuzk_groth16_prove_opts o = {.r = r_in, .s = s_in, .tl = tl};
    return cuzk_groth16_prove_with(ws, out, p, w, &o);
}

/* Tells a watcher (cuzk_groth16_prove_opts.stage) the stage the prover enters. */
static void enter_stage(int *stage, cuzk_prove_stage s)
{
    if (stage) __atomic_store_n(stage, (int)s, __ATOMIC_RELAXED);
}

const char *cuzk_prove_stage_name(int stage)
{
    switch (stage) {
    case CUZK_PROVE_STAGE_NTT: return "ntt";
    case CUZK_PROVE_STAGE_MSM: return "msm";
    case CUZK_PROVE_STAGE_ASSEMBLE: return "assemble";
    default: return "";
    }
}

/* The five MSM results of a proof. */
typedef struct {
    blst_p1 h, l, a, b1;
    blst_p2 b2;
} msm_results;

/* Begins the span of stage `name` on tl (*span), unless cancel is set: CUZK_ECANCELLED. */
static cuzk_status stage_begin(const cuzk_cancel *cancel, cuzk_timeline *tl, const char *name, int *span)
{
    cuzk_status st = cuzk_cancel_check(cancel, name);
    *span = st ? -1 : cuzk_span_begin(tl, name);
    return st;
}

/* H (from ws->v[0], N - 1 coefficients), L, A, B_G1 and B_G2 into *m; A and B gather their
 * density-selected scalars into ws->scratch first. */
static cuzk_status prove_msms(cuzk_groth16_workspace *ws, const cuzk_groth16_params *p, const cuzk_groth16_witness *w,
                              size_t N, cuzk_timeline *tl, const cuzk_cancel *cancel, cuzk_progress *msms,
                              msm_results *m)
{
    int span;
    cuzk_status st = stage_begin(cancel, tl, "msm h", &span);
    if (st) return st;
    st = cuzk_g1_msm_cancellable(&m->h, p->h, ws->v[0], N - 1, cancel);
    cuzk_span_end(tl, span);
    cuzk_progress_add(msms, 1);
    if (st || (st = stage_begin(cancel, tl, "msm l", &span))) return st;
    st = cuzk_g1_msm_split_cancellable(&m->l, p->l, w->aux, w->num_aux, cancel);
    cuzk_span_end(tl, span);
    cuzk_progress_add(msms, 1);
    if (st) return st;

    /* A: every input, then the aux with A density. B: inputs and aux with B density. */
    size_t na = p->a_len, nb = p->b_g1_len;
    if ((st = ws_reserve_scratch(ws, na > nb ? na : nb)) || (st = stage_begin(cancel, tl, "msm a", &span))) return st;
    cuzk_fr *sc = ws->scratch;
    memcpy(sc, w->input, w->num_inputs * sizeof(cuzk_fr));
    st = gather(sc + w->num_inputs, w->aux, w->a_aux_density);
    if (!st) st = cuzk_g1_msm_split_cancellable(&m->a, p->a, sc, na, cancel);
    cuzk_span_end(tl, span);
    cuzk_progress_add(msms, 1);
    if (st || (st = stage_begin(cancel, tl, "msm b_g1", &span))) return st;
    st = gather(sc, w->input, w->b_input_density);
    if (!st) st = gather(sc + w->b_input_density->popcount, w->aux, w->b_aux_density);
    if (!st) st = cuzk_g1_msm_split_cancellable(&m->b1, p->b_g1, sc, nb, cancel);
    cuzk_span_end(tl, span);
    cuzk_progress_add(msms, 1);
    if (st || (st = stage_begin(cancel, tl, "msm b_g2", &span))) return st;
    st = cuzk_g2_msm_split_cancellable(&m->b2, p->b_g2, sc, nb, cancel);
    cuzk_span_end(tl, span);
    cuzk_progress_add(msms, 1);
    return st;
}

cuzk_status cuzk_groth16_prove_with(cuzk_groth16_workspace *ws, cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                    const cuzk_groth16_witness *w, const cuzk_groth16_prove_opts *opts)
{
    static const cuzk_groth16_prove_opts defaults = {0};
    const cuzk_groth16_prove_opts *o = opts ? opts : &defaults;
    cuzk_status st = cuzk_groth16_check_shape(p, w);
    if (st) return st;
    if (blst_p1_affine_is_inf(&p->vk.delta_g1) || blst_p2_affine_is_inf(&p->vk.delta_g2))
        return cuzk_fail(CUZK_EINVAL, "parameters have delta at infinity (a subverted setup)");
    cuzk_fr r, s;
    if (o->r) r = *o->r;
    else if ((st = cuzk_fr_random_os(&r))) return st;
    if (o->s) s = *o->s;
    else if ((st = cuzk_fr_random_os(&s))) return st;

    int prove_span = cuzk_span_begin(o->tl, "prove (cpu)");
    const char *name = o->progress_name ? o->progress_name : "prove";
    msm_results m;
    enter_stage(o->stage, CUZK_PROVE_STAGE_NTT);
    cuzk_progress *task = cuzk_progress_startf(o->progress, CUZK_PROVE_NTTS, "%s: NTT", name);
    int span = cuzk_span_begin(o->tl, "h polynomial");
    size_t N = 0;
    st = compute_h_buffer(ws, w, o->tl, o->cancel, task, &N);
    cuzk_span_end(o->tl, span);
    cuzk_progress_finish(task);
    if (!st) {
        enter_stage(o->stage, CUZK_PROVE_STAGE_MSM);
        task = cuzk_progress_startf(o->progress, CUZK_PROVE_MSMS, "%s: MSM", name);
        st = prove_msms(ws, p, w, N, o->tl, o->cancel, task, &m);
        cuzk_progress_finish(task);
    }
    if (!st) {
        enter_stage(o->stage, CUZK_PROVE_STAGE_ASSEMBLE);
        span = cuzk_span_begin(o->tl, "assemble");
        cuzk_groth16_assemble(out, &p->vk, &r, &s, &m.h, &m.l, &m.a, &m.b1, &m.b2);
        cuzk_span_end(o->tl, span);
    }
    enter_stage(o->stage, CUZK_PROVE_STAGE_NONE);
    cuzk_span_end(o->tl, prove_span);
    return st;
}
