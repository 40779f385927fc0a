/* The GPU layer on a real device: NTTs against the CPU NTT, MSMs (G1, G2; random and
 * adversarial scalars; sizes 1..2^20) against the CPU MSM, a large MSM by linearity and
 * split/no-split agreement, GPU proofs against CPU proof bytes (and the verifier), the
 * resident precompiled circuit (device SpMV = cuzk_pce_evaluate on every built-in example,
 * proofs through cuzk_gpu_prove_pce = CPU proof bytes) and partitions through the engine on it;
 * parameter generation with the device's fixed-base multiplication = the CPU's, byte for byte.
 * Skips (exit 77) where no CUDA device is present. CUZK_GPU_TEST_LARGE=0 leaves out the
 * large sizes. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/testcircuits.h"
#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "harness.h"
#include "support_named.h"
#include "support_result.h"
#include "support_job.h"
#include "support_abc.h"
#include "support_pce.h"

static cuzk_rng rng;
static int large = 1;
static cuzk_gpu_device *D; /* the context every check runs on */

static void rand_scalars(cuzk_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) cuzk_fr_random(&s[i], &rng);
}

/* ---------------------------------------------------------------- NTT */
static void test_ntt(void)
{
    static const cuzk_gpu_ntt_kind kinds[4] = {CUZK_GPU_NTT_FORWARD, CUZK_GPU_NTT_INVERSE, CUZK_GPU_NTT_COSET_FORWARD,
                                               CUZK_GPU_NTT_COSET_INVERSE};
    unsigned maxlog = large ? 24 : 20;
    for (unsigned lg = 0; lg <= maxlog; lg += (lg < 12 ? 1 : lg < 20 ? 2 : 4)) {
        size_t n = (size_t)1 << lg;
        cuzk_ntt_domain d;
        CHECK_OK(cuzk_ntt_domain_init(&d, lg));
        cuzk_fr *x = malloc(2 * n * sizeof *x), *y = malloc(2 * n * sizeof *y);
        for (int k = 0; k < 4; k++) {
            if (lg > 20 && k != 0 && k != 3) continue;
            size_t nv = lg <= 16 ? 2 : 1; /* several vectors per call */
            rand_scalars(x, nv * n);
            memcpy(y, x, nv * n * sizeof *x);
            for (size_t v = 0; v < nv; v++) switch (kinds[k]) {
                case CUZK_GPU_NTT_FORWARD: cuzk_ntt_forward(&d, y + v * n); break;
                case CUZK_GPU_NTT_INVERSE: cuzk_ntt_inverse(&d, y + v * n); break;
                case CUZK_GPU_NTT_COSET_FORWARD: cuzk_ntt_coset_forward(&d, y + v * n); break;
                case CUZK_GPU_NTT_COSET_INVERSE: cuzk_ntt_coset_inverse(&d, y + v * n); break;
                }
            CHECK_OK(cuzk_gpu_ntt(D, x, lg, nv, kinds[k], false));
            int same = !memcmp(x, y, nv * n * sizeof *x);
            CHECK(same);
            if (!same) fprintf(stderr, "    GPU NTT kind %d differs from the CPU at 2^%u\n", k, lg);
        }
        free(x);
        free(y);
        cuzk_ntt_domain_free(&d);
    }
    /* 2^27 and 2^28 (the top pass's full twiddle table, the natural-order last pass at the
     * largest sizes): inverse(forward(x)) = x, and a sparse input against its closed form */
    for (unsigned lg = 27; large && lg <= CUZK_NTT_MAX_LOG; lg++) {
        size_t n = (size_t)1 << lg;
        cuzk_fr *x = NULL, *y = malloc(n * sizeof *y);
        CHECK_OK(cuzk_gpu_host_alloc((void **)&x, n * sizeof *x));
        if (!x || !y) {
            free(y);
            cuzk_gpu_host_free(x);
            return;
        }
        for (size_t i = 0; i < n; i++) cuzk_fr_from_u64(&x[i], i * 2654435761u + 1);
        memcpy(y, x, n * sizeof *x);
        CHECK_OK(cuzk_gpu_ntt(D, x, lg, 1, CUZK_GPU_NTT_COSET_FORWARD, false));
        CHECK(memcmp(x, y, 64 * sizeof *x) != 0);
        CHECK_OK(cuzk_gpu_ntt(D, x, lg, 1, CUZK_GPU_NTT_COSET_INVERSE, false));
        CHECK(!memcmp(x, y, n * sizeof *x));
        /* x = c0 + c1 X^5: X_k = c0 + c1 w^(5k) */
        memset(x, 0, n * sizeof *x);
        cuzk_fr c0, c1, w, t;
        cuzk_fr_random(&c0, &rng);
        cuzk_fr_random(&c1, &rng);
        x[0] = c0;
        x[5] = c1;
        CHECK_OK(cuzk_gpu_ntt(D, x, lg, 1, CUZK_GPU_NTT_FORWARD, false));
        cuzk_fr_root_of_unity(&w, lg);
        int bad = 0;
        for (int q = 0; q < 64; q++) {
            size_t k = q < 32 ? (size_t)q : (size_t)(cuzk_rng_next(&rng) % n);
            cuzk_fr_pow_u64(&t, &w, (5 * k) % n);
            cuzk_fr_mul(&t, &t, &c1);
            cuzk_fr_add(&t, &t, &c0);
            if (!cuzk_fr_eq(&t, &x[k])) bad = 1;
        }
        CHECK(!bad);
        /* dense input: the transform of x rotated by one place (x_(i-1)) is X_k w^k */
        for (size_t i = 0; i < n; i++) cuzk_fr_from_u64(&x[i], i * 2654435761u + 7);
        for (size_t i = 0; i < n; i++) y[i] = x[(i + n - 1) & (n - 1)];
        CHECK_OK(cuzk_gpu_ntt(D, x, lg, 1, CUZK_GPU_NTT_FORWARD, false));
        CHECK_OK(cuzk_gpu_ntt(D, y, lg, 1, CUZK_GPU_NTT_FORWARD, false));
        bad = 0;
        for (int q = 0; q < 64; q++) {
            size_t k = q < 8 ? (size_t)q : q < 16 ? n - 1 - (size_t)(q - 8) : (size_t)(cuzk_rng_next(&rng) % n);
            cuzk_fr_pow_u64(&t, &w, k);
            cuzk_fr_mul(&t, &t, &x[k]);
            if (!cuzk_fr_eq(&t, &y[k])) bad = 1;
        }
        CHECK(!bad);
        if (bad) fprintf(stderr, "    GPU NTT at 2^%u: shifting the input does not turn the output by w^k\n", lg);
        cuzk_gpu_host_free(x);
        free(y);
    }
}

