/* The GPU kernels' code run in host emulation (no device needed): field and curve
 * arithmetic against blst, NTTs against the CPU NTT, MSMs (random and adversarial scalars,
 * every tuning path: chunking, several reduction rounds, small windows) against the CPU MSM,
 * the H pipeline against cuzk_groth16_compute_h, the device SpMV (a, b, c from the resident
 * precompiled circuit) against cuzk_pce_evaluate on every built-in circuit example, the
 * fixed-base multiplication of parameter generation against the CPU's points byte for byte,
 * the whole GPU prover, both entry points, against the CPU prover's proof bytes, and its
 * cancel path. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "cuzk/testcircuits.h"
#include "cuzk/groth16.h"
#include "cuzk/gpu.h"
#include "harness.h"
#include "support_abc.h"
#include "support_cancel.h"
#include "support_job.h"
#include "support_pce.h"

#ifndef CUZK_HAVE_CUDA
int main(void) { TEST_SKIP("built without CUDA support: the GPU code is not compiled"); }
#else
#include "gpu/gpu_emu.h"
#include "gpu_emu_checks.h"

static cuzk_rng rng;

static void rand_scalars(cuzk_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) cuzk_fr_random(&s[i], &rng);
}

static void test_arith(void)
{
    CHECK_OK(cuzk_gpu_emu_field_check(1, 300));
    CHECK_OK(cuzk_gpu_emu_glv_check(2, 40));
    CHECK_OK(cuzk_gpu_emu_twiddle_check(2, 200));
    CHECK_OK(cuzk_gpu_emu_curve_check(2, 12));
}

static void test_ntt_sizes(const unsigned *logs, size_t nlogs, const cuzk_gpu_config *cfg)
{
    static const cuzk_gpu_ntt_kind kinds[4] = {CUZK_GPU_NTT_FORWARD, CUZK_GPU_NTT_INVERSE, CUZK_GPU_NTT_COSET_FORWARD,
                                               CUZK_GPU_NTT_COSET_INVERSE};
    for (size_t li = 0; li < nlogs; li++) {
        unsigned lg = logs[li];
        size_t n = (size_t)1 << lg;
        cuzk_ntt_domain d;
        CHECK_OK(cuzk_ntt_domain_init(&d, lg));
        cuzk_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        for (int k = 0; k < 4; k++) {
            rand_scalars(x, n);
            memcpy(y, x, n * sizeof *x);
            switch (kinds[k]) {
            case CUZK_GPU_NTT_FORWARD: cuzk_ntt_forward(&d, y); break;
            case CUZK_GPU_NTT_INVERSE: cuzk_ntt_inverse(&d, y); break;
            case CUZK_GPU_NTT_COSET_FORWARD: cuzk_ntt_coset_forward(&d, y); break;
            case CUZK_GPU_NTT_COSET_INVERSE: cuzk_ntt_coset_inverse(&d, y); break;
            }
            CHECK_OK(cuzk_gpu_emu_ntt(x, lg, kinds[k], cfg));
            int same = !memcmp(x, y, n * sizeof *x);
            CHECK(same);
            if (!same) fprintf(stderr, "    NTT kind %d differs at 2^%u\n", k, lg);
        }
        free(x);
        free(y);
        cuzk_ntt_domain_free(&d);
    }
}

static void test_ntt(void)
{
    static const unsigned logs[] = {0, 1, 2, 3, 5, 8, 11, 12, 13};
    test_ntt_sizes(logs, sizeof logs / sizeof logs[0], NULL);
    /* many passes and small tiles on small sizes: passes of 2 to 5 row bits, 16-element
     * blocks (the pass structure of 2^27 is three passes of 9) */
    static const unsigned many[] = {6, 7, 9, 13};
    cuzk_gpu_config cfg;
    cuzk_gpu_config_default(&cfg);
    cfg.ntt_tile_bits = 4;
    for (unsigned bits = 3; bits <= 5; bits++) {
        cfg.ntt_pass_bits = bits;
        test_ntt_sizes(many, sizeof many / sizeof many[0], &cfg);
    }
    /* the paths the defaults replace where memory is short: the top pass multiplying two
     * table entries, the bit reversal as a pass of its own */
    cfg.ntt_full_table = false;
    cfg.ntt_natural_out = false;
    test_ntt_sizes(many, sizeof many / sizeof many[0], &cfg);
    cuzk_gpu_config_default(&cfg);
    cfg.ntt_full_table = false;
    cfg.ntt_natural_out = false;
    test_ntt_sizes(logs, sizeof logs / sizeof logs[0], &cfg);
}

