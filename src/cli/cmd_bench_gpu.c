/* cuzk bench gpu-msm | gpu-ntt | gpu-prove | gpu-field: GPU benchmarks on synthetic data,
 * printing a table (or --json). Bases and parameters are generated on the device; scalars
 * and witnesses live in pinned host memory and are uploaded on every call, as a prover
 * would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/bench_stats.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/gpu.h"
#include "field_bench.h"

typedef struct {
    unsigned log2, partitions, batch;
    int g2, json, reps;
    double ones;
    const char *circuit, *pce;
    cuzk_gpu_device *dev;
} bench_opts;

#if CUZK_BUILT_WITH_CUDA
#define CUDA_NOTE "It runs on the GPU (the [cuzk] gpu_device key says which).\n"
#else
#define CUDA_NOTE "It needs a CUDA build: this one was built without nvcc, so it only says so (exit status 1).\n"
#endif

/* Each kind's usage text (args.h): synopsis, what it does, examples. */
static const char *usage_of(const char *what)
{
    if (!strcmp(what, "gpu-msm"))
        return "cuzk bench gpu-msm [--log2 N] [--g2] [--ones-fraction F] [--reps R] [--json]\n\n"
               "Times the GPU MSM over 2^N synthetic bases resident on the device, the scalars uploaded from\n"
               "pinned host memory on every call as a prover does.\n" CUDA_NOTE "\n"
               "examples:\n  cuzk bench gpu-msm --log2 24\n  cuzk bench gpu-msm --log2 20 --g2";
    if (!strcmp(what, "gpu-ntt"))
        return "cuzk bench gpu-ntt [--log2 N] [--reps R] [--json]\n\n"
               "Times GPU NTTs of 2^N elements in device memory: forward, inverse, coset.\n" CUDA_NOTE "\n"
               "example:\n  cuzk bench gpu-ntt --log2 27";
    if (!strcmp(what, "gpu-prove"))
        return "cuzk bench gpu-prove [--log2 N] [--reps R] [--json]\n"
               "       cuzk bench gpu-prove --circuit NAME --pce FILE [--partitions K] [--batch B] [--reps R] "
               "[--json]\n\n"
               "Times one GPU partition proof of a 2^N domain with a PoRep-like witness on synthetic\n"
               "parameters; with --circuit, a real circuit's partition (porep:SIZE: synthetic vanilla data),\n"
               "a, b, c made on the device from its precompiled circuit (recorded into FILE once), then one\n"
               "job of K partitions through an in-process engine, as the daemon proves them (the single\n"
               "proof 2 or 3 times). With the parameters streamed (a GPU smaller than them, or [gpu] placement =\n"
               "streamed), --batch B proves B partitions per call, one pass over the L, A, B bases for all.\n" CUDA_NOTE
               "\n"
               "examples:\n  cuzk bench gpu-prove --log2 20\n"
               "  cuzk bench gpu-prove --circuit porep:32GiB --pce porep-32GiB.pce --partitions 10";
    return "cuzk bench gpu-field [--json]\n\n"
           "Measures the GPU's field multiplication throughput in each form, and its multiplier pipes.\n" CUDA_NOTE
           "\nexample:\n  cuzk bench gpu-field";
}