/* ---------------------------------------------------------------- MSM */
static cuzk_gpu_msm *g1m, *g2m;
static blst_p1_affine *g1b;
static blst_p2_affine *g2b;

static void msm_g1_check(const cuzk_fr *s, size_t n, const char *what)
{
    blst_p1 want, got;
    CHECK_OK(cuzk_g1_msm(&want, g1b, s, n));
    for (int split = 0; split < 2; split++) {
        CHECK_OK(cuzk_gpu_msm_g1(g1m, &got, s, n, split ? 0 : CUZK_GPU_MSM_NO_SPLIT));
        int ok = blst_p1_is_equal(&got, &want);
        CHECK(ok);
        if (!ok) fprintf(stderr, "    G1 MSM '%s' n=%zu split=%d differs from the CPU\n", what, n, split);
    }
}

static void adversarial(cuzk_fr *s, size_t n, int kind)
{
    cuzk_fr e;
    cuzk_fr_random(&e, &rng);
    for (size_t i = 0; i < n; i++) switch (kind) {
        case 0: s[i] = CUZK_FR_ZERO; break;
        case 1: s[i] = CUZK_FR_ONE; break;
        case 2: cuzk_fr_neg(&s[i], &CUZK_FR_ONE); break;
        case 3: s[i] = e; break;
        case 4: {
            uint64_t r = cuzk_rng_next(&rng) % 8;
            if (r < 3) s[i] = CUZK_FR_ZERO;
            else if (r < 6) s[i] = CUZK_FR_ONE;
            else if (r == 6) cuzk_fr_from_u64(&s[i], cuzk_rng_next(&rng) % 100);
            else cuzk_fr_random(&s[i], &rng);
            break;
        }
        default: cuzk_fr_from_u64(&s[i], cuzk_rng_next(&rng) % 4); break;
        }
}

static const char *ADV[6] = {"zeros", "ones", "r-1", "all equal", "0/1 profile", "tiny"};