static void random_points_g1(blst_p1_affine *p, size_t n)
{
    CHECK_OK(cuzk_gpu_emu_synthetic_points(p, n, false, cuzk_rng_next(&rng)));
}

static int msm_g1_case(const blst_p1_affine *b, const cuzk_fr *s, size_t n, const char *what)
{
    blst_p1 want, got;
    CHECK_OK(cuzk_g1_msm(&want, b, s, n));
    static const cuzk_gpu_emu_msm_cfg cfgs[] = {
        {0, 0, 0, 0, 0},  {5, 7, 3, 0, 0}, {4, 0, 2, 0, 0},   {9, 33, 0, 0, 0},
        {14, 0, 0, 0, 0}, {5, 7, 3, 1, 0}, {0, 64, 0, 1, 0},  {0, 0, 0, 1, 0}, /* the scalar split: */
        {0, 0, 0, 0, 1},  {5, 7, 3, 0, 1}, {11, 33, 0, 0, 1}, {4, 0, 2, 1, 1}};
    int bad = 0;
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++)
        for (int split = 0; split < 2; split++) {
            CHECK_OK(cuzk_gpu_emu_msm_g1(&got, b, s, n, split, &cfgs[k]));
            if (!blst_p1_is_equal(&got, &want)) {
                bad = 1;
                fprintf(stderr, "    G1 MSM '%s' n=%zu cfg %zu split %d differs\n", what, n, k, split);
            }
        }
    CHECK(!bad);
    return bad;
}

static void test_msm_g1(void)
{
    const size_t NMAX = 700;
    blst_p1_affine *b = malloc(NMAX * sizeof *b);
    cuzk_fr *s = malloc(NMAX * sizeof *s);
    random_points_g1(b, NMAX);
    for (size_t i = 0; i < 64; i++) {
        CHECK(blst_p1_affine_on_curve(&b[i]));
        CHECK(blst_p1_affine_in_g1(&b[i]));
    }
    CHECK(memcmp(&b[0], &b[1], sizeof b[0]) != 0);
    static const size_t sizes[] = {1, 2, 3, 17, 100, 700};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        rand_scalars(s, sizes[k]);
        msm_g1_case(b, s, sizes[k], "random");
    }
    size_t n = 300;
    cuzk_fr minus1;
    cuzk_fr_neg(&minus1, &CUZK_FR_ONE);
    for (size_t i = 0; i < n; i++) s[i] = CUZK_FR_ZERO;
    msm_g1_case(b, s, n, "zeros");
    for (size_t i = 0; i < n; i++) s[i] = CUZK_FR_ONE;
    msm_g1_case(b, s, n, "ones");
    for (size_t i = 0; i < n; i++) s[i] = minus1;
    msm_g1_case(b, s, n, "r-1");
    cuzk_fr e;
    cuzk_fr_random(&e, &rng);
    for (size_t i = 0; i < n; i++) s[i] = e;
    msm_g1_case(b, s, n, "all equal");
    /* the PoRep profile: mostly 0/1, some small, some random */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cuzk_rng_next(&rng) % 8;
        if (r < 3) s[i] = CUZK_FR_ZERO;
        else if (r < 6) s[i] = CUZK_FR_ONE;
        else if (r == 6) cuzk_fr_from_u64(&s[i], cuzk_rng_next(&rng) % 1000);
        else cuzk_fr_random(&s[i], &rng);
    }
    msm_g1_case(b, s, n, "0/1 profile");
    /* repeated points and infinity bases, with repeated scalars: P + P and P + (-P) in buckets */
    blst_p1_affine *rb = malloc(n * sizeof *rb);
    for (size_t i = 0; i < n; i++) {
        rb[i] = b[i % 5];
        if (i % 7 == 3) memset(&rb[i], 0, sizeof rb[i]);
        if (i % 3 == 0) s[i] = e;
        else if (i % 3 == 1) cuzk_fr_neg(&s[i], &e);
        else cuzk_fr_random(&s[i], &rng);
    }
    msm_g1_case(rb, s, n, "repeated points, infinity");
    free(rb);
    free(b);
    free(s);
}

