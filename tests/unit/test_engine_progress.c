/* The jobs' progress (cuzk_engine_jobs, cuzk_engine_job_progress) on the CPU backend, with
 * small registered test circuits: a job held on the device reads RUNNING / proving with the
 * right counts and ids while the job behind it waits; the list puts running jobs first, then
 * queued, then ended, honours its limit and filter and counts them all; an unknown id is
 * NOT_FOUND; the time left is unknown until the circuit's first proof and then known; the
 * stages a watcher sees only move forward, through proving (with the CPU prover's own stage)
 * to ended; the status JSON carries the jobs and each device's request id; the progress sink
 * sees a one-partition job's witness, NTT and MSM tasks and a many-partition job's
 * "partitions proved" task only. */
#include <jansson.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/engine_testing.h"
#include "cuzk/groth16.h"
#include "cuzk/testcircuits.h"
#include "harness.h"
#include "support_named.h"

#define WAIT_S 120.0

static char tmpdir[64];
static char small_params[300], big_params[300]; /* random:1024, random:16384 */

static void make_params(char *path, size_t cap, const char *name, uint64_t seed)
{
    snprintf(path, cap, "%s/%s.params", tmpdir, name + strlen("random:"));
    cuzk_circuit *c;
    cuzk_r1cs m;
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    if (cuzk_circuit_open(&c, name) || cuzk_circuit_record(c, &m) || cuzk_groth16_setup(&p, &m, &rng, NULL) ||
        cuzk_groth16_params_write(&p, path)) {
        fprintf(stderr, "cannot make the parameters of %s: %s\n", name, cuzk_last_error());
        exit(1);
    }
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

/* ---------------------------------------------------------------- the held device */
/* The test hook holds every partition on the device while `held` is set. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool held;
    unsigned waiting; /* partitions held now */
    double delay_s;   /* each partition sleeps this long first (stages made visible) */
} hold;

static cuzk_status hold_hook(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)job, (void)partition, (void)device;
    hold *h = ctx;
    pthread_mutex_lock(&h->mu);
    h->waiting++;
    pthread_cond_broadcast(&h->cv);
    while (h->held) pthread_cond_wait(&h->cv, &h->mu);
    h->waiting--;
    double d = h->delay_s;
    pthread_mutex_unlock(&h->mu);
    if (d > 0) {
        struct timespec ts = {0, (long)(d * 1e9)};
        nanosleep(&ts, NULL);
    }
    return CUZK_OK;
}

static void set_held(hold *h, bool held)
{
    pthread_mutex_lock(&h->mu);
    h->held = held;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* Waits until a partition is held on the device; false after WAIT_S. */
static bool wait_held(hold *h)
{
    double end = cuzk_now() + WAIT_S;
    pthread_mutex_lock(&h->mu);
    while (!h->waiting && cuzk_now() < end) {
        pthread_mutex_unlock(&h->mu);
        usleep(1000);
        pthread_mutex_lock(&h->mu);
    }
    bool ok = h->waiting > 0;
    pthread_mutex_unlock(&h->mu);
    return ok;
}

/* ---------------------------------------------------------------- engine helpers */
static cuzk_engine *start(hold *h, const cuzk_progress_sink *sink)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.gpus = 0;
    cfg.cpu_worker = true;
    cfg.threads = 2;
    cfg.urgent_threads = 1;
    cfg.progress = sink;
    cuzk_engine *e = NULL;
    if (cuzk_engine_create(&e, &cfg, NULL)) {
        fprintf(stderr, "cannot start the engine: %s\n", cuzk_last_error());
        exit(1);
    }
    if (h) cuzk_engine_set_test_hook(e, hold_hook, h);
    cuzk_engine_circuit c = {
        .id = "small", .open = named_circuit_open, .ctx = (void *)"random:1024", .params_path = small_params};
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
    c = (cuzk_engine_circuit){
        .id = "big", .open = named_circuit_open, .ctx = (void *)"random:16384", .params_path = big_params};
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
    return e;
}

static uint64_t submit(cuzk_engine *e, const char *circuit, unsigned partitions, const char *request_id)
{
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT,
                            .priority = CUZK_PRIORITY_NORMAL,
                            .circuit = circuit,
                            .partitions = partitions,
                            .seed = 7,
                            .request_id = request_id};
    uint64_t id = 0;
    CHECK_OK(cuzk_engine_submit(e, &req, &id, NULL));
    return id;
}

static void expect_completed(cuzk_engine *e, uint64_t id)
{
    cuzk_job_result r;
    CHECK_OK(cuzk_engine_await(e, id, WAIT_S, &r));
    CHECK(r.state == CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&r);
}

static cuzk_job_progress progress(cuzk_engine *e, uint64_t id)
{
    cuzk_job_progress p;
    CHECK_OK(cuzk_engine_job_progress(e, id, &p));
    return p;
}

/* ---------------------------------------------------------------- the tests */
/* A job held on the device and one behind it: their fields, the list's order, limit and
 * filter; then both ended. */
