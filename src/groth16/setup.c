/* Random Groth16 parameters for an R1CS, as bellperson's generator makes them:
 * Lagrange coefficients at tau from an inverse NTT of the powers of tau, the QAP values
 * u, v, w of every variable (the appended Input(i) * 0 = 0 rows included), and fixed-base
 * multiplications for every query. The A and B queries keep the points the prover's density
 * bitmaps select (bellperson drops the identity points, which are the same ones). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/params_writer.h"

static cuzk_status random_nonzero(cuzk_fr *out, cuzk_rng *rng)
{
    do {
        if (rng) cuzk_fr_random(out, rng);
        else {
            cuzk_status st = cuzk_fr_random_os(out);
            if (st) return st;
        }
    } while (cuzk_fr_is_zero(out));
    return CUZK_OK;
}

/* acc[col] += coeff * lag[row] over every term of matrix k (rows added to progress). */
static void accumulate(cuzk_fr *acc, const cuzk_r1cs *m, int k, const cuzk_fr *lag, cuzk_progress *progress)
{
    for (size_t row = 0; row < m->num_constraints; row++) {
        for (uint32_t j = m->row_ptr[k][row]; j < m->row_ptr[k][row + 1]; j++) {
            cuzk_fr t;
            cuzk_fr_mul(&t, &m->val[k][j], &lag[row]);
            cuzk_fr_add(&acc[m->col[k][j]], &acc[m->col[k][j]], &t);
        }
        if ((row & 0xffff) == 0xffff) cuzk_progress_add(progress, 0x10000);
    }
    cuzk_progress_add(progress, (m->num_constraints & 0xffff));
}

/* The three matrices' accumulations at once, one per thread (each writes its own vector). */
typedef struct {
    cuzk_fr *acc[3];
    const cuzk_r1cs *m;
    const cuzk_fr *lag;
    cuzk_progress *progress;
} qap_ctx;

static void qap_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    (void)tid;
    qap_ctx *c = vctx;
    for (size_t k = b; k < e; k++) accumulate(c->acc[k], c->m, (int)k, c->lag, c->progress);
}

typedef struct {
    const cuzk_fr *u, *v, *w;
    cuzk_fr alpha, beta, scale; /* scale = 1/gamma or 1/delta */
    cuzk_fr *out;
    size_t offset;
} ic_ctx;

static void ic_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    ic_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        size_t k = i + c->offset;
        cuzk_fr t, acc;
        cuzk_fr_mul(&acc, &c->beta, &c->u[k]);
        cuzk_fr_mul(&t, &c->alpha, &c->v[k]);
        cuzk_fr_add(&acc, &acc, &t);
        cuzk_fr_add(&acc, &acc, &c->w[k]);
        cuzk_fr_mul(&c->out[i], &acc, &c->scale);
    }
}

static cuzk_status cpu_g1(void *ctx, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars, size_t n)
{
    (void)ctx;
    return cuzk_g1_fixed_base_mul(out, base, scalars, n);
}

static cuzk_status cpu_g2(void *ctx, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars, size_t n)
{
    (void)ctx;
    return cuzk_g2_fixed_base_mul(out, base, scalars, n);
}

static const cuzk_fixed_base_ops cpu_ops = {cpu_g1, cpu_g2, NULL};

/* The in-memory sink of cuzk_groth16_setup_with: every section kept in out. */
static cuzk_status keep_vk(void *ctx, const cuzk_groth16_vk *vk)
{
    cuzk_groth16_params *out = ctx;
    out->vk = *vk;
    out->vk.ic = cuzk_big_alloc(vk->ic_len * sizeof *vk->ic);
    if (!out->vk.ic) return CUZK_ENOMEM;
    memcpy(out->vk.ic, vk->ic, vk->ic_len * sizeof *vk->ic);
    return CUZK_OK;
}