static int parse(bench_opts *o, int argc, char **argv, const char *what)
{
    memset(o, 0, sizeof *o);
    o->log2 = 20;
    o->reps = 5;
    const char *log_s = NULL, *reps_s = NULL, *ones_s = NULL, *parts_s = NULL, *batch_s = NULL;
    bool g2 = false, json = false, done;
    cli_opt all[] = {
        {"log2", "N", "2^N points or elements, up to 28 (default 20)", &log_s, NULL},
        {"g2", NULL, "G2 instead of G1 (default G1)", NULL, &g2},
        {"ones-fraction", "F", "the fraction of scalars that are 1, from 0 to 1 (default 0)", &ones_s, NULL},
        {"circuit", "NAME", "a built-in circuit's partition instead of a 2^N domain (with --pce)", &o->circuit, NULL},
        {"pce", "FILE", "with --circuit: its precompiled circuit (recorded there on first use)", &o->pce, NULL},
        {"partitions", "K",
         "with --circuit: a job of K partitions through the engine after the single proofs (default 0)", &parts_s,
         NULL},
        {"batch", "B",
         "with --circuit, parameters streamed: B partitions per call, sharing each pass over the bases (default 1)",
         &batch_s, NULL},
        {"reps", "R", "repetitions; the median is reported (default 5)", &reps_s, NULL},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    /* each kind takes its own options of the table */
    static const char *const takes[][8] = {
        {"gpu-msm", "log2", "g2", "ones-fraction", "reps", "json"},
        {"gpu-ntt", "log2", "reps", "json"},
        {"gpu-prove", "log2", "circuit", "pce", "partitions", "batch", "reps", "json"},
        {"gpu-field", "json"},
    };
    int k = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(what, takes[i][0])) k = i;
    if (k < 0) {
        fprintf(stderr,
                "cuzk bench: unknown benchmark '%s' (gpu-msm, gpu-ntt, gpu-prove, gpu-field; cuzk bench --help)\n",
                what);
        return 2;
    }
    cli_opt opts[8];
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        for (int j = 1; j < 8 && takes[k][j]; j++)
            if (!strcmp(all[i].name, takes[k][j])) opts[n++] = all[i];
    const char *usage = usage_of(what);
    int rc = cli_parse(argc, argv, usage, opts, n, &done);
    if (rc || done) return done ? -1 : rc;
    char me[64];
    snprintf(me, sizeof me, "bench %s", what);
    uint64_t v;
    if (log_s) {
        if (cli_u64(me, "log2", log_s, &v)) return 2;
        if (v > 28) {
            fprintf(stderr, "cuzk %s: --log2 must be at most 28, not %s\n", me, log_s);
            return 2;
        }
        o->log2 = (unsigned)v;
    }
    if (reps_s) {
        if (cli_u64(me, "reps", reps_s, &v)) return 2;
        if (v < 1 || v > 1000) {
            fprintf(stderr, "cuzk %s: --reps must be from 1 to 1000, not %s\n", me, reps_s);
            return 2;
        }
        o->reps = (int)v;
    }
    o->batch = 1;
    if (batch_s) {
        if (cli_u64(me, "batch", batch_s, &v)) return 2;
        if (v < 1 || v > 64 || !o->circuit) {
            fprintf(stderr, "cuzk %s: --batch must be from 1 to 64, with --circuit, not %s\n", me, batch_s);
            return 2;
        }
        o->batch = (unsigned)v;
    }
    if (parts_s) {
        if (cli_u64(me, "partitions", parts_s, &v)) return 2;
        if (v > 1000) {
            fprintf(stderr, "cuzk %s: --partitions must be at most 1000, not %s\n", me, parts_s);
            return 2;
        }
        o->partitions = (unsigned)v;
    }
    if (ones_s) {
        char *end;
        o->ones = strtod(ones_s, &end);
        if (*end || end == ones_s || !(o->ones >= 0 && o->ones <= 1)) {
            fprintf(stderr, "cuzk %s: --ones-fraction must be a number from 0 to 1, not '%s'\n", me, ones_s);
            return 2;
        }
    }
    if (!o->circuit != !o->pce) {
        const char *end = strstr(usage, "\n\n");
        fprintf(stderr, "cuzk %s: --circuit and --pce go together\nusage: %.*s\n", me, (int)(end - usage), usage);
        return 2;
    }
    o->g2 = g2;
    o->json = json;
    return 0;
}

/* uniform values below 2^254 < r: valid Fr elements (in any representation) */
typedef struct {
    cuzk_fr *s;
    uint64_t seed;
    double ones, zeros;
} fill_ctx;

