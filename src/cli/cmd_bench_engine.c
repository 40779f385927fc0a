/* cuzk bench engine: jobs driven through an in-process engine, C at a time, as a client would:
 * per-job latency (median, p95), the interval between job ends once the pipeline is full,
 * throughput, each partition's witness and device time, the devices' idle time between
 * partitions, the first job's extra cost, and peak host memory. Optionally one CRITICAL job in
 * the middle of the run, whose wait for a device is the preemption latency. With --synthetic,
 * PoRep, WindowPoSt, WinningPoSt and SnapDeals partitions of any sector size get random vanilla
 * data of their exact shape (every job partition proves partition 0's data). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/bench_stats.h"
#include "cli/bench_target.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cli/trace_out.h"
#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"

/* The first job's top-level spans and partition 0's (where its extra time went). */
static void print_first(const char *title, const char *json)
{
    json_error_t err;
    json_t *spans = json ? json_loads(json, 0, &err) : NULL;
    long p0 = -2;
    printf("  %-25s", title);
    for (size_t i = 0; i < json_array_size(spans); i++) {
        json_t *s = json_array_get(spans, i);
        const char *name = json_string_value(json_object_get(s, "name"));
        long parent = (long)json_integer_value(json_object_get(s, "parent"));
        if (!name || (parent != -1 && parent != p0)) continue;
        if (parent == -1 && !strcmp(name, "partition 0")) p0 = (long)i;
        if (parent == -1 && !strncmp(name, "partition ", 10) && strcmp(name, "partition 0")) continue;
        printf(" %s%s %.3f s;", parent == -1 ? "" : "(partition 0) ", name,
               json_number_value(json_object_get(s, "seconds")));
    }
    printf("\n");
    json_decref(spans);
}

/* device memory in use on every GPU (as the driver reports it), summed */
static uint64_t device_used(const cuzk_engine_status *es)
{
    uint64_t used = 0;
    for (unsigned d = 0; d < es->ndevices; d++) /* once per GPU, not per context */
        if (!es->devices[d].context) used += es->devices[d].mem_total - es->devices[d].mem_free;
    return used;
}

typedef struct {
    uint64_t id;
    double submit_t, end_t;
    cuzk_job_result r;
} bench_job;

