/* cuzk bench cancel: how long a running job takes to end once cancelled. One job is proved to
 * its end first (loads, buffers, and the uncancelled time to compare with); then, --reps times,
 * a job is submitted, cancelled --cancel-after-ms after its first partition reached a device,
 * and awaited: the time from the cancel call to the await's answer is the cancel latency (a
 * client's view: CancelProof, then AwaitProof answering CANCELLED). Last, one more job on the
 * same engine must complete: a cancel is not a device error and leaves every device in
 * service. The same command measures the CPU backend and, with --gpu, the GPUs. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/bench_stats.h"
#include "cli/bench_target.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/engine.h"

/* Whether a device runs job (from the status). */
static bool job_on_device(cuzk_engine *e, uint64_t job)
{
    cuzk_engine_status *s = calloc(1, sizeof *s); /* large: not on the stack */
    if (!s) return false;
    cuzk_engine_get_status(e, s);
    bool on = false;
    for (unsigned d = 0; d < s->ndevices && d < CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS; d++)
        on = on || s->devices[d].running_job == job;
    free(s);
    return on;
}

/* Devices in service (from the status), in *total every device, in *gpus the GPU contexts in
 * service (none where the build or the machine has no GPU: the CPU backend proves then). */
static unsigned devices_in_service(cuzk_engine *e, unsigned *total, unsigned *gpus)
{
    cuzk_engine_status *s = calloc(1, sizeof *s);
    *total = *gpus = 0;
    if (!s) return 0;
    cuzk_engine_get_status(e, s);
    unsigned n = 0;
    for (unsigned d = 0; d < s->ndevices && d < CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS; d++) {
        n += s->devices[d].in_service;
        *gpus += s->devices[d].in_service && s->devices[d].ordinal >= 0;
    }
    *total = s->ndevices;
    free(s);
    return n;
}

/* Whether job has ended (its state in *state). */
static bool job_ended(cuzk_engine *e, uint64_t job, cuzk_job_state *state)
{
    cuzk_job_result r;
    if (cuzk_engine_await(e, job, 0, &r)) return false;
    *state = r.state;
    cuzk_job_result_free(&r);
    return *state != CUZK_JOB_TIMEOUT;
}

/* The summed seconds of the "prove on ..." spans of a result's timeline: the device time. */
static double device_seconds(const char *json)
{
    json_error_t err;
    json_t *spans = json ? json_loads(json, 0, &err) : NULL;
    double sum = 0;
    for (size_t i = 0; i < json_array_size(spans); i++) {
        json_t *s = json_array_get(spans, i);
        const char *name = json_string_value(json_object_get(s, "name"));
        if (name && !strncmp(name, "prove on ", 9)) sum += json_number_value(json_object_get(s, "seconds"));
    }
    json_decref(spans);
    return sum;
}

/* One measured cancel. */
typedef struct {
    double latency_s;   /* cancel call to the await's answer */
    double on_device_s; /* first partition on a device to the cancel call */
    bool was_running;
    bool ended_first; /* the job ended before its cancel (not timed) */
    cuzk_job_state state;
} cancel_rep;

/* Submits a job, waits until it is on a device (up to wait_s), lets it run after_s, cancels it
 * and awaits its end. A job that ends before its cancel is noted (ended_first), not timed. */
static cuzk_status cancel_one(cuzk_engine *e, const cuzk_job_request *req, double after_s, double wait_s,
                              cancel_rep *out)
{
    memset(out, 0, sizeof *out);
    uint64_t id = 0;
    cuzk_status st = cuzk_engine_submit(e, req, &id, NULL);
    if (st) return st;
    double end = cuzk_now() + wait_s;
    while (!job_on_device(e, id) && cuzk_now() < end) {
        if (job_ended(e, id, &out->state)) return out->ended_first = true, CUZK_OK; /* too quick to see */
        usleep(1000);
    }
    double on = cuzk_now();
    if (on >= end) return cuzk_fail(CUZK_EINTERNAL, "job %llu never reached a device", (unsigned long long)id);
    while (cuzk_now() - on < after_s) usleep(1000);
    double t0 = cuzk_now();
    st = cuzk_engine_cancel(e, id, &out->was_running);
    cuzk_job_result r;
    if (!st) st = cuzk_engine_await(e, id, -1, &r);
    if (st) return st;
    out->latency_s = cuzk_now() - t0;
    out->on_device_s = t0 - on;
    out->state = r.state;
    out->ended_first = r.state != CUZK_JOB_CANCELLED && !out->was_running;
    cuzk_job_result_free(&r);
    return CUZK_OK;
}