static void fill_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    fill_ctx *c = vctx;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, c->seed ^ (b * 0x9e3779b97f4a7c15ull));
    const uint64_t one_t = (uint64_t)(c->ones * 18446744073709551615.0);
    const uint64_t zero_t = (uint64_t)(c->zeros * 18446744073709551615.0);
    for (size_t i = b; i < e; i++) {
        uint64_t r = cuzk_rng_next(&rng);
        if (c->zeros > 0 && r < zero_t) {
            c->s[i] = CUZK_FR_ZERO;
            continue;
        }
        if (c->ones > 0 && r - zero_t < one_t && r >= zero_t) {
            c->s[i] = CUZK_FR_ONE;
            continue;
        }
        uint64_t *l = (uint64_t *)&c->s[i];
        l[0] = cuzk_rng_next(&rng);
        l[1] = cuzk_rng_next(&rng);
        l[2] = cuzk_rng_next(&rng);
        l[3] = cuzk_rng_next(&rng) >> 2;
    }
}

static void fill(cuzk_fr *s, size_t n, uint64_t seed, double zeros, double ones)
{
    fill_ctx c = {s, seed, ones, zeros};
    cuzk_parallel_for(n, 1 << 16, fill_range, &c);
}

long cli_rss_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl)) v = atol(line + kl);
    fclose(f);
    return v;
}

/* ---------------------------------------------------------------- gpu-msm */
static int bench_msm(const bench_opts *o)
{
    size_t n = (size_t)1 << o->log2;
    double t0 = cuzk_now();
    cuzk_gpu_msm *m;
    if (cuzk_gpu_msm_create_synthetic(o->dev, &m, n, o->g2, 1)) {
        fprintf(stderr, "cuzk bench gpu-msm: %s\n", cuzk_last_error());
        return 1;
    }
    double gen = cuzk_now() - t0;
    cuzk_fr *s;
    if (cuzk_gpu_host_alloc((void **)&s, n * sizeof *s)) {
        fprintf(stderr, "cuzk bench gpu-msm: %s\n", cuzk_last_error());
        cuzk_gpu_msm_destroy(m);
        return 1;
    }
    fill(s, n, 7, 0, o->ones);
    double *t = calloc((size_t)o->reps + 1, sizeof *t);
    blst_p1 r1;
    blst_p2 r2;
    cuzk_gpu_msm_stats st;
    int rc = 0;
    for (int i = 0; i <= o->reps && !rc; i++) { /* run 0 warms up */
        cuzk_status e = o->g2 ? cuzk_gpu_msm_g2(m, &r2, s, n, 0) : cuzk_gpu_msm_g1(m, &r1, s, n, 0);
        if (e) {
            fprintf(stderr, "cuzk bench gpu-msm: %s\n", cuzk_last_error());
            rc = 1;
        }
        cuzk_gpu_msm_last_stats(m, &st);
        if (i) t[i - 1] = st.seconds;
    }
    if (!rc) {
        double med = bench_median(t, (size_t)o->reps), best = t[0];
        char dev[256];
        cuzk_gpu_describe(o->dev, dev, sizeof dev);
        if (o->json)
            printf("{\"bench\":\"gpu-msm\",\"group\":\"%s\",\"log2\":%u,\"n\":%zu,\"ones_fraction\":%.3f,"
                   "\"median_s\":%.6f,\"best_s\":%.6f,\"ns_per_point\":%.3f,\"tail\":%zu,\"window_bits\":%u,"
                   "\"windows\":%u,\"bases_generation_s\":%.3f,\"device\":\"%s\"}\n",
                   o->g2 ? "G2" : "G1", o->log2, n, o->ones, med, best, med * 1e9 / (double)n, st.tail, st.window_bits,
                   st.windows, gen, dev);
        else {
            printf("device: %s\n", dev);
            printf("%-6s %-6s %10s %8s %12s %12s %10s %6s\n", "group", "log2", "n", "ones", "median ms", "best ms",
                   "ns/point", "c");
            printf("%-6s %-6u %10zu %8.3f %12.3f %12.3f %10.3f %6u\n", o->g2 ? "G2" : "G1", o->log2, n, o->ones,
                   med * 1e3, best * 1e3, med * 1e9 / (double)n, st.window_bits);
            printf("(scalars uploaded from pinned host memory on every call; %zu went through Pippenger; "
                   "bases generated on the device in %.3f s; median of %d)\n",
                   st.tail, gen, o->reps);
        }
    }
    free(t);
    cuzk_gpu_host_free(s);
    cuzk_gpu_msm_destroy(m);
    return rc;
}