static void test_msm_g2(void)
{
    const size_t NMAX = 150;
    blst_p2_affine *b = malloc(NMAX * sizeof *b);
    cuzk_fr *s = malloc(NMAX * sizeof *s);
    CHECK_OK(cuzk_gpu_emu_synthetic_points(b, NMAX, true, 77));
    for (size_t i = 0; i < 8; i++) {
        CHECK(blst_p2_affine_on_curve(&b[i]));
        CHECK(blst_p2_affine_in_g2(&b[i]));
    }
    static const size_t sizes[] = {1, 9, 150};
    static const cuzk_gpu_emu_msm_cfg cfgs[] = {{0, 0, 0, 0, 0}, {6, 11, 3, 0, 0}, {6, 11, 3, 1, 0}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        rand_scalars(s, n);
        for (size_t i = 0; i < n; i += 3) s[i] = i % 2 ? CUZK_FR_ONE : CUZK_FR_ZERO;
        blst_p2 want, got;
        CHECK_OK(cuzk_g2_msm(&want, b, s, n));
        for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++)
            for (int split = 0; split < 2; split++) {
                CHECK_OK(cuzk_gpu_emu_msm_g2(&got, b, s, n, split, &cfgs[c]));
                CHECK(blst_p2_is_equal(&got, &want));
            }
    }
    free(b);
    free(s);
}

static void test_prover(const char *name)
{
    job j;
    job_open(&j, name, 5);
    /* H coefficients */
    size_t N = 1;
    while (N < j.w.n) N <<= 1;
    cuzk_fr *h1 = malloc(N * sizeof *h1), *h2 = malloc(N * sizeof *h2);
    CHECK_OK(cuzk_groth16_compute_h(h1, &j.w, NULL));
    CHECK_OK(cuzk_gpu_emu_compute_h(h2, &j.w));
    CHECK(!memcmp(h1, h2, (N - 1) * sizeof *h1));
    free(h1);
    free(h2);
    /* proof bytes */
    cuzk_rng r2;
    cuzk_rng_seed(&r2, 9);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &r2, NULL));
    cuzk_fr r, s;
    cuzk_fr_random(&r, &rng);
    cuzk_fr_random(&s, &rng);
    cuzk_groth16_proof pc, pg;
    CHECK_OK(cuzk_groth16_prove(&pc, &p, &j.w, &r, &s, NULL));
    CHECK_OK(cuzk_gpu_emu_prove(&pg, &p, &j.w, &r, &s));
    int same = proofs_same_bytes(&pc, &pg);
    CHECK(same);
    if (!same) fprintf(stderr, "    %s: emulated GPU proof differs from the CPU proof\n", name);
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pg, j.input + 1, j.m->num_inputs - 1));
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* The GPU prover's cancel path, which the device runs too (the same driver code): a token set
 * before the proof ends it CUZK_ECANCELLED; one set while it runs ends it at the next stage
 * with CUZK_ECANCELLED (or, on a machine suddenly faster, after the proof: then again
 * sooner); the next proof is still the CPU prover's, byte for byte. */
