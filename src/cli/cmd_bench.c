/* cuzk bench: CPU benchmarks (msm, ntt, prove), each printing a table or --json.
 * Times are medians over --reps runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/bench_stats.h"
#include "cli/cli.h"
#include "cli/hints.h"
#include "cli/progress_term.h"
#include "cli/witness_values.h"
#include "cuzk/testcircuits.h"
#include "cuzk/groth16.h"
#include "cuzk/pce.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"

/* ---------------------------------------------------------------- msm */

typedef struct {
    void *out; /* projective points */
    int g2;
    uint64_t seed;
} points_ctx;

/* Each chunk starts at a random multiple of the generator and walks by a fixed step: cheap
 * distinct points (the MSM cost does not depend on how the bases were made). */
static void make_points(void *vctx, size_t b, size_t e, unsigned tid)
{
    points_ctx *c = vctx;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, c->seed ^ (b * 0x9e3779b97f4a7c15ull));
    cuzk_fr k1, k2;
    cuzk_fr_random(&k1, &rng);
    cuzk_fr_random(&k2, &rng);
    blst_scalar s1, s2;
    cuzk_fr_to_scalar(&s1, &k1);
    cuzk_fr_to_scalar(&s2, &k2);
    if (c->g2) {
        blst_p2 *o = c->out, p, step;
        blst_p2_mult(&p, blst_p2_generator(), s1.b, 255);
        blst_p2_mult(&step, blst_p2_generator(), s2.b, 255);
        for (size_t i = b; i < e; i++) {
            o[i] = p;
            blst_p2_add_or_double(&p, &p, &step);
        }
    } else {
        blst_p1 *o = c->out, p, step;
        blst_p1_mult(&p, blst_p1_generator(), s1.b, 255);
        blst_p1_mult(&step, blst_p1_generator(), s2.b, 255);
        for (size_t i = b; i < e; i++) {
            o[i] = p;
            blst_p1_add_or_double(&p, &p, &step);
        }
    }
}