static void test_msm(void)
{
    const size_t NMAX = (size_t)1 << 20;
    g1b = malloc(NMAX * sizeof *g1b);
    cuzk_fr *s = malloc(NMAX * sizeof *s);
    CHECK_OK(cuzk_gpu_synthetic_points(D, g1b, NMAX, false, 1));
    for (size_t i = 0; i < NMAX; i += NMAX / 64) {
        CHECK(blst_p1_affine_on_curve(&g1b[i]));
        CHECK(blst_p1_affine_in_g1(&g1b[i]));
    }
    CHECK_OK(cuzk_gpu_msm_create_g1(D, &g1m, g1b, NMAX));
    static const size_t sizes[] = {1, 2, 3, 31, 100, 1000, 4097, 65536, (1 << 18) + 3, 1 << 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        rand_scalars(s, sizes[k]);
        msm_g1_check(s, sizes[k], "random");
    }
    static const size_t asizes[] = {5, 4096, 1 << 16};
    for (size_t k = 0; k < sizeof asizes / sizeof asizes[0]; k++)
        for (int kind = 0; kind < 6; kind++) {
            adversarial(s, asizes[k], kind);
            msm_g1_check(s, asizes[k], ADV[kind]);
        }
    /* repeated points and infinity among the bases */
    {
        size_t n = 5000;
        blst_p1_affine *rb = malloc(n * sizeof *rb);
        cuzk_fr e;
        cuzk_fr_random(&e, &rng);
        for (size_t i = 0; i < n; i++) {
            rb[i] = g1b[i % 7];
            if (i % 11 == 4) memset(&rb[i], 0, sizeof rb[i]);
            if (i % 3 == 0) s[i] = e;
            else if (i % 3 == 1) cuzk_fr_neg(&s[i], &e);
            else if (i % 6 == 2) s[i] = CUZK_FR_ONE;
            else cuzk_fr_random(&s[i], &rng);
        }
        cuzk_gpu_msm *m;
        CHECK_OK(cuzk_gpu_msm_create_g1(D, &m, rb, n));
        blst_p1 want, got;
        CHECK_OK(cuzk_g1_msm(&want, rb, s, n));
        for (int split = 0; split < 2; split++) {
            CHECK_OK(cuzk_gpu_msm_g1(m, &got, s, n, split ? 0 : CUZK_GPU_MSM_NO_SPLIT));
            CHECK(blst_p1_is_equal(&got, &want));
        }
        cuzk_gpu_msm_destroy(m);
        free(rb);
    }
    /* scalars in device memory */
    {
        size_t n = 10000;
        rand_scalars(s, n);
        void *d;
        CHECK_OK(cuzk_gpu_malloc(D, &d, n * sizeof *s));
        CHECK_OK(cuzk_gpu_upload(d, s, n * sizeof *s));
        blst_p1 want, got;
        CHECK_OK(cuzk_g1_msm(&want, g1b, s, n));
        CHECK_OK(cuzk_gpu_msm_g1(g1m, &got, d, n, CUZK_GPU_MSM_SCALARS_ON_DEVICE));
        CHECK(blst_p1_is_equal(&got, &want));
        cuzk_gpu_free(d);
    }
    cuzk_gpu_msm_destroy(g1m);

    /* G2 */
    const size_t N2 = (size_t)1 << 16;
    g2b = malloc(N2 * sizeof *g2b);
    CHECK_OK(cuzk_gpu_synthetic_points(D, g2b, N2, true, 2));
    for (size_t i = 0; i < N2; i += N2 / 16) {
        CHECK(blst_p2_affine_on_curve(&g2b[i]));
        CHECK(blst_p2_affine_in_g2(&g2b[i]));
    }
    CHECK_OK(cuzk_gpu_msm_create_g2(D, &g2m, g2b, N2));
    static const size_t s2[] = {1, 7, 1000, 4097, 1 << 16};
    for (size_t k = 0; k < sizeof s2 / sizeof s2[0]; k++)
        for (int kind = -1; kind < 6; kind += (s2[k] > 5000 ? 5 : 1)) {
            if (kind < 0) rand_scalars(s, s2[k]);
            else adversarial(s, s2[k], kind);
            blst_p2 want, got;
            CHECK_OK(cuzk_g2_msm(&want, g2b, s, s2[k]));
            for (int split = 0; split < 2; split++) {
                CHECK_OK(cuzk_gpu_msm_g2(g2m, &got, s, s2[k], split ? 0 : CUZK_GPU_MSM_NO_SPLIT));
                int ok = blst_p2_is_equal(&got, &want);
                CHECK(ok);
                if (!ok)
                    fprintf(stderr, "    G2 MSM '%s' n=%zu split=%d differs\n", kind < 0 ? "random" : ADV[kind], s2[k],
                            split);
            }
        }
    cuzk_gpu_msm_destroy(g2m);
    free(g2b);
    free(g1b);
    free(s);

    if (large) {
        /* 2^24, synthetic bases on the device: MSM(s1) + MSM(s2) = MSM(s1 + s2), and the split
         * and unsplit paths agree on a 0/1-heavy vector */
        size_t n = (size_t)1 << 24;
        cuzk_gpu_msm *m;
        CHECK_OK(cuzk_gpu_msm_create_synthetic(D, &m, n, false, 3));
        cuzk_fr *a = NULL, *b = NULL, *c = NULL;
        CHECK_OK(cuzk_gpu_host_alloc((void **)&a, n * sizeof *a));
        CHECK_OK(cuzk_gpu_host_alloc((void **)&b, n * sizeof *b));
        CHECK_OK(cuzk_gpu_host_alloc((void **)&c, n * sizeof *c));
        if (!m || !a || !b || !c) return;
        rand_scalars(a, n);
        rand_scalars(b, n);
        for (size_t i = 0; i < n; i++) cuzk_fr_add(&c[i], &a[i], &b[i]);
        blst_p1 pa, pb, pc, sum;
        CHECK_OK(cuzk_gpu_msm_g1(m, &pa, a, n, 0));
        CHECK_OK(cuzk_gpu_msm_g1(m, &pb, b, n, 0));
        CHECK_OK(cuzk_gpu_msm_g1(m, &pc, c, n, 0));
        blst_p1_add_or_double(&sum, &pa, &pb);
        CHECK(blst_p1_is_equal(&sum, &pc));
        adversarial(a, n, 4);
        CHECK_OK(cuzk_gpu_msm_g1(m, &pa, a, n, 0));
        CHECK_OK(cuzk_gpu_msm_g1(m, &pb, a, n, CUZK_GPU_MSM_NO_SPLIT));
        CHECK(blst_p1_is_equal(&pa, &pb));
        cuzk_gpu_msm_destroy(m);
        cuzk_gpu_host_free(a);
        cuzk_gpu_host_free(b);
        cuzk_gpu_host_free(c);
    }
}

/* ---------------------------------------------------------------- prover */

static void test_prover(const char *name)
{
    job j;
    job_open(&j, name, 5);
    cuzk_rng r2;
    cuzk_rng_seed(&r2, 9);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &r2, NULL));
    cuzk_gpu_prover *pr = NULL;
    CHECK_OK(cuzk_gpu_prover_create(D, &pr, &p));
    if (!pr) return;
    for (int rep = 0; rep < 2; rep++) {
        cuzk_fr r, s;
        cuzk_fr_random(&r, &rng);
        cuzk_fr_random(&s, &rng);
        cuzk_groth16_proof pc, pg;
        CHECK_OK(cuzk_groth16_prove(&pc, &p, &j.w, &r, &s, NULL));
        cuzk_timeline *tl = cuzk_timeline_create("gpu prove");
        CHECK_OK(cuzk_gpu_prove(pr, &pg, &j.w, &r, &s, tl));
        if (rep == 1) cuzk_timeline_print(tl, stdout);
        cuzk_timeline_destroy(tl);
        int same = proofs_same_bytes(&pc, &pg);
        CHECK(same);
        if (!same) fprintf(stderr, "    %s: GPU proof differs from the CPU proof\n", name);
        CHECK_OK(cuzk_groth16_verify(&p.vk, &pg, j.input + 1, j.m->num_inputs - 1));
    }
    printf("prover %s: GPU proof bytes = CPU proof bytes, verified\n", name);
    cuzk_gpu_prover_destroy(pr);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* ---------------------------------------------------------------- two contexts at once */
/* Two device contexts on one GPU, each with its own prover, proving on two threads at the
 * same time: every proof equals the CPU prover's for the same r, s. */
typedef struct {
    const char *name;
    job j;
    cuzk_groth16_params p;
    cuzk_fr r[3], s[3];
    cuzk_groth16_proof cpu[3], gpu[3];
    cuzk_status st;
} ctx_job;