static void test_prover_cancel(const char *name)
{
    job j;
    job_open(&j, name, 6);
    cuzk_rng r2;
    cuzk_rng_seed(&r2, 10);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &r2, NULL));
    cuzk_fr r, s;
    cuzk_fr_random(&r, &rng);
    cuzk_fr_random(&s, &rng);
    cuzk_groth16_proof pc, pg;
    CHECK_OK(cuzk_groth16_prove(&pc, &p, &j.w, &r, &s, NULL));
    cuzk_cancel before = {0};
    cuzk_cancel_set(&before);
    cuzk_groth16_prove_opts o = {.r = &r, .s = &s, .cancel = &before};
    CHECK_FAILS(cuzk_gpu_emu_prove_with(&pg, &p, &j.w, &o), CUZK_ECANCELLED);
    o.cancel = NULL;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_gpu_emu_prove_with(&pg, &p, &j.w, &o));
    double full_s = cuzk_now() - t0;
    CHECK(proofs_same_bytes(&pc, &pg));
    cuzk_status st = CUZK_OK;
    for (int attempt = 0; attempt < 4 && st != CUZK_ECANCELLED; attempt++) {
        cuzk_cancel running = {0};
        canceller c = {&running, full_s / (4 << attempt), 0};
        o.cancel = &running;
        pthread_t th;
        CHECK(pthread_create(&th, NULL, cancel_later, &c) == 0);
        st = cuzk_gpu_emu_prove_with(&pg, &p, &j.w, &o);
        double end = cuzk_now();
        pthread_join(th, NULL);
        if (st == CUZK_OK && end < c.set_t) continue;
        CHECK(st == CUZK_ECANCELLED);
    }
    CHECK(st == CUZK_ECANCELLED);
    o.cancel = NULL;
    CHECK_OK(cuzk_gpu_emu_prove_with(&pg, &p, &j.w, &o));
    CHECK(proofs_same_bytes(&pc, &pg));
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* The bytes of a chunk of streamed matrices holding one row of `terms` terms (spmv.cuh's layout:
 * the row's two offsets, its columns, its coefficient indices; the first two padded to 256). */
static size_t one_row_chunk(size_t terms) { return 256 + (terms * 4 + 255) / 256 * 256 + terms * 4; }

static size_t longest_row(const cuzk_pce *p)
{
    size_t most = 0;
    for (int k = 0; k < 3; k++)
        for (size_t r = 0; r < p->num_constraints; r++) {
            const size_t len = p->row_ptr[k][r + 1] - p->row_ptr[k][r];
            if (len > most) most = len;
        }
    return most;
}

/* a, b, c by the device SpMV's code = cuzk_pce_evaluate, with the device's plan and with
 * small segments that send most rows through the long-row path (several reduction levels);
 * then with the matrices streamed: chunks of many rows, of a few, and of the longest row's size
 * (which it has alone), with and without small segments (a long row's segments summed with its
 * chunk); one byte less than the longest row needs fails */
static void test_spmv(const char *name, size_t max_constraints)
{
    pce_job j;
    double t = cuzk_now();
    if (!pce_job_open(&j, name, 3, max_constraints)) {
        printf("spmv %s: above %zu constraints, left to test_gpu\n", name, max_constraints);
        return;
    }
    cuzk_fr *got[3];
    for (int k = 0; k < 3; k++) got[k] = malloc(j.n * sizeof(cuzk_fr));
    static const unsigned segs[] = {0, 2, 3, 7};
    int nseg = j.pce.num_constraints > 100000 ? 2 : 4; /* keep the large one fast */
    for (int i = 0; i < nseg; i++) {
        for (int k = 0; k < 3; k++) memset(got[k], 0xa5, j.n * sizeof(cuzk_fr));
        CHECK_OK(cuzk_gpu_emu_pce_evaluate(&j.pce, segs[i], 0, j.w.input, j.w.aux, got[0], got[1], got[2]));
        char what[48];
        snprintf(what, sizeof what, "emulated SpMV (seg %u)", segs[i]);
        CHECK(pce_job_same_abc(&j, got, what));
    }
    const size_t one = one_row_chunk(longest_row(&j.pce));
    const size_t chunks[] = {one > (1u << 20) ? one : 1u << 20, 4 * one, one};
    for (int i = 0; i < 3; i++)
        for (int g = 0; g < (nseg == 4 || i == 2 ? 2 : 1); g++) {
            for (int k = 0; k < 3; k++) memset(got[k], 0xa5, j.n * sizeof(cuzk_fr));
            CHECK_OK(
                cuzk_gpu_emu_pce_evaluate(&j.pce, segs[2 * g], chunks[i], j.w.input, j.w.aux, got[0], got[1], got[2]));
            char what[64];
            snprintf(what, sizeof what, "emulated SpMV (seg %u, chunks of %zu bytes)", segs[2 * g], chunks[i]);
            CHECK(pce_job_same_abc(&j, got, what));
        }
    CHECK_FAILS(cuzk_gpu_emu_pce_evaluate(&j.pce, 0, one - 1, j.w.input, j.w.aux, got[0], got[1], got[2]), CUZK_EINVAL);
    printf("spmv %s: %zu constraints, %zu + %zu + %zu terms = CPU (%.1f s)\n", name, j.pce.num_constraints,
           j.pce.nnz[0], j.pce.nnz[1], j.pce.nnz[2], cuzk_now() - t);
    for (int k = 0; k < 3; k++) free(got[k]);
    pce_job_close(&j);
}

/* The reference both PCE tests compare against: the circuit's job (seed), its parameters
 * (params_seed), r and s drawn, and the CPU prover's proof for them. */
static void cpu_reference(pce_job *j, cuzk_groth16_params *p, const char *name, uint64_t seed, uint64_t params_seed,
                          cuzk_fr *r, cuzk_fr *s, cuzk_groth16_proof *pc)
{
    pce_job_open(j, name, seed, 0);
    pce_job_setup(j, p, params_seed);
    cuzk_fr_random(r, &rng);
    cuzk_fr_random(s, &rng);
    CHECK_OK(cuzk_groth16_prove(pc, p, &j->gw, r, s, NULL));
}

/* the proof through the resident-circuit entry point = the CPU proof for the same r, s */
static void test_prove_pce(const char *name)
{
    pce_job j;
    cuzk_groth16_params p;
    cuzk_fr r, s;
    cuzk_groth16_proof pc, pg;
    cpu_reference(&j, &p, name, 4, 10, &r, &s, &pc);
    for (unsigned seg = 0; seg <= 2; seg += 2) {
        CHECK_OK(cuzk_gpu_emu_prove_pce(&pg, &p, &j.pce, seg, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux, &r, &s));
        int same = proofs_same_bytes(&pc, &pg);
        CHECK(same);
        if (!same)
            fprintf(stderr, "    %s: emulated GPU proof through the PCE (seg %u) differs from the CPU proof\n", name,
                    seg);
    }
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pg, j.w.input + 1, j.w.num_inputs - 1));
    printf("prove %s through the resident circuit: emulated GPU proof bytes = CPU proof bytes\n", name);
    /* an assignment of another shape is refused */
    CHECK_FAILS(cuzk_gpu_emu_prove_pce(&pg, &p, &j.pce, 0, j.w.input, j.w.num_inputs, j.w.aux, j.w.num_aux - 1, &r, &s),
                CUZK_EINVAL);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
}