static int bench_msm(int argc, char **argv)
{
    const char *log_s = NULL, *threads = NULL, *reps_s = NULL;
    bool g2 = false, json = false, no_blst = false, done;
    cli_opt opts[] = {
        {"log2", "N", "number of points is 2^N, up to 26 (required)", &log_s, NULL},
        {"g2", NULL, "G2 instead of G1 (default G1)", NULL, &g2},
        {"no-blst", NULL, "skip the single-thread blst Pippenger call it is compared with (default: run it)", NULL,
         &no_blst},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"reps", "R", "repetitions; the median is reported (default 3)", &reps_s, NULL},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk bench msm --log2 N [--g2] [--threads T] [--reps R] [--json]\n\n"
                       "Times the CPU multi-scalar multiplication over 2^N random points and scalars beside blst's\n"
                       "own Pippenger (one thread).\n\n"
                       "example:\n  cuzk bench msm --log2 16",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!log_s) return cli_missing("bench msm", "log2");
    uint64_t lg, reps = 3;
    if (cli_u64("bench msm", "log2", log_s, &lg) || (reps_s && cli_u64("bench msm", "reps", reps_s, &reps)) ||
        cli_threads("bench msm", threads))
        return 2;
    if (lg > 26 || reps < 1 || reps > 100) {
        fprintf(stderr, "cuzk bench msm: --log2 must be at most 26 and --reps from 1 to 100\n");
        return 2;
    }
    size_t n = (size_t)1 << lg, psz = g2 ? sizeof(blst_p2) : sizeof(blst_p1),
           asz = g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
    unsigned T = cuzk_threads();
    void *proj = cuzk_big_alloc(n * psz), *aff = cuzk_big_alloc(n * asz);
    blst_scalar *sc = cuzk_big_alloc(n * sizeof(blst_scalar));
    if (!proj || !aff || !sc) return cli_error("bench msm");
    points_ctx pc = {proj, g2, 42};
    cuzk_parallel_for(n, 4096, make_points, &pc);
    if (g2) cuzk_g2_batch_to_affine(aff, proj, n);
    else cuzk_g1_batch_to_affine(aff, proj, n);
    cuzk_big_free(proj, n * psz);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr f;
        cuzk_fr_random(&f, &rng);
        cuzk_fr_to_scalar(&sc[i], &f);
    }
    double *ours = calloc(reps, sizeof(double)), *direct = calloc(reps, sizeof(double));
    uint8_t r1[sizeof(blst_p2)], r2[sizeof(blst_p2)];
    size_t scratch_n = g2 ? blst_p2s_mult_pippenger_scratch_sizeof(n) : blst_p1s_mult_pippenger_scratch_sizeof(n);
    void *scratch = malloc(scratch_n);
    cuzk_status st = CUZK_OK;
    for (uint64_t r = 0; r < reps && !st; r++) {
        double t0 = cuzk_now();
        st = g2 ? cuzk_g2_msm_scalars((blst_p2 *)r1, aff, sc, n) : cuzk_g1_msm_scalars((blst_p1 *)r1, aff, sc, n);
        ours[r] = cuzk_now() - t0;
        if (no_blst) continue;
        /* blst's own Pippenger, one direct call (it runs on one thread) */
        const void *pp[2] = {aff, NULL};
        const byte *ss[2] = {sc[0].b, NULL};
        t0 = cuzk_now();
        if (g2) blst_p2s_mult_pippenger((blst_p2 *)r2, (const blst_p2_affine *const *)pp, n, ss, 255, scratch);
        else blst_p1s_mult_pippenger((blst_p1 *)r2, (const blst_p1_affine *const *)pp, n, ss, 255, scratch);
        direct[r] = cuzk_now() - t0;
    }
    free(scratch);
    int same = no_blst ||
        (g2 ? blst_p2_is_equal((blst_p2 *)r1, (blst_p2 *)r2) : blst_p1_is_equal((blst_p1 *)r1, (blst_p1 *)r2));
    double t_ours = bench_median(ours, reps), t_direct = bench_median(direct, reps);
    double per_core = (double)n / t_ours / T, blst_rate = no_blst ? 0 : (double)n / t_direct;
    if (st) rc = cli_error("bench msm");
    else if (!same) {
        fprintf(stderr, "cuzk bench msm: our MSM and blst's disagree\n");
        rc = 1;
    } else if (json) {
        printf("{\"bench\":\"msm\",\"group\":\"%s\",\"log2\":%u,\"points\":%zu,\"threads\":%u,\"reps\":%u,"
               "\"cuzk_seconds\":%.6f,\"cuzk_points_per_s_per_core\":%.0f,\"blst_1thread_seconds\":%.6f,"
               "\"blst_points_per_s\":%.0f,\"ratio\":%.3f}\n",
               g2 ? "G2" : "G1", (unsigned)lg, n, T, (unsigned)reps, t_ours, per_core, no_blst ? -1.0 : t_direct,
               blst_rate, no_blst ? -1.0 : per_core / blst_rate);
    } else {
        printf("MSM %s 2^%u (%zu points), %u thread(s), median of %u\n", g2 ? "G2" : "G1", (unsigned)lg, n, T,
               (unsigned)reps);
        printf("  %-34s %10.1f ms  %10.0f points/s per core\n", "cuzk (tiled over the pool)", t_ours * 1e3, per_core);
        if (!no_blst) {
            printf("  %-34s %10.1f ms  %10.0f points/s\n", "blst_pX s_mult_pippenger, 1 call", t_direct * 1e3,
                   blst_rate);
            printf("  %-34s %10.3f  (per-core rate / blst single-call rate)\n", "ratio", per_core / blst_rate);
        }
    }
    free(ours);
    free(direct);
    cuzk_big_free(aff, n * asz);
    cuzk_big_free(sc, n * sizeof(blst_scalar));
    return rc;
}

