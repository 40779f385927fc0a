/* cuzk bench gpu-prove --circuit NAME --pce FILE [--partitions K] [--batch B]: partitions of a real
 * circuit's shape proved on the GPU through its resident precompiled circuit (or, where the
 * GPU is too small for the parameters, streamed with a, b, c from the CPU). The witness
 * is made on the CPU (porep:SIZE is fed synthetic vanilla data, as in bench synth
 * --synthetic), a, b, c by the device SpMV; the parameters are synthetic, generated on the
 * device to the circuit's shape (no trapdoor is known, so the proofs are timed, not
 * verified). First single proofs straight on the prover (its stage times; streamed, B at a time:
 * one batch sharing each pass over the bases, the same witness B times), then one job of K
 * partitions through an in-process engine, the path the daemon runs: witnesses made while
 * earlier partitions are proved, each partition's device time taken from the job's timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench_stats.h"
#include "cli/bench_target.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/engine.h"
#include "cuzk/prove_path.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/gpu.h"
#include "cuzk/testcircuits.h"

/* What the single proofs measured. */
typedef struct {
    size_t n, ni, na, n_b; /* the domain's constraints + inputs, inputs, aux, B points */
    unsigned lg, batch;    /* proofs per call (first_s and best_s are a call's) */
    double first_s, best_s, witness_s, pin_s, params_s, upload_s;
    size_t dev_used, pce_bytes;
    char device[256];
    char placement[560]; /* the prover's placement and why */
} single_run;

/* What the job of K partitions through the engine measured. */
typedef struct {
    double load_s;     /* parameters and precompiled circuit made resident (before the job) */
    double job_s;      /* the job, submit to end */
    double part_med_s; /* device time per partition, median */
    double witness_med_s;
    size_t timed; /* partitions with a device time in the timeline */
} engine_run;

/* Page-locks (or, with on false, releases) the n-entry arrays a, b, c; on a failure none stays
 * locked. */
static cuzk_status pin_abc(cuzk_fr *const abc[3], size_t n, bool on)
{
    for (int k = 0; k < 3; k++) {
        if (!on) {
            cuzk_gpu_host_unregister(abc[k]);
            continue;
        }
        cuzk_status st = cuzk_gpu_host_register(abc[k], n * sizeof(cuzk_fr));
        if (st) {
            while (k-- > 0) cuzk_gpu_host_unregister(abc[k]);
            return st;
        }
    }
    return CUZK_OK;
}

/* Reps single proofs of circuit c (pce its precompiled form) straight on the prover, the
 * witness ready in page-locked memory; the best one's stage times into *keep. The prover is
 * placed by the device's free memory: resident, a, b, c made on the device from the precompiled
 * circuit; streamed (a GPU smaller than the parameters), a, b, c made on the CPU once and
 * uploaded with each proof, as the engine does there. */