/* The streamed placement (bases copied a chunk at a time, summed per chunk, stages in turn)
 * against the CPU prover's bytes: chunks of one base, of a few (the sections' lengths no
 * multiple of them), and one larger than every section; with and without the H MSM's split
 * and with a window limit; both entry points. */
static void test_prove_streamed(const char *name)
{
    pce_job j;
    cuzk_groth16_params p;
    cuzk_fr r, s;
    cuzk_groth16_proof pc, pg;
    cpu_reference(&j, &p, name, 7, 12, &r, &s, &pc);
    const cuzk_gpu_emu_stream cases[] = {
        {.chunk = 1, .phi = false, .window_max = 0},     {.chunk = 1, .phi = true, .window_max = 5},
        {.chunk = 3, .phi = true, .window_max = 0},      {.chunk = 7, .phi = false, .window_max = 6},
        {.chunk = 64, .phi = true, .window_max = 0},     {.chunk = 97, .phi = true, .window_max = 4},
        {.chunk = 1 << 20, .phi = true, .window_max = 0}};
    const cuzk_groth16_witness *gw = &j.gw;
    const cuzk_fr *in = j.w.input, *aux = j.w.aux;
    for (size_t k = 0; k < 3 * (sizeof cases / sizeof cases[0]); k++) {
        cuzk_gpu_emu_stream both = cases[k / 3]; /* L, A, B after H, beside it, and on their own thread */
        both.beside = k % 3 == 1;
        both.lab_concurrent = k % 3 == 2;
        both.lab_chunk = both.lab_concurrent && k % 2 ? 2 : 0; /* their own chunks, or H's */
        both.sort_ahead = (k / 3 + k) % 2 == 0;
        both.witnesses_before_h = k % 3 == 0 && k % 2 == 0; /* the SpMV's copy kept for L, A, B */
        /* compact witnesses (not apart): their other values on the device, or (room for one)
         * read from the host a piece at a time */
        both.compact_vals = k % 4 == 1 ? 1 : k % 4 == 3 ? 1u << 20 : 0;
        const cuzk_gpu_emu_stream *sm = &both;
        CHECK_OK(cuzk_gpu_emu_prove_streamed(&pg, &p, 1, &gw, &r, &s, sm));
        int same = proofs_same_bytes(&pc, &pg);
        CHECK_OK(
            cuzk_gpu_emu_prove_pce_streamed(&pg, &p, &j.pce, 1, &in, j.w.num_inputs, &aux, j.w.num_aux, &r, &s, sm));
        int same_pce = proofs_same_bytes(&pc, &pg);
        CHECK(same && same_pce);
        if (!same || !same_pce)
            fprintf(
                stderr,
                "    %s streamed (chunk %zu, phi %d, windows <= %u, beside %d, apart %d (chunk %zu), sort ahead %d, "
                "witnesses before H %u, compact room %zu): proof differs (a, b, c %s)\n",
                name, sm->chunk, sm->phi, sm->window_max, sm->beside, sm->lab_concurrent, sm->lab_chunk, sm->sort_ahead,
                sm->witnesses_before_h, sm->compact_vals, !same ? "from the host" : "by the SpMV");
    }
    /* the precompiled circuit's matrices streamed too: in chunks of the longest row, and larger */
    const size_t one = one_row_chunk(longest_row(&j.pce));
    for (size_t k = 0; k < 2; k++) {
        cuzk_gpu_emu_stream sm = cases[3 + k];
        sm.pce_chunk_bytes = k ? 3 * one : one;
        sm.beside = k == 1;
        sm.lab_concurrent = k == 0;
        CHECK_OK(
            cuzk_gpu_emu_prove_pce_streamed(&pg, &p, &j.pce, 1, &in, j.w.num_inputs, &aux, j.w.num_aux, &r, &s, &sm));
        int same = proofs_same_bytes(&pc, &pg);
        CHECK(same);
        if (!same)
            fprintf(stderr, "    %s streamed (chunk %zu, matrices in chunks of %zu bytes): proof differs\n", name,
                    sm.chunk, sm.pce_chunk_bytes);
        sm.pce_chunk_bytes = one - 1;
        CHECK_FAILS(
            cuzk_gpu_emu_prove_pce_streamed(&pg, &p, &j.pce, 1, &in, j.w.num_inputs, &aux, j.w.num_aux, &r, &s, &sm),
            CUZK_EINVAL);
    }
    const cuzk_gpu_emu_stream none = {.chunk = 0};
    CHECK_FAILS(cuzk_gpu_emu_prove_streamed(&pg, &p, 1, &gw, &r, &s, &none), CUZK_EINVAL);
    CHECK_FAILS(cuzk_gpu_emu_prove_streamed(&pg, &p, 0, &gw, &r, &s, &cases[0]), CUZK_EINVAL);
    printf(
        "prove %s streamed in chunks of 1 to 2^20 bases, L, A, B after H, beside it and apart, H sorting a chunk ahead "
        "and not, witnesses full and compact (other values on the device or read from the host) (and its matrices in "
        "chunks of %zu and %zu bytes): emulated GPU proof bytes = CPU proof bytes\n",
        name, one, 3 * one);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
}