/* ---------------------------------------------------------------- ntt */

static int bench_ntt(int argc, char **argv)
{
    const char *log_s = NULL, *threads = NULL, *reps_s = NULL;
    bool json = false, done;
    cli_opt opts[] = {
        {"log2", "N", "domain size 2^N, up to 28 (required)", &log_s, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"reps", "R", "repetitions; the median is reported (default 3)", &reps_s, NULL},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk bench ntt --log2 N [--threads T] [--reps R] [--json]\n\n"
                       "Times the CPU NTT of 2^N elements: forward, inverse and coset.\n\n"
                       "example:\n  cuzk bench ntt --log2 20",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!log_s) return cli_missing("bench ntt", "log2");
    uint64_t lg, reps = 3;
    if (cli_u64("bench ntt", "log2", log_s, &lg) || (reps_s && cli_u64("bench ntt", "reps", reps_s, &reps)) ||
        cli_threads("bench ntt", threads))
        return 2;
    if (lg > CUZK_NTT_MAX_LOG || reps < 1 || reps > 100) {
        fprintf(stderr, "cuzk bench ntt: --log2 must be at most %d and --reps from 1 to 100\n", CUZK_NTT_MAX_LOG);
        return 2;
    }
    cuzk_ntt_domain d;
    if (cuzk_ntt_domain_init(&d, (unsigned)lg)) return cli_error("bench ntt");
    cuzk_fr *a = cuzk_big_alloc(d.n * sizeof(cuzk_fr));
    if (!a) return cli_error("bench ntt");
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 1);
    for (size_t i = 0; i < d.n; i++) cuzk_fr_random(&a[i], &rng);
    double *tf = calloc(reps, sizeof(double)), *ti = calloc(reps, sizeof(double)), *tc = calloc(reps, sizeof(double));
    for (uint64_t r = 0; r < reps; r++) {
        double t0 = cuzk_now();
        cuzk_ntt_forward(&d, a);
        tf[r] = cuzk_now() - t0;
        t0 = cuzk_now();
        cuzk_ntt_inverse(&d, a);
        ti[r] = cuzk_now() - t0;
        t0 = cuzk_now();
        cuzk_ntt_coset_forward(&d, a);
        tc[r] = cuzk_now() - t0;
        cuzk_ntt_coset_inverse(&d, a);
    }
    double f = bench_median(tf, reps), inv = bench_median(ti, reps), co = bench_median(tc, reps);
    unsigned T = cuzk_threads();
    if (json)
        printf("{\"bench\":\"ntt\",\"log2\":%u,\"threads\":%u,\"reps\":%u,\"forward_seconds\":%.6f,"
               "\"inverse_seconds\":%.6f,\"coset_forward_seconds\":%.6f}\n",
               (unsigned)lg, T, (unsigned)reps, f, inv, co);
    else {
        printf("NTT 2^%u, %u thread(s), median of %u\n", (unsigned)lg, T, (unsigned)reps);
        printf("  %-20s %10.2f ms  %8.2f M elements/s\n", "forward", f * 1e3, d.n / f / 1e6);
        printf("  %-20s %10.2f ms  %8.2f M elements/s\n", "inverse", inv * 1e3, d.n / inv / 1e6);
        printf("  %-20s %10.2f ms  %8.2f M elements/s\n", "coset forward", co * 1e3, d.n / co / 1e6);
    }
    free(tf);
    free(ti);
    free(tc);
    cuzk_big_free(a, d.n * sizeof(cuzk_fr));
    cuzk_ntt_domain_free(&d);
    return 0;
}

/* ---------------------------------------------------------------- prove */