static void *ctx_thread(void *arg)
{
    ctx_job *c = arg;
    cuzk_gpu_device *d = NULL;
    cuzk_gpu_prover *pr = NULL;
    c->st = cuzk_gpu_device_open(&d, 0, NULL);
    if (!c->st) c->st = cuzk_gpu_prover_create(d, &pr, &c->p);
    for (int i = 0; i < 3 && !c->st; i++) c->st = cuzk_gpu_prove(pr, &c->gpu[i], &c->j.w, &c->r[i], &c->s[i], NULL);
    if (c->st) fprintf(stderr, "    %s: %s\n", c->name, cuzk_last_error());
    cuzk_gpu_prover_destroy(pr);
    cuzk_gpu_device_close(d);
    return NULL;
}

static void test_two_contexts(void)
{
    ctx_job c[2];
    memset(c, 0, sizeof c);
    c[0].name = "random:70000";
    c[1].name = "sha256:64";
    for (int k = 0; k < 2; k++) {
        job_open(&c[k].j, c[k].name, 11 + k);
        cuzk_rng r2;
        cuzk_rng_seed(&r2, 21 + k);
        CHECK_OK(cuzk_groth16_setup(&c[k].p, c[k].j.m, &r2, NULL));
        for (int i = 0; i < 3; i++) {
            cuzk_fr_random(&c[k].r[i], &rng);
            cuzk_fr_random(&c[k].s[i], &rng);
            CHECK_OK(cuzk_groth16_prove(&c[k].cpu[i], &c[k].p, &c[k].j.w, &c[k].r[i], &c[k].s[i], NULL));
        }
    }
    pthread_t th[2];
    for (int k = 0; k < 2; k++) CHECK(pthread_create(&th[k], NULL, ctx_thread, &c[k]) == 0);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < 2; k++) {
        CHECK(c[k].st == CUZK_OK);
        for (int i = 0; i < 3 && !c[k].st; i++) CHECK(proofs_same_bytes(&c[k].cpu[i], &c[k].gpu[i]));
        cuzk_groth16_params_free(&c[k].p);
        job_close(&c[k].j);
    }
    printf("two device contexts proving at once: proofs = CPU proofs\n");
}

/* ---------------------------------------------------------------- resident circuit */

/* a, b, c by the device SpMV = cuzk_pce_evaluate */
static void test_spmv(const char *name)
{
    pce_job j;
    pce_job_open(&j, name, 3, 0);
    cuzk_gpu_pce *g = NULL;
    CHECK_OK(cuzk_gpu_pce_create(D, &g, &j.pce));
    if (!g) {
        pce_job_close(&j);
        return;
    }
    cuzk_fr *got[3];
    for (int k = 0; k < 3; k++) {
        got[k] = malloc(j.n * sizeof(cuzk_fr));
        memset(got[k], 0xa5, j.n * sizeof(cuzk_fr));
    }
    for (int rep = 0; rep < 2; rep++) { /* the second run reuses the pool's memory */
        double t = cuzk_now();
        CHECK_OK(cuzk_gpu_pce_evaluate(g, j.w.input, j.w.aux, got[0], got[1], got[2]));
        CHECK(pce_job_same_abc(&j, got, "device SpMV"));
        if (rep == 1)
            printf("spmv %s: %zu constraints, %zu terms, %.1f MB resident: a, b, c = CPU (%.3f s with transfers)\n",
                   name, j.pce.num_constraints, j.pce.nnz[0] + j.pce.nnz[1] + j.pce.nnz[2], cuzk_gpu_pce_bytes(g) / 1e6,
                   cuzk_now() - t);
    }
    /* the matrices streamed from the host copy (page-locked in place), the rest on the device */
    cuzk_gpu_pce *gs = NULL;
    CHECK_OK(cuzk_gpu_pce_create_streamed(D, &gs, &j.pce));
    for (int rep = 0; rep < 2 && gs; rep++) {
        for (int k = 0; k < 3; k++) memset(got[k], 0xa5, j.n * sizeof(cuzk_fr));
        double t = cuzk_now();
        CHECK_OK(cuzk_gpu_pce_evaluate(gs, j.w.input, j.w.aux, got[0], got[1], got[2]));
        CHECK(pce_job_same_abc(&j, got, "device SpMV, matrices streamed"));
        if (rep == 1)
            printf("spmv %s, matrices streamed: %.1f MB on the device: a, b, c = CPU (%.3f s with transfers)\n", name,
                   cuzk_gpu_pce_bytes(gs) / 1e6, cuzk_now() - t);
    }
    CHECK(!gs || cuzk_gpu_pce_bytes(gs) < cuzk_gpu_pce_bytes(g));
    CHECK(!gs || cuzk_gpu_pce_bytes(gs) <= cuzk_gpu_pce_stream_bytes(&j.pce));
    cuzk_gpu_pce_destroy(gs);
    for (int k = 0; k < 3; k++) free(got[k]);
    cuzk_gpu_pce_destroy(g);
    pce_job_close(&j);
}