/* The notices that a proof's a, b, c and its assignment are read (cuzk_groth16_prove_opts
 * abc_read and witness_read, which let the engine give their buffers to the next partitions
 * while a proof's MSMs run): each called once per proof, in the batch's order, and nothing reads
 * what it names after it (poisoned there, every proof still equals the CPU's): streamed in
 * batches and single through both entry points, and resident (a, b, c only). */
static void test_abc_read_notice(const cuzk_groth16_params *p, const cuzk_pce *pce,
                                 const cuzk_groth16_witness *const *gw, const cuzk_fr *r, const cuzk_fr *s,
                                 const cuzk_groth16_proof *pc, size_t nw)
{
    cuzk_groth16_witness mine[ABC_OWNED_MAX];
    const cuzk_groth16_witness *mp[ABC_OWNED_MAX];
    cuzk_groth16_proof pg[ABC_OWNED_MAX];
    abc_owned o;
    for (size_t v = 0; v < 2 * nw; v++) {
        const size_t nb = v % nw + 1;
        const bool apart = v >= nw; /* L, A, B on a thread of their own */
        abc_owned_init(&o, mine, gw, nb);
        for (size_t k = 0; k < nb; k++) mp[k] = &mine[k];
        const cuzk_gpu_emu_stream sm = {.chunk = 5,
                                        .phi = true,
                                        .window_max = 4,
                                        .abc_read = abc_owned_poison,
                                        .witness_read = abc_owned_poison_witness,
                                        .read_ctx = &o,
                                        .beside = !apart && nb % 2 == 0,
                                        .witnesses_before_h = !apart && nb % 2 ? (unsigned)nb : 0,
                                        .lab_concurrent = apart,
                                        .lab_chunk = 3,
                                        /* compact witnesses, read from the host (room for one other
                                         * value) or on the device: the notice waits for L, A, B or
                                         * comes after the SpMV */
                                        .compact_vals = apart ? 0
                                            : v % 3 == 0      ? 1
                                            : v % 3 == 1      ? 1u << 20
                                                              : 0};
        memset(pg, 0, sizeof pg);
        CHECK_OK(cuzk_gpu_emu_prove_streamed(pg, p, nb, mp, r, s, &sm));
        CHECK(o.calls == nb && o.wcalls == nb && o.in_order);
        int same = 1;
        for (size_t k = 0; k < nb; k++) same &= proofs_same_bytes(&pc[k], &pg[k]);
        abc_owned_free(&o);
        /* through the circuit: the assignment's notice alone */
        abc_owned_init(&o, mine, gw, nb);
        const cuzk_fr *in[ABC_OWNED_MAX], *aux[ABC_OWNED_MAX];
        for (size_t k = 0; k < nb; k++) in[k] = o.in[k], aux[k] = o.aux[k];
        memset(pg, 0, sizeof pg);
        cuzk_gpu_emu_stream sp = sm; /* its matrices streamed too, in batches of two */
        if (nb == 2) sp.pce_chunk_bytes = 2 * one_row_chunk(longest_row(pce));
        CHECK_OK(cuzk_gpu_emu_prove_pce_streamed(pg, p, pce, nb, in, o.ni, aux, o.na, r, s, &sp));
        CHECK(o.calls == 0 && o.wcalls == nb && o.in_order);
        for (size_t k = 0; k < nb; k++) same &= proofs_same_bytes(&pc[k], &pg[k]);
        CHECK(same);
        if (!same)
            fprintf(stderr, "    streamed batch of %zu%s: a proof read its input after its notice\n", nb,
                    apart ? " (L, A, B apart)" : "");
        abc_owned_free(&o);
    }
    abc_owned_init(&o, mine, gw, 1);
    cuzk_groth16_prove_opts opts = {.r = &r[0], .s = &s[0], .abc_read = abc_owned_poison, .read_ctx = &o};
    CHECK_OK(cuzk_gpu_emu_prove_with(&pg[0], p, &mine[0], &opts));
    CHECK(o.calls == 1 && o.in_order);
    CHECK(proofs_same_bytes(&pc[0], &pg[0]));
    abc_owned_free(&o);
    printf("the a, b, c and assignment notices: once per proof, in order, nothing read after them (batches of 1 to "
           "%zu, the even ones with L, A, B beside the last H, the odd ones with every witness uploaded during it, "
           "witnesses full and compact, and each with L, A, B apart; resident)\n",
           nw);
}