static int bench_prove(int argc, char **argv)
{
    const char *circuit = NULL, *params_path = NULL, *threads = NULL, *reps_s = NULL;
    bool json = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (required; cuzk circuit-info --list)", &circuit, NULL},
        {"params", "FILE", "its parameters (default: a fresh random setup, timed separately)", &params_path, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"reps", "R", "repetitions; the median is reported (default 3)", &reps_s, NULL},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk bench prove --circuit NAME [--params FILE] [--threads T] [--reps R] [--json]\n\n"
                       "Times synthesis and the CPU prover on a built-in circuit, each proof verified, with the\n"
                       "prover's stages.\n\n"
                       "example:\n  cuzk bench prove --circuit random:65536",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!circuit) return cli_missing("bench prove", "circuit");
    uint64_t reps = 3;
    if ((reps_s && cli_u64("bench prove", "reps", reps_s, &reps)) || cli_threads("bench prove", threads)) return 2;
    if (reps < 1 || reps > 100) return cli_missing("bench prove", "reps (1..100)");
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("bench prove");
    cuzk_groth16_params p;
    cuzk_status st;
    double t_setup = -1;
    if (params_path) {
        st = cli_check_key_kind("params", params_path, CUZK_KEY_PARAMS);
        if (!st) st = cuzk_groth16_params_read(&p, params_path, CUZK_PARAMS_UNCHECKED);
    } else {
        double t0 = cuzk_now();
        cuzk_r1cs m;
        const cuzk_progress_sink *progress = cli_progress(false, json);
        st = cuzk_circuit_record_progress(c, &m, progress);
        if (!st) {
            st = cuzk_groth16_setup_progress(&p, &m, NULL, NULL, NULL, progress);
            cuzk_r1cs_free(&m);
        }
        t_setup = cuzk_now() - t0;
    }
    if (st) {
        cuzk_circuit_free(c);
        return cli_error("bench prove");
    }
    double *ts = calloc(reps, sizeof(double)), *tp = calloc(reps, sizeof(double));
    cuzk_timeline *last = NULL;
    size_t nconstraints = 0;
    for (uint64_t r = 0; r < reps && !st; r++) {
        cuzk_timeline_destroy(last);
        last = cuzk_timeline_create("bench prove");
        double t0 = cuzk_now();
        cuzk_prove_result pr;
        st = cuzk_circuit_prove_input(c, 3 + r, &pr);
        ts[r] = cuzk_now() - t0;
        if (st) break;
        nconstraints = pr.n - pr.num_inputs;
        cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
        cuzk_groth16_proof proof;
        t0 = cuzk_now();
        st = cuzk_groth16_prove(&proof, &p, &w, NULL, NULL, last);
        tp[r] = cuzk_now() - t0;
        if (!st) st = cuzk_groth16_verify(&p.vk, &proof, pr.input + 1, pr.num_inputs - 1);
        cuzk_prove_result_free(&pr);
    }
    if (st) rc = cli_error("bench prove");
    else {
        double s = bench_median(ts, reps), pv = bench_median(tp, reps);
        unsigned T = cuzk_threads();
        if (json)
            printf("{\"bench\":\"prove\",\"circuit\":\"%s\",\"constraints\":%zu,\"threads\":%u,\"reps\":%u,"
                   "\"setup_seconds\":%.6f,\"synthesize_seconds\":%.6f,\"prove_seconds\":%.6f}\n",
                   circuit, nconstraints, T, (unsigned)reps, t_setup, s, pv);
        else {
            printf("prove %s (%zu constraints), %u thread(s), median of %u\n", circuit, nconstraints, T,
                   (unsigned)reps);
            if (t_setup >= 0) printf("  %-24s %10.1f ms (once)\n", "setup", t_setup * 1e3);
            printf("  %-24s %10.1f ms\n", "synthesize (PROVE mode)", s * 1e3);
            printf("  %-24s %10.1f ms\n", "prove", pv * 1e3);
            cuzk_timeline_print(last, stdout);
        }
    }
    cuzk_timeline_destroy(last);
    free(ts);
    free(tp);
    cuzk_groth16_params_free(&p);
    cuzk_circuit_free(c);
    return rc;
}

