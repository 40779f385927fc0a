/* Random Groth16 parameters for an R1CS, as bellperson's generator makes them:
 * Lagrange coefficients at tau from an inverse NTT of the powers of tau, the QAP values
 * u, v, w of every variable (the appended Input(i) * 0 = 0 rows included), and fixed-base
 * multiplications for every query. The A and B queries keep the points the prover's density
 * bitmaps select (bellperson drops the identity points, which are the same ones). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

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

/* One fixed-base section as a task of progress: the CPU's comb adds its products as it goes;
 * other ops (a GPU's) are called on up to 16 slices of at least 2^22 points. */
static cuzk_status section(const cuzk_fixed_base_ops *ops, bool g2, void *out, const void *base, const cuzk_fr *sc,
                           size_t n, const cuzk_progress_sink *progress, const char *what)
{
    cuzk_progress *p = cuzk_progress_start(progress, what, n);
    cuzk_status st = CUZK_OK;
    if (ops == &cpu_ops)
        st = g2 ? cuzk_g2_fixed_base_mul_progress(out, base, sc, n, p)
                : cuzk_g1_fixed_base_mul_progress(out, base, sc, n, p);
    else {
        size_t slice = p ? (n + 15) / 16 : n;
        if (slice < ((size_t)1 << 22)) slice = (size_t)1 << 22;
        for (size_t i = 0; i < n && !st; i += slice) {
            size_t k = n - i < slice ? n - i : slice;
            st = g2 ? ops->g2(ops->ctx, (blst_p2_affine *)out + i, base, sc + i, k)
                    : ops->g1(ops->ctx, (blst_p1_affine *)out + i, base, sc + i, k);
            cuzk_progress_add(p, k);
        }
    }
    cuzk_progress_finish(p);
    return st;
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
    if (!ops) ops = &cpu_ops;
    memset(out, 0, sizeof *out);
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
    st = (!powers || !lag || !u || !v || !w || !sc) ? CUZK_ENOMEM : cuzk_ntt_domain_init(&d, lg);
    if (st) goto fail;
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
    if ((st = cuzk_r1cs_density(m, &a_aux, &b_in, &b_aux))) goto fail;

    const blst_p1 *g1 = blst_p1_generator();
    const blst_p2 *g2 = blst_p2_generator();
    span = cuzk_span_begin(tl, "setup: vk and ic");
    cuzk_fr vk_sc[3] = {alpha, beta, delta};
    blst_p1_affine vk1[3];
    blst_p2_affine vk2[3];
    cuzk_fr vk_sc2[3] = {beta, gamma, delta};
    if ((st = ops->g1(ops->ctx, vk1, g1, vk_sc, 3)) || (st = ops->g2(ops->ctx, vk2, g2, vk_sc2, 3))) goto fail;
    out->vk.alpha_g1 = vk1[0];
    out->vk.beta_g1 = vk1[1];
    out->vk.delta_g1 = vk1[2];
    out->vk.beta_g2 = vk2[0];
    out->vk.gamma_g2 = vk2[1];
    out->vk.delta_g2 = vk2[2];
    ic_ctx ic = {u, v, w, alpha, beta, gamma_inv, sc, 0};
    cuzk_parallel_for(ni, 256, ic_range, &ic);
    out->vk.ic = cuzk_big_alloc(ni * sizeof(blst_p1_affine));
    out->vk.ic_len = ni;
    if (!out->vk.ic || (st = ops->g1(ops->ctx, out->vk.ic, g1, sc, ni))) goto fail_nomem;
    cuzk_span_end(tl, span);

    span = cuzk_span_begin(tl, "setup: l");
    ic_ctx lc = {u, v, w, alpha, beta, delta_inv, sc, ni};
    cuzk_parallel_for(na, 256, ic_range, &lc);
    for (size_t k = 0; k < na; k++)
        if (cuzk_fr_is_zero(&sc[k])) {
            st = cuzk_fail(CUZK_EINVAL, "aux variable %zu is not constrained: Groth16 parameters cannot be made", k);
            goto fail;
        }
    out->l = cuzk_big_alloc(na * sizeof(blst_p1_affine));
    out->l_len = na;
    if (!out->l || (st = section(ops, false, out->l, g1, sc, na, progress, "setup: l"))) goto fail_nomem;
    cuzk_span_end(tl, span);

    span = cuzk_span_begin(tl, "setup: h");
    cuzk_fr t_tau; /* t(tau)/delta = (tau^N - 1)/delta */
    cuzk_fr_pow_u64(&t_tau, &tau, N);
    cuzk_fr_sub(&t_tau, &t_tau, &CUZK_FR_ONE);
    cuzk_fr_mul(&t_tau, &t_tau, &delta_inv);
    for (size_t i = 0; i + 1 < N; i++) cuzk_fr_mul(&sc[i], &powers[i], &t_tau);
    cuzk_big_free(powers, N * sizeof(cuzk_fr));
    powers = NULL;
    out->h = cuzk_big_alloc((N - 1) * sizeof(blst_p1_affine));
    out->h_len = N - 1;
    if (!out->h || (st = section(ops, false, out->h, g1, sc, N - 1, progress, "setup: h"))) goto fail_nomem;
    cuzk_span_end(tl, span);

    span = cuzk_span_begin(tl, "setup: a, b");
    size_t n_a = 0, n_b = 0;
    for (size_t i = 0; i < ni; i++) sc[n_a++] = u[i];
    for (size_t k = 0; k < na; k++)
        if (cuzk_density_get(&a_aux, k)) sc[n_a++] = u[ni + k];
    out->a = cuzk_big_alloc(n_a * sizeof(blst_p1_affine));
    out->a_len = n_a;
    if (!out->a || (st = section(ops, false, out->a, g1, sc, n_a, progress, "setup: a"))) goto fail_nomem;
    for (size_t i = 0; i < ni; i++)
        if (cuzk_density_get(&b_in, i)) sc[n_b++] = v[i];
    for (size_t k = 0; k < na; k++)
        if (cuzk_density_get(&b_aux, k)) sc[n_b++] = v[ni + k];
    out->b_g1 = cuzk_big_alloc(n_b * sizeof(blst_p1_affine));
    out->b_g2 = cuzk_big_alloc(n_b * sizeof(blst_p2_affine));
    out->b_g1_len = out->b_g2_len = n_b;
    if (!out->b_g1 || !out->b_g2 || (st = section(ops, false, out->b_g1, g1, sc, n_b, progress, "setup: b g1")) ||
        (st = section(ops, true, out->b_g2, g2, sc, n_b, progress, "setup: b g2")))
        goto fail_nomem;
    cuzk_span_end(tl, span);
    goto done;

fail_nomem:
    if (!st) st = CUZK_ENOMEM;
fail:
    cuzk_groth16_params_free(out);
done:
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
