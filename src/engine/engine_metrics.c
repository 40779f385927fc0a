/* The engine's Prometheus metrics (text exposition format 0.0.4): counters of jobs, failures,
 * partitions and stages, latency histograms by proof kind (a job's total, its queue wait, each
 * of its stages; recorded as jobs end), parameter loads by circuit, and gauges of the queues,
 * the devices and memory by tier. Every family has its HELP and TYPE lines.
 *
 * What is at rest stays short: a kind's series (beyond its submitted count) appear once a job
 * of it was submitted, a stage's histogram once the kind's jobs had that stage, a circuit's
 * once a load of it was tried, a failure reason's once a job failed so; such a counter, once
 * there, stays (one that came and went would read as a reset). A circuit's gauges are there
 * while it holds memory, loads or is used. An idle daemon without GPUs writes
 * 79 lines (README, "Metrics, dashboard and job log"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* Seconds, a few that tell the kinds apart and answer their deadlines: a stage of a small proof
 * (under 0.1 s, 0.5 s), a WinningPoSt (1 to 10 s; its deadline is about 30 s), a WindowPoSt
 * partition (2.5 to 10 s), a SnapDeals or 32 GiB PoRep proof (30 s to 3 min), one queued
 * behind others (10 min; beyond: +Inf, the count). */
static const double hist_bounds[HIST_BOUNDS] = {0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600};

static void hist_observe(engine_hist *h, double v)
{
    int b = 0;
    while (b < HIST_BOUNDS && v > hist_bounds[b]) b++;
    h->n[b]++;
    h->count++;
    h->sum += v;
}

void metrics_job_ended(cuzk_engine *e, const engine_job *j)
{
    ENGINE_LOCKED(e);
    int k = cuzk_kind_index(j->kind);
    if (k < 0) return;
    hist_observe(&e->job_hist[k], j->end_t - j->submit_t);
    if (j->started) hist_observe(&e->queue_hist[k], j->start_t - j->submit_t);
    for (int s = 0; s < JOB_STAGES; s++)
        if (j->stages.seen[s]) hist_observe(&e->stage_hist[s][k], j->stages.seconds[s]);
}

const char *fail_reason_name(job_fail_reason r)
{
    static const char *const names[JOB_FAIL_REASONS] = {"other",   "input", "load",  "no_device",
                                                        "witness", "prove", "verify"};
    return r >= 0 && r < JOB_FAIL_REASONS ? names[r] : "other";
}

/* The kind's label value: its name everywhere else (CLI, job log, status; cuzk_kind_name). */
static const char *metric_kind(int k)
{
    static const cuzk_job_kind by_index[CUZK_KINDS] = {CUZK_KIND_POREP, CUZK_KIND_SNAP, CUZK_KIND_WINDOW_POST,
                                                       CUZK_KIND_WINNING_POST, CUZK_KIND_CIRCUIT};
    return cuzk_kind_name(by_index[k]);
}

/* A label value as the exposition format escapes it: backslash, double quote, newline. */
static void label_value(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '\\' || *s == '"') fputc('\\', f);
        if (*s == '\n') fputs("\\n", f);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One histogram series: cumulative buckets, +Inf (the count), sum and count. labels: "a=\"b\"". */
static void hist_print(FILE *f, const char *name, const char *labels, const engine_hist *h)
{
    uint64_t cum = 0;
    for (int b = 0; b < HIST_BOUNDS; b++) {
        cum += h->n[b];
        fprintf(f, "%s_bucket{%s,le=\"%g\"} %llu\n", name, labels, hist_bounds[b], (unsigned long long)cum);
    }
    fprintf(f, "%s_bucket{%s,le=\"+Inf\"} %llu\n", name, labels, (unsigned long long)h->count);
    fprintf(f, "%s_sum{%s} %.6f\n", name, labels, h->sum);
    fprintf(f, "%s_count{%s} %llu\n", name, labels, (unsigned long long)h->count);
}