/* ---------------------------------------------------------------- gpu-ntt */
static int bench_ntt(const bench_opts *o)
{
    size_t n = (size_t)1 << o->log2;
    cuzk_fr *h, *d;
    if (cuzk_gpu_host_alloc((void **)&h, n * sizeof *h) || cuzk_gpu_malloc(o->dev, (void **)&d, n * sizeof *d)) {
        fprintf(stderr, "cuzk bench gpu-ntt: %s\n", cuzk_last_error());
        return 1;
    }
    fill(h, n, 3, 0, 0);
    if (cuzk_gpu_upload(d, h, n * sizeof *h)) {
        fprintf(stderr, "cuzk bench gpu-ntt: %s\n", cuzk_last_error());
        return 1;
    }
    static const char *names[4] = {"forward", "inverse", "coset forward", "coset inverse"};
    double med[4];
    double *t = calloc((size_t)o->reps + 1, sizeof *t);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i <= o->reps; i++) {
            double t0 = cuzk_now();
            if (cuzk_gpu_ntt(o->dev, d, o->log2, 1, (cuzk_gpu_ntt_kind)k, true)) {
                fprintf(stderr, "cuzk bench gpu-ntt: %s\n", cuzk_last_error());
                return 1;
            }
            if (i) t[i - 1] = cuzk_now() - t0;
        }
        med[k] = bench_median(t, (size_t)o->reps);
    }
    free(t);
    char dev[256];
    cuzk_gpu_describe(o->dev, dev, sizeof dev);
    if (o->json)
        printf("{\"bench\":\"gpu-ntt\",\"log2\":%u,\"forward_s\":%.6f,\"inverse_s\":%.6f,\"coset_forward_s\":%.6f,"
               "\"coset_inverse_s\":%.6f,\"device\":\"%s\"}\n",
               o->log2, med[0], med[1], med[2], med[3], dev);
    else {
        printf("device: %s\n", dev);
        printf("%-6s %-16s %12s\n", "log2", "kind", "median ms");
        for (int k = 0; k < 4; k++) printf("%-6u %-16s %12.3f\n", o->log2, names[k], med[k] * 1e3);
        printf("(data in device memory, natural order in and out, median of %d)\n", o->reps);
    }
    cuzk_gpu_free(d);
    cuzk_gpu_host_free(h);
    return 0;
}

/* ---------------------------------------------------------------- gpu-prove */
static void density_random(cuzk_density *d, size_t bits, double frac, uint64_t seed)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    size_t nw = (bits + 63) / 64;
    d->words = calloc(nw + 1, 8);
    d->bits = bits;
    d->popcount = 0;
    uint64_t thr = (uint64_t)(frac * 18446744073709551615.0);
    for (size_t i = 0; i < bits; i++)
        if (cuzk_rng_next(&rng) <= thr) {
            d->words[i / 64] |= (uint64_t)1 << (i % 64);
            d->popcount++;
        }
}