static cuzk_status keep_section(void *ctx, int section, void *pts, size_t n)
{
    cuzk_groth16_params *out = ctx;
    switch (section) {
    case CUZK_PARAMS_H: out->h = pts, out->h_len = n; break;
    case CUZK_PARAMS_L: out->l = pts, out->l_len = n; break;
    case CUZK_PARAMS_A: out->a = pts, out->a_len = n; break;
    case CUZK_PARAMS_B_G1: out->b_g1 = pts, out->b_g1_len = n; break;
    default: out->b_g2 = pts, out->b_g2_len = n; break;
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_setup(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl)
{
    return cuzk_groth16_setup_with(out, m, rng, tl, NULL);
}

cuzk_status cuzk_groth16_setup_with(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                    const cuzk_fixed_base_ops *ops)
{
    return cuzk_groth16_setup_progress(out, m, rng, tl, ops, NULL);
}

cuzk_status cuzk_groth16_setup_progress(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                        const cuzk_fixed_base_ops *ops, const cuzk_progress_sink *progress)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = cuzk_groth16_setup_stream_progress(
        m, rng, tl, ops, &(cuzk_groth16_setup_sink){keep_vk, keep_section, out}, progress);
    if (st) cuzk_groth16_params_free(out);
    return st;
}

static const char *const SECTION_NAMES[] = {"setup: h", "setup: l", "setup: a", "setup: b g1", "setup: b g2"};

/* The points of one section as a task of progress: the CPU's comb adds its products as it
 * goes; other ops (a GPU's) are called on up to 16 slices of at least 2^22 points. */
static cuzk_status multiply(const cuzk_fixed_base_ops *ops, bool g2, void *pts, const cuzk_fr *sc, size_t n,
                            cuzk_progress *p)
{
    if (ops == &cpu_ops)
        return g2 ? cuzk_g2_fixed_base_mul_progress(pts, blst_p2_generator(), sc, n, p)
                  : cuzk_g1_fixed_base_mul_progress(pts, blst_p1_generator(), sc, n, p);
    size_t slice = p ? (n + 15) / 16 : n;
    if (slice < ((size_t)1 << 22)) slice = (size_t)1 << 22;
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n && !st; i += slice) {
        size_t k = n - i < slice ? n - i : slice;
        st = g2 ? ops->g2(ops->ctx, (blst_p2_affine *)pts + i, blst_p2_generator(), sc + i, k)
                : ops->g1(ops->ctx, (blst_p1_affine *)pts + i, blst_p1_generator(), sc + i, k);
        cuzk_progress_add(p, k);
    }
    return st;
}

/* n points of section k into a new array, handed to the sink (which owns it from then on). */
static cuzk_status make_section(const cuzk_fixed_base_ops *ops, const cuzk_groth16_setup_sink *sink, int k,
                                const cuzk_fr *sc, size_t n, const cuzk_progress_sink *progress)
{
    bool g2 = k == CUZK_PARAMS_B_G2;
    size_t bytes = n * (g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine));
    void *pts = cuzk_big_alloc(bytes);
    if (!pts) return CUZK_ENOMEM;
    int ki = k - CUZK_PARAMS_H;
    cuzk_progress *p = cuzk_progress_start(progress, ki >= 0 && ki < 5 ? SECTION_NAMES[ki] : "setup", n);
    cuzk_status st = multiply(ops, g2, pts, sc, n, p);
    cuzk_progress_finish(p);
    if (st) {
        cuzk_big_free(pts, bytes);
        return st;
    }
    return sink->section(sink->ctx, k, pts, n);
}

cuzk_status cuzk_groth16_setup_stream(const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                      const cuzk_fixed_base_ops *ops, const cuzk_groth16_setup_sink *sink)
{
    return cuzk_groth16_setup_stream_progress(m, rng, tl, ops, sink, NULL);
}