int cli_bench_engine(int argc, char **argv)
{
    bench_target t = {.kind = "circuit"};
    const char *jobs_s = NULL, *conc_s = NULL, *parts_s = NULL, *prio_s = NULL, *critical = NULL, *crit_after_s = NULL,
               *threads = NULL, *log_path = NULL, *trace = NULL;
    bool json = false, done;
    cli_opt opts[BENCH_TARGET_NOPTS + 13];
    size_t n = bench_target_opt_table(&t, opts);
    const cli_opt own[] = {
        {"jobs", "N", "jobs to run (default 6)", &jobs_s, NULL},
        {"concurrency", "C", "jobs in flight at once (default 2)", &conc_s, NULL},
        {"partitions", "P", "kind circuit: partitions per job (default 1)", &parts_s, NULL},
        {"priority", "P", "the jobs' priority (low, normal, high, critical; default: the kind's)", &prio_s, NULL},
        {"critical", "NAME",
         "also one CRITICAL job of this built-in circuit (synthetic parameters) mid-run (default: none)", &critical,
         NULL},
        {"critical-after", "S", "seconds after the first partition ends to submit it (default 3)", &crit_after_s, NULL},
        {"gpu", NULL, "prove on the GPUs of a CUDA build (the [engine] gpus key says how many; default: the CPU)", NULL,
         &t.gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"log", "FILE", "append each job's JSON log line (with its timeline) there (default: none)", &log_path, NULL},
        {"trace", "FILE",
         "write every job's timeline there as one trace (Chrome trace event format: Perfetto, chrome://tracing; "
         "default: none)",
         &trace, NULL},
        {"json", NULL, "one JSON object instead of the table (default: the table)", NULL, &json},
    };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) opts[n++] = own[i];
    int rc =
        cli_parse(argc, argv,
                  "cuzk bench engine --kind circuit --circuit NAME (--params FILE | --synthetic) [options]\n"
                  "       cuzk bench engine --kind porep (--c1 FILE --params FILE | --synthetic [--sector-size SIZE])"
                  " [options]\n"
                  "       cuzk bench engine --kind window-post|winning-post|snap --synthetic [--sector-size SIZE] "
                  "[options]\n\n"
                  "Drives --jobs jobs, --concurrency at a time, through one proving engine in this process and\n"
                  "prints their latency, the throughput and the devices' idle time. --synthetic (parameters made\n"
                  "on the GPU) needs a CUDA build.\n\n"
                  "examples:\n"
                  "  cuzk setup --circuit random:65536 --params r.params --vk r.vk\n"
                  "  cuzk bench engine --kind circuit --circuit random:65536 --params r.params --jobs 4\n"
                  "  cuzk bench engine --kind window-post --synthetic --gpu --jobs 4",
                  opts, (int)n, &done);
    if (rc || done) return rc;
    const char *me = "bench engine";
    uint64_t njobs = 6, conc = 2, parts = 1, crit_after = 3;
    if ((jobs_s && cli_u64(me, "jobs", jobs_s, &njobs)) || (conc_s && cli_u64(me, "concurrency", conc_s, &conc)) ||
        (parts_s && cli_u64(me, "partitions", parts_s, &parts)) ||
        (crit_after_s && cli_u64(me, "critical-after", crit_after_s, &crit_after)) || cli_threads(me, threads))
        return 2;
    if (!njobs || njobs > 100000 || !conc || conc > 1024 || !parts || parts > 100000) {
        fprintf(stderr, "cuzk bench engine: --jobs 1..100000, --concurrency 1..1024, --partitions 1..100000\n");
        return 2;
    }
    cuzk_priority prio = CUZK_PRIORITY_DEFAULT;
    if (prio_s && cuzk_priority_parse(&prio, prio_s)) {
        cli_error(me);
        return 2;
    }
    if ((rc = bench_target_check(me, &t, parts_s != NULL))) return rc;

    cli_trace tr;
    cuzk_status st = cli_trace_begin(&tr, trace, NULL);
    if (!st) st = bench_target_open(&t, (unsigned)parts, prio);
    cuzk_engine *e = NULL;
    FILE *log = NULL;
    if (!st && log_path && !(log = fopen(log_path, "a")))
        st = cuzk_fail(CUZK_EIO, "cannot open %s: %s", log_path, strerror(errno));
    double t0 = cuzk_now();
    if (!st) st = cli_engine_create(&e, t.gpu, log);
    double t_create = cuzk_now() - t0;
    if (!st) st = bench_target_register(&t, e);
    bench_circuit crit_bc = {critical, NULL, NULL, NULL};
    if (!st && critical) {
        cuzk_engine_circuit reg = {critical, bench_circuit_open, &crit_bc, NULL, NULL, NULL, true, false};
        st = cuzk_engine_register_circuit(e, &reg);
        double s;
        if (!st) st = cuzk_engine_preload(e, critical, &s); /* resident before the run, like WinningPoSt */
    }
    bench_job *jobs = st ? NULL : calloc(njobs, sizeof *jobs);
    if (!st && !jobs) st = cuzk_fail(CUZK_ENOMEM, "out of memory");

    /* C jobs in flight: a job is submitted when one ends */
    size_t next = 0, ended = 0, failed = 0;
    bench_job crit = {0};
    bool crit_sent = false;
    double first_part_end = -1, run_t0 = cuzk_now();
    while (!st && ended < njobs) {
        while (next < njobs && next - ended < conc && !st) {
            jobs[next].submit_t = cuzk_now();
            st = cuzk_engine_submit(e, &t.req, &jobs[next].id, NULL);
            next++;
        }
        if (st) break;
        bench_job *b = &jobs[ended];
        /* wait for the oldest; meanwhile, the critical job at its time */
        for (;;) {
            st = cuzk_engine_await(e, b->id, critical && !crit_sent ? 0.05 : -1, &b->r);
            if (st || b->r.state != CUZK_JOB_TIMEOUT) break;
            cuzk_job_result_free(&b->r);
            if (first_part_end < 0) {
                cuzk_engine_status s;
                cuzk_engine_get_status(e, &s);
                for (unsigned d = 0; d < s.ndevices; d++)
                    if (s.devices[d].partitions_proved) first_part_end = cuzk_now();
            }
            if (critical && !crit_sent && first_part_end >= 0 && cuzk_now() - first_part_end >= (double)crit_after) {
                cuzk_job_request cr = {.kind = CUZK_KIND_CIRCUIT,
                                       .priority = CUZK_PRIORITY_CRITICAL,
                                       .circuit = critical,
                                       .partitions = 1};
                crit.submit_t = cuzk_now();
                st = cuzk_engine_submit(e, &cr, &crit.id, NULL);
                crit_sent = true;
                if (st) break;
            }
        }
        if (st) break;
        b->end_t = cuzk_now();
        if (b->r.state != CUZK_JOB_COMPLETED) {
            fprintf(stderr, "cuzk bench engine: job %llu %s: %s\n", (unsigned long long)b->id,
                    cuzk_job_state_name(b->r.state), b->r.error);
            failed++;
        }
        ended++;
    }
    double run_s = cuzk_now() - run_t0;
    if (!st && crit_sent) st = cuzk_engine_await(e, crit.id, -1, &crit.r);
    if (!st && tr.path) { /* every job submitted, the CRITICAL one last */
        uint64_t *ids = calloc(next + 1, sizeof *ids);
        size_t nids = 0;
        if (!ids) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (size_t i = 0; ids && i < next; i++) ids[nids++] = jobs[i].id;
        if (ids && crit_sent) ids[nids++] = crit.id;
        if (!st) st = cli_trace_end(&tr, e, ids, nids, "cuzk bench engine");
        free(ids);
    }
    cuzk_engine_status *es = st ? NULL : calloc(1, sizeof *es);
    if (es) cuzk_engine_get_status(e, es);
    if (st) {
        rc = cli_error(me);
        goto out;
    }

    double *lat = calloc(njobs, sizeof *lat), *gap = calloc(njobs, sizeof *gap);
    seconds_list pt = {0}, wt = {0};
    size_t ngap = 0;
    for (size_t i = 0; i < njobs; i++) {
        lat[i] = jobs[i].end_t - jobs[i].submit_t;
        if (i) gap[ngap++] = jobs[i].end_t - jobs[i - 1].end_t;
        bench_partition_times(jobs[i].r.timeline_json, &pt, &wt);
    }
    double first = lat[0];
    double lat_med = bench_quantile(lat, njobs, 0.5), lat_p95 = bench_quantile(lat, njobs, 0.95);
    double interval = ngap ? bench_quantile(gap, ngap, 0.5) : 0;
    double part_med = bench_quantile(pt.v, pt.n, 0.5), wit_med = bench_quantile(wt.v, wt.n, 0.5);
    double wit_max = wt.n ? wt.v[wt.n - 1] : 0; /* sorted by quantile */
    double dev_gap_max = 0, dev_gap_total = 0, busy = 0;
    uint64_t dev_gaps = 0, uploaded = 0, batched = 0;
    for (unsigned d = 0; d < es->ndevices; d++) {
        if (es->devices[d].gap_max_s > dev_gap_max) dev_gap_max = es->devices[d].gap_max_s;
        dev_gap_total += es->devices[d].gap_total_s;
        dev_gaps += es->devices[d].gaps;
        busy += es->devices[d].busy_s;
        uploaded += es->devices[d].upload_bytes;
        batched += es->devices[d].partitions_batched;
    }
    long hwm = cli_rss_kib("VmHWM:");
    const char *what = bench_target_name(&t);
    if (json) {
        printf("{\"bench\":\"engine\",\"kind\":\"%s\",\"circuit\":\"%s\",\"jobs\":%llu,\"concurrency\":%llu,"
               "\"partitions_per_job\":%u,\"failed\":%zu,\"latency_median_s\":%.4f,\"latency_p95_s\":%.4f,"
               "\"first_job_s\":%.4f,\"interval_median_s\":%.4f,\"throughput_jobs_per_s\":%.5f,"
               "\"partition_median_s\":%.4f,\"partitions\":%zu,\"witness_median_s\":%.4f,\"witness_max_s\":%.4f,"
               "\"device_gap_max_s\":%.6f,"
               "\"device_gap_mean_s\":%.6f,\"device_busy_s\":%.3f,\"run_s\":%.3f,\"engine_start_s\":%.3f,"
               "\"data_s\":%.3f,\"peak_rss_kib\":%ld,\"pinned_bytes\":%llu,\"device_used_bytes\":%llu,"
               "\"upload_bytes_per_job\":%.0f,\"partitions_batched\":%llu,\"verified\":%s",
               t.kind, what, (unsigned long long)njobs, (unsigned long long)conc,
               t.req.partitions ? t.req.partitions : 1, failed, lat_med, lat_p95, first, interval,
               (double)njobs / run_s, part_med, pt.n, wit_med, wit_max, dev_gap_max,
               dev_gaps ? dev_gap_total / (double)dev_gaps : 0, busy, run_s, t_create, t.data_s, hwm,
               (unsigned long long)es->pinned_bytes, (unsigned long long)device_used(es),
               (double)uploaded / (double)njobs, (unsigned long long)batched, jobs[0].r.verified ? "true" : "false");
        /* where each circuit went and why (the measurement's conditions) */
        printf(",\"placements\":{");
        for (unsigned c = 0, said = 0; c < es->ncircuits; c++) {
            if (!es->circuits[c].placement[0]) continue;
            printf("%s", said++ ? "," : "");
            cuzk_json_string(stdout, es->circuits[c].id);
            printf(":");
            cuzk_json_string(stdout, es->circuits[c].placement);
        }
        printf("}");
        if (crit_sent)
            printf(",\"critical\":{\"circuit\":\"%s\",\"state\":\"%s\",\"wait_s\":%.4f,\"run_s\":%.4f}", critical,
                   cuzk_job_state_name(crit.r.state), crit.r.queue_s, crit.r.run_s);
        printf("}\n");
    } else {
        printf("engine: %u device(s):", es->ndevices);
        for (unsigned d = 0; d < es->ndevices; d++) printf(" [%s]", es->devices[d].name);
        printf("; %u threads; started in %.2f s (buffers reserved and page-locked: %.2f GB)\n", cuzk_threads(),
               t_create, (double)es->pinned_bytes / 1e9);
        printf("%s %s: %llu jobs x %u partitions, %llu at a time, %zu failed%s\n", t.kind, what,
               (unsigned long long)njobs, t.req.partitions ? t.req.partitions : 1, (unsigned long long)conc, failed,
               t.synthetic              ? " (synthetic parameters: timed, not verified)"
                   : jobs[0].r.verified ? " (every proof verified)"
                                        : "");
        printf("  latency per job           median %.3f s, p95 %.3f s (first %.3f s)\n", lat_med, lat_p95, first);
        printf("  interval between job ends median %.3f s; throughput %.4f jobs/s (%.1f s in all)\n", interval,
               (double)njobs / run_s, run_s);
        printf("  device time per partition median %.1f ms over %zu partitions; device busy %.2f s\n", part_med * 1e3,
               pt.n, busy);
        printf("  witness per partition     median %.1f ms, max %.1f ms over %zu\n", wit_med * 1e3, wit_max * 1e3,
               wt.n);
        if (uploaded)
            printf("  copied to the GPU         %.2f GB per job (%.2f GB/s over the device's busy time); %llu "
                   "partitions proved in batches\n",
                   (double)uploaded / 1e9 / (double)njobs, busy > 0 ? (double)uploaded / 1e9 / busy : 0.0,
                   (unsigned long long)batched);
        printf("  device idle between partitions while work waited: max %.2f ms, mean %.3f ms over %llu\n",
               dev_gap_max * 1e3, dev_gaps ? dev_gap_total / (double)dev_gaps * 1e3 : 0, (unsigned long long)dev_gaps);
        printf("  first job's extra cost    %.3f s over the steady interval (loads, first witness)\n",
               first - interval);
        print_first("first job's timeline", jobs[0].r.timeline_json);
        printf("  peak host RSS             %.2f GiB\n", (double)hwm / (1 << 20));
        for (unsigned d = 0; d < es->ndevices; d++)
            if (es->devices[d].mem_total)
                printf("  device %u memory          %.2f GiB in use after the run (of %.2f GiB; resident "
                       "parameters and circuits %.2f GiB)\n",
                       d, (double)(es->devices[d].mem_total - es->devices[d].mem_free) / (1 << 30),
                       (double)es->devices[d].mem_total / (1 << 30), (double)es->devices[d].resident_bytes / (1 << 30));
        for (unsigned c = 0; c < es->ncircuits; c++)
            if (es->circuits[c].placement[0])
                printf("  placement of %-12s %s\n", es->circuits[c].id, es->circuits[c].placement);
        if (crit_sent)
            printf("  CRITICAL %s mid-run       %s, waited %.1f ms for a device, proved in %.1f ms\n", critical,
                   cuzk_job_state_name(crit.r.state), crit.r.queue_s * 1e3, crit.r.run_s * 1e3);
        if (crit_sent) print_first("CRITICAL job's timeline", crit.r.timeline_json);
    }
    rc = failed || (crit_sent && crit.r.state != CUZK_JOB_COMPLETED) ? 1 : 0;
    free(lat);
    free(gap);
    seconds_free(&pt);
    seconds_free(&wt);
out:
    free(es);
    for (size_t i = 0; jobs && i < njobs; i++) cuzk_job_result_free(&jobs[i].r);
    cuzk_job_result_free(&crit.r);
    free(jobs);
    cuzk_engine_destroy(e);
    cli_trace_free(&tr);
    if (log) fclose(log);
    bench_target_close(&t);
    return rc;
}