/* proofs through cuzk_gpu_prove_pce = CPU proof bytes for the same r, s */
static void test_prove_pce(const char *name)
{
    pce_job j;
    pce_job_open(&j, name, 4, 0);
    cuzk_groth16_params p;
    pce_job_setup(&j, &p, 10);
    cuzk_gpu_prover *pr = NULL;
    cuzk_gpu_pce *g = NULL;
    CHECK_OK(cuzk_gpu_prover_create(D, &pr, &p));
    CHECK_OK(cuzk_gpu_pce_create(D, &g, &j.pce));
    /* rep 2: the witness prefetched, then proved from the staged copy; rep 3: another
     * witness (same counts, one value changed) prefetched, which the proof must not use */
    cuzk_fr *other = malloc((j.w.num_aux ? j.w.num_aux : 1) * sizeof(cuzk_fr));
    for (int rep = 0; rep < 4 && pr && g; rep++) {
        cuzk_fr r, s;
        cuzk_fr_random(&r, &rng);
        cuzk_fr_random(&s, &rng);
        cuzk_groth16_proof pc, pg;
        CHECK_OK(cuzk_groth16_prove(&pc, &p, &j.gw, &r, &s, NULL));
        size_t hits = cuzk_gpu_prefetch_hits(pr);
        if (rep == 2) CHECK_OK(cuzk_gpu_prefetch_witness(pr, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux));
        if (rep == 3 && j.w.num_aux) {
            memcpy(other, j.w.aux, j.w.num_aux * sizeof(cuzk_fr));
            cuzk_fr_add(&other[0], &other[0], &CUZK_FR_ONE);
            CHECK_OK(cuzk_gpu_prefetch_witness(pr, j.w.input, j.w.num_inputs, other, j.w.num_aux));
        }
        cuzk_timeline *tl = cuzk_timeline_create("gpu prove through the resident circuit");
        CHECK_OK(cuzk_gpu_prove_pce(pr, g, &pg, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux, &r, &s, tl));
        if (rep == 1) cuzk_timeline_print(tl, stdout);
        cuzk_timeline_destroy(tl);
        int same = proofs_same_bytes(&pc, &pg);
        CHECK(same);
        if (!same) fprintf(stderr, "    %s: GPU proof through the PCE differs from the CPU proof\n", name);
        CHECK_OK(cuzk_groth16_verify(&p.vk, &pg, j.w.input + 1, j.w.num_inputs - 1));
        CHECK(cuzk_gpu_prefetch_hits(pr) == hits + (rep == 2)); /* used exactly when it matched */
    }
    free(other);
    if (pr && g) {
        cuzk_groth16_proof pg;
        CHECK_FAILS(
            cuzk_gpu_prove_pce(pr, g, &pg, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux - 1, NULL, NULL, NULL),
            CUZK_EINVAL);
    }
    printf("prover %s through the resident circuit: GPU proof bytes = CPU proof bytes, verified\n", name);
    cuzk_gpu_pce_destroy(g);
    cuzk_gpu_prover_destroy(pr);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
}

/* A prover of pr's placement (streamed) but compact witnesses for L, A and B with room for
 * `vals` other values, its parameters put from p. */
static cuzk_gpu_prover *compact_prover(cuzk_gpu_prover *pr, const cuzk_groth16_params *p, uint64_t vals)
{
    cuzk_gpu_placement c = *cuzk_gpu_prover_placement(pr);
    c.compact_vals = vals;
    const size_t count[CUZK_PARAMS_SECTIONS] = {p->h_len, p->l_len, p->a_len, p->b_g1_len, p->b_g2_len};
    const void *pts[CUZK_PARAMS_SECTIONS] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    cuzk_gpu_prover *q = NULL;
    CHECK_OK(cuzk_gpu_prover_begin_placed(cuzk_gpu_prover_device(pr), &q, count, &p->vk, &c));
    for (int k = 0; q && k < CUZK_PARAMS_SECTIONS; k++) CHECK_OK(cuzk_gpu_prover_put(q, k, 0, count[k], pts[k]));
    if (q) CHECK_OK(cuzk_gpu_prover_commit(q));
    return q;
}

/* The streamed placement on the device (forced by the tuning, chunks of 2^chunk_log bases so
 * that a small circuit crosses in many): both entry points give the CPU prover's bytes, the
 * parameters are in page-locked host memory (mapped: in a scratch file in the working folder,
 * no page-locked bytes), and no witness is prefetched; lab: L, A and B after the last H MSM
 * (LAB_AFTER), beside it (LAB_BESIDE, gpu.stream_beside) or apart, on their own executor and
 * thread from the batch's start (LAB_APART, gpu.stream_lab_concurrent). */