/* A batch of the streamed placement (several witnesses of one circuit, each chunk of the L, A
 * and B bases summed into every proof's buckets) against the CPU prover's bytes for each:
 * batches of 2 and 3, chunks of one base, of a few and larger than every section, with window
 * limits; both entry points; proofs of a batch stay apart (each its own witness, r and s). */
static void test_prove_streamed_batch(const char *name)
{
    enum { NB = 3 };
    pce_job j[NB];
    cuzk_groth16_params p;
    cuzk_fr r[NB], s[NB];
    cuzk_groth16_proof pc[NB], pg[NB];
    cpu_reference(&j[0], &p, name, 21, 22, &r[0], &s[0], &pc[0]);
    for (int k = 1; k < NB; k++) {
        pce_job_open(&j[k], name, 21 + (uint64_t)k, 0);
        cuzk_fr_random(&r[k], &rng);
        cuzk_fr_random(&s[k], &rng);
        CHECK_OK(cuzk_groth16_prove(&pc[k], &p, &j[k].gw, &r[k], &s[k], NULL));
    }
    const cuzk_groth16_witness *gw[NB];
    const cuzk_fr *in[NB], *aux[NB];
    for (int k = 0; k < NB; k++) {
        gw[k] = &j[k].gw;
        in[k] = j[k].w.input;
        aux[k] = j[k].w.aux;
    }
    const cuzk_gpu_emu_stream cases[] = {{.chunk = 1, .phi = false, .window_max = 0},
                                         {.chunk = 5, .phi = true, .window_max = 4},
                                         {.chunk = 64, .phi = false, .window_max = 0},
                                         {.chunk = 1 << 20, .phi = true, .window_max = 0}};
    for (size_t c = 0; c < 3 * (sizeof cases / sizeof cases[0]); c++)
        for (size_t nb = 2; nb <= NB; nb++) {
            cuzk_gpu_emu_stream both = cases[c / 3]; /* L, A, B after the last H, beside it, and apart */
            both.beside = c % 3 == 1;
            both.lab_concurrent = c % 3 == 2;
            both.lab_chunk = both.lab_concurrent && nb == 3 ? 2 : 0;
            both.sort_ahead = (c / 3 + c) % 2 == 0;
            /* L, A, B after the last H: none to all of the witnesses uploaded during it */
            both.witnesses_before_h = c % 3 ? 0 : (unsigned)((c / 3 + nb) % (nb + 1));
            /* full witnesses, compact ones on the device, and compact ones read from the host */
            both.compact_vals = (c + nb) % 3 == 0 ? 0 : (c + nb) % 3 == 1 ? 1u << 20 : 1;
            const cuzk_gpu_emu_stream *sm = &both;
            memset(pg, 0, sizeof pg);
            CHECK_OK(cuzk_gpu_emu_prove_streamed(pg, &p, nb, gw, r, s, sm));
            int same = 1, same_pce = 1;
            for (size_t k = 0; k < nb; k++) same &= proofs_same_bytes(&pc[k], &pg[k]);
            memset(pg, 0, sizeof pg);
            CHECK_OK(cuzk_gpu_emu_prove_pce_streamed(pg, &p, &j[0].pce, nb, in, j[0].w.num_inputs, aux, j[0].w.num_aux,
                                                     r, s, sm));
            for (size_t k = 0; k < nb; k++) same_pce &= proofs_same_bytes(&pc[k], &pg[k]);
            CHECK(same && same_pce);
            if (!same || !same_pce)
                fprintf(
                    stderr,
                    "    %s streamed batch of %zu (chunk %zu, phi %d, windows <= %u, beside %d, apart %d (chunk %zu), "
                    "sort ahead %d, witnesses before H %u, compact room %zu): a proof differs (%s)\n",
                    name, nb, sm->chunk, sm->phi, sm->window_max, sm->beside, sm->lab_concurrent, sm->lab_chunk,
                    sm->sort_ahead, sm->witnesses_before_h, sm->compact_vals,
                    !same ? "a, b, c from the host" : "by the SpMV");
        }
    printf("prove %s streamed in batches of 2 and 3, L, A, B after the last H (none to all witnesses uploaded "
           "during it), beside it and apart (on a thread of their own), witnesses full and compact: each emulated GPU "
           "proof's bytes = its CPU proof's\n",
           name);
    test_abc_read_notice(&p, &j[0].pce, gw, r, s, pc, NB);
    cuzk_groth16_params_free(&p);
    for (int k = 0; k < NB; k++) pce_job_close(&j[k]);
}