/* ---------------------------------------------------------------- synth */

/* The vanilla data behind a synthetic circuit, whichever family made it. */
typedef struct {
    cuzk_c1 *c1;
    cuzk_post_partition *post;
    cuzk_snap_proofs *snap;
} synthetic_data;

/* porep:SIZE, window-post:SIZE, winning-post:SIZE or snap:SIZE fed synthetic vanilla data of the
 * exact shape (timing only: nothing it proves verifies against a real sector); another seed's
 * data stands for another partition. */
static cuzk_status synthetic_open(cuzk_circuit **c, synthetic_data *d, const char *name, uint64_t seed)
{
    if (!strncmp(name, "window-post:", 12) || !strncmp(name, "winning-post:", 13))
        return cuzk_post_synthetic_open(c, &d->post, name, seed);
    if (!strncmp(name, "snap:", 5)) return cuzk_snap_synthetic_open(c, &d->snap, name, seed);
    return cuzk_porep_synthetic_open(c, &d->c1, name, seed);
}

static void synthetic_free(synthetic_data *d)
{
    cuzk_c1_free(d->c1);
    cuzk_post_partition_free(d->post);
    cuzk_snap_proofs_free(d->snap);
}

/* bench synth --values: the split of one section, in a table row and as JSON */
static void print_split_row(const char *name, const value_split *v, bool pair)
{
    const double n = v->bases ? (double)v->bases : 1.0;
    printf("  %-4s %12llu bases: %12llu zeros (%.1f %%), %12llu ones (%.1f %%), %12llu other (%.1f %%)\n", name,
           (unsigned long long)v->bases, (unsigned long long)v->zeros, 100.0 * (double)v->zeros / n,
           (unsigned long long)v->ones, 100.0 * (double)v->ones / n, (unsigned long long)v->other,
           100.0 * (double)v->other / n);
    if (pair)
        printf("  %-4s zero in both partitions: %llu (%.1f %%), %llu of them (%.2f %%) in runs of %u or more\n", "",
               (unsigned long long)v->zeros_both, 100.0 * (double)v->zeros_both / n,
               (unsigned long long)v->zeros_both_in_runs, 100.0 * (double)v->zeros_both_in_runs / n, VALUE_RUN_MIN);
}

static void print_values_table(const witness_values *wv, bool pair)
{
    printf("values of the last witness, as the L, A and B MSMs take them%s:\n",
           pair ? " (and beside a second partition's)" : "");
    print_split_row("L", &wv->l, pair);
    print_split_row("A", &wv->a, pair);
    print_split_row("B", &wv->b, pair);
}

static void print_values_json(const witness_values *wv, bool pair)
{
    const value_split *v[3] = {&wv->l, &wv->a, &wv->b};
    const char *names[3] = {"l", "a", "b"};
    printf(",\"values\":{");
    for (int k = 0; k < 3; k++) {
        printf("%s\"%s\":{\"bases\":%llu,\"zeros\":%llu,\"ones\":%llu,\"other\":%llu", k ? "," : "", names[k],
               (unsigned long long)v[k]->bases, (unsigned long long)v[k]->zeros, (unsigned long long)v[k]->ones,
               (unsigned long long)v[k]->other);
        if (pair)
            printf(",\"zeros_both\":%llu,\"zeros_both_in_runs\":%llu,\"run_min\":%u",
                   (unsigned long long)v[k]->zeros_both, (unsigned long long)v[k]->zeros_both_in_runs, VALUE_RUN_MIN);
        printf("}");
    }
    printf("}}\n");
}