static cuzk_status single_proofs(const cuzk_circuit *c, const cuzk_pce *pce, int reps, single_run *o,
                                 cuzk_timeline **keep)
{
    enum { BATCH_MOST = 64 };
    cuzk_prove_buffers b;
    memset(&b, 0, sizeof b);
    cuzk_gpu_device *dev = NULL;
    cuzk_gpu_prover *pr = NULL;
    cuzk_gpu_pce *gpce = NULL;
    bool pinned = false, abc_pinned = false, streamed = false;
    cuzk_status st = cli_gpu_open(&dev);
    if (st) return st;
    o->ni = pce->num_inputs;
    o->na = pce->num_aux;
    o->n = pce->num_constraints + o->ni;
    o->lg = cuzk_log2_ceil(o->n);
    cuzk_gpu_synthetic_shape sh = {((size_t)1 << o->lg) - 1,
                                   o->na,
                                   o->ni + pce->a_aux.popcount,
                                   pce->b_input.popcount + pce->b_aux.popcount,
                                   o->ni,
                                   5};
    o->n_b = sh.n_b;

    double t0 = cuzk_now();
    if (!st) st = cuzk_gpu_prover_create_synthetic(dev, &pr, &sh);
    o->params_s = cuzk_now() - t0;
    if (!st) {
        const cuzk_gpu_placement *pl = cuzk_gpu_prover_placement(pr);
        streamed = cuzk_gpu_placement_streams(pl);
        snprintf(o->placement, sizeof o->placement, "%s: %s", cuzk_gpu_placement_name(pl->kind), pl->why);
        if (o->batch > cuzk_gpu_prover_batch_max(pr))
            st = cuzk_fail(CUZK_EINVAL, "--batch %u: this placement proves at most %u partitions per call (%s)",
                           o->batch, cuzk_gpu_prover_batch_max(pr), o->placement);
    }
    t0 = cuzk_now();
    if (!st) st = cuzk_prove_buffers_reserve(&b, pce, streamed);
    if (!st) st = cuzk_gpu_host_register(b.w.input, b.w.input_cap * sizeof(cuzk_fr));
    if (!st && (st = cuzk_gpu_host_register(b.w.aux, b.w.aux_cap * sizeof(cuzk_fr))))
        cuzk_gpu_host_unregister(b.w.input);
    pinned = !st;
    if (!st && streamed) abc_pinned = !(st = pin_abc(b.abc, b.n, true));
    o->pin_s = cuzk_now() - t0;
    t0 = cuzk_now();
    if (!st)
        st = streamed ? cuzk_prove_buffers_fill(&b, c, 0, pce, NULL, "")
                      : cuzk_prove_buffers_fill_witness(&b, c, 0, pce, NULL, "");
    o->witness_s = cuzk_now() - t0;
    t0 = cuzk_now();
    if (!st && !streamed) st = cuzk_gpu_pce_create(dev, &gpce, pce);
    o->upload_s = cuzk_now() - t0;

    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, 3);
    cuzk_fr_from_u64(&s, 4);
    cuzk_groth16_proof pf[BATCH_MOST];
    const cuzk_groth16_witness w = cuzk_prove_buffers_witness(&b, pce);
    const cuzk_groth16_witness *ws[BATCH_MOST];
    cuzk_fr rs[BATCH_MOST], ss[BATCH_MOST];
    for (unsigned k = 0; k < BATCH_MOST; k++) {
        ws[k] = &w;
        rs[k] = r;
        ss[k] = s;
    }
    o->best_s = 1e30;
    for (int i = 0; i < reps && !st; i++) {
        cuzk_timeline *tl = cuzk_timeline_create(o->batch > 1 ? "gpu-prove (a batch of partitions, witness ready)"
                                                              : "gpu-prove (one partition, witness ready)");
        const cuzk_groth16_prove_opts opts = {.r = rs, .s = ss, .tl = tl};
        double t1 = cuzk_now();
        st = o->batch > 1 ? cuzk_gpu_prove_batch_with(pr, o->batch, pf, ws, &opts)
            : streamed    ? cuzk_gpu_prove(pr, &pf[0], &w, &r, &s, tl)
                          : cuzk_gpu_prove_pce(pr, gpce, &pf[0], b.w.input, o->ni, b.w.aux, o->na, &r, &s, tl);
        double t = cuzk_now() - t1;
        if (i == 0) o->first_s = t;
        if (!st && i > 0 && t < o->best_s) { /* the first includes one-time costs */
            o->best_s = t;
            cuzk_timeline_destroy(*keep);
            *keep = tl;
        } else {
            cuzk_timeline_destroy(tl);
        }
    }
    /* device memory in use with everything placed */
    size_t free1 = 0, total = 0;
    o->pce_bytes = gpce ? cuzk_gpu_pce_bytes(gpce) : 0;
    if (!st) st = cuzk_gpu_mem_info(dev, &free1, &total);
    o->dev_used = total - free1;
    cuzk_gpu_describe(dev, o->device, sizeof o->device);
    if (pinned) {
        cuzk_gpu_host_unregister(b.w.input);
        cuzk_gpu_host_unregister(b.w.aux);
    }
    if (abc_pinned) (void)pin_abc(b.abc, b.n, false);
    cuzk_gpu_pce_destroy(gpce);
    cuzk_gpu_prover_destroy(pr);
    cuzk_gpu_device_close(dev);
    cuzk_prove_buffers_free(&b);
    return st;
}

/* One job of `partitions` partitions of name through an in-process engine on the GPU, its
 * circuit made resident first (synthetic parameters; the precompiled circuit from pce_path). */
static cuzk_status engine_partitions(const char *name, const char *pce_path, unsigned partitions, engine_run *o)
{
    bool porep = !strncmp(name, "porep:", 6);
    bench_target t = {.kind = porep ? "porep" : "circuit",
                      .circuit = porep ? NULL : name,
                      .size = porep ? name + 6 : NULL,
                      .pce_path = pce_path,
                      .synthetic = true,
                      .gpu = true};
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    uint64_t id = 0;
    cuzk_status st = bench_target_open(&t, partitions, CUZK_PRIORITY_NORMAL);
    t.req.partitions = partitions; /* porep:SIZE as many as asked, not its proof's count */
    if (!st) st = cli_engine_create(&e, true, NULL);
    if (!st) st = bench_target_register(&t, e);
    if (!st) st = cuzk_engine_preload(e, t.reg_id, &o->load_s);
    double t0 = cuzk_now();
    if (!st) st = cuzk_engine_submit(e, &t.req, &id, NULL);
    if (!st) st = cuzk_engine_await(e, id, -1, &r);
    o->job_s = cuzk_now() - t0;
    if (!st && r.state != CUZK_JOB_COMPLETED)
        st = cuzk_fail(CUZK_EINTERNAL, "the job of %u partitions of %s ended %s: %s", partitions, name,
                       cuzk_job_state_name(r.state), r.error);
    seconds_list pt = {0}, wt = {0};
    if (!st) bench_partition_times(r.timeline_json, &pt, &wt);
    o->timed = pt.n;
    o->part_med_s = bench_median(pt.v, pt.n);
    o->witness_med_s = bench_median(wt.v, wt.n);
    seconds_free(&pt);
    seconds_free(&wt);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    bench_target_close(&t);
    return st;
}

