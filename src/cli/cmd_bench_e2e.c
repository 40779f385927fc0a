/* cuzk bench e2e: what a storage provider asks of a prover. C1 outputs in, verified proofs out:
 * the parameters and the precompiled circuit loaded once, by the first sector (whose timeline
 * shows where the load went: reading and decoding the parameters, recording or loading the
 * precompiled circuit, the uploads), then K sectors proved through the engine one after another
 * (or C at a time), each with its total time and timeline and every proof verified by the
 * engine before it completes; host RSS and device memory peaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/bench_stats.h"
#include "cli/cli.h"
#include "cli/hints.h"
#include "cli/outputs.h"
#include "cli/settings.h"
#include "cli/trace_out.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/groth16.h"

#define MAX_C1 64

typedef struct {
    uint64_t id;
    double submit_t, end_t;
    cuzk_job_result r;
} e2e_job;

/* device memory in use on every GPU, summed (the driver's figures) */
static uint64_t device_used(cuzk_engine *e)
{
    cuzk_engine_status *s = calloc(1, sizeof *s);
    if (!s) return 0;
    cuzk_engine_get_status(e, s);
    uint64_t used = 0;
    for (unsigned d = 0; d < s->ndevices; d++) /* once per GPU, not per context */
        if (!s->devices[d].context) used += s->devices[d].mem_total - s->devices[d].mem_free;
    free(s);
    return used;
}

/* Splits "A,B,C" into at most MAX_C1 paths (in place). */
static int split_paths(char *list, char **out)
{
    int n = 0;
    for (char *p = strtok(list, ","); p; p = strtok(NULL, ",")) {
        if (n == MAX_C1) return -1;
        out[n++] = p;
    }
    return n;
}