enum { LAB_AFTER, LAB_BESIDE, LAB_APART };
static void test_prove_streamed(const char *name, unsigned chunk_log, bool mapped, int lab)
{
    pce_job j;
    pce_job_open(&j, name, 8, 0);
    cuzk_groth16_params p;
    pce_job_setup(&j, &p, 11);
    cuzk_gpu_config cfg;
    cuzk_gpu_config_default(&cfg);
    snprintf(cfg.placement, sizeof cfg.placement, "%s", mapped ? "mapped" : "streamed");
    snprintf(cfg.stream_file_dir, sizeof cfg.stream_file_dir, ".");
    cfg.stream_chunk_log = chunk_log;
    cfg.stream_beside = lab == LAB_BESIDE;
    cfg.stream_lab_concurrent = lab == LAB_APART;
    cuzk_gpu_device *d = NULL;
    cuzk_gpu_prover *pr = NULL;
    cuzk_gpu_pce *g = NULL;
    CHECK_OK(cuzk_gpu_device_open(&d, 0, &cfg));
    if (d) CHECK_OK(cuzk_gpu_prover_create(d, &pr, &p));
    if (d) CHECK_OK(cuzk_gpu_pce_create(d, &g, &j.pce));
    if (pr) {
        const cuzk_gpu_placement *pl = cuzk_gpu_prover_placement(pr);
        CHECK(pl->kind == (mapped ? CUZK_GPU_MAPPED : CUZK_GPU_STREAMED) &&
              pl->chunk_points == ((uint64_t)1 << chunk_log) && pl->lab_beside_h == (lab == LAB_BESIDE) &&
              pl->lab_concurrent == (lab == LAB_APART));
        size_t db = 0, hb = 0;
        cuzk_gpu_prover_memory(pr, &db, &hb);
        if (mapped) CHECK(hb == 0 && pl->file_bytes > (p.h_len + p.l_len) * sizeof(blst_p1_affine));
        else CHECK(hb > (p.h_len + p.l_len) * sizeof(blst_p1_affine));
        CHECK_FAILS(cuzk_gpu_prefetch_witness(pr, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux), CUZK_EBUSY);
    }
    for (int rep = 0; rep < 2 && pr && g; rep++) {
        cuzk_fr r, s;
        cuzk_fr_random(&r, &rng);
        cuzk_fr_random(&s, &rng);
        cuzk_groth16_proof pc, pg, pp;
        CHECK_OK(cuzk_groth16_prove(&pc, &p, &j.gw, &r, &s, NULL));
        cuzk_timeline *tl = cuzk_timeline_create("gpu prove, parameters streamed");
        CHECK_OK(cuzk_gpu_prove(pr, &pg, &j.gw, &r, &s, tl));
        if (rep == 1) cuzk_timeline_print(tl, stdout);
        cuzk_timeline_destroy(tl);
        CHECK_OK(cuzk_gpu_prove_pce(pr, g, &pp, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux, &r, &s, NULL));
        const int same = proofs_same_bytes(&pc, &pg), same_pce = proofs_same_bytes(&pc, &pp);
        CHECK(same && same_pce);
        if (!same || !same_pce)
            fprintf(stderr, "    %s %s (chunks of 2^%u): GPU proof differs from the CPU proof (%s)\n", name,
                    mapped ? "mapped" : "streamed", chunk_log, !same ? "a, b, c from the host" : "through the PCE");
        CHECK_OK(cuzk_groth16_verify(&p.vk, &pp, j.w.input + 1, j.w.num_inputs - 1));
    }
    const char *how = mapped ? "mapped from a file" : "streamed";
    const char *labw = lab == LAB_BESIDE ? "L, A, B beside H" : lab == LAB_APART ? "L, A, B apart" : "L, A, B after H";
    printf("prover %s, parameters %s in chunks of 2^%u, %s: GPU proof bytes = CPU proof bytes, verified\n", name, how,
           chunk_log, labw);
    /* a batch: three witnesses of the circuit, one pass over the L, A, B bases for all */
    enum { NB = 3 };
    pce_job jb[NB];
    cuzk_fr rb[NB], sb[NB];
    cuzk_groth16_proof pcb[NB], pgb[NB];
    const cuzk_groth16_witness *gwb[NB];
    const cuzk_fr *inb[NB], *auxb[NB];
    for (int k = 0; k < NB; k++) {
        pce_job_open(&jb[k], name, 30 + (uint64_t)k, 0);
        cuzk_fr_random(&rb[k], &rng);
        cuzk_fr_random(&sb[k], &rng);
        CHECK_OK(cuzk_groth16_prove(&pcb[k], &p, &jb[k].gw, &rb[k], &sb[k], NULL));
        gwb[k] = &jb[k].gw;
        inb[k] = jb[k].w.input;
        auxb[k] = jb[k].w.aux;
    }
    if (pr && g) {
        CHECK(cuzk_gpu_prover_batch_max(pr) >= NB);
        const cuzk_groth16_prove_opts o = {.r = rb, .s = sb};
        int same = 1, same_pce = 1;
        memset(pgb, 0, sizeof pgb);
        CHECK_OK(cuzk_gpu_prove_batch_with(pr, NB, pgb, gwb, &o));
        for (int k = 0; k < NB; k++) same &= proofs_same_bytes(&pcb[k], &pgb[k]);
        memset(pgb, 0, sizeof pgb);
        CHECK_OK(cuzk_gpu_prove_pce_batch_with(pr, g, NB, pgb, inb, j.w.num_inputs, auxb, j.w.num_aux, &o));
        for (int k = 0; k < NB; k++) same_pce &= proofs_same_bytes(&pcb[k], &pgb[k]);
        /* the circuit's matrices streamed too */
        cuzk_gpu_pce *gs = NULL;
        CHECK_OK(cuzk_gpu_pce_create_streamed(cuzk_gpu_prover_device(pr), &gs, &j.pce));
        memset(pgb, 0, sizeof pgb);
        if (gs) CHECK_OK(cuzk_gpu_prove_pce_batch_with(pr, gs, NB, pgb, inb, j.w.num_inputs, auxb, j.w.num_aux, &o));
        for (int k = 0; k < NB; k++) same_pce &= proofs_same_bytes(&pcb[k], &pgb[k]);
        cuzk_gpu_pce_destroy(gs);
        CHECK(same && same_pce);
        if (!same || !same_pce)
            fprintf(stderr, "    %s streamed batch of %d: a GPU proof differs from its CPU proof (%s)\n", name, NB,
                    !same ? "a, b, c from the host" : "through the PCE");
        /* the notices that a proof's a, b, c and assignment are read (the engine reuses their
         * buffers from then on): once per proof, in order, and no copy reads them after them */
        abc_owned ao;
        cuzk_groth16_witness mine[NB];
        const cuzk_groth16_witness *mp[NB];
        abc_owned_init(&ao, mine, gwb, NB);
        for (int k = 0; k < NB; k++) mp[k] = &mine[k];
        const cuzk_groth16_prove_opts on = {
            .r = rb, .s = sb, .abc_read = abc_owned_poison, .witness_read = abc_owned_poison_witness, .read_ctx = &ao};
        memset(pgb, 0, sizeof pgb);
        CHECK_OK(cuzk_gpu_prove_batch_with(pr, NB, pgb, mp, &on));
        int same_notice = ao.calls == NB && ao.wcalls == NB && ao.in_order;
        for (int k = 0; k < NB; k++) same_notice &= proofs_same_bytes(&pcb[k], &pgb[k]);
        CHECK(same_notice);
        if (!same_notice)
            fprintf(stderr, "    %s streamed batch of %d: %zu notices (in order: %d), or a, b, c read after one\n",
                    name, NB, ao.calls, ao.in_order);
        abc_owned_free(&ao);
        /* compact witnesses (not apart): the other values on the device, or (room for one) read
         * from the host a piece at a time, through both entry points (a, b, c from the host:
         * always from the host), the notices as above */
        for (int v = 0; v < 2 && lab != LAB_APART; v++) {
            cuzk_gpu_prover *q = compact_prover(pr, &p, v ? 1 : (uint64_t)1 << 30);
            int same_c = q != NULL;
            abc_owned_init(&ao, mine, gwb, NB);
            const cuzk_fr *mi[NB], *ma[NB];
            for (int k = 0; k < NB; k++) mi[k] = ao.in[k], ma[k] = ao.aux[k];
            memset(pgb, 0, sizeof pgb);
            if (q) CHECK_OK(cuzk_gpu_prove_pce_batch_with(q, g, NB, pgb, mi, j.w.num_inputs, ma, j.w.num_aux, &on));
            same_c &= ao.wcalls == NB && ao.in_order;
            for (int k = 0; k < NB; k++) same_c &= proofs_same_bytes(&pcb[k], &pgb[k]);
            abc_owned_free(&ao);
            memset(pgb, 0, sizeof pgb);
            if (q) CHECK_OK(cuzk_gpu_prove_batch_with(q, NB, pgb, gwb, &o));
            for (int k = 0; k < NB; k++) same_c &= proofs_same_bytes(&pcb[k], &pgb[k]);
            CHECK(same_c);
            if (!same_c)
                fprintf(stderr, "    %s streamed batch of %d, compact witnesses (%s): a GPU proof differs\n", name, NB,
                        v ? "from the host" : "on the device");
            cuzk_gpu_prover_destroy(q);
        }
        /* more than the placement's batch is refused */
        const size_t over = cuzk_gpu_prover_batch_max(pr) + 1;
        CHECK_FAILS(cuzk_gpu_prove_batch_with(pr, over, pgb, gwb, &o), CUZK_EINVAL);
        printf("prover %s, %s batch of %d, %s: each GPU proof's bytes = its CPU proof's\n", name, how, NB, labw);
    }
    for (int k = 0; k < NB; k++) pce_job_close(&jb[k]);
    cuzk_gpu_pce_destroy(g);
    const bool pooled = d && cuzk_gpu_pool_bytes(d) > 0; /* the proofs' workspace, kept between them */
    cuzk_gpu_prover_destroy(pr);
    /* and given back with the prover: a prover or engine placed next sees that memory free */
    if (pooled) {
        CHECK(cuzk_gpu_pool_bytes(d) == 0);
        if (cuzk_gpu_pool_bytes(d))
            fprintf(stderr, "    %s %s: the memory pool keeps %zu bytes after the prover is gone\n", name,
                    mapped ? "mapped" : "streamed", cuzk_gpu_pool_bytes(d));
    }
    cuzk_gpu_device_close(d);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
}