static void print_json(const char *name, unsigned partitions, const single_run *s, const engine_run *g,
                       const cuzk_timeline *keep)
{
    printf("{\"bench\":\"gpu-prove\",\"circuit\":\"%s\",\"log2\":%u,\"n\":%zu,\"num_aux\":%zu,\"num_inputs\":%zu,"
           "\"b_points\":%zu,\"batch\":%u,\"first_s\":%.4f,\"best_s\":%.4f,\"witness_s\":%.4f,\"params_generation_s\":%"
           ".3f,"
           "\"pce_upload_s\":%.3f,\"partitions\":%u,\"pipeline_s\":%.4f,\"engine_load_s\":%.3f,"
           "\"partition_median_s\":%.4f,\"witness_median_s\":%.4f,\"device_bytes_used\":%zu,"
           "\"pce_device_bytes\":%zu,\"peak_rss_kib\":%ld,\"device\":\"%s\",\"timeline\":",
           name, s->lg, s->n, s->na, s->ni, s->n_b, s->batch, s->first_s, s->best_s, s->witness_s, s->params_s,
           s->upload_s, partitions, g->job_s, g->load_s, g->part_med_s, g->witness_med_s, s->dev_used, s->pce_bytes,
           cli_rss_kib("VmHWM:"), s->device);
    cuzk_timeline_print_json(keep, stdout);
    printf("}\n");
}

static void print_text(const char *name, const cuzk_pce *pce, unsigned partitions, const single_run *s,
                       const engine_run *g, const cuzk_timeline *setup, const cuzk_timeline *keep)
{
    printf("device: %s\n", s->device);
    printf("circuit %s: domain 2^%u, %zu constraints + %zu inputs, %zu aux, B %zu points; terms %zu/%zu/%zu\n", name,
           s->lg, pce->num_constraints, s->ni, s->na, s->n_b, pce->nnz[0], pce->nnz[1], pce->nnz[2]);
    cuzk_timeline_print(setup, stdout);
    printf("witness (CPU, %u threads) %.3f s; page-locking it %.2f s; synthetic parameters on the device %.2f s; "
           "precompiled circuit uploaded in %.2f s\n",
           cuzk_threads(), s->witness_s, s->pin_s, s->params_s, s->upload_s);
    printf("placement: %s\n", s->placement);
    if (s->batch > 1)
        printf("a batch of %u partitions per call: best %.3f s, %.3f s per partition\n", s->batch, s->best_s,
               s->best_s / s->batch);
    cuzk_timeline_print(keep, stdout);
    if (partitions)
        printf("engine: circuit resident in %.2f s; one job of %u partitions in %.3f s; per partition: device %.1f ms "
               "median (of %zu), witness %.1f ms median\n",
               g->load_s, partitions, g->job_s, g->part_med_s * 1e3, g->timed, g->witness_med_s * 1e3);
    printf("%-14s %8s %8s %11s %12s %13s %16s %16s %13s\n", "circuit", "first s", "best s", "partitions", "s/partition",
           "partition s", "device GiB used", "of it circuit", "peak RSS GiB");
    printf("%-14s %8.3f %8.3f %11u %12.3f %13.3f %16.2f %16.2f %13.2f\n", name, s->first_s, s->best_s, partitions,
           partitions ? g->job_s / partitions : 0.0, g->part_med_s, (double)s->dev_used / (1 << 30),
           (double)s->pce_bytes / (1 << 30), (double)cli_rss_kib("VmHWM:") / (1 << 20));
}

int cli_bench_gpu_prove_circuit(const char *name, const char *pce_path, unsigned partitions, unsigned batch, int reps,
                                int json)
{
    cuzk_c1 *c1 = NULL;
    cuzk_circuit *c = NULL;
    cuzk_pce pce = {0};
    cuzk_timeline *setup = cuzk_timeline_create("setup"), *keep = NULL;
    single_run s;
    engine_run g;
    memset(&s, 0, sizeof s);
    memset(&g, 0, sizeof g);
    s.batch = batch ? batch : 1;
    cuzk_status st =
        !strncmp(name, "porep:", 6) ? cuzk_porep_synthetic_open(&c, &c1, name, 1) : cuzk_circuit_open(&c, name);
    if (!st) st = cuzk_pce_load_or_record(pce_path, c, &pce, setup);
    if (!st) st = single_proofs(c, &pce, reps, &s, &keep);
    /* the prover's memory is given back first: the engine makes its own copies */
    if (!st && partitions) st = engine_partitions(name, pce_path, partitions, &g);
    if (!st && json) print_json(name, partitions, &s, &g, keep);
    else if (!st) print_text(name, &pce, partitions, &s, &g, setup, keep);
    if (st) fprintf(stderr, "cuzk bench gpu-prove: %s\n", cuzk_last_error());
    cuzk_timeline_destroy(keep);
    cuzk_timeline_destroy(setup);
    cuzk_pce_free(&pce);
    cuzk_circuit_free(c);
    cuzk_c1_free(c1);
    return st ? 1 : 0;
}