static void test_snapshot(void)
{
    hold h = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, true, 0, 0};
    cuzk_engine *e = start(&h, NULL);
    uint64_t a = submit(e, "small", 3, "job-a");
    CHECK(wait_held(&h));
    uint64_t b = submit(e, "small", 1, "job-b");
    uint64_t c = submit(e, "small", 2, NULL);

    cuzk_job_progress p = progress(e, a);
    CHECK(p.job_id == a && !strcmp(p.request_id, "job-a") && p.kind == CUZK_KIND_CIRCUIT);
    CHECK(p.priority == CUZK_PRIORITY_NORMAL && !strcmp(p.circuit, "small"));
    CHECK(p.state == CUZK_JOB_RUNNING && p.stage == CUZK_STAGE_PROVING && p.devices == 1);
    CHECK(p.partitions == 3 && p.proved == 0 && p.witnessed >= 1 && p.witnessed <= 3);
    CHECK(p.left_s < 0); /* nothing of the circuit was proved on this engine yet */
    CHECK(p.elapsed_s >= p.queue_s && p.queue_s >= 0 && !p.error[0]);
    CHECK(!strcmp(p.prove_stage, "")); /* held before its prover starts */

    cuzk_job_progress q = progress(e, b);
    CHECK(!strcmp(q.request_id, "job-b") && q.partitions == 1 && q.proved == 0 && q.devices == 0);
    CHECK(q.stage == CUZK_STAGE_QUEUED || q.stage == CUZK_STAGE_WITNESS);

    cuzk_job_progress list[8];
    size_t n = 0, total = 0;
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ALL, list, 8, &n, &total));
    CHECK(n == 3 && total == 3);
    /* running first (a, and b once its witness was taken), then queued in submit order */
    CHECK(n == 3 && list[0].state == CUZK_JOB_RUNNING);
    bool a_first = n == 3 && list[0].job_id == a, order = true;
    for (size_t i = 1; i < n; i++)
        if (list[i].state == CUZK_JOB_QUEUED && list[i - 1].state == CUZK_JOB_QUEUED)
            order &= list[i].job_id > list[i - 1].job_id;
    CHECK(order);
    CHECK(a_first || (n == 3 && list[0].job_id == b && list[1].job_id == a));
    bool has_c = false;
    for (size_t i = 0; i < n; i++) has_c |= list[i].job_id == c && !list[i].request_id[0];
    CHECK(has_c);
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ALL, list, 1, &n, &total));
    CHECK(n == 1 && total == 3);
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ALL, NULL, 0, &n, &total));
    CHECK(n == 0 && total == 3);
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ENDED, list, 8, &n, &total));
    CHECK(n == 0 && total == 0);
    CHECK_FAILS(cuzk_engine_jobs(e, 0, list, 8, &n, &total), CUZK_EINVAL);
    CHECK_FAILS(cuzk_engine_job_progress(e, 999999, &p), CUZK_ENOTFOUND);

    /* the status JSON: the device names its job by request id; the jobs are there */
    char *json = cuzk_engine_status_json(e);
    json_error_t err;
    json_t *o = json ? json_loads(json, 0, &err) : NULL;
    CHECK(o != NULL);
    json_t *dev = json_array_get(json_object_get(o, "devices"), 0);
    CHECK(!strcmp(json_string_value(json_object_get(dev, "running_request")) ?: "", "job-a"));
    CHECK(json_integer_value(json_object_get(o, "jobs_total")) == 3);
    json_t *jobs = json_object_get(o, "jobs");
    CHECK(json_array_size(jobs) == 3);
    json_t *j0 = json_array_get(jobs, 0);
    CHECK(!strcmp(json_string_value(json_object_get(j0, "state")) ?: "", "RUNNING"));
    CHECK(!strcmp(json_string_value(json_object_get(j0, "kind")) ?: "", "circuit"));
    CHECK(json_is_null(json_object_get(j0, "left_s")));
    json_decref(o);
    free(json);
    CHECK_OK(cuzk_engine_job_json(e, "job-b", &json));
    o = json ? json_loads(json, 0, &err) : NULL;
    CHECK(o && json_integer_value(json_object_get(o, "job_id")) == (json_int_t)b);
    CHECK(o && json_integer_value(json_object_get(o, "partitions")) == 1);
    json_decref(o);
    free(json);
    CHECK_FAILS(cuzk_engine_job_json(e, "no-such-job", &json), CUZK_ENOTFOUND);
    CHECK(json == NULL);

    set_held(&h, false);
    expect_completed(e, a);
    expect_completed(e, b);
    expect_completed(e, c);
    p = progress(e, a);
    CHECK(p.state == CUZK_JOB_COMPLETED && p.stage == CUZK_STAGE_ENDED);
    CHECK(p.proved == 3 && p.witnessed == 3 && p.devices == 0 && p.left_s == 0);
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ENDED, list, 8, &n, &total));
    CHECK(n == 3 && total == 3);
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_RUNNING | CUZK_JOBS_QUEUED, list, 8, &n, &total));
    CHECK(n == 0 && total == 0);
    /* the most recently ended first: with a limit of one, the last to end */
    CHECK_OK(cuzk_engine_jobs(e, CUZK_JOBS_ENDED, list, 1, &n, &total));
    CHECK(n == 1 && total == 3);

    /* the circuit's partitions were measured: a job held now has a time left */
    set_held(&h, true);
    uint64_t d = submit(e, "small", 2, "job-d");
    CHECK(wait_held(&h));
    p = progress(e, d);
    CHECK(p.stage == CUZK_STAGE_PROVING && p.left_s > 0);
    set_held(&h, false);
    expect_completed(e, d);
    CHECK(progress(e, d).left_s == 0);
    cuzk_engine_destroy(e);
}