/* What the engine counts (locked). */
static void counters(cuzk_engine *e, const cuzk_engine_status *s, FILE *f)
{
    ENGINE_LOCKED(e);
    family(f, "cuzk_jobs_submitted_total", "counter", "Jobs submitted, by proof kind.");
    for (int k = 0; k < CUZK_KINDS; k++)
        fprintf(f, "cuzk_jobs_submitted_total{kind=\"%s\"} %llu\n", metric_kind(k),
                (unsigned long long)e->submitted[k]);
    family(f, "cuzk_jobs_completed_total", "counter", "Jobs ended, by kind and outcome (kinds submitted to).");
    for (int k = 0; k < CUZK_KINDS; k++) {
        if (!e->submitted[k]) continue;
        fprintf(f, "cuzk_jobs_completed_total{kind=\"%s\",status=\"completed\"} %llu\n", metric_kind(k),
                (unsigned long long)e->completed[k]);
        fprintf(f, "cuzk_jobs_completed_total{kind=\"%s\",status=\"failed\"} %llu\n", metric_kind(k),
                (unsigned long long)e->failed[k]);
        fprintf(f, "cuzk_jobs_completed_total{kind=\"%s\",status=\"cancelled\"} %llu\n", metric_kind(k),
                (unsigned long long)e->cancelled[k]);
    }
    family(f, "cuzk_job_failures_total", "counter",
           "Failed jobs by kind and where they failed: input, load, no_device, witness, prove, verify, other.");
    for (int k = 0; k < CUZK_KINDS; k++)
        for (int r = 0; r < JOB_FAIL_REASONS; r++)
            if (e->failures[k][r])
                fprintf(f, "cuzk_job_failures_total{kind=\"%s\",reason=\"%s\"} %llu\n", metric_kind(k),
                        fail_reason_name((job_fail_reason)r), (unsigned long long)e->failures[k][r]);
    family(f, "cuzk_queue_depth", "gauge", "Jobs queued or running now (kinds submitted to).");
    for (int k = 0; k < CUZK_KINDS; k++) {
        if (!e->submitted[k]) continue;
        fprintf(f, "cuzk_queue_depth{kind=\"%s\",state=\"queued\"} %u\n", metric_kind(k), s->queued[k]);
        fprintf(f, "cuzk_queue_depth{kind=\"%s\",state=\"running\"} %u\n", metric_kind(k), s->running[k]);
    }
    family(f, "cuzk_partitions_proved_total", "counter", "Partitions proved, on every device.");
    fprintf(f, "cuzk_partitions_proved_total %llu\n", (unsigned long long)e->partitions_proved);
    family(f, "cuzk_partition_retries_total", "counter",
           "Partitions proved again after their GPU ran out of memory (the device budget cut, the circuit "
           "placed again).");
    fprintf(f, "cuzk_partition_retries_total %llu\n", (unsigned long long)e->partition_retries);
    family(f, "cuzk_stage_seconds_total", "counter", "Every ended job's timeline, summed by span name.");
    for (int i = 0; i < ENGINE_STAGES && e->stages[i].name[0]; i++) {
        fputs("cuzk_stage_seconds_total{stage=", f);
        label_value(f, e->stages[i].name);
        fprintf(f, "} %.6f\n", e->stages[i].seconds);
    }
    family(f, "cuzk_reclaimed_bytes_total", "counter", "Bytes freed by the background reclaimer.");
    fprintf(f, "cuzk_reclaimed_bytes_total %llu\n", (unsigned long long)e->reclaimed_bytes);
    family(f, "cuzk_reclaim_seconds_total", "counter", "Time the background reclaimer spent freeing.");
    fprintf(f, "cuzk_reclaim_seconds_total %.6f\n", e->reclaim_s);
}

/* The latency histograms of the kinds submitted to, a stage's where the kind's jobs had it
 * (locked). */
static void histograms(cuzk_engine *e, FILE *f)
{
    ENGINE_LOCKED(e);
    char labels[96];
    family(f, "cuzk_job_duration_seconds", "histogram",
           "Jobs from submit to end, by proof kind (every outcome), recorded as they end.");
    for (int k = 0; k < CUZK_KINDS; k++) {
        if (!e->submitted[k]) continue;
        snprintf(labels, sizeof labels, "kind=\"%s\"", metric_kind(k));
        hist_print(f, "cuzk_job_duration_seconds", labels, &e->job_hist[k]);
    }
    family(f, "cuzk_job_queue_wait_seconds", "histogram",
           "Jobs from submit to the first partition on a device, by proof kind (jobs that got there).");
    for (int k = 0; k < CUZK_KINDS; k++) {
        if (!e->submitted[k]) continue;
        snprintf(labels, sizeof labels, "kind=\"%s\"", metric_kind(k));
        hist_print(f, "cuzk_job_queue_wait_seconds", labels, &e->queue_hist[k]);
    }
    family(f, "cuzk_job_stage_seconds", "histogram",
           "A job's time in one stage (load, witness, prove, verify; its partitions summed), by proof kind.");
    for (int st = 0; st < JOB_STAGES; st++)
        for (int k = 0; k < CUZK_KINDS; k++) {
            if (!e->stage_hist[st][k].count) continue;
            snprintf(labels, sizeof labels, "kind=\"%s\",stage=\"%s\"", metric_kind(k), stage_name(st));
            hist_print(f, "cuzk_job_stage_seconds", labels, &e->stage_hist[st][k]);
        }
}

static void circuit_series(FILE *f, const char *name, const char *circuit, const char *tier)
{
    fprintf(f, "%s{circuit=", name);
    label_value(f, circuit);
    fprintf(f, ",tier=\"%s\"} ", tier);
}