/* Partitions through the engine on this GPU, as the daemon proves them: witnesses on the CPU
 * while earlier partitions are proved, a, b, c on the device from the resident circuit; with
 * placement "mapped", the parameters loaded into a scratch file in the working folder and
 * streamed from there, the status saying so. */
static void test_engine_partitions(const char *name, const char *placement)
{
    pce_job j;
    pce_job_open(&j, name, 0, 0);
    cuzk_groth16_params p;
    pce_job_setup(&j, &p, 11);
    char path[] = "/tmp/cuzk-gpu-engine-XXXXXX";
    params_to_tempfile(&p, path);

    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.gpus = 1;
    cfg.cpu_worker = false; /* the CPU backend would prove only once no GPU context serves */
    cfg.threads = 2;
    cuzk_gpu_config gcfg;
    cuzk_gpu_config_default(&gcfg);
    snprintf(gcfg.placement, sizeof gcfg.placement, "%s", placement);
    snprintf(gcfg.stream_file_dir, sizeof gcfg.stream_file_dir, ".");
    cuzk_engine *e = NULL;
    CHECK_OK(cuzk_engine_create(&e, &cfg, &gcfg));
    cuzk_engine_circuit c = {
        .id = "gpu-partitions", .open = named_circuit_open, .ctx = (void *)name, .params_path = path};
    if (e) CHECK_OK(cuzk_engine_register_circuit(e, &c));
    enum { NP = 3 };
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = "gpu-partitions", .partitions = NP};
    uint64_t id = 0;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    if (e) CHECK_OK(cuzk_engine_submit(e, &req, &id, NULL));
    if (e) CHECK_OK(cuzk_engine_await(e, id, 600, &r));
    CHECK(r.state == CUZK_JOB_COMPLETED && r.partitions == NP && r.verified);
    size_t ni = j.pce.num_inputs - 1;
    CHECK(r.ninputs == ni && r.proof_len == NP * CUZK_GROTH16_PROOF_BYTES);
    cuzk_fr *in = r.state == CUZK_JOB_COMPLETED ? result_inputs(r.inputs, NP * r.ninputs) : NULL;
    CHECK(in != NULL);
    for (unsigned k = 0; in && k < NP && r.ninputs == ni; k++) {
        cuzk_groth16_proof pf;
        CHECK_OK(cuzk_groth16_proof_decode(&pf, r.proof + (size_t)k * CUZK_GROTH16_PROOF_BYTES));
        if (k == 0) CHECK(!memcmp(in, j.w.input + 1, ni * sizeof(cuzk_fr))); /* the job's seed, 0 */
        CHECK_OK(cuzk_groth16_verify(&p.vk, &pf, in + k * ni, ni));
    }
    free(in);
    /* proved on the GPU, not elsewhere */
    cuzk_engine_status *st = calloc(1, sizeof *st);
    if (e && st) {
        cuzk_engine_get_status(e, st);
        uint64_t on_gpu = 0;
        for (unsigned d = 0; d < st->ndevices; d++)
            if (st->devices[d].ordinal >= 0) on_gpu += st->devices[d].partitions_proved;
        CHECK(on_gpu == NP);
        if (!strcmp(placement, "mapped")) {
            CHECK(st->ncircuits == 1 && !strncmp(st->circuits[0].placement, "mapped (gpu.placement)", 22));
            CHECK(st->ncircuits == 1 && st->circuits[0].pinned_bytes == 0);
            bool mapped = false;
            for (unsigned d = 0; d < st->ndevices && st->ncircuits == 1; d++) mapped |= st->circuits[0].mapped[d];
            CHECK(mapped);
        }
    }
    free(st);
    printf("engine %s: %d partitions proved on the GPU from the resident circuit, parameters %s, verified\n", name, NP,
           placement);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    unlink(path);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
}