int cli_bench_e2e(int argc, char **argv)
{
    const char *c1_s = NULL, *params = NULL, *vk = NULL, *pce = NULL, *sectors_s = NULL, *conc_s = NULL,
               *threads = NULL, *proof_path = NULL, *inputs_path = NULL, *trace = NULL;
    bool use_gpu = false, brief = false, done;
    cli_opt opts[] = {
        {"c1", "FILE[,FILE...]", "C1 outputs (JSON or the base64 wrapper), proved in turn; one proof type (required)",
         &c1_s, NULL},
        {"params", "FILE", "Groth16 parameters of that proof type (required; official .params or cuzk setup's)",
         &params, NULL},
        {"vk", "FILE", "the verifying key the engine checks every proof with (default: the parameters' own)", &vk,
         NULL},
        {"pce", "FILE", "keep the precompiled circuit there (recorded on first use; default: in memory)", &pce, NULL},
        {"sectors", "K", "sectors to prove (default 3)", &sectors_s, NULL},
        {"concurrency", "C", "sectors in flight at once (default 1: each sector's time is its own)", &conc_s, NULL},
        {"gpu", NULL, "prove on the GPUs of a CUDA build (default: the CPU)", NULL, &use_gpu},
        {"proof", "FILE", "write the last sector's proofs there (192 bytes per partition; default: not written)",
         &proof_path, NULL},
        {"inputs", "FILE", "write the last sector's public inputs there (JSON; default: not written)", &inputs_path,
         NULL},
        {"brief", NULL, "print the stages of each sector after the first, not its whole timeline (default: whole)",
         NULL, &brief},
        {"trace", "FILE",
         "write every sector's timeline there as one trace (Chrome trace event format: Perfetto, "
         "chrome://tracing; default: none)",
         &trace, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk bench e2e --c1 FILE[,FILE...] --params FILE [--vk FILE] [--gpu] [--sectors K] "
                       "[--concurrency C]\n\n"
                       "End to end PoRep C2: loads the parameters once, then proves --sectors sectors from the C1\n"
                       "files (in turn), every proof verified, and prints the load time and each sector's time and\n"
                       "timeline.\n\n"
                       "examples:\n"
                       "  cuzk bench e2e --c1 s/c1.json --params porep-2KiB.params --vk porep-2KiB.vk --sectors 2\n"
                       "  cuzk bench e2e --c1 s32/c1.json --params porep-32GiB.params --vk porep-32GiB.vk --gpu",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    const char *me = "bench e2e";
    if (!c1_s) return cli_missing(me, "c1");
    if (!params) return cli_missing(me, "params");
    uint64_t nsec = 3, conc = 1;
    if ((sectors_s && cli_u64(me, "sectors", sectors_s, &nsec)) ||
        (conc_s && cli_u64(me, "concurrency", conc_s, &conc)) || cli_threads(me, threads))
        return 2;
    if (!nsec || nsec > 10000 || !conc || conc > 64) {
        fprintf(stderr, "cuzk bench e2e: --sectors 1..10000, --concurrency 1..64\n");
        return 2;
    }
    char *list = strdup(c1_s), *paths[MAX_C1];
    int npaths = list ? split_paths(list, paths) : -1;
    if (npaths <= 0) {
        fprintf(stderr, "cuzk bench e2e: --c1 takes 1 to %d comma-separated files\n", MAX_C1);
        free(list);
        return 2;
    }

    /* the C1 files: mapped, parsed once for their proof type (the engine checks them again) */
    cuzk_mapped_file files[MAX_C1] = {{0}};
    char circuit[64] = "";
    uint64_t proof_type = 0;
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < npaths && !st; i++) {
        cuzk_c1 *c1 = NULL;
        st = cuzk_map_file(&files[i], paths[i]);
        if (!st) st = cli_c1_hint(cuzk_c1_parse_any(&c1, files[i].data, files[i].size, NULL, NULL), paths[i]);
        if (!st && !i) st = cli_check_porep_params(params, c1);
        if (!st && !i) st = cli_check_key_kind("vk", vk, CUZK_KEY_VK);
        if (!st && i && (uint64_t)c1->proof != proof_type)
            st = cuzk_fail(CUZK_EINVAL, "%s is of another proof type than %s: one engine circuit per run", paths[i],
                           paths[0]);
        if (!st) proof_type = (uint64_t)c1->proof;
        cuzk_c1_free(c1);
    }
    if (!st) cuzk_porep_circuit_id(circuit, proof_type);

    /* the outputs checked before the work (not an input, a writable folder), written together */
    cli_outputs *outs = st ? NULL : cli_outputs_new();
    if (!st && !outs) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    int out_proof = -1, out_inputs = -1;
    if (!st) {
        for (int i = 0; i < npaths; i++) cli_outputs_input(outs, "c1", paths[i]);
        cli_outputs_input(outs, "params", params);
        cli_outputs_input(outs, "vk", vk);
        cli_outputs_cache(outs, "pce", pce);
        if (proof_path) out_proof = cli_outputs_add(outs, "proof", proof_path);
        if (inputs_path) out_inputs = cli_outputs_add(outs, "inputs", inputs_path);
    }
    cli_trace tr;
    if (!st) st = cli_trace_begin(&tr, trace, outs);
    else memset(&tr, 0, sizeof tr);
    if (!st) st = cli_outputs_check(outs);
    cuzk_engine *e = NULL;
    double t0 = cuzk_now(), t_start = 0;
    if (!st) st = cli_engine_create(&e, use_gpu, NULL);
    t_start = cuzk_now() - t0;
    if (!st) st = cuzk_engine_set_files(e, circuit, params, vk, pce);
    uint64_t dev_peak = st ? 0 : device_used(e);
    e2e_job *jobs = st ? NULL : calloc(nsec, sizeof *jobs);
    if (!st && !jobs) st = cuzk_fail(CUZK_ENOMEM, "out of memory");

    size_t next = 0, ended = 0, failed = 0;
    while (!st && ended < nsec) {
        while (next < nsec && next - ended < conc && !st) {
            const cuzk_mapped_file *f = &files[next % (size_t)npaths];
            cuzk_job_request req = {.kind = CUZK_KIND_POREP, .input = f->data, .input_len = f->size};
            jobs[next].submit_t = cuzk_now();
            st = cuzk_engine_submit(e, &req, &jobs[next].id, NULL);
            next++;
        }
        e2e_job *j = &jobs[ended];
        while (!st) { /* device memory sampled while the sector runs */
            st = cuzk_engine_await(e, j->id, 0.25, &j->r);
            uint64_t used = device_used(e);
            if (used > dev_peak) dev_peak = used;
            if (st || j->r.state != CUZK_JOB_TIMEOUT) break;
            cuzk_job_result_free(&j->r);
        }
        if (st) break;
        j->end_t = cuzk_now();
        bool ok = j->r.state == CUZK_JOB_COMPLETED && j->r.verified;
        if (!ok) failed++;
        printf("sector %zu (%s): %s in %.3f s, %u partitions%s%s%s\n", ended + 1, paths[ended % (size_t)npaths],
               cuzk_job_state_name(j->r.state), j->end_t - j->submit_t, j->r.partitions,
               j->r.verified ? ", every proof verified" : "", j->r.state == CUZK_JOB_COMPLETED ? "" : ": ",
               j->r.state == CUZK_JOB_COMPLETED ? "" : j->r.error);
        printf("  stages: witness %.3f s, prove %.3f s, verify %.3f s, load %.3f s\n", j->r.witness_s, j->r.prove_s,
               j->r.verify_s, j->r.load_s);
        if (!brief || !ended) cli_print_timeline_json("  timeline", j->r.timeline_json, stdout);
        fflush(stdout);
        ended++;
    }
    /* every sector submitted, ended or not, on the engine's one clock */
    uint64_t *ids = st ? NULL : calloc(next ? next : 1, sizeof *ids);
    if (!st && !ids) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; ids && i < next; i++) ids[i] = jobs[i].id;
    if (!st) st = cli_trace_end(&tr, e, ids, next, "cuzk bench e2e");
    free(ids);
    if (st) {
        rc = cli_error(me);
        goto out;
    }

    /* the steady sectors' times: a failed sector's time says nothing of proving, so it is left out */
    double *rest = calloc(nsec, sizeof *rest);
    size_t nrest = 0;
    for (size_t i = 1; rest && i < nsec; i++)
        if (jobs[i].r.state == CUZK_JOB_COMPLETED && jobs[i].r.verified)
            rest[nrest++] = conc == 1 ? jobs[i].end_t - jobs[i].submit_t : jobs[i].end_t - jobs[i - 1].end_t;
    const double med = bench_median(rest, nrest); /* sorts rest */
    printf("bench e2e: %s, %llu sector(s) from %d C1 file(s), %llu at a time, %zu failed\n", circuit,
           (unsigned long long)nsec, npaths, (unsigned long long)conc, failed);
    printf("  engine start              %.3f s\n", t_start);
    printf("  load (parameters, circuit) %.3f s (in the first sector's timeline)\n", jobs[0].r.load_s);
    if (jobs[0].r.state == CUZK_JOB_COMPLETED && jobs[0].r.verified)
        printf("  first sector after load   %.3f s\n", jobs[0].end_t - jobs[0].submit_t - jobs[0].r.load_s);
    else printf("  first sector after load   none: it failed\n");
    if (nrest) {
        printf("  sectors 2..%llu            median %.3f s %s (min %.3f, max %.3f)", (unsigned long long)nsec, med,
               conc == 1 ? "each" : "between sector ends", rest[0], rest[nrest - 1]);
        if (nrest < nsec - 1) printf(" of the %zu verified; %zu failed, left out", nrest, nsec - 1 - nrest);
        printf("\n");
    } else if (nsec > 1)
        printf("  sectors 2..%llu            no median: none of them was proved and verified\n",
               (unsigned long long)nsec);
    printf("  peak host RSS             %.2f GiB\n", (double)cli_rss_kib("VmHWM:") / (1 << 20));
    if (use_gpu) printf("  peak device memory        %.2f GiB (sampled every 0.25 s)\n", (double)dev_peak / (1 << 30));
    free(rest);

    const cuzk_job_result *last = &jobs[nsec - 1].r;
    if (last->state == CUZK_JOB_COMPLETED) {
        if (!st && proof_path) st = cli_outputs_write(outs, out_proof, last->proof, last->proof_len);
        if (!st && inputs_path)
            st = cli_outputs_write_inputs(outs, out_inputs, last->inputs, last->partitions, last->ninputs, true);
        if (!st) st = cli_outputs_commit(outs);
        if (st) rc = cli_error(me);
    }
    if (!rc) rc = failed ? 1 : 0;
out:
    for (size_t i = 0; jobs && i < nsec; i++) cuzk_job_result_free(&jobs[i].r);
    free(jobs);
    cuzk_engine_destroy(e);
    cli_trace_free(&tr);
    cli_outputs_free(outs);
    for (int i = 0; i < npaths; i++) cuzk_unmap_file(&files[i]);
    free(list);
    return rc;
}