/* Scalars a setup meets: random, zero (infinity), one, r - 1, small, every byte 0xff below the
 * top, and more than one thread's run of them (the batched inversion skips infinities). */
static size_t fixed_base_scalars(cuzk_fr *s, size_t n)
{
    rand_scalars(s, n);
    s[0] = CUZK_FR_ONE;
    memset(&s[1], 0, sizeof s[1]);
    cuzk_fr_sub(&s[2], &s[1], &CUZK_FR_ONE); /* r - 1 */
    for (size_t i = 3; i < 40; i++) memset(&s[i], 0, sizeof s[i]);
    uint64_t small[4] = {255, 0, 0, 0}, high[4] = {~0ull, ~0ull, ~0ull, 0x0fffffffffffffffull};
    blst_fr_from_uint64(&s[41], small);
    blst_fr_from_uint64(&s[42], high);
    return n;
}

static void test_fixed_base(void)
{
    enum { N = 300 };
    cuzk_fr s[N];
    fixed_base_scalars(s, N);
    blst_p1 b1;
    blst_p2 b2;
    blst_p1_affine want1[N], got1[N];
    blst_p2_affine want2[N], got2[N];
    cuzk_fr k;
    cuzk_fr_random(&k, &rng);
    blst_scalar ks;
    cuzk_fr_to_scalar(&ks, &k);
    blst_p1_mult(&b1, blst_p1_generator(), ks.b, 255); /* a base other than the generator */
    blst_p2_mult(&b2, blst_p2_generator(), ks.b, 255);
    const blst_p1 *bases1[2] = {blst_p1_generator(), &b1};
    const blst_p2 *bases2[2] = {blst_p2_generator(), &b2};
    for (int b = 0; b < 2; b++) {
        CHECK_OK(cuzk_g1_fixed_base_mul(want1, bases1[b], s, N));
        memset(got1, 0xa5, sizeof got1);
        CHECK_OK(cuzk_gpu_emu_fixed_base_g1(got1, bases1[b], s, N));
        CHECK(memcmp(got1, want1, sizeof got1) == 0);
        CHECK_OK(cuzk_g2_fixed_base_mul(want2, bases2[b], s, N));
        memset(got2, 0xa5, sizeof got2);
        CHECK_OK(cuzk_gpu_emu_fixed_base_g2(got2, bases2[b], s, N));
        CHECK(memcmp(got2, want2, sizeof got2) == 0);
    }
    blst_p1_affine inf;
    memset(&inf, 0, sizeof inf);
    CHECK(memcmp(&got1[1], &inf, sizeof inf) == 0);
    blst_p1_affine g;
    blst_p1_to_affine(&g, &b1);
    CHECK(memcmp(&got1[0], &g, sizeof g) == 0);
}

int main(void)
{
    cuzk_rng_seed(&rng, 2026);
    test_fixed_base();
    /* the SpMV first: it is the newest code and the quickest to fail */
    for (size_t i = 0; i < cuzk_circuit_family_count(); i++)
        if (cuzk_circuit_example(i)) test_spmv(cuzk_circuit_example(i), 300000);
    test_spmv("porep:2KiB", 0); /* 2.7 M constraints: a few seconds */
    test_prove_pce("cubic");
    test_prove_pce("random:300");
    test_prove_pce("poseidon:11"); /* rows of up to 69 terms: the long-row path in a proof */
    test_prove_streamed("cubic");
    test_prove_streamed("random:300");
    test_prove_streamed("poseidon:11");
    test_prove_streamed_batch("random:300");
    test_prove_streamed_batch("poseidon:11");
    test_arith();
    test_ntt();
    test_msm_g1();
    test_msm_g2();
    test_prover("cubic");
    test_prover("random:300");
    test_prover_cancel("random:3000");
    return harness_finish("gpu_emu");
}
#endif