/* Proves one job to its end; *total_s its time from submit, *device_s its device time. */
static cuzk_status prove_one(cuzk_engine *e, const cuzk_job_request *req, cuzk_job_state *state, double *total_s,
                             double *device_s)
{
    uint64_t id = 0;
    double t0 = cuzk_now();
    cuzk_status st = cuzk_engine_submit(e, req, &id, NULL);
    cuzk_job_result r;
    if (!st) st = cuzk_engine_await(e, id, -1, &r);
    if (st) return st;
    *total_s = cuzk_now() - t0;
    *state = r.state;
    *device_s = device_seconds(r.timeline_json);
    if (r.state != CUZK_JOB_COMPLETED)
        fprintf(stderr, "cuzk bench cancel: job %llu %s: %s\n", (unsigned long long)id, cuzk_job_state_name(r.state),
                r.error);
    cuzk_job_result_free(&r);
    return CUZK_OK;
}

int cli_bench_cancel(int argc, char **argv)
{
    bench_target t = {.kind = "circuit"};
    const char *parts_s = NULL, *after_s = NULL, *reps_s = NULL, *threads = NULL;
    bool json = false, done;
    cli_opt opts[BENCH_TARGET_NOPTS + 8];
    size_t n = bench_target_opt_table(&t, opts);
    const cli_opt own[] = {
        {"partitions", "P", "kind circuit: partitions per job (default 1)", &parts_s, NULL},
        {"cancel-after-ms", "MS", "cancel each job this long after it reached a device (default 1000)", &after_s, NULL},
        {"reps", "N", "cancelled jobs (default 3)", &reps_s, NULL},
        {"gpu", NULL, "prove on the GPUs of a CUDA build (the [engine] gpus key says how many; default: the CPU)", NULL,
         &t.gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"json", NULL, "one JSON object instead of the table (default: the table)", NULL, &json},
    };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) opts[n++] = own[i];
    int rc = cli_parse(argc, argv,
                       "cuzk bench cancel --kind circuit --circuit NAME (--params FILE | --synthetic) [options]\n"
                       "       cuzk bench cancel --kind porep (--c1 FILE --params FILE | --synthetic "
                       "[--sector-size SIZE]) [options]\n"
                       "       cuzk bench cancel --kind window-post|winning-post|snap --synthetic "
                       "[--sector-size SIZE] [options]\n\n"
                       "Proves one job to its end, then --reps times submits a job, cancels it --cancel-after-ms\n"
                       "after it reached a device and times the cancel call to the job's end; last, one more job\n"
                       "must complete on the same devices. --synthetic (parameters made on the GPU) needs a CUDA\n"
                       "build.\n\n"
                       "examples:\n"
                       "  cuzk setup --circuit random:262144 --params r.params --vk r.vk\n"
                       "  cuzk bench cancel --kind circuit --circuit random:262144 --params r.params\n"
                       "  cuzk bench cancel --kind porep --synthetic --gpu --cancel-after-ms 500",
                       opts, (int)n, &done);
    if (rc || done) return rc;
    const char *me = "bench cancel";
    uint64_t parts = 1, after_ms = 1000, reps = 3;
    if ((parts_s && cli_u64(me, "partitions", parts_s, &parts)) ||
        (after_s && cli_u64(me, "cancel-after-ms", after_s, &after_ms)) ||
        (reps_s && cli_u64(me, "reps", reps_s, &reps)) || cli_threads(me, threads))
        return 2;
    if (!parts || parts > 100000 || !reps || reps > 1000 || after_ms > 3600000) {
        fprintf(stderr, "cuzk bench cancel: --partitions 1..100000, --reps 1..1000, --cancel-after-ms 0..3600000\n");
        return 2;
    }
    if ((rc = bench_target_check(me, &t, parts_s != NULL))) return rc;

    cuzk_status st = bench_target_open(&t, (unsigned)parts, CUZK_PRIORITY_DEFAULT);
    cuzk_engine *e = NULL;
    if (!st) st = cli_engine_create(&e, t.gpu, NULL);
    if (!st) st = bench_target_register(&t, e);
    /* the reference: one job proved to its end (it also loads what every later job uses) */
    cuzk_job_state first_state = CUZK_JOB_FAILED, last_state = CUZK_JOB_FAILED;
    double first_s = 0, first_dev_s = 0, last_s = 0, last_dev_s = 0;
    if (!st) st = prove_one(e, &t.req, &first_state, &first_s, &first_dev_s);
    cancel_rep *rep = st ? NULL : calloc(reps, sizeof *rep);
    if (!st && !rep) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    /* a job that never reaches a device within a generous multiple of the first one's time
     * means the engine is stuck: the bench says so rather than hang */
    double wait_s = 60 + 10 * first_s;
    for (size_t i = 0; !st && i < reps; i++) st = cancel_one(e, &t.req, (double)after_ms / 1e3, wait_s, &rep[i]);
    unsigned total = 0, gpus = 0, in_service = st ? 0 : devices_in_service(e, &total, &gpus);
    if (!st) st = prove_one(e, &t.req, &last_state, &last_s, &last_dev_s);
    if (st) {
        rc = cli_error(me);
        goto out;
    }

    /* the latencies of the jobs cancelled while they ran */
    double *lat = calloc(reps, sizeof *lat);
    size_t cancelled = 0, running = 0, ended_first = 0, nlat = 0;
    double lat_max = 0;
    for (size_t i = 0; lat && i < reps; i++) {
        cancelled += rep[i].state == CUZK_JOB_CANCELLED;
        running += rep[i].was_running;
        ended_first += rep[i].ended_first;
        if (rep[i].state != CUZK_JOB_CANCELLED) continue;
        lat[nlat++] = rep[i].latency_s;
        if (rep[i].latency_s > lat_max) lat_max = rep[i].latency_s;
    }
    double lat_med = lat ? bench_median(lat, nlat) : 0;
    if (ended_first)
        fprintf(stderr,
                "cuzk bench cancel: %zu job(s) ended before their cancel: give the jobs more partitions or cancel "
                "sooner\n",
                ended_first);
    bool ok = first_state == CUZK_JOB_COMPLETED && last_state == CUZK_JOB_COMPLETED && cancelled == reps &&
        in_service == total;
    if (json) {
        printf("{\"bench\":\"cancel\",\"kind\":\"%s\",\"circuit\":\"%s\",\"gpu\":%s,\"gpus_in_service\":%u,"
               "\"threads\":%u,\"partitions_per_job\":%u,\"cancel_after_s\":%.3f,\"reps\":%llu,"
               "\"cancelled\":%zu,\"was_running\":%zu,\"ended_before_cancel\":%zu,"
               "\"cancel_latency_median_s\":%.4f,\"cancel_latency_max_s\":%.4f,\"cancel_latency_s\":[",
               t.kind, bench_target_name(&t), t.gpu ? "true" : "false", gpus, cuzk_threads(),
               t.req.partitions ? t.req.partitions : 1, (double)after_ms / 1e3, (unsigned long long)reps, cancelled,
               running, ended_first, lat_med, lat_max);
        for (size_t i = 0, k = 0; i < reps; i++)
            if (rep[i].state == CUZK_JOB_CANCELLED) printf("%s%.4f", k++ ? "," : "", rep[i].latency_s);
        printf("],\"uncancelled_job_s\":%.4f,\"uncancelled_device_s\":%.4f,\"devices_in_service\":%u,"
               "\"devices\":%u,\"after_job_state\":\"%s\",\"after_job_s\":%.4f}\n",
               first_s, first_dev_s, in_service, total, cuzk_job_state_name(last_state), last_s);
    } else {
        printf("%s %s: %u partition(s) per job, %u threads, on %s\n", t.kind, bench_target_name(&t),
               t.req.partitions ? t.req.partitions : 1, cuzk_threads(),
               gpus ? "the GPUs" : "the CPU backend (no GPU in service)");
        printf("  uncancelled job           %.3f s (device %.3f s)\n", first_s, first_dev_s);
        printf("  cancelled %.3f s after reaching a device: %zu of %llu CANCELLED, %zu were running, %zu ended "
               "first\n",
               (double)after_ms / 1e3, cancelled, (unsigned long long)reps, running, ended_first);
        printf("  cancel to the job's end   median %.1f ms, max %.1f ms\n", lat_med * 1e3, lat_max * 1e3);
        printf("  devices in service after  %u of %u; the next job %s in %.3f s\n", in_service, total,
               cuzk_job_state_name(last_state), last_s);
    }
    rc = ok ? 0 : 1;
    free(lat);
out:
    free(rep);
    cuzk_engine_destroy(e);
    bench_target_close(&t);
    return rc;
}