/* a second partition's witness for --values-pair: the synthetic data of another seed */
static cuzk_status pair_witness(const char *circuit, cuzk_witness *w)
{
    cuzk_circuit *c = NULL;
    synthetic_data d = {0};
    cuzk_status st = synthetic_open(&c, &d, circuit, 2);
    if (!st) st = cuzk_circuit_witness(c, 4, true, w);
    cuzk_circuit_free(c);
    synthetic_free(&d);
    return st;
}

static int bench_synth(int argc, char **argv)
{
    const char *circuit = NULL, *mode = "pce", *threads = NULL, *reps_s = NULL;
    bool json = false, synthetic = false, values = false, pair = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (required; cuzk circuit-info --list)", &circuit, NULL},
        {"synthetic", NULL,
         "porep:SIZE, window-post:SIZE, winning-post:SIZE or snap:SIZE fed synthetic vanilla data of its shape (any "
         "size; timing only; default: off)",
         NULL, &synthetic},
        {"mode", "MODE", "prove (PROVE backend), witness (WITNESS only) or pce (WITNESS + PCE evaluation; the default)",
         &mode, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"reps", "R", "repetitions; the median is reported (default 3)", &reps_s, NULL},
        {"values", NULL,
         "with --mode pce: how the last witness's values split for the L, A and B MSMs (zeros, ones, the rest)", NULL,
         &values},
        {"values-pair", NULL,
         "with --values and --synthetic: also a second partition's witness (synthetic data of another seed), and "
         "the bases whose value is zero in both, those a pass over the bases for the two could leave out",
         NULL, &pair},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    int rc =
        cli_parse(argc, argv,
                  "cuzk bench synth --circuit NAME [--mode prove|witness|pce] [--synthetic] [--values [--values-pair]] "
                  "[--threads T] [--json]\n\n"
                  "Times synthesis alone: the PROVE backend, the witness only, or the witness and the evaluation\n"
                  "of the precompiled circuit (a, b, c), in constraints per second per core.\n\n"
                  "examples:\n  cuzk bench synth --circuit porep:2KiB --mode witness\n"
                  "  cuzk bench synth --circuit porep:32GiB --synthetic --mode witness --reps 1\n"
                  "  cuzk bench synth --circuit window-post:32GiB --synthetic --mode witness --reps 1\n"
                  "  cuzk bench synth --circuit porep:32GiB --synthetic --values --reps 1\n"
                  "  cuzk bench synth --circuit porep:32GiB --synthetic --values --values-pair --reps 1",
                  opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!circuit) return cli_missing("bench synth", "circuit");
    if (strcmp(mode, "prove") && strcmp(mode, "witness") && strcmp(mode, "pce")) {
        fprintf(stderr, "cuzk bench synth: --mode must be prove, witness or pce, not '%s'\n", mode);
        return 2;
    }
    if (values && strcmp(mode, "pce")) {
        fprintf(stderr, "cuzk bench synth: --values needs --mode pce (the circuit's densities), not '%s'\n", mode);
        return 2;
    }
    uint64_t reps = 3;
    if ((reps_s && cli_u64("bench synth", "reps", reps_s, &reps)) || cli_threads("bench synth", threads)) return 2;
    if (reps < 1 || reps > 100) return cli_missing("bench synth", "reps (1..100)");
    cuzk_circuit *c;
    synthetic_data data = {0};
    if (pair && !(values && synthetic)) {
        fprintf(stderr,
                "cuzk bench synth: --values-pair needs --values and --synthetic (its second partition's data)\n");
        return 2;
    }
    if (synthetic ? synthetic_open(&c, &data, circuit, 1) : cuzk_circuit_open(&c, circuit)) {
        synthetic_free(&data);
        return cli_error("bench synth");
    }
    cuzk_circuit_counts counts;
    cuzk_status st = cuzk_circuit_count(c, &counts);
    cuzk_pce pce = {0};
    double t_record = -1;
    if (!st && !strcmp(mode, "pce")) {
        double t0 = cuzk_now();
        cuzk_cs *rec;
        st = cuzk_cs_create(&rec, CUZK_CS_RECORD, false);
        if (!st) st = cuzk_circuit_synthesize_record(c, rec);
        if (!st) st = cuzk_cs_finish_record_pce(rec, &pce);
        cuzk_cs_destroy(rec);
        t_record = cuzk_now() - t0;
    }
    size_t n = counts.constraints + counts.inputs;
    cuzk_fr *abc[3] = {NULL, NULL, NULL};
    if (!st && !strcmp(mode, "pce"))
        for (int k = 0; k < 3 && !st; k++)
            if (!(abc[k] = cuzk_big_alloc(n * sizeof(cuzk_fr)))) st = CUZK_ENOMEM;
    double *t = calloc(reps, sizeof(double)), *tw = calloc(reps, sizeof(double));
    cuzk_witness w = {0}; /* its buffers are reused from one repetition to the next */
    for (uint64_t r = 0; r < reps && !st; r++) {
        double t0 = cuzk_now();
        if (!strcmp(mode, "prove")) {
            cuzk_prove_result pr;
            st = cuzk_circuit_prove_input(c, 3 + r, &pr);
            t[r] = cuzk_now() - t0;
            if (!st) cuzk_prove_result_free(&pr);
        } else {
            st = cuzk_circuit_witness(c, 3 + r, true, &w);
            tw[r] = cuzk_now() - t0;
            if (!st && abc[0]) cuzk_pce_evaluate(&pce, w.input, w.aux, abc[0], abc[1], abc[2]);
            t[r] = cuzk_now() - t0;
        }
    }
    witness_values wv;
    cuzk_witness w2 = {0};
    for (int k = 0; k < 3 && pair; k++) { /* a, b, c are timed by now: their memory goes to the second witness */
        cuzk_big_free(abc[k], n * sizeof(cuzk_fr));
        abc[k] = NULL;
    }
    if (!st && pair) st = pair_witness(circuit, &w2);
    if (!st && pair && (w2.num_aux != w.num_aux || w2.num_inputs != w.num_inputs))
        st = cuzk_fail(CUZK_EINTERNAL, "the second partition's witness has %zu inputs and %zu aux, not %zu and %zu",
                       w2.num_inputs, w2.num_aux, w.num_inputs, w.num_aux);
    if (!st && values)
        witness_values_count(&pce, w.input, w.num_inputs, w.aux, w.num_aux, pair ? w2.input : NULL,
                             pair ? w2.aux : NULL, &wv);
    if (st) rc = cli_error("bench synth");
    else {
        /* PROVE synthesis of one circuit runs on one thread; the other modes use the pool */
        unsigned T = strcmp(mode, "prove") ? cuzk_threads() : 1;
        double med = bench_median(t, reps), medw = bench_median(tw, reps);
        double rate = (double)counts.constraints / med;
        if (json)
            printf("{\"bench\":\"synth\",\"circuit\":\"%s\",\"mode\":\"%s\",\"constraints\":%zu,\"threads\":%u,"
                   "\"reps\":%u,\"seconds\":%.6f,\"witness_seconds\":%.6f,\"record_seconds\":%.6f,"
                   "\"constraints_per_s_per_core\":%.0f",
                   circuit, mode, counts.constraints, T, (unsigned)reps, med, strcmp(mode, "prove") ? medw : -1.0,
                   t_record, rate / T);
        if (json && values) print_values_json(&wv, pair);
        else if (json) printf("}\n");
        else {
            printf("synth %s (%zu constraints, %zu aux), mode %s, %u thread(s), median of %u\n", circuit,
                   counts.constraints, counts.aux, mode, T, (unsigned)reps);
            if (t_record >= 0) printf("  %-28s %10.1f ms (once)\n", "record + compress", t_record * 1e3);
            if (strcmp(mode, "prove")) printf("  %-28s %10.1f ms\n", "witness", medw * 1e3);
            printf("  %-28s %10.1f ms  %.2f M constraints/s, %.2f M/s per core\n", "total", med * 1e3, rate / 1e6,
                   rate / 1e6 / T);
            if (values) print_values_table(&wv, pair);
        }
    }
    free(t);
    free(tw);
    cuzk_witness_free(&w);
    cuzk_witness_free(&w2);
    for (int k = 0; k < 3; k++) cuzk_big_free(abc[k], n * sizeof(cuzk_fr));
    cuzk_pce_free(&pce);
    cuzk_circuit_free(c);
    synthetic_free(&data);
    return rc;
}