cuzk_status cuzk_groth16_setup_stream_progress(const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                               const cuzk_fixed_base_ops *ops, const cuzk_groth16_setup_sink *sink,
                                               const cuzk_progress_sink *progress)
{
    if (!ops) ops = &cpu_ops;
    size_t ni = m->num_inputs, na = m->num_aux, nv = ni + na;
    if (ni == 0) return cuzk_fail(CUZK_EINVAL, "an R1CS needs the input ONE");
    unsigned lg = cuzk_log2_ceil(m->num_constraints + ni);
    if (lg > CUZK_NTT_MAX_LOG)
        return cuzk_fail(CUZK_EUNSUPPORTED, "%zu constraints need a domain above 2^%d", m->num_constraints + ni,
                         CUZK_NTT_MAX_LOG);
    size_t N = (size_t)1 << lg;
    cuzk_status st;
    cuzk_fr tau, alpha, beta, gamma, delta, gamma_inv, delta_inv;
    if ((st = random_nonzero(&tau, rng)) || (st = random_nonzero(&alpha, rng)) || (st = random_nonzero(&beta, rng)) ||
        (st = random_nonzero(&gamma, rng)) || (st = random_nonzero(&delta, rng)))
        return st;
    cuzk_fr_inv(&gamma_inv, &gamma);
    cuzk_fr_inv(&delta_inv, &delta);

    int span = cuzk_span_begin(tl, "setup: qap at tau");
    cuzk_ntt_domain d;
    cuzk_fr *powers = cuzk_big_alloc(N * sizeof(cuzk_fr)), *lag = cuzk_big_alloc(N * sizeof(cuzk_fr));
    cuzk_fr *u = cuzk_big_alloc(nv * sizeof(cuzk_fr) + 1), *v = cuzk_big_alloc(nv * sizeof(cuzk_fr) + 1),
            *w = cuzk_big_alloc(nv * sizeof(cuzk_fr) + 1);
    cuzk_fr *sc = cuzk_big_alloc((N > nv ? N : nv) * sizeof(cuzk_fr));
    cuzk_density a_aux = {0}, b_in = {0}, b_aux = {0};
    cuzk_groth16_vk vk = {0};
    st = (!powers || !lag || !u || !v || !w || !sc) ? CUZK_ENOMEM : cuzk_ntt_domain_init(&d, lg);
    if (st) goto done;
    for (size_t i = 0; i < N; i++) powers[i] = CUZK_FR_ONE;
    cuzk_fr_distribute_powers(powers, N, &tau); /* tau^i */
    memcpy(lag, powers, N * sizeof(cuzk_fr));
    cuzk_ntt_inverse(&d, lag); /* L_j(tau) */
    cuzk_ntt_domain_free(&d);
    qap_ctx qc = {
        {u, v, w}, m, lag, cuzk_progress_start(progress, "setup: qap at tau", 3 * (uint64_t)m->num_constraints)};
    cuzk_parallel_for(3, 1, qap_range, &qc); /* u, v, w: the order of CUZK_MAT_A, _B, _C */
    cuzk_progress_finish(qc.progress);
    for (size_t i = 0; i < ni; i++) /* appended rows: Input(i) * 0 = 0 */
        cuzk_fr_add(&u[i], &u[i], &lag[m->num_constraints + i]);
    cuzk_big_free(lag, N * sizeof(cuzk_fr)); /* early: a 32 GiB setup holds ~50 GB of points later */
    lag = NULL;
    cuzk_span_end(tl, span);
    if ((st = cuzk_r1cs_density(m, &a_aux, &b_in, &b_aux))) goto done;

    const blst_p1 *g1 = blst_p1_generator();
    const blst_p2 *g2 = blst_p2_generator();
    span = cuzk_span_begin(tl, "setup: vk and ic");
    cuzk_fr vk_sc[3] = {alpha, beta, delta};
    blst_p1_affine vk1[3];
    blst_p2_affine vk2[3];
    cuzk_fr vk_sc2[3] = {beta, gamma, delta};
    if ((st = ops->g1(ops->ctx, vk1, g1, vk_sc, 3)) || (st = ops->g2(ops->ctx, vk2, g2, vk_sc2, 3))) goto done;
    vk.alpha_g1 = vk1[0];
    vk.beta_g1 = vk1[1];
    vk.delta_g1 = vk1[2];
    vk.beta_g2 = vk2[0];
    vk.gamma_g2 = vk2[1];
    vk.delta_g2 = vk2[2];
    ic_ctx ic = {u, v, w, alpha, beta, gamma_inv, sc, 0};
    cuzk_parallel_for(ni, 256, ic_range, &ic);
    vk.ic = cuzk_big_alloc(ni * sizeof(blst_p1_affine));
    vk.ic_len = ni;
    if (!vk.ic) st = CUZK_ENOMEM;
    if (!st) st = ops->g1(ops->ctx, vk.ic, g1, sc, ni);
    if (!st) st = sink->vk(sink->ctx, &vk);
    cuzk_span_end(tl, span);
    if (st) goto done;

    /* the query sections in the file's order (h, l, a, b_g1, b_g2), each handed on once made */
    span = cuzk_span_begin(tl, "setup: h");
    cuzk_fr t_tau; /* t(tau)/delta = (tau^N - 1)/delta */
    cuzk_fr_pow_u64(&t_tau, &tau, N);
    cuzk_fr_sub(&t_tau, &t_tau, &CUZK_FR_ONE);
    cuzk_fr_mul(&t_tau, &t_tau, &delta_inv);
    for (size_t i = 0; i + 1 < N; i++) cuzk_fr_mul(&sc[i], &powers[i], &t_tau);
    cuzk_big_free(powers, N * sizeof(cuzk_fr));
    powers = NULL;
    st = make_section(ops, sink, CUZK_PARAMS_H, sc, N - 1, progress);
    cuzk_span_end(tl, span);
    if (st) goto done;

    span = cuzk_span_begin(tl, "setup: l");
    ic_ctx lc = {u, v, w, alpha, beta, delta_inv, sc, ni};
    cuzk_parallel_for(na, 256, ic_range, &lc);
    for (size_t k = 0; k < na && !st; k++)
        if (cuzk_fr_is_zero(&sc[k]))
            st = cuzk_fail(CUZK_EINVAL, "aux variable %zu is not constrained: Groth16 parameters cannot be made", k);
    if (!st) st = make_section(ops, sink, CUZK_PARAMS_L, sc, na, progress);
    cuzk_span_end(tl, span);
    if (st) goto done;

    span = cuzk_span_begin(tl, "setup: a, b");
    size_t n_a = 0, n_b = 0;
    for (size_t i = 0; i < ni; i++) sc[n_a++] = u[i];
    for (size_t k = 0; k < na; k++)
        if (cuzk_density_get(&a_aux, k)) sc[n_a++] = u[ni + k];
    st = make_section(ops, sink, CUZK_PARAMS_A, sc, n_a, progress);
    for (size_t i = 0; i < ni; i++)
        if (cuzk_density_get(&b_in, i)) sc[n_b++] = v[i];
    for (size_t k = 0; k < na; k++)
        if (cuzk_density_get(&b_aux, k)) sc[n_b++] = v[ni + k];
    if (!st) st = make_section(ops, sink, CUZK_PARAMS_B_G1, sc, n_b, progress);
    if (!st) st = make_section(ops, sink, CUZK_PARAMS_B_G2, sc, n_b, progress);
    cuzk_span_end(tl, span);

done:
    cuzk_groth16_vk_free(&vk);
    cuzk_big_free(powers, N * sizeof(cuzk_fr));
    cuzk_big_free(lag, N * sizeof(cuzk_fr));
    cuzk_big_free(u, nv * sizeof(cuzk_fr) + 1);
    cuzk_big_free(v, nv * sizeof(cuzk_fr) + 1);
    cuzk_big_free(w, nv * sizeof(cuzk_fr) + 1);
    cuzk_big_free(sc, (N > nv ? N : nv) * sizeof(cuzk_fr));
    cuzk_density_free(&a_aux);
    cuzk_density_free(&b_in);
    cuzk_density_free(&b_aux);
    memset(&tau, 0, sizeof tau); /* toxic waste */
    memset(&alpha, 0, sizeof alpha);
    memset(&beta, 0, sizeof beta);
    memset(&gamma, 0, sizeof gamma);
    memset(&delta, 0, sizeof delta);
    return st;
}