/* A circuit's tier was loaded, or tried. */
static bool load_tried(const engine_circuit *c, int t) { return c->loads[t] || c->load_failures[t]; }

/* Loads by circuit and tier, of the tiers a load was tried on (locked). */
static void loads(cuzk_engine *e, FILE *f)
{
    ENGINE_LOCKED(e);
    static const char *const tiers[2] = {"host", "device"};
    family(f, "cuzk_param_loads_total", "counter",
           "Loads of a circuit's parameters and precompiled circuit that made it resident, by tier.");
    for (const engine_circuit *c = e->circuits; c; c = c->next)
        for (int t = 0; t < 2; t++) {
            if (!load_tried(c, t)) continue;
            circuit_series(f, "cuzk_param_loads_total", c->id, tiers[t]);
            fprintf(f, "%llu\n", (unsigned long long)c->loads[t]);
        }
    family(f, "cuzk_param_load_failures_total", "counter",
           "Loads that failed or did not fit the tier's budget, by circuit and tier.");
    for (const engine_circuit *c = e->circuits; c; c = c->next)
        for (int t = 0; t < 2; t++) {
            if (!load_tried(c, t)) continue;
            circuit_series(f, "cuzk_param_load_failures_total", c->id, tiers[t]);
            fprintf(f, "%llu\n", (unsigned long long)c->load_failures[t]);
        }
    family(f, "cuzk_param_load_seconds_total", "counter", "Time spent loading, by circuit and tier (every load).");
    for (const engine_circuit *c = e->circuits; c; c = c->next)
        for (int t = 0; t < 2; t++) {
            if (!load_tried(c, t)) continue;
            circuit_series(f, "cuzk_param_load_seconds_total", c->id, tiers[t]);
            fprintf(f, "%.6f\n", c->load_s[t]);
        }
}

/* A device's series name and label: its ordinal (-1: the CPU), with "/K" for the K-th extra
 * context of a GPU or CPU worker (engine.gpu_contexts, engine.cpu_workers). */
static void device_series(FILE *f, const char *name, const cuzk_engine_device_status *d)
{
    if (d->context) fprintf(f, "%s{device=\"%d/%u\"} ", name, d->ordinal, d->context);
    else fprintf(f, "%s{device=\"%d\"} ", name, d->ordinal);
}

/* A circuit that holds memory, is loading or is in use: the others (every registered circuit
 * an idle daemon has never proved) have no gauges. */
static bool circuit_held(const cuzk_engine_circuit_status *c)
{
    return c->host_bytes || c->device_bytes || c->pinned_bytes || c->loading || c->refs;
}