static int bench_prove(const bench_opts *o)
{
    /* the PoRep 32 GiB partition shape, scaled to 2^log2: n/N = 0.9707, 328 inputs, A density
     * 99.7 %, B density 25.4 % of aux and only ONE among the inputs */
    size_t N = (size_t)1 << o->log2;
    size_t ni = o->log2 >= 20 ? 328 : 4;
    size_t n = (size_t)((double)N * 0.9707);
    if (n <= ni) n = ni + 1;
    size_t na = n - ni;
    cuzk_density a_aux, b_in, b_aux;
    density_random(&a_aux, na, 0.997, 11);
    density_random(&b_aux, na, 0.254, 12);
    density_random(&b_in, ni, 0.0, 13);
    b_in.words[0] |= 1;
    b_in.popcount = 1;
    cuzk_gpu_synthetic_shape sh = {N - 1, na, ni + a_aux.popcount, b_in.popcount + b_aux.popcount, ni, 5};
    char dev[256];
    cuzk_gpu_describe(o->dev, dev, sizeof dev);
    size_t free0 = 0, total = 0;
    if (cuzk_gpu_mem_info(o->dev, &free0, &total)) {
        fprintf(stderr, "cuzk bench gpu-prove: %s\n", cuzk_last_error());
        return 1;
    }
    double t0 = cuzk_now();
    cuzk_gpu_prover *pr;
    if (cuzk_gpu_prover_create_synthetic(o->dev, &pr, &sh)) {
        fprintf(stderr, "cuzk bench gpu-prove: %s\n", cuzk_last_error());
        return 1;
    }
    double gen = cuzk_now() - t0;
    /* witness in pinned memory */
    cuzk_fr *a, *b, *c, *aux, *in;
    size_t pinned = (3 * n + na + ni) * sizeof(cuzk_fr);
    if (cuzk_gpu_host_alloc((void **)&a, n * 32) || cuzk_gpu_host_alloc((void **)&b, n * 32) ||
        cuzk_gpu_host_alloc((void **)&c, n * 32) || cuzk_gpu_host_alloc((void **)&aux, na * 32) ||
        cuzk_gpu_host_alloc((void **)&in, ni * 32)) {
        fprintf(stderr, "cuzk bench gpu-prove: %s\n", cuzk_last_error());
        return 1;
    }
    t0 = cuzk_now();
    fill(a, n, 21, 0, 0);
    fill(b, n, 22, 0, 0);
    fill(c, n, 23, 0, 0);
    fill(aux, na, 24, 0.40, 0.35); /* ~75 % of the aux values are 0 or 1 */
    fill(in, ni, 25, 0, 0);
    in[0] = CUZK_FR_ONE;
    double wgen = cuzk_now() - t0;
    cuzk_groth16_witness w = {a, b, c, n, in, ni, aux, na, &a_aux, &b_in, &b_aux};
    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, 3);
    cuzk_fr_from_u64(&s, 4);
    cuzk_groth16_proof pf;
    int reps = o->reps < 2 ? 2 : o->reps > 3 ? 3 : o->reps;
    double best = 1e30, times[3] = {0, 0, 0};
    cuzk_timeline *keep = NULL;
    for (int i = 0; i < reps; i++) {
        cuzk_timeline *tl = cuzk_timeline_create("gpu-prove");
        double t1 = cuzk_now();
        if (cuzk_gpu_prove(pr, &pf, &w, &r, &s, tl)) {
            fprintf(stderr, "cuzk bench gpu-prove: %s\n", cuzk_last_error());
            return 1;
        }
        times[i] = cuzk_now() - t1;
        if (i > 0 && times[i] < best) {
            best = times[i];
            cuzk_timeline_destroy(keep);
            keep = tl;
        } else cuzk_timeline_destroy(tl);
    }
    size_t dev_bytes = 0, pin2 = 0, free1 = 0;
    cuzk_gpu_prover_memory(pr, &dev_bytes, &pin2);
    if (cuzk_gpu_mem_info(o->dev, &free1, &total)) free1 = 0;
    long hwm = cli_rss_kib("VmHWM:");
    if (o->json) {
        printf("{\"bench\":\"gpu-prove\",\"log2\":%u,\"n\":%zu,\"num_aux\":%zu,\"num_inputs\":%zu,\"b_points\":%zu,"
               "\"first_s\":%.4f,\"best_s\":%.4f,\"params_generation_s\":%.3f,\"device_bytes_used\":%zu,"
               "\"pinned_host_bytes\":%zu,\"peak_rss_kib\":%ld,\"device\":\"%s\",\"timeline\":",
               o->log2, n, na, ni, sh.n_b, times[0], best, gen, total - free1, pinned, hwm, dev);
        cuzk_timeline_print_json(keep, stdout);
        printf("}\n");
    } else {
        printf("device: %s\n", dev);
        printf("shape: domain 2^%u, n = %zu constraints, %zu aux, %zu inputs, A %zu, B %zu points\n", o->log2, n, na,
               ni, sh.n_a, sh.n_b);
        printf("synthetic parameters generated on the device in %.2f s; witness (pinned) in %.2f s\n", gen, wgen);
        cuzk_timeline_print(keep, stdout);
        printf("%-10s %12s %12s %16s %16s %14s\n", "log2", "first s", "best s", "device GiB used", "pinned host GiB",
               "peak RSS GiB");
        printf("%-10u %12.3f %12.3f %16.2f %16.2f %14.2f\n", o->log2, times[0], best,
               (double)(total - free1) / (1 << 30), (double)pinned / (1 << 30), (double)hwm / (1 << 20));
    }
    cuzk_timeline_destroy(keep);
    cuzk_gpu_host_free(a);
    cuzk_gpu_host_free(b);
    cuzk_gpu_host_free(c);
    cuzk_gpu_host_free(aux);
    cuzk_gpu_host_free(in);
    cuzk_gpu_prover_destroy(pr);
    cuzk_density_free(&a_aux);
    cuzk_density_free(&b_aux);
    cuzk_density_free(&b_in);
    (void)free0;
    return 0;
}