/* A watcher polling a job sees its stages only move forward, proving among them (each
 * partition slowed down on the device), the CPU prover's stage at some point, and the end. */
typedef struct {
    cuzk_engine *e;
    uint64_t job;
    bool seen[CUZK_STAGE_ENDED + 1];
    bool backward, saw_prove_stage;
    unsigned last_proved;
    bool proved_backward;
} watcher;

static void *watch(void *arg)
{
    watcher *w = arg;
    int last = -1;
    double end = cuzk_now() + WAIT_S;
    while (cuzk_now() < end) {
        cuzk_job_progress p;
        if (cuzk_engine_job_progress(w->e, w->job, &p)) break;
        w->seen[p.stage] = true;
        if ((int)p.stage < last) w->backward = true;
        if (p.proved < w->last_proved) w->proved_backward = true;
        last = (int)p.stage;
        w->last_proved = p.proved;
        w->saw_prove_stage |= p.prove_stage[0] != 0;
        if (p.stage == CUZK_STAGE_ENDED) break;
        usleep(200);
    }
    return NULL;
}

static void test_stages_forward(void)
{
    hold h = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0, 0.03};
    cuzk_engine *e = start(&h, NULL);
    watcher w = {.e = e};
    w.job = submit(e, "big", 3, "forward");
    pthread_t th;
    CHECK(pthread_create(&th, NULL, watch, &w) == 0);
    expect_completed(e, w.job);
    pthread_join(th, NULL);
    CHECK(!w.backward && !w.proved_backward);
    CHECK(w.seen[CUZK_STAGE_PROVING] && w.seen[CUZK_STAGE_ENDED]);
    CHECK(w.saw_prove_stage); /* random:16384 on the CPU: its NTTs and MSMs take milliseconds */
    CHECK(w.last_proved == 3);
    cuzk_engine_destroy(e);
}

/* The progress sink: a job of one partition reports its witness, NTT and MSM as tasks; a job
 * of three its partitions proved only. */
typedef struct {
    pthread_mutex_t mu;
    char labels[16][CUZK_PROGRESS_WHAT_MAX];
    uint64_t final_done[16];
    unsigned n;
} task_log;

static void log_report(void *ctx, const char *what, uint64_t done, uint64_t total, double elapsed_s, bool finished)
{
    (void)total, (void)elapsed_s;
    task_log *l = ctx;
    if (!finished) return;
    pthread_mutex_lock(&l->mu);
    if (l->n < 16) {
        snprintf(l->labels[l->n], sizeof l->labels[0], "%s", what);
        l->final_done[l->n++] = done;
    }
    pthread_mutex_unlock(&l->mu);
}

static int find_task(const task_log *l, const char *label)
{
    for (unsigned i = 0; i < l->n; i++)
        if (!strcmp(l->labels[i], label)) return (int)i;
    return -1;
}

static void test_sink_tasks(void)
{
    task_log log = {.mu = PTHREAD_MUTEX_INITIALIZER};
    cuzk_progress_sink sink = {log_report, &log};
    cuzk_engine *e = start(NULL, &sink);
    expect_completed(e, submit(e, "small", 1, "one"));
    int w = find_task(&log, "small: witness"), ntt = find_task(&log, "small: NTT"), msm = find_task(&log, "small: MSM");
    CHECK(w >= 0 && ntt > w && msm > ntt);
    CHECK(ntt >= 0 && log.final_done[ntt] == CUZK_PROVE_NTTS);
    CHECK(msm >= 0 && log.final_done[msm] == CUZK_PROVE_MSMS);
    CHECK(find_task(&log, "small: partitions proved") < 0);
    unsigned before = log.n;
    expect_completed(e, submit(e, "small", 3, "three"));
    cuzk_engine_destroy(e);
    CHECK(log.n == before + 1 && find_task(&log, "small: partitions proved") == (int)before);
    CHECK(log.final_done[before] == 3);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk-progress-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    make_params(small_params, sizeof small_params, "random:1024", 31);
    make_params(big_params, sizeof big_params, "random:16384", 32);
    test_snapshot();
    test_stages_forward();
    test_sink_tasks();
    unlink(small_params);
    unlink(big_params);
    rmdir(tmpdir);
    return harness_finish("test_engine_progress");
}