static void test_resident(void)
{
    for (size_t i = 0; i < cuzk_circuit_family_count(); i++)
        if (cuzk_circuit_example(i)) test_spmv(cuzk_circuit_example(i)); /* porep:2KiB included */
    test_prove_pce("cubic");
    test_prove_pce("random:1000");
    test_prove_pce("poseidon:11");
    test_prove_pce("random:70000");
    if (large) test_prove_pce("porep:2KiB");
    test_engine_partitions("random-parts:5:700", "auto");
    test_engine_partitions("random-parts:5:700", "mapped");
}

/* ---------------------------------------------------------------- setup */
static cuzk_status dev_g1(void *ctx, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *s, size_t n)
{
    return cuzk_gpu_fixed_base_g1(ctx, out, base, s, n);
}

static cuzk_status dev_g2(void *ctx, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *s, size_t n)
{
    return cuzk_gpu_fixed_base_g2(ctx, out, base, s, n);
}

#define SAME(a, b, n) ((n) == 0 || memcmp((a), (b), (n) * sizeof *(a)) == 0)

static void test_setup(const char *name)
{
    cuzk_circuit *c = NULL;
    cuzk_r1cs m;
    CHECK_OK(cuzk_circuit_open(&c, name));
    CHECK_OK(cuzk_circuit_record(c, &m));
    cuzk_groth16_params cpu = {0}, gpu = {0};
    cuzk_rng r1, r2;
    cuzk_rng_seed(&r1, 41);
    cuzk_rng_seed(&r2, 41);
    cuzk_fixed_base_ops ops = {dev_g1, dev_g2, D};
    double t0 = cuzk_now();
    CHECK_OK(cuzk_groth16_setup(&cpu, &m, &r1, NULL));
    double t1 = cuzk_now();
    CHECK_OK(cuzk_groth16_setup_with(&gpu, &m, &r2, NULL, &ops));
    double t2 = cuzk_now();
    CHECK(gpu.h_len == cpu.h_len && SAME(gpu.h, cpu.h, cpu.h_len));
    CHECK(gpu.l_len == cpu.l_len && SAME(gpu.l, cpu.l, cpu.l_len));
    CHECK(gpu.a_len == cpu.a_len && SAME(gpu.a, cpu.a, cpu.a_len));
    CHECK(gpu.b_g1_len == cpu.b_g1_len && SAME(gpu.b_g1, cpu.b_g1, cpu.b_g1_len));
    CHECK(gpu.b_g2_len == cpu.b_g2_len && SAME(gpu.b_g2, cpu.b_g2, cpu.b_g2_len));
    CHECK(gpu.vk.ic_len == cpu.vk.ic_len && SAME(gpu.vk.ic, cpu.vk.ic, cpu.vk.ic_len));
    CHECK(!memcmp(&gpu.vk.delta_g2, &cpu.vk.delta_g2, sizeof cpu.vk.delta_g2));
    printf("setup %s: CPU %.2f s, GPU %.2f s, the same points\n", name, t1 - t0, t2 - t1);
    cuzk_groth16_params_free(&cpu);
    cuzk_groth16_params_free(&gpu);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

int main(void)
{
    skip_without_gpu();
    const char *v = getenv("CUZK_GPU_TEST_LARGE");
    if (v && !strcmp(v, "0")) large = 0;
    if (cuzk_gpu_device_open(&D, 0, NULL)) {
        fprintf(stderr, "opening device 0: %s\n", cuzk_last_error());
        return 1;
    }
    char dev[256];
    cuzk_gpu_describe(D, dev, sizeof dev);
    printf("device: %s\n", dev);
    cuzk_rng_seed(&rng, 2027);
    /* CUZK_GPU_TEST_ONLY=ntt|msm|prover|setup|pce runs one part */
    const char *only = getenv("CUZK_GPU_TEST_ONLY");
    double t = cuzk_now();
    if (!only || !strcmp(only, "ntt")) {
        test_ntt();
        printf("ntt: done in %.1f s\n", cuzk_now() - t);
    }
    t = cuzk_now();
    if (!only || !strcmp(only, "msm")) {
        test_msm();
        printf("msm: done in %.1f s\n", cuzk_now() - t);
    }
    t = cuzk_now();
    if (!only || !strcmp(only, "prover")) {
        test_prover("cubic");
        test_prover("random:1000");
        test_prover("random:70000");
        test_two_contexts();
        test_prove_streamed("cubic", 10, false, LAB_BESIDE);
        test_prove_streamed("random:70000", 12, false, LAB_BESIDE);
        test_prove_streamed("random:70000", 12, false, LAB_AFTER);
        test_prove_streamed("random:70000", 12, false, LAB_APART);
        test_prove_streamed("poseidon:11", 10, false, LAB_BESIDE);
        test_prove_streamed("poseidon:11", 10, false, LAB_APART);
        test_prove_streamed("random:70000", 12, true, LAB_BESIDE);
        printf("prover: done in %.1f s\n", cuzk_now() - t);
    }
    if (!only || !strcmp(only, "setup")) {
        test_setup("cubic");
        test_setup("random:70000");
        if (large) test_setup("porep:2KiB");
    }
    t = cuzk_now();
    if (!only || !strcmp(only, "pce")) {
        test_resident();
        printf("resident circuit: done in %.1f s\n", cuzk_now() - t);
    }
    cuzk_gpu_device_close(D);
    return harness_finish("gpu");
}