static int bench_field(const bench_opts *o)
{
    static const char *const pipe_names[CUZK_GPU_PIPE_FORMS] = {"32-bit IMAD", "FP64 DFMA", "IMAD and DFMA together"};
    double v[CUZK_GPU_FIELD_FORMS], pv[CUZK_GPU_PIPE_FORMS];
    if (cuzk_gpu_field_bench(v) || cuzk_gpu_pipe_bench(pv)) {
        fprintf(stderr, "cuzk bench gpu-field: %s\n", cuzk_last_error());
        return 1;
    }
    if (o->json) {
        printf("{\"bench\":\"gpu-field\",\"forms\":[");
        for (int i = 0; i < CUZK_GPU_FIELD_FORMS; i++)
            printf("%s{\"form\":\"%s\",\"mul_per_s\":%.4g}", i ? "," : "", cuzk_gpu_field_bench_name(i), v[i]);
        printf("],\"pipes\":[");
        for (int i = 0; i < CUZK_GPU_PIPE_FORMS; i++)
            printf("%s{\"pipe\":\"%s\",\"ops_per_s\":%.4g}", i ? "," : "", pipe_names[i], pv[i]);
        printf("]}\n");
    } else {
        printf("%-44s %10s\n", "Montgomery multiplication", "Gmul/s");
        for (int i = 0; i < CUZK_GPU_FIELD_FORMS; i++)
            printf("%-44s %10.2f\n", cuzk_gpu_field_bench_name(i), v[i] / 1e9);
        printf("%-44s %10s\n", "Multiplier pipes (independent chains)", "Gop/s");
        for (int i = 0; i < CUZK_GPU_PIPE_FORMS; i++) printf("%-44s %10.1f\n", pipe_names[i], pv[i] / 1e9);
    }
    return 0;
}

int cli_bench_gpu(const char *what, int argc, char **argv)
{
    bench_opts o;
    int rc = parse(&o, argc, argv, what);
    if (rc) return rc < 0 ? 0 : rc; /* -1: --help was printed */
    char why[256];
    if (!cuzk_gpu_available(why, sizeof why)) {
        fprintf(stderr, "cuzk bench %s: %s (this benchmark needs a CUDA build and a GPU)\n", what, why);
        return 1;
    }
    if (!strcmp(what, "gpu-prove") && o.circuit)
        return cli_bench_gpu_prove_circuit(o.circuit, o.pce, o.partitions, o.batch,
                                           o.reps < 2       ? 2
                                               : o.reps > 3 ? 3
                                                            : o.reps,
                                           o.json);
    if (cli_gpu_open(&o.dev)) {
        fprintf(stderr, "cuzk bench %s: %s\n", what, cuzk_last_error());
        return 1;
    }
    rc = -1;
    if (!strcmp(what, "gpu-msm")) rc = bench_msm(&o);
    else if (!strcmp(what, "gpu-ntt")) rc = bench_ntt(&o);
    else if (!strcmp(what, "gpu-prove")) rc = bench_prove(&o);
    else if (!strcmp(what, "gpu-field")) rc = bench_field(&o);
    cuzk_gpu_device_close(o.dev);
    return rc >= 0 ? rc : 2;
}