const cli_kind CLI_BENCH_KINDS[] = {
    {"msm", "CPU MSM (G1 or G2) beside blst's own Pippenger"},
    {"ntt", "CPU NTT: forward, inverse, coset"},
    {"prove", "synthesize and prove a built-in circuit on the CPU"},
    {"synth", "synthesis alone: PROVE, WITNESS, or WITNESS + precompiled-circuit evaluation"},
    {"engine", "jobs through the proving engine: latency, throughput, device idle time"},
    {"cancel", "running jobs cancelled through the engine: time from the cancel to the job's end"},
    {"e2e", "C1 files in, verified proofs out: load time, each sector's time and timeline"},
    {"params", "read and decode a .params file as the engine loads it: its rate beside the disk's"},
    {"throughput", "Prove calls against a running daemon (--addr): latency and throughput"},
    {"gpu-msm", "GPU MSM over synthetic resident bases (CUDA builds)"},
    {"gpu-ntt", "GPU NTTs in device memory (CUDA builds)"},
    {"gpu-prove", "one GPU partition proof of a 2^N domain, or of a circuit through the pipeline (CUDA builds)"},
    {"gpu-field", "GPU field multiplication throughput of each form (CUDA builds)"},
    {"gpu-place", "the placement each circuit's parameters get on this GPU or a card of a given memory"},
    {"gpu-hold", "hold all but N GiB of this GPU's memory, standing in for a smaller card (CUDA builds)"},
};
const size_t CLI_BENCH_NKINDS = sizeof CLI_BENCH_KINDS / sizeof CLI_BENCH_KINDS[0];