/* Devices and memory, from the status snapshot. */
static void gauges(const cuzk_engine_status *s, FILE *f)
{
    family(f, "cuzk_device_busy_seconds_total", "counter", "Time a device spent proving (ordinal -1: the CPU).");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_busy_seconds_total", &s->devices[i]);
        fprintf(f, "%.6f\n", s->devices[i].busy_s);
    }
    family(f, "cuzk_device_idle_seconds_total", "counter", "Time a device did not prove since the engine started.");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_idle_seconds_total", &s->devices[i]);
        fprintf(f, "%.6f\n", s->devices[i].idle_s);
    }
    family(f, "cuzk_device_gap_seconds_total", "counter", "Idle time between partitions while work waited.");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_gap_seconds_total", &s->devices[i]);
        fprintf(f, "%.6f\n", s->devices[i].gap_total_s);
    }
    family(f, "cuzk_device_partitions_total", "counter", "Partitions proved, by device.");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_partitions_total", &s->devices[i]);
        fprintf(f, "%llu\n", (unsigned long long)s->devices[i].partitions_proved);
    }
    family(f, "cuzk_device_batched_partitions_total", "counter",
           "Partitions a streamed GPU proved in batches (two or more of a job sharing each pass over the bases).");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_batched_partitions_total", &s->devices[i]);
        fprintf(f, "%llu\n", (unsigned long long)s->devices[i].partitions_batched);
    }
    family(f, "cuzk_device_upload_bytes_total", "counter",
           "Bytes a GPU's proofs copied from host memory (streamed bases, witnesses, a, b, c).");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_upload_bytes_total", &s->devices[i]);
        fprintf(f, "%llu\n", (unsigned long long)s->devices[i].upload_bytes);
    }
    family(f, "cuzk_device_in_service", "gauge", "1 while a device proves, 0 once taken out of service.");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_in_service", &s->devices[i]);
        fprintf(f, "%d\n", s->devices[i].in_service);
    }
    family(f, "cuzk_device_resident_bytes", "gauge", "Parameters and circuits resident on a device.");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_resident_bytes", &s->devices[i]);
        fprintf(f, "%llu\n", (unsigned long long)s->devices[i].resident_bytes);
    }
    family(f, "cuzk_device_budget_bytes", "gauge",
           "What a device may hold resident (engine.device_budget, or measured at start; cut when another process "
           "takes the memory).");
    for (unsigned i = 0; i < s->ndevices; i++) {
        device_series(f, "cuzk_device_budget_bytes", &s->devices[i]);
        fprintf(f, "%llu\n", (unsigned long long)s->devices[i].budget_bytes);
    }
    /* a GPU's own figures: once per GPU, not per context */
    family(f, "cuzk_device_memory_total_bytes", "gauge", "A GPU's memory as the driver reports it.");
    for (unsigned i = 0; i < s->ndevices; i++)
        if (s->devices[i].ordinal >= 0 && !s->devices[i].context)
            fprintf(f, "cuzk_device_memory_total_bytes{device=\"%d\"} %llu\n", s->devices[i].ordinal,
                    (unsigned long long)s->devices[i].mem_total);
    family(f, "cuzk_device_memory_free_bytes", "gauge", "A GPU's free memory as the driver reports it.");
    for (unsigned i = 0; i < s->ndevices; i++)
        if (s->devices[i].ordinal >= 0 && !s->devices[i].context)
            fprintf(f, "cuzk_device_memory_free_bytes{device=\"%d\"} %llu\n", s->devices[i].ordinal,
                    (unsigned long long)s->devices[i].mem_free);
    family(f, "cuzk_circuit_resident_bytes", "gauge",
           "A circuit's parameters and precompiled circuit by tier (device: summed over the GPUs).");
    for (unsigned i = 0; i < s->ncircuits; i++) {
        if (!circuit_held(&s->circuits[i])) continue;
        circuit_series(f, "cuzk_circuit_resident_bytes", s->circuits[i].id, "host");
        fprintf(f, "%llu\n", (unsigned long long)s->circuits[i].host_bytes);
        circuit_series(f, "cuzk_circuit_resident_bytes", s->circuits[i].id, "device");
        fprintf(f, "%llu\n", (unsigned long long)s->circuits[i].device_bytes);
    }
    family(f, "cuzk_circuit_placement", "gauge",
           "1 for each GPU a circuit is on (or loading to), labelled with its placement: resident, streamed or "
           "mapped.");
    for (unsigned i = 0; i < s->ncircuits; i++)
        for (unsigned d = 0; d < CUZK_ENGINE_MAX_DEVICES && d < s->ndevices; d++) {
            if (!s->circuits[i].device[d] && !s->circuits[i].streamed[d]) continue;
            fprintf(f, "cuzk_circuit_placement{circuit=");
            label_value(f, s->circuits[i].id);
            fprintf(f, ",device=\"%d\",placement=\"%s\"} 1\n", s->devices[d].ordinal,
                    s->circuits[i].mapped[d]         ? "mapped"
                        : s->circuits[i].streamed[d] ? "streamed"
                                                     : "resident");
        }
    family(f, "cuzk_circuit_pinned_bytes", "gauge", "Page-locked host memory of a circuit's streamed parameters.");
    for (unsigned i = 0; i < s->ncircuits; i++) {
        if (!s->circuits[i].pinned_bytes) continue;
        fprintf(f, "cuzk_circuit_pinned_bytes{circuit=");
        label_value(f, s->circuits[i].id);
        fprintf(f, "} %llu\n", (unsigned long long)s->circuits[i].pinned_bytes);
    }
    family(f, "cuzk_host_bytes", "gauge", "Host memory held: parameters, circuits, witness buffers, job inputs.");
    fprintf(f, "cuzk_host_bytes %llu\n", (unsigned long long)s->host_bytes);
    family(f, "cuzk_host_budget_bytes", "gauge", "What the host memory held may reach (engine.host_budget).");
    fprintf(f, "cuzk_host_budget_bytes %llu\n", (unsigned long long)s->host_budget);
    family(f, "cuzk_pinned_bytes", "gauge", "Host memory page-locked for uploads to the GPUs.");
    fprintf(f, "cuzk_pinned_bytes %llu\n", (unsigned long long)s->pinned_bytes);
    family(f, "cuzk_uptime_seconds", "gauge", "Time since the engine started.");
    fprintf(f, "cuzk_uptime_seconds %.3f\n", s->uptime_s);
}

static void metrics_body(cuzk_engine *e, const cuzk_engine_status *s, FILE *f)
{
    engine_mutex_lock(&e->mu);
    counters(e, s, f);
    histograms(e, f);
    loads(e, f);
    engine_mutex_unlock(&e->mu);
    gauges(s, f);
}

char *cuzk_engine_metrics(cuzk_engine *e) { return report_text(e, metrics_body); }