int cli_bench(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out,
                "usage: cuzk bench KIND [options]   (cuzk bench KIND --help for its options)\n\n"
                "Benchmarks, each printing a table (or --json). The kinds:\n");
        for (size_t i = 0; i < CLI_BENCH_NKINDS; i++)
            fprintf(out, "  %-12s %s\n", CLI_BENCH_KINDS[i].name, CLI_BENCH_KINDS[i].summary);
        fprintf(out, "\nexamples:\n  cuzk bench msm --log2 16\n  cuzk bench prove --circuit random:65536\n");
        return argc < 2 ? 2 : 0;
    }
    const char *what = argv[1];
    char name[64];
    if (!strcmp(what, "msm")) return bench_msm(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "ntt")) return bench_ntt(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "prove")) return bench_prove(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "synth")) return bench_synth(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "engine")) return cli_bench_engine(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "cancel")) return cli_bench_cancel(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "e2e")) return cli_bench_e2e(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "params")) return cli_bench_params(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "throughput")) return cli_bench_throughput(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "gpu-place")) return cli_bench_gpu_place(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strcmp(what, "gpu-hold")) return cli_bench_gpu_hold(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (!strncmp(what, "gpu-", 4)) return cli_bench_gpu(what, argc - 1, cli_subcommand(argv, name, sizeof name));
    fprintf(stderr, "cuzk bench: unknown benchmark '%s' (", what);
    for (size_t i = 0; i < CLI_BENCH_NKINDS; i++) fprintf(stderr, "%s%s", i ? ", " : "", CLI_BENCH_KINDS[i].name);
    fprintf(stderr, "; cuzk bench --help)\n");
    return 2;
}
