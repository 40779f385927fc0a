/* The proving engine on the CPU backend, with small registered test circuits: many jobs
 * submitted at once from several threads all complete with proofs that verify on their own;
 * a request id joins a job only with the same content and never a FAILED or CANCELLED one; a CRITICAL job overtakes waiting NORMAL ones; queued and running jobs
 * cancel (and their inputs' memory comes back); host budgets refuse circuits that cannot fit;
 * failures injected by the test hook or by a circuit fail only their job; destroy with jobs in
 * flight wakes a waiter; the results store keeps result_max results; status, per-job stage
 * times, metrics (their histograms, and the text format checked line by line), preload and
 * evict; bad requests are refused; two devices (CPU workers, or two contexts on a GPU where one
 * is) share the work and one taken out of service mid-run loses no job. `test_engine NAME...`
 * runs only the named parts; `test_engine queued-bench` (a measurement) runs only when named. */
#define _GNU_SOURCE /* strcasestr, pthread_timedjoin_np */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/engine_testing.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/prove_path.h"
#include "cuzk/testcircuits.h"
#include "harness.h"
#include "support_cancel.h"
#include "support_result.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define MIB ((uint64_t)1 << 20)
#define WAIT_S 120.0 /* the longest any await of the test waits (a hung engine fails, not hangs) */

/* ---------------------------------------------------------------- parameters */
/* The circuits of the test, with parameters made once into a temporary folder. */
typedef struct {
    const char *name; /* the named test circuit */
    char params[300], vk_path[300];
    cuzk_groth16_vk vk; /* read back from vk_path */
    size_t ninputs;     /* public inputs, ONE omitted */
    uint64_t params_bytes;
} test_params;

static char tmpdir[64];
static test_params small, big; /* random:1024 (proofs of ~30 ms), random:16384 (8.9 MB of parameters) */

static void make_params(test_params *tp, const char *name, uint64_t seed)
{
    tp->name = name;
    snprintf(tp->params, sizeof tp->params, "%s/%s.params", tmpdir, name + strlen("random:"));
    snprintf(tp->vk_path, sizeof tp->vk_path, "%s/%s.vk", tmpdir, name + strlen("random:"));
    cuzk_circuit *c;
    cuzk_r1cs m;
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    if (cuzk_circuit_open(&c, name) || cuzk_circuit_record(c, &m) || cuzk_groth16_setup(&p, &m, &rng, NULL) ||
        cuzk_groth16_params_write(&p, tp->params) || cuzk_groth16_vk_write(&p.vk, tp->vk_path) ||
        cuzk_groth16_vk_read(&tp->vk, tp->vk_path)) {
        fprintf(stderr, "cannot make the parameters of %s: %s\n", name, cuzk_last_error());
        exit(1);
    }
    tp->ninputs = m.num_inputs - 1;
    FILE *f = fopen(tp->params, "rb");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 0, SEEK_END);
        tp->params_bytes = (uint64_t)ftell(f);
        fclose(f);
    }
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

/* The public inputs (ONE omitted) of partition seed of a named circuit, as the engine must
 * have proved it. */
static bool expected_inputs(const char *name, uint64_t seed, cuzk_fr *out, size_t ninputs)
{
    cuzk_circuit *c;
    cuzk_prove_result pr;
    if (cuzk_circuit_open(&c, name)) return false;
    bool ok = cuzk_circuit_prove_input(c, seed, &pr) == CUZK_OK;
    if (ok) {
        ok = pr.num_inputs == ninputs + 1;
        if (ok) memcpy(out, pr.input + 1, ninputs * sizeof *out);
        cuzk_prove_result_free(&pr);
    }
    cuzk_circuit_free(c);
    return ok;
}

/* ---------------------------------------------------------------- circuits by id */
typedef struct {
    const char *name;   /* the named test circuit every partition opens */
    int fail_partition; /* open fails for this partition (-1: never), a bad vanilla proof's stand-in */
    atomic_uint opens;
    const char *shape1; /* partition 1 opens this circuit of another shape instead (NULL: name) */
} circuit_ctx;

static cuzk_status open_circuit(void *vctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                                cuzk_circuit **out)
{
    circuit_ctx *c = vctx;
    atomic_fetch_add(&c->opens, 1);
    if (c->fail_partition >= 0 && partition == (unsigned)c->fail_partition)
        return cuzk_fail(CUZK_EFORMAT, "bad vanilla proof of partition %u", partition);
    return cuzk_circuit_open(out, c->shape1 && partition == 1 ? c->shape1 : c->name);
}

static circuit_ctx small_ctx = {"random:1024", -1, 0, NULL}, big_ctx = {"random:16384", -1, 0, NULL},
                   bad_ctx = {"random:1024", 1, 0, NULL}, mixed_ctx = {"random:1024", -1, 0, "random:1025"};

static void register_circuit(cuzk_engine *e, const char *id, circuit_ctx *ctx, const test_params *tp)
{
    cuzk_engine_circuit c = {0};
    c.id = id;
    c.open = open_circuit;
    c.ctx = ctx;
    c.params_path = tp->params;
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
}

/* ---------------------------------------------------------------- engine helpers */
static void config_base(cuzk_engine_config *cfg)
{
    cuzk_engine_config_default(cfg);
    cfg->gpus = 0;
    cfg->cpu_worker = true;
    cfg->threads = 2;
    cfg->urgent_threads = 1;
}

static cuzk_engine *engine_start(const cuzk_engine_config *cfg)
{
    cuzk_engine *e = NULL;
    if (cuzk_engine_create(&e, cfg, NULL) != CUZK_OK) {
        fprintf(stderr, "cannot start the engine: %s\n", cuzk_last_error());
        exit(1);
    }
    return e;
}

static cuzk_job_request circuit_request(const char *id, unsigned partitions, uint64_t seed, cuzk_priority prio)
{
    cuzk_job_request req = {0};
    req.kind = CUZK_KIND_CIRCUIT;
    req.priority = prio;
    req.circuit = id;
    req.partitions = partitions;
    req.seed = seed;
    return req;
}

/* Submits a CIRCUIT job (checked); 0 when the submit failed. */
static uint64_t submit_circuit(cuzk_engine *e, const char *id, unsigned partitions, uint64_t seed, cuzk_priority prio)
{
    cuzk_job_request req = circuit_request(id, partitions, seed, prio);
    uint64_t job = 0;
    bool joined = true;
    CHECK_OK(cuzk_engine_submit(e, &req, &job, &joined));
    CHECK(job != 0 && !joined);
    return job;
}

/* Awaits a job (checked call); returns its state, the result in *r (freed by the caller). */
static cuzk_job_state await_job(cuzk_engine *e, uint64_t job, cuzk_job_result *r)
{
    memset(r, 0, sizeof *r);
    cuzk_status st = cuzk_engine_await(e, job, WAIT_S, r);
    CHECK(st == CUZK_OK);
    if (st) {
        fprintf(stderr, "    await of job %llu: status %d: %s\n", (unsigned long long)job, (int)st, cuzk_last_error());
        return (cuzk_job_state)-1;
    }
    return r->state;
}

/* Awaits a job that must complete and frees its result. */
static void expect_completed(cuzk_engine *e, uint64_t job)
{
    cuzk_job_result r;
    cuzk_job_state s = await_job(e, job, &r);
    CHECK(s == CUZK_JOB_COMPLETED);
    if (s != CUZK_JOB_COMPLETED)
        fprintf(stderr, "    job %llu: state %d, error '%s'\n", (unsigned long long)job, (int)s, r.error);
    cuzk_job_result_free(&r);
}

static cuzk_engine_status *status_of(cuzk_engine *e)
{
    cuzk_engine_status *s = calloc(1, sizeof *s);
    if (!s) exit(1);
    cuzk_engine_get_status(e, s);
    return s;
}

static const cuzk_engine_circuit_status *circuit_status(const cuzk_engine_status *s, const char *id)
{
    for (unsigned i = 0; i < s->ncircuits && i < CUZK_ENGINE_MAX_CIRCUITS; i++)
        if (!strcmp(s->circuits[i].id, id)) return &s->circuits[i];
    return NULL;
}

/* The job on the CPU device (0 when idle). */
static uint64_t running_job(cuzk_engine *e)
{
    cuzk_engine_status *s = status_of(e);
    uint64_t job = 0;
    for (unsigned i = 0; i < s->ndevices && i < CUZK_ENGINE_MAX_DEVICES; i++)
        if (s->devices[i].running_job) job = s->devices[i].running_job;
    free(s);
    return job;
}

/* Polls the status until the device runs `job` (any job for 0); false after timeout_s. */
static bool wait_running(cuzk_engine *e, uint64_t job, double timeout_s)
{
    double end = cuzk_now() + timeout_s;
    while (cuzk_now() < end) {
        uint64_t j = running_job(e);
        if (job ? j == job : j != 0) return true;
        usleep(500);
    }
    return false;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static uint64_t sum_u64(const uint64_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

static unsigned sum_uint(const unsigned *v, size_t n)
{
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

/* A COMPLETED result of `partitions` proofs of the named circuit from `seed`: the shape, the
 * public inputs those of partitions seed + k, and every proof verifying against vk. */
static bool result_verifies(const cuzk_job_result *r, const test_params *tp, unsigned partitions, uint64_t seed)
{
    enum { MAXP = 8 };
    if (r->state != CUZK_JOB_COMPLETED || r->partitions != partitions || partitions > MAXP) return false;
    if (r->proof_len != (size_t)partitions * CUZK_GROTH16_PROOF_BYTES || !r->proof) return false;
    if (r->ninputs != tp->ninputs || !r->inputs || !r->verified || tp->ninputs > 16) return false;
    cuzk_groth16_proof proofs[MAXP];
    for (unsigned k = 0; k < partitions; k++)
        if (cuzk_groth16_proof_decode(&proofs[k], r->proof + (size_t)k * CUZK_GROTH16_PROOF_BYTES)) return false;
    cuzk_fr *inputs = result_inputs(r->inputs, (size_t)partitions * r->ninputs);
    bool ok = inputs && !cuzk_groth16_verify_batch(&tp->vk, proofs, partitions, inputs, r->ninputs);
    cuzk_fr expect[16];
    for (unsigned k = 0; ok && k < partitions; k++) {
        ok = expected_inputs(tp->name, seed + k, expect, tp->ninputs) &&
            !memcmp(expect, inputs + (size_t)k * r->ninputs, tp->ninputs * sizeof *expect);
    }
    free(inputs);
    return ok;
}

/* 2: text is a JSON object, 1: JSON of another type, 0: not JSON. */
static int json_kind(const char *text)
{
    if (!text) return 0;
    json_error_t err;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &err);
    /* 2: the engine's timeline form, an array of span objects with a name */
    int kind = !j ? 0 : 1;
    if (json_is_array(j) && json_array_size(j) > 0 && json_is_string(json_object_get(json_array_get(j, 0), "name")))
        kind = 2;
    json_decref(j);
    return kind;
}

/* The sum of the samples of a metric in Prometheus text ("name{...} v" or "name v" lines);
 * -1 when there is none. */
static double metric_sum(const char *text, const char *name)
{
    double sum = -1;
    size_t n = strlen(name);
    for (const char *line = text; line && *line;) {
        const char *next = strchr(line, '\n');
        if (!strncmp(line, name, n) && (line[n] == '{' || line[n] == ' ')) {
            const char *end = next ? next : line + strlen(line);
            const char *v = end;
            while (v > line && v[-1] != ' ') v--;
            if (sum < 0) sum = 0;
            sum += strtod(v, NULL);
        }
        line = next ? next + 1 : NULL;
    }
    return sum;
}

/* The value of one series ("name{labels}" exactly as written, or "name"); -1 when absent. */
static double metric_value(const char *text, const char *series)
{
    size_t n = strlen(series);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, series, n) && line[n] == ' ') return strtod(line + n + 1, NULL);
        line = strchr(line, '\n');
        if (line) line++;
    }
    return -1;
}

/* ---------------------------------------------------------------- exposition format */
/* A checker of the Prometheus text format as the engine writes it: every line a comment
 * ("# HELP name text", "# TYPE name type") or a sample "name{label="value",...} value"; every
 * sample's family (the name, or a histogram's name without _bucket, _sum, _count) has HELP and
 * TYPE lines before it, TYPE once; histogram series have cumulative buckets ending at +Inf,
 * and _count equals the +Inf bucket. false with why. */
enum { MAX_FAMILIES = 128 };
typedef struct {
    char name[96], type[16];
    bool help;
} family_seen;

static family_seen *family_find(family_seen *f, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(f[i].name) == len && !strncmp(f[i].name, name, len)) return &f[i];
    return NULL;
}

static bool name_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (!first && c >= '0' && c <= '9');
}

/* One sample line: its name's length, its labels (between the braces, or "") into labels, and
 * its value; false when it is not one. */
static bool parse_sample(const char *line, size_t len, size_t *name_len, char *labels, size_t cap, double *value)
{
    size_t i = 0;
    while (i < len && name_char(line[i], i == 0)) i++;
    if (!i) return false;
    *name_len = i;
    labels[0] = 0;
    if (i < len && line[i] == '{') {
        size_t start = ++i;
        while (i < len && line[i] != '}') {
            size_t l0 = i;
            while (i < len && name_char(line[i], i == l0)) i++;
            if (i == l0 || i + 1 >= len || line[i] != '=' || line[i + 1] != '"') return false;
            for (i += 2; i < len && line[i] != '"'; i++)
                if (line[i] == '\\' && (++i >= len || !strchr("\\\"n", line[i]))) return false;
            if (i >= len) return false;
            i++;
            if (i < len && line[i] == ',') i++;
        }
        if (i >= len || i - start >= cap) return false;
        memcpy(labels, line + start, i - start);
        labels[i - start] = 0;
        i++;
    }
    if (i >= len || line[i] != ' ') return false;
    char buf[64];
    size_t vl = len - i - 1;
    if (!vl || vl >= sizeof buf) return false;
    memcpy(buf, line + i + 1, vl);
    buf[vl] = 0;
    char *end;
    *value = strtod(buf, &end);
    return *end == 0;
}

static bool exposition_ok(const char *text, char *why, size_t cap)
{
    family_seen fam[MAX_FAMILIES];
    int nf = 0;
    char key[256] = "", labels[256];
    double last_bucket = -1;
    size_t nlen;
    double v;
    int lines = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        if (!nl) {
            snprintf(why, cap, "the text does not end with a newline");
            return false;
        }
        size_t len = (size_t)(nl - line);
        lines++;
        if (line[0] == '#') {
            bool help = !strncmp(line, "# HELP ", 7), type = !strncmp(line, "# TYPE ", 7);
            if (help || type) {
                const char *name = line + 7;
                size_t n = 0;
                while (name + n < nl && name_char(name[n], n == 0)) n++;
                if (!n || name + n >= nl || name[n] != ' ' || n >= sizeof fam[0].name) {
                    snprintf(why, cap, "line %d: a malformed comment: %.*s", lines, (int)len, line);
                    return false;
                }
                family_seen *f = family_find(fam, nf, name, n);
                if (!f) {
                    if (nf == MAX_FAMILIES) {
                        snprintf(why, cap, "more than %d families", MAX_FAMILIES);
                        return false;
                    }
                    f = &fam[nf++];
                    memset(f, 0, sizeof *f);
                    memcpy(f->name, name, n);
                }
                if (help) f->help = true;
                if (type) {
                    const char *t = name + n + 1;
                    size_t tl = (size_t)(nl - t);
                    bool known = false;
                    for (const char *const *k =
                             (const char *const[]){"counter", "gauge", "histogram", "summary", "untyped", NULL};
                         *k; k++)
                        known |= strlen(*k) == tl && !strncmp(t, *k, tl);
                    if (f->type[0] || !known) {
                        snprintf(why, cap, "line %d: %s: %.*s", lines, f->type[0] ? "a second TYPE" : "unknown type",
                                 (int)len, line);
                        return false;
                    }
                    memcpy(f->type, t, tl);
                }
            }
            line = nl + 1;
            continue;
        }
        if (!parse_sample(line, len, &nlen, labels, sizeof labels, &v)) {
            snprintf(why, cap, "line %d is no sample: %.*s", lines, (int)len, line);
            return false;
        }
        /* the family: the name itself, or a histogram's without its suffix */
        family_seen *f = family_find(fam, nf, line, nlen);
        const char *suffix = "";
        for (const char *const *sf = (const char *const[]){"_bucket", "_sum", "_count", NULL}; !f && *sf; sf++) {
            size_t sl = strlen(*sf);
            if (nlen > sl && !strncmp(line + nlen - sl, *sf, sl)) {
                f = family_find(fam, nf, line, nlen - sl);
                if (f && strcmp(f->type, "histogram")) f = NULL;
                suffix = *sf;
            }
        }
        if (!f || !f->help || !f->type[0]) {
            snprintf(why, cap, "line %d: a sample before its family's HELP and TYPE: %.*s", lines, (int)len, line);
            return false;
        }
        if (!strcmp(suffix, "_bucket")) {
            /* the series without its le label, to group its buckets */
            char *le = strstr(labels, "le=\"");
            if (!le) {
                snprintf(why, cap, "line %d: a bucket without le: %.*s", lines, (int)len, line);
                return false;
            }
            char k[256];
            snprintf(k, sizeof k, "%.*s{%.*s}", (int)nlen, line, (int)(le - labels), labels);
            if (strcmp(k, key)) last_bucket = -1;
            snprintf(key, sizeof key, "%s", k);
            if (v < last_bucket) {
                snprintf(why, cap, "line %d: buckets not cumulative: %.*s", lines, (int)len, line);
                return false;
            }
            last_bucket = v;
            if (!strncmp(le, "le=\"+Inf\"", 9)) {
                /* its _count: the series with _count for _bucket, without le */
                char series[320];
                size_t ll = (size_t)(le - labels);
                if (ll && labels[ll - 1] == ',') ll--;
                snprintf(series, sizeof series, "%.*s_count%s%.*s%s", (int)(nlen - 7), line, ll ? "{" : "", (int)ll,
                         labels, ll ? "}" : "");
                double count = metric_value(text, series);
                if (count != v) {
                    snprintf(why, cap, "%s is %g, its +Inf bucket %g", series, count, v);
                    return false;
                }
            }
        }
        line = nl + 1;
    }
    if (!lines) snprintf(why, cap, "no lines");
    return lines > 0;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &v) == 1) break;
    fclose(f);
    return v;
}

/* ---------------------------------------------------------------- names */
static void test_names(void)
{
    CHECK(cuzk_kind_index(CUZK_KIND_POREP) == 0 && cuzk_kind_index(CUZK_KIND_WINNING_POST) == 3);
    CHECK(cuzk_kind_index(CUZK_KIND_CIRCUIT) == 4 && cuzk_kind_index((cuzk_job_kind)7) == -1);
    CHECK(cuzk_kind_name(CUZK_KIND_WINDOW_POST) && !strcmp(cuzk_kind_name(CUZK_KIND_WINDOW_POST), "window-post"));
    CHECK(cuzk_kind_name((cuzk_job_kind)7) == NULL);
    cuzk_job_kind k = CUZK_KIND_POREP;
    CHECK_OK(cuzk_kind_parse(&k, "circuit"));
    CHECK(k == CUZK_KIND_CIRCUIT);
    CHECK_FAILS(cuzk_kind_parse(&k, "sealing"), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "sealing") != NULL);
    CHECK(!strcmp(cuzk_priority_name(CUZK_PRIORITY_DEFAULT), "default"));
    CHECK(!strcmp(cuzk_priority_name(CUZK_PRIORITY_CRITICAL), "critical"));
    cuzk_priority p = CUZK_PRIORITY_LOW;
    CHECK_OK(cuzk_priority_parse(&p, "high"));
    CHECK(p == CUZK_PRIORITY_HIGH);
    CHECK(cuzk_priority_parse(&p, "urgent") != CUZK_OK);
    for (int s = CUZK_JOB_QUEUED; s <= CUZK_JOB_TIMEOUT; s++) CHECK(cuzk_job_state_name((cuzk_job_state)s) != NULL);
    char id[64];
    cuzk_porep_circuit_id(id, 0); /* StackedDrg2KiBV1 */
    CHECK(!strcmp(id, "porep-2k"));
    cuzk_porep_circuit_id(id, 8); /* StackedDrg32GiBV1_1 */
    CHECK(!strcmp(id, "porep-32g"));
    /* the configuration: a table of section "engine" whose defaults are the default function's */
    size_t n = 0;
    const cuzk_config_key *keys = cuzk_engine_config_table(&n);
    CHECK(keys && n > 0);
    for (size_t i = 0; keys && i < n; i++) CHECK(!strcmp(keys[i].section, "engine"));
    cuzk_engine_config a, b;
    memset(&a, 0x5a, sizeof a);
    memset(&b, 0x5a, sizeof b);
    cuzk_engine_config_default(&a);
    cuzk_config_defaults(keys, n, &b);
    CHECK(a.gpus == b.gpus && a.threads == b.threads && a.result_max == b.result_max &&
          a.max_input_bytes == b.max_input_bytes && a.host_budget == b.host_budget);
    CHECK(a.pool == NULL && a.param_dir == NULL && a.cache_dir == NULL);
}

/* ---------------------------------------------------------------- 1, 9: many jobs, status */
#define SUBMITTERS 5
#define PER_SUBMITTER 10
#define MANY (SUBMITTERS * PER_SUBMITTER)

typedef struct {
    cuzk_engine *e;
    pthread_barrier_t *go;
    unsigned t;
    cuzk_priority prio[PER_SUBMITTER];
    unsigned parts[PER_SUBMITTER];
    uint64_t seed[PER_SUBMITTER], id[PER_SUBMITTER];
    cuzk_status submit_st[PER_SUBMITTER], await_st[PER_SUBMITTER];
    bool joined[PER_SUBMITTER];
    cuzk_job_result res[PER_SUBMITTER];
} submitter;

static void *submit_and_await(void *arg)
{
    submitter *s = arg;
    pthread_barrier_wait(s->go);
    for (unsigned i = 0; i < PER_SUBMITTER; i++) {
        unsigned k = s->t * PER_SUBMITTER + i;
        s->prio[i] = (cuzk_priority)(CUZK_PRIORITY_LOW + (k % 4));
        s->parts[i] = 1 + k % 3;
        s->seed[i] = 1000 + 10 * (uint64_t)k;
        cuzk_job_request req = circuit_request("small", s->parts[i], s->seed[i], s->prio[i]);
        s->submit_st[i] = cuzk_engine_submit(s->e, &req, &s->id[i], &s->joined[i]);
    }
    for (unsigned i = 0; i < PER_SUBMITTER; i++)
        s->await_st[i] = s->submit_st[i] ? CUZK_EINVAL : cuzk_engine_await(s->e, s->id[i], WAIT_S, &s->res[i]);
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_many_jobs_and_status(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);

    /* 1. 50 jobs from 5 threads at once, every priority, 1-3 partitions */
    static submitter subs[SUBMITTERS];
    pthread_t th[SUBMITTERS];
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, SUBMITTERS);
    double t0 = cuzk_now();
    for (unsigned t = 0; t < SUBMITTERS; t++) {
        memset(&subs[t], 0, sizeof subs[t]);
        subs[t].e = e;
        subs[t].go = &go;
        subs[t].t = t;
        CHECK(pthread_create(&th[t], NULL, submit_and_await, &subs[t]) == 0);
    }
    for (unsigned t = 0; t < SUBMITTERS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&go);
    double t1 = cuzk_now();

    uint64_t ids[MANY];
    unsigned submitted = 0, completed = 0, verified = 0, shaped = 0, total_parts = 0, timelines = 0, timelines_json = 0,
             timeline_shown = 0, staged = 0, stages_shown = 0, loaded = 0;
    double loads_s = 0;
    for (unsigned t = 0; t < SUBMITTERS; t++)
        for (unsigned i = 0; i < PER_SUBMITTER; i++) {
            submitter *s = &subs[t];
            cuzk_job_result *r = &s->res[i];
            ids[t * PER_SUBMITTER + i] = s->id[i];
            if (s->submit_st[i] == CUZK_OK && !s->joined[i]) submitted++;
            if (s->await_st[i] != CUZK_OK || r->state != CUZK_JOB_COMPLETED) {
                fprintf(stderr, "    job %llu: await %d, state %d, error '%s'\n", (unsigned long long)s->id[i],
                        (int)s->await_st[i], (int)r->state, r->error);
                cuzk_job_result_free(r);
                continue;
            }
            completed++;
            total_parts += s->parts[i];
            if (r->kind == CUZK_KIND_CIRCUIT && r->priority == s->prio[i] && !strcmp(r->circuit, "small") &&
                r->partitions == s->parts[i] && r->proof_len == s->parts[i] * 192u && r->verified && r->queue_s >= 0 &&
                r->run_s >= 0 && r->queue_s + r->run_s <= t1 - t0 + 0.01)
                shaped++;
            if (result_verifies(r, &small, s->parts[i], s->seed[i])) verified++;
            /* stage times: every stage but load in every job; one device proves a job's
             * partitions one after another, then the proofs are verified, all after its start;
             * a 1-partition job's witness comes before its proof (so before its start too), while
             * a longer job's next witness overlaps the proof of the one before */
            /* the wall clock's parts add up to it, each no longer than its stage (a proof's a, b, c on
             * the CPU count as witness in the stage sums, as proving on the wall clock) */
            double wall = r->wall_wait_s + r->wall_load_s + r->wall_witness_s + r->wall_prove_s + r->wall_verify_s;
            bool wall_ok = fabs(wall - (r->queue_s + r->run_s)) < 1e-6 && r->wall_wait_s >= 0 && r->wall_load_s >= 0 &&
                r->wall_witness_s >= 0 && r->wall_prove_s > 0 && r->wall_verify_s > 0 &&
                r->wall_prove_s <= r->prove_s + r->witness_s + 1e-6 && r->wall_load_s <= r->load_s + 1e-6 &&
                r->wall_verify_s <= r->verify_s + 1e-6;
            bool staged_ok = r->prove_s > 0 && r->witness_s > 0 && r->verify_s > 0 && r->load_s >= 0 &&
                r->prove_s + r->verify_s <= r->run_s + 0.01 &&
                (s->parts[i] > 1 || r->witness_s + r->prove_s + r->verify_s <= r->queue_s + r->run_s + 0.01) && wall_ok;
            staged += staged_ok;
            if (!staged_ok && !stages_shown++)
                fprintf(stderr,
                        "    job %llu (%u partitions): load %g witness %g prove %g verify %g, queue %g run %g; "
                        "wall: wait %g load %g witness %g prove %g verify %g\n",
                        (unsigned long long)s->id[i], s->parts[i], r->load_s, r->witness_s, r->prove_s, r->verify_s,
                        r->queue_s, r->run_s, r->wall_wait_s, r->wall_load_s, r->wall_witness_s, r->wall_prove_s,
                        r->wall_verify_s);
            loads_s += r->load_s;
            loaded += r->load_s > 0;
            int jk = json_kind(r->timeline_json);
            timelines_json += jk > 0;
            timelines += jk == 2;
            if (jk < 2 && !timeline_shown++)
                fprintf(stderr, "    job %llu: timeline_json is %s: %.160s\n", (unsigned long long)s->id[i],
                        jk ? "JSON but no array of spans" : "no JSON", r->timeline_json ? r->timeline_json : "(null)");
        }
    CHECK(submitted == MANY);
    CHECK(completed == MANY);
    CHECK(shaped == MANY);
    CHECK(verified == MANY);
    CHECK(timelines_json == MANY);
    CHECK(timelines == MANY); /* engine.h: a JSON array of spans */
    CHECK(staged == MANY);
    CHECK(loaded == 1 && loads_s > 0); /* the job that loaded the circuit has the load */
    /* the independent verification can fail: one input changed */
    {
        cuzk_job_result *r = &subs[0].res[2]; /* 3 partitions */
        if (r->state == CUZK_JOB_COMPLETED && r->partitions == 3 && r->proof_len == 3 * 192) {
            cuzk_groth16_proof pr[3];
            bool dec = true;
            for (int k = 0; k < 3; k++) dec = dec && cuzk_groth16_proof_decode(&pr[k], r->proof + 192 * k) == CUZK_OK;
            CHECK(dec);
            cuzk_fr *in = result_inputs(r->inputs, 3 * r->ninputs);
            CHECK(in != NULL);
            if (in) {
                cuzk_fr saved = in[r->ninputs + 1];
                cuzk_fr_add(&in[r->ninputs + 1], &in[r->ninputs + 1], &CUZK_FR_ONE);
                CHECK_FAILS(cuzk_groth16_verify_batch(&small.vk, pr, 3, in, r->ninputs), CUZK_EVERIFY);
                in[r->ninputs + 1] = saved;
                CHECK_OK(cuzk_groth16_verify_batch(&small.vk, pr, 3, in, r->ninputs));
            }
            free(in);
        } else {
            harness_fail(__FILE__, __LINE__, "job 2 of the first submitter completed with 3 partitions");
        }
    }
    /* distinct ids, none 0 */
    qsort(ids, MANY, sizeof ids[0], cmp_u64);
    unsigned dups = 0;
    for (unsigned i = 1; i < MANY; i++) dups += ids[i] == ids[i - 1];
    CHECK(ids[0] != 0 && dups == 0);
    for (unsigned t = 0; t < SUBMITTERS; t++)
        for (unsigned i = 0; i < PER_SUBMITTER; i++) cuzk_job_result_free(&subs[t].res[i]);

    cuzk_engine_status *st = status_of(e);
    int ci = cuzk_kind_index(CUZK_KIND_CIRCUIT);
    CHECK(sum_u64(st->completed, CUZK_KINDS) == MANY && st->completed[ci] == MANY);
    CHECK(sum_u64(st->failed, CUZK_KINDS) == 0 && sum_u64(st->cancelled, CUZK_KINDS) == 0);
    CHECK(sum_uint(st->queued, CUZK_KINDS) == 0 && sum_uint(st->running, CUZK_KINDS) == 0);
    CHECK(st->ndevices == 1 && st->devices[0].ordinal == -1 && st->devices[0].in_service);
    CHECK(st->devices[0].running_job == 0);
    CHECK(st->devices[0].partitions_proved == total_parts);
    if (st->devices[0].partitions_proved != total_parts)
        fprintf(stderr, "    partitions proved %llu, expected %u\n",
                (unsigned long long)st->devices[0].partitions_proved, total_parts);
    CHECK(st->uptime_s > 0 && st->host_bytes > 0);
    free(st);
    printf("  50 jobs, %u partitions: %.2f s\n", total_parts, t1 - t0);

    /* 9. status JSON, metrics */
    char *js = cuzk_engine_status_json(e);
    CHECK(js != NULL && js[0] == '{' && strstr(js, "devices") != NULL);
    if (js) {
        json_error_t err;
        json_t *j = json_loads(js, 0, &err);
        CHECK(j != NULL && json_is_object(j));
        json_t *devs = j ? json_object_get(j, "devices") : NULL;
        CHECK(devs != NULL && json_is_array(devs) && json_array_size(devs) == 1);
        if (!j) fprintf(stderr, "    status JSON: %s at %d\n", err.text, err.position);
        json_decref(j);
    }
    free(js);
    char *metrics = cuzk_engine_metrics(e);
    CHECK(metrics != NULL && strstr(metrics, "cuzk_jobs_completed_total") != NULL);
    if (metrics) {
        double v = metric_sum(metrics, "cuzk_jobs_completed_total");
        CHECK(v == MANY);
        if (v != MANY) fprintf(stderr, "    cuzk_jobs_completed_total sums to %g\n", v);
        char why[512] = "";
        bool ok = exposition_ok(metrics, why, sizeof why);
        CHECK(ok);
        if (!ok) fprintf(stderr, "    metrics: %s\n", why);
        /* ... and the checker itself refuses what is not the format */
        static const char *const bad[] = {
            "a 1\n",                                    /* no HELP, no TYPE */
            "# HELP a x\n# TYPE a gauge\na{b=\"c} 1\n", /* an open label value */
            "# HELP a x\n# TYPE a gauge\na 1 2 3\n",    /* no value */
            "# HELP a x\n# TYPE a gauge\na 1",          /* no newline at the end */
            "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n",
            "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_count 1\n",
        };
        unsigned refused = 0;
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) refused += !exposition_ok(bad[b], why, sizeof why);
        CHECK(refused == sizeof bad / sizeof bad[0]);
        CHECK(exposition_ok("# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\n"
                            "h_sum 3\nh_count 2\n",
                            why, sizeof why));
        /* the histograms: every job ended once, its stages, its queue wait; one host load */
        CHECK(metric_value(metrics, "cuzk_job_duration_seconds_bucket{kind=\"circuit\",le=\"+Inf\"}") == MANY);
        CHECK(metric_value(metrics, "cuzk_job_duration_seconds_count{kind=\"circuit\"}") == MANY);
        /* a kind never submitted has no histogram, only its zero count of submissions */
        CHECK(metric_value(metrics, "cuzk_job_duration_seconds_count{kind=\"porep\"}") == -1);
        CHECK(metric_value(metrics, "cuzk_jobs_submitted_total{kind=\"porep\"}") == 0);
        CHECK(metric_value(metrics, "cuzk_job_duration_seconds_sum{kind=\"circuit\"}") > 0);
        CHECK(metric_value(metrics, "cuzk_job_queue_wait_seconds_count{kind=\"circuit\"}") == MANY);
        CHECK(metric_value(metrics, "cuzk_job_stage_seconds_count{kind=\"circuit\",stage=\"witness\"}") == MANY);
        CHECK(metric_value(metrics, "cuzk_job_stage_seconds_count{kind=\"circuit\",stage=\"prove\"}") == MANY);
        CHECK(metric_value(metrics, "cuzk_job_stage_seconds_count{kind=\"circuit\",stage=\"verify\"}") == MANY);
        CHECK(metric_value(metrics, "cuzk_job_stage_seconds_count{kind=\"circuit\",stage=\"load\"}") == 1);
        CHECK(metric_value(metrics, "cuzk_param_loads_total{circuit=\"small\",tier=\"host\"}") == 1);
        CHECK(metric_value(metrics, "cuzk_param_load_seconds_total{circuit=\"small\",tier=\"host\"}") > 0);
        CHECK(metric_value(metrics, "cuzk_device_busy_seconds_total{device=\"-1\"}") > 0);
        CHECK(metric_value(metrics, "cuzk_circuit_resident_bytes{circuit=\"small\",tier=\"host\"}") > 0);
        CHECK(metric_value(metrics, "cuzk_host_budget_bytes") > 0);
        /* the names the metrics have always had */
        CHECK(metric_value(metrics, "cuzk_partitions_proved_total") == total_parts);
        CHECK(metric_sum(metrics, "cuzk_stage_seconds_total") > 0);
    }
    free(metrics);

    /* 9. residency: resident already; evict while idle frees it; preload makes it resident */
    double secs = -1;
    CHECK_OK(cuzk_engine_preload(e, "small", &secs));
    CHECK(secs == 0);
    if (secs != 0) fprintf(stderr, "    preload of a resident circuit: %g s\n", secs);
    st = status_of(e);
    const cuzk_engine_circuit_status *cs = circuit_status(st, "small");
    CHECK(cs && cs->host_params && cs->refs == 0 && cs->host_bytes > 0);
    free(st);
    uint64_t freed = 0;
    CHECK_OK(cuzk_engine_evict(e, "small", &freed));
    CHECK(freed > 0);
    st = status_of(e);
    cs = circuit_status(st, "small");
    CHECK(!cs || !cs->host_params);
    free(st);
    secs = -1;
    CHECK_OK(cuzk_engine_preload(e, "small", &secs));
    CHECK(secs > 0);
    st = status_of(e);
    cs = circuit_status(st, "small");
    CHECK(cs && cs->host_params && !cs->loading);
    free(st);
    CHECK_FAILS(cuzk_engine_evict(e, "no-such-circuit", &freed), CUZK_EINVAL);
    CHECK(cuzk_engine_preload(e, "no-such-circuit", &secs) != CUZK_OK);
    /* still proves after the round trip */
    expect_completed(e, submit_circuit(e, "small", 1, 7, CUZK_PRIORITY_NORMAL));
    metrics = cuzk_engine_metrics(e);
    CHECK(metrics != NULL);
    if (metrics) {
        CHECK(metric_value(metrics, "cuzk_job_duration_seconds_bucket{kind=\"circuit\",le=\"+Inf\"}") == MANY + 1);
        CHECK(metric_value(metrics, "cuzk_param_loads_total{circuit=\"small\",tier=\"host\"}") == 2);
    }
    free(metrics);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 2: request ids */
/* Submits req; CHECKs the call and whether it joined; returns the job. */
static uint64_t submit_as(cuzk_engine *e, const cuzk_job_request *req, bool want_joined)
{
    uint64_t job = 0;
    bool joined = !want_joined;
    CHECK_OK(cuzk_engine_submit(e, req, &job, &joined));
    CHECK(job != 0 && joined == want_joined);
    return job;
}

/* The job the request id names now (0: none). */
static uint64_t named_job(cuzk_engine *e, const char *request_id)
{
    uint64_t job = 0;
    if (cuzk_engine_find(e, request_id, &job)) cuzk_clear_error();
    return job;
}

/* A job's identity is its request id and the digest of what it proves (Curio reuses ids: every
 * WindowPoSt partition of a deadline under one id, a resealed sector's PoRep under the old one). */
static void test_request_ids(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    register_circuit(e, "bad", &bad_ctx, &small);
    cuzk_job_request req = circuit_request("small", 2, 50, CUZK_PRIORITY_NORMAL);
    req.request_id = "req-A";
    /* the same request again (a retry after a timeout) joins; so does one at another priority */
    uint64_t a = submit_as(e, &req, false);
    CHECK(submit_as(e, &req, true) == a);
    req.priority = CUZK_PRIORITY_HIGH;
    CHECK(submit_as(e, &req, true) == a);
    /* the same id with other content (another partition of the deadline) is a new job, which the
     * id then names; the first goes on for whoever waits on it */
    cuzk_job_request other = req;
    other.seed = 51;
    uint64_t b = submit_as(e, &other, false);
    CHECK(b != a && named_job(e, "req-A") == b);
    req.request_id = "req-B";
    uint64_t c = submit_as(e, &req, false);
    CHECK(c != a && c != b);
    cuzk_job_result r;
    CHECK(await_job(e, a, &r) == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 2, 50));
    uint8_t proof_a[2 * 192];
    memcpy(proof_a, r.proof, sizeof proof_a);
    cuzk_job_result_free(&r);
    CHECK(await_job(e, b, &r) == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 2, 51));
    CHECK(memcmp(r.proof, proof_a, sizeof proof_a) != 0);
    cuzk_job_result_free(&r);
    CHECK(await_job(e, c, &r) == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 2, 50));
    cuzk_job_result_free(&r);
    /* after the end, the first request again joins its COMPLETED job (the same proof) and the id
     * names that job again */
    req.request_id = "req-A";
    CHECK(submit_as(e, &req, true) == a && named_job(e, "req-A") == a);
    /* cancelling an ended job leaves it as it is */
    bool was_running = true;
    CHECK_OK(cuzk_engine_cancel(e, a, &was_running));
    CHECK(!was_running);
    CHECK(await_job(e, a, &r) == CUZK_JOB_COMPLETED && !memcmp(r.proof, proof_a, sizeof proof_a));
    cuzk_job_result_free(&r);

    /* a FAILED job is never joined: the same request proves again; the corrected one under the
     * same id completes */
    cuzk_job_request bad = circuit_request("bad", 2, 7, CUZK_PRIORITY_NORMAL);
    bad.request_id = "req-F";
    uint64_t f1 = submit_as(e, &bad, false);
    CHECK(await_job(e, f1, &r) == CUZK_JOB_FAILED);
    cuzk_job_result_free(&r);
    unsigned opens = atomic_load(&bad_ctx.opens);
    uint64_t f2 = submit_as(e, &bad, false);
    CHECK(f2 != f1 && await_job(e, f2, &r) == CUZK_JOB_FAILED);
    cuzk_job_result_free(&r);
    CHECK(atomic_load(&bad_ctx.opens) > opens); /* proved again, not answered from the old job */
    cuzk_job_request fixed = circuit_request("small", 2, 7, CUZK_PRIORITY_NORMAL);
    fixed.request_id = "req-F";
    uint64_t f3 = submit_as(e, &fixed, false);
    CHECK(await_job(e, f3, &r) == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 2, 7));
    cuzk_job_result_free(&r);
    CHECK(named_job(e, "req-F") == f3);

    /* a CANCELLED job is never joined: the same request after the cancel proves */
    cuzk_job_request cj = circuit_request("small", 2, 9, CUZK_PRIORITY_LOW);
    cj.request_id = "req-C";
    uint64_t k1 = submit_as(e, &cj, false);
    CHECK_OK(cuzk_engine_cancel(e, k1, &was_running));
    cuzk_job_state ks = await_job(e, k1, &r);
    cuzk_job_result_free(&r);
    uint64_t k2 = submit_as(e, &cj, ks != CUZK_JOB_CANCELLED); /* it may have completed first */
    CHECK(await_job(e, k2, &r) == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 2, 9));
    cuzk_job_result_free(&r);
    CHECK(ks != CUZK_JOB_CANCELLED || k2 != k1);

    /* ids are clean UTF-8 of at most CUZK_REQUEST_ID_MAX bytes, refused naming the field */
    static const char *const bad_ids[] = {"bad\xff", "caf\xc3", "\xc0\xaf", "\xed\xa0\x80", "tab\tid", "nl\nid"};
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        cj.request_id = bad_ids[i];
        uint64_t job = 1;
        CHECK(cuzk_engine_submit(e, &cj, &job, NULL) == CUZK_EINVAL && job == 0);
        CHECK(strstr(cuzk_last_error(), "request_id") != NULL);
    }
    char longest[CUZK_REQUEST_ID_MAX + 2];
    memset(longest, 'x', sizeof longest - 1);
    longest[sizeof longest - 1] = 0;
    cj.request_id = longest;
    uint64_t job = 0;
    CHECK(cuzk_engine_submit(e, &cj, &job, NULL) == CUZK_EINVAL && strstr(cuzk_last_error(), "request_id"));
    longest[CUZK_REQUEST_ID_MAX] = 0;
    cj.request_id = "caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x94\x92"; /* multibyte UTF-8 is fine */
    CHECK(await_job(e, submit_as(e, &cj, false), &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&r);
    cj.request_id = longest;
    CHECK(await_job(e, submit_as(e, &cj, false), &r) == CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&r);

    cuzk_engine_status *st = status_of(e);
    CHECK(st->completed[cuzk_kind_index(CUZK_KIND_CIRCUIT)] >= 6);
    free(st);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 3: priority */
/* The order partitions reach the device, recorded by the test hook; the first one is held there
 * until released, so that the jobs behind it are all waiting, their witnesses made, when the
 * device next picks: the tests assert the order of the picks, never a time. */
typedef struct {
    atomic_bool released;
    atomic_uint n;
    atomic_ullong job[64];
} order_ctx;

static cuzk_status order_hook(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)partition;
    (void)device;
    order_ctx *o = ctx;
    unsigned i = atomic_fetch_add(&o->n, 1);
    if (i < 64) atomic_store(&o->job[i], job);
    for (double end = cuzk_now() + 60; i == 0 && !atomic_load(&o->released) && cuzk_now() < end;) usleep(1000);
    return CUZK_OK;
}

/* One CPU device and 4 witness buffers (3 bulk, 1 urgent), the hook recording into o. */
static cuzk_engine *order_engine(order_ctx *o, unsigned aging_s)
{
    memset(o, 0, sizeof *o);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.threads = 2;
    cfg.urgent_threads = 1;
    cfg.witness_buffers = 4;
    cfg.aging_s = aging_s;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, order_hook, o);
    register_circuit(e, "small", &small_ctx, &small);
    double secs;
    CHECK_OK(cuzk_engine_preload(e, "small", &secs));
    return e;
}

/* Waits until n witnesses are made and waiting for the device (the event, not a time). */
static bool wait_witnesses(cuzk_engine *e, unsigned n)
{
    for (double end = cuzk_now() + 60; cuzk_now() < end; usleep(2000)) {
        cuzk_engine_status *st = status_of(e);
        bool ok = st->witnesses_ready >= n;
        free(st);
        if (ok) return true;
    }
    fprintf(stderr, "    %u witnesses were not made within 60 s\n", n);
    return false;
}

/* Waits until the device has taken n partitions (the first is held there). */
static bool wait_picks(order_ctx *o, unsigned n)
{
    for (double end = cuzk_now() + 60; cuzk_now() < end; usleep(2000))
        if (atomic_load(&o->n) >= n) return true;
    fprintf(stderr, "    the device did not take %u partitions within 60 s\n", n);
    return false;
}

/* The place of job's first partition in the device's order, or -1. */
static int first_pick(order_ctx *o, uint64_t job)
{
    unsigned n = atomic_load(&o->n);
    for (unsigned i = 0; i < n && i < 64; i++)
        if (atomic_load(&o->job[i]) == job) return (int)i;
    return -1;
}

/* A CRITICAL job submitted behind waiting NORMAL ones (their witnesses made too) is the next
 * the device proves: preemption at the partition boundary. */
static void test_priority(void)
{
    enum { NORMALS = 8 };
    static order_ctx o;
    cuzk_engine *e = order_engine(&o, 0);
    uint64_t normal[NORMALS];
    for (unsigned i = 0; i < NORMALS; i++)
        normal[i] = submit_circuit(e, "small", 2, 2000 + 10 * (uint64_t)i, CUZK_PRIORITY_NORMAL);
    CHECK(wait_picks(&o, 1));    /* normal[0]'s first partition, held on the device */
    CHECK(wait_witnesses(e, 2)); /* the two other bulk buffers made */
    uint64_t crit = submit_circuit(e, "small", 2, 3000, CUZK_PRIORITY_CRITICAL);
    CHECK(wait_witnesses(e, 3));   /* ... and the CRITICAL one in the urgent buffer */
    CHECK(atomic_load(&o.n) == 1); /* the device has taken only the held partition */
    atomic_store(&o.released, true);
    cuzk_job_result r;
    CHECK(await_job(e, crit, &r) == CUZK_JOB_COMPLETED);
    CHECK(result_verifies(&r, &small, 2, 3000));
    CHECK(r.priority == CUZK_PRIORITY_CRITICAL);
    cuzk_job_result_free(&r);
    for (unsigned i = 0; i < NORMALS; i++) expect_completed(e, normal[i]);
    int at = first_pick(&o, crit);
    CHECK(atomic_load(&o.job[0]) == normal[0] && at == 1);
    unsigned overtaken = 0; /* NORMAL jobs whose first partition went before the CRITICAL one */
    for (unsigned i = 1; i < NORMALS; i++) overtaken += first_pick(&o, normal[i]) < at;
    CHECK(overtaken == 0);
    printf("  priority: %u NORMAL jobs waiting (witnesses made); the CRITICAL job's first partition was the "
           "device's pick %d\n",
           NORMALS - 1, at);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 3a: the order of a mix */
/* The device's partitions one at a time, each held until the test lets it go: the test lets
 * partition i end only once the witness behind it is made, so every pick sees the same jobs
 * whatever the machine's speed. */
typedef struct {
    atomic_uint allowed, n;
    atomic_ullong job[64];
} step_ctx;

static cuzk_status step_hook(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)partition, (void)device;
    step_ctx *o = ctx;
    unsigned i = atomic_fetch_add(&o->n, 1);
    if (i < 64) atomic_store(&o->job[i], job);
    for (double end = cuzk_now() + 60; i >= atomic_load(&o->allowed) && cuzk_now() < end;) usleep(500);
    return CUZK_OK;
}

/* Jobs of every priority queued while the three witness buffers (two bulk, one urgent) are
 * full go to the device exactly in the scheduler's order: the highest priority first, the
 * oldest first within one (aging off). Each witness waiting for the device was the best job
 * left when it was picked, so the device, taking the best of them, proves every job in that
 * order; the pick finds it from the heads of its queues as it did from every job. */
static void test_mixed_order(void)
{
    enum { MIX = 16, ALL = MIX + 3 };
    static step_ctx o;
    memset(&o, 0, sizeof o);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.witness_buffers = 3;
    cfg.aging_s = 0;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, step_hook, &o);
    register_circuit(e, "small", &small_ctx, &small);
    double secs;
    CHECK_OK(cuzk_engine_preload(e, "small", &secs));
    /* the device held on one bulk buffer, the other two buffers made and waiting */
    uint64_t id[ALL];
    cuzk_priority prio[ALL] = {CUZK_PRIORITY_NORMAL, CUZK_PRIORITY_NORMAL, CUZK_PRIORITY_CRITICAL};
    id[0] = submit_circuit(e, "small", 1, 7000, prio[0]);
    CHECK(wait_running(e, id[0], 60));
    id[1] = submit_circuit(e, "small", 1, 7001, prio[1]);
    /* the NORMAL one's witness first: were the CRITICAL one submitted before the bulk lane took
     * the NORMAL one, that lane would take the CRITICAL (the better job) into the last bulk
     * buffer, and the NORMAL one could not have the urgent buffer (a busy machine did this) */
    CHECK(wait_witnesses(e, 1));
    id[2] = submit_circuit(e, "small", 1, 7002, prio[2]);
    CHECK(wait_witnesses(e, 2));
    /* then priorities interleaved, in an order no submission order gives */
    static const cuzk_priority mix[MIX] = {
        CUZK_PRIORITY_LOW,      CUZK_PRIORITY_HIGH,     CUZK_PRIORITY_NORMAL, CUZK_PRIORITY_CRITICAL,
        CUZK_PRIORITY_LOW,      CUZK_PRIORITY_NORMAL,   CUZK_PRIORITY_HIGH,   CUZK_PRIORITY_LOW,
        CUZK_PRIORITY_HIGH,     CUZK_PRIORITY_CRITICAL, CUZK_PRIORITY_NORMAL, CUZK_PRIORITY_LOW,
        CUZK_PRIORITY_CRITICAL, CUZK_PRIORITY_NORMAL,   CUZK_PRIORITY_HIGH,   CUZK_PRIORITY_LOW};
    for (unsigned i = 0; i < MIX; i++) id[3 + i] = submit_circuit(e, "small", 1, 7100 + i, prio[3 + i] = mix[i]);
    /* the order expected: the held one, then by priority, by submission within one */
    uint64_t want[ALL] = {id[0]};
    unsigned w = 1;
    for (int p = CUZK_PRIORITY_CRITICAL; p >= CUZK_PRIORITY_LOW; p--)
        for (unsigned i = 1; i < ALL; i++)
            if (prio[i] == (cuzk_priority)p) want[w++] = id[i];
    /* partition i ends once the device holds it and a witness waits behind it */
    for (unsigned i = 0; i < ALL; i++) {
        for (double end = cuzk_now() + 60; atomic_load(&o.n) <= i && cuzk_now() < end;) usleep(1000);
        CHECK(atomic_load(&o.n) > i);
        if (i + 1 < ALL) CHECK(wait_witnesses(e, 1));
        atomic_store(&o.allowed, i + 1);
    }
    for (unsigned i = 0; i < ALL; i++) expect_completed(e, id[i]);
    unsigned same = 0;
    for (unsigned i = 0; i < ALL; i++) same += atomic_load(&o.job[i]) == want[i];
    CHECK(atomic_load(&o.n) == ALL && same == ALL);
    if (same != ALL)
        for (unsigned i = 0; i < ALL; i++)
            fprintf(stderr, "    pick %u: job %llu, expected %llu\n", i, (unsigned long long)atomic_load(&o.job[i]),
                    (unsigned long long)want[i]);
    printf("  mixed order: %u jobs of four priorities went to the device in the scheduler's order (%u of %u)\n", ALL,
           same, ALL);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 3b: aging */
/* With engine.aging_s = 1 a LOW job that has waited over a second competes as NORMAL, and, as
 * the older, goes before a newer NORMAL job; without aging the NORMAL job goes first. */
static int aging_case(unsigned aging_s)
{
    static order_ctx o;
    cuzk_engine *e = order_engine(&o, aging_s);
    uint64_t held = submit_circuit(e, "small", 1, 1, CUZK_PRIORITY_NORMAL);
    CHECK(wait_picks(&o, 1));
    uint64_t low = submit_circuit(e, "small", 1, 5, CUZK_PRIORITY_LOW);
    CHECK(wait_witnesses(e, 1));
    usleep(1200 * 1000); /* over aging_s: the LOW job's class rises by one */
    uint64_t normal = submit_circuit(e, "small", 1, 6, CUZK_PRIORITY_NORMAL);
    CHECK(wait_witnesses(e, 2));
    atomic_store(&o.released, true);
    expect_completed(e, held);
    expect_completed(e, low);
    expect_completed(e, normal);
    int low_at = first_pick(&o, low), normal_at = first_pick(&o, normal);
    CHECK(low_at > 0 && normal_at > 0);
    cuzk_engine_destroy(e);
    return low_at < normal_at ? 1 : 0;
}

static void test_aging(void)
{
    CHECK(aging_case(1) == 1); /* aged: the LOW job first */
    CHECK(aging_case(0) == 0); /* no aging: the NORMAL job first */
    printf("  aging: a LOW job waiting 1.2 s went before a newer NORMAL one with aging_s 1, after it without\n");
}

/* ---------------------------------------------------------------- 4: cancel, and memory */
/* While armed, holds a job's first partition on the device until released, so that the test
 * sees the job running however slowly the machine runs it. */
typedef struct {
    atomic_bool armed, released;
} hold_ctx;

static cuzk_status hold_hook(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)device;
    hold_ctx *h = ctx;
    (void)job;
    if (!atomic_load(&h->armed) || partition) return CUZK_OK;
    for (double end = cuzk_now() + 60; !atomic_load(&h->released) && cuzk_now() < end;) usleep(1000);
    return CUZK_OK;
}

static void cancel_at_the_hook(void)
{
    const size_t input_len = UNDER_ASAN ? 16 * MIB : 256 * MIB;
    cuzk_engine_config cfg;
    config_base(&cfg);
    static hold_ctx hold;
    atomic_store(&hold.armed, false);
    atomic_store(&hold.released, false);
    cfg.max_input_bytes = 512 * MIB;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, hold_hook, &hold);
    register_circuit(e, "small", &small_ctx, &small);
    /* a first job, so that parameters, circuit and buffers are in the baseline */
    expect_completed(e, submit_circuit(e, "small", 2, 1, CUZK_PRIORITY_NORMAL));

    uint8_t *input = malloc(input_len);
    CHECK(input != NULL);
    if (!input) return;
    memset(input, 0x5a, input_len);
    long base = rss_kib();

    atomic_store(&hold.armed, true);
    cuzk_job_request req = circuit_request("small", 40, 100, CUZK_PRIORITY_NORMAL);
    req.input = input;
    req.input_len = input_len;
    uint64_t running = 0, queued = 0;
    bool joined;
    CHECK_OK(cuzk_engine_submit(e, &req, &running, &joined));
    req.priority = CUZK_PRIORITY_LOW;
    req.partitions = 2;
    CHECK_OK(cuzk_engine_submit(e, &req, &queued, &joined));
    long after_submit = rss_kib();
    CHECK(running != 0 && queued != 0 && running != queued);

    bool seen = wait_running(e, running, 30);
    CHECK(seen);
    if (!seen)
        fprintf(stderr, "    job %llu never seen on the device; it runs %llu\n", (unsigned long long)running,
                (unsigned long long)running_job(e));
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    CHECK_OK(cuzk_engine_await(e, running, 0, &r));
    CHECK(r.state == CUZK_JOB_TIMEOUT);
    cuzk_job_result_free(&r);
    uint64_t freed = 0;
    CHECK_FAILS(cuzk_engine_evict(e, "small", &freed), CUZK_EBUSY); /* in use */

    bool was_running = true;
    CHECK_OK(cuzk_engine_cancel(e, queued, &was_running));
    CHECK(!was_running);
    was_running = false;
    CHECK_OK(cuzk_engine_cancel(e, running, &was_running));
    CHECK(was_running);
    atomic_store(&hold.released, true); /* its partition on the device ends; the job with it */
    double t0 = cuzk_now();
    for (int k = 0; k < 2; k++) {
        uint64_t job = k ? running : queued;
        cuzk_job_state s = await_job(e, job, &r);
        CHECK(s == CUZK_JOB_CANCELLED);
        CHECK(r.error[0] != 0 && r.proof == NULL);
        if (s != CUZK_JOB_CANCELLED)
            fprintf(stderr, "    the %s job %llu: state %d, error '%s'\n", k ? "running" : "queued",
                    (unsigned long long)job, (int)s, r.error);
        cuzk_job_result_free(&r);
    }
    double cancel_s = cuzk_now() - t0;
    CHECK(cancel_s < 2); /* a partition boundary is ~30 ms away */
    was_running = true;
    CHECK_OK(cuzk_engine_cancel(e, running, &was_running)); /* ended: left as it is */
    CHECK(!was_running);

    /* the inputs' memory comes back (freed in the background) */
    long after_cancel = rss_kib();
    for (double end = cuzk_now() + 10; after_cancel - base > 64 * 1024 && cuzk_now() < end; after_cancel = rss_kib())
        usleep(20000);
    if (UNDER_ASAN) {
        printf("  cancel: RSS checks skipped under AddressSanitizer\n");
    } else {
        CHECK(after_submit - base >= 200 * 1024);
        CHECK(after_cancel - base <= 64 * 1024);
        printf("  cancel: RSS %ld MiB, %+ld MiB after two submits of 256 MiB, %+ld MiB after the cancels\n",
               base / 1024, (after_submit - base) / 1024, (after_cancel - base) / 1024);
    }
    free(input);
    cuzk_engine_status *st = status_of(e);
    int ci = cuzk_kind_index(CUZK_KIND_CIRCUIT);
    CHECK(st->cancelled[ci] == 2 && st->completed[ci] == 1);
    CHECK(sum_uint(st->queued, CUZK_KINDS) == 0 && sum_uint(st->running, CUZK_KINDS) == 0);
    free(st);
    /* the engine goes on */
    atomic_store(&hold.armed, false);
    expect_completed(e, submit_circuit(e, "small", 1, 5, CUZK_PRIORITY_NORMAL));
    cuzk_engine_destroy(e);
}

/* A job cancelled in the middle of its one partition's proof on the CPU backend ends within a
 * fraction of the time that proof takes (measured first in the same engine, so a slow machine
 * stretches both), CANCELLED and not FAILED, with was_running; the device stays in service and
 * proves the next job. Before the provers polled a cancel token, such a job ran to the end of
 * its partition: three quarters of the measured time here. */
static void cancel_mid_partition(void)
{
    test_params huge;
    make_params(&huge, getenv("CUZK_TEST_QUICK") ? "random:65536" : "random:262144", 23);
    circuit_ctx huge_ctx = {huge.name, -1, 0, NULL};
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "huge", &huge_ctx, &huge);

    /* the uncancelled partition: loads the circuit, and its time is the yardstick */
    uint64_t first = submit_circuit(e, "huge", 1, 1, CUZK_PRIORITY_NORMAL);
    cuzk_job_result r;
    CHECK(await_job(e, first, &r) == CUZK_JOB_COMPLETED);
    double full_s = r.prove_s;
    cuzk_job_result_free(&r);
    CHECK(full_s > 0);

    uint64_t job = submit_circuit(e, "huge", 1, 2, CUZK_PRIORITY_NORMAL);
    bool seen = wait_running(e, job, 60);
    CHECK(seen);
    sleep_s(full_s / 4); /* well inside the proof */
    bool was_running = false;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_engine_cancel(e, job, &was_running));
    CHECK(was_running);
    cuzk_job_state s = await_job(e, job, &r);
    double cancel_s = cuzk_now() - t0;
    CHECK(s == CUZK_JOB_CANCELLED);
    CHECK(r.proof == NULL && strstr(r.error, "cancelled") != NULL);
    CHECK(cancel_s < full_s / 2);
    printf("  cancel: %s proves in %.2f s on the CPU; cancelled %.2f s into it, it ended %.0f ms later (%s)\n",
           huge.name, full_s, full_s / 4, cancel_s * 1e3, r.error);
    cuzk_job_result_free(&r);

    /* a cancel is not a device error: the CPU backend is in service and proves the next job */
    cuzk_engine_status *st = status_of(e);
    for (unsigned i = 0; i < st->ndevices && i < CUZK_ENGINE_MAX_DEVICES; i++) CHECK(st->devices[i].in_service);
    int ci = cuzk_kind_index(CUZK_KIND_CIRCUIT);
    CHECK(st->cancelled[ci] == 1 && st->failed[ci] == 0);
    free(st);
    uint64_t next = submit_circuit(e, "huge", 1, 3, CUZK_PRIORITY_NORMAL);
    CHECK(await_job(e, next, &r) == CUZK_JOB_COMPLETED);
    CHECK(result_verifies(&r, &huge, 1, 3));
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    cuzk_groth16_vk_free(&huge.vk);
    unlink(huge.params);
    unlink(huge.vk_path);
}

/* An await with a stop token (the daemon's AwaitProof whose client went away) returns TIMEOUT
 * once the token is set and cuzk_engine_wake called, while its job still runs: the wait sleeps
 * on the job's condition and the wake is what ends it (no polling). The job then completes. */
typedef struct {
    cuzk_engine *e;
    uint64_t job;
    cuzk_cancel stop;
    cuzk_status st;
    cuzk_job_result r;
    atomic_bool returned;
} stop_waiter;

static void *stop_waiter_main(void *arg)
{
    stop_waiter *w = arg;
    w->st = cuzk_engine_await_until(w->e, w->job, -1, &w->stop, &w->r);
    atomic_store(&w->returned, true);
    return NULL;
}

static void await_stopped_by_wake(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    static hold_ctx hold;
    atomic_store(&hold.armed, true);
    atomic_store(&hold.released, false);
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, hold_hook, &hold);
    register_circuit(e, "small", &small_ctx, &small);
    static stop_waiter w;
    memset(&w, 0, sizeof w);
    w.e = e;
    w.job = submit_circuit(e, "small", 2, 77, CUZK_PRIORITY_NORMAL);
    CHECK(wait_running(e, w.job, 60)); /* held at its first partition */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, stop_waiter_main, &w) == 0);
    /* a wake without the token set leaves the wait asleep (the job is held: it cannot end) */
    usleep(100000);
    cuzk_engine_wake(e);
    usleep(100000);
    CHECK(!atomic_load(&w.returned));
    cuzk_cancel_set(&w.stop);
    cuzk_engine_wake(e);
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += 30;
    CHECK(pthread_timedjoin_np(th, NULL, &limit) == 0);
    CHECK(w.st == CUZK_OK && w.r.state == CUZK_JOB_TIMEOUT);
    unsigned queued = 9, running = 9;
    cuzk_engine_job_counts(e, &queued, &running);
    CHECK(queued == 0 && running == 1); /* the job goes on */
    cuzk_job_result_free(&w.r);
    atomic_store(&hold.released, true);
    expect_completed(e, w.job);
    cuzk_engine_job_counts(e, &queued, &running);
    CHECK(queued == 0 && running == 0);
    printf("  await: a stop token and a wake ended the wait (TIMEOUT) while the job ran; it then completed\n");
    cuzk_engine_destroy(e);
}

static void test_cancel(void)
{
    cancel_at_the_hook();
    cancel_mid_partition();
    await_stopped_by_wake();
}

/* ---------------------------------------------------------------- 5: host budget */
static void circuit_over_budget(void)
{
    const uint64_t budget = 4 * MIB;
    CHECK(big.params_bytes > budget && small.params_bytes * 4 < budget);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.host_budget = budget;
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    register_circuit(e, "big", &big_ctx, &big);
    uint64_t job_big = submit_circuit(e, "big", 1, 1, CUZK_PRIORITY_NORMAL);
    cuzk_job_result r;
    double t0 = cuzk_now();
    cuzk_job_state s = await_job(e, job_big, &r);
    double fail_s = cuzk_now() - t0;
    CHECK(s == CUZK_JOB_FAILED);
    CHECK(strcasestr(r.error, "budget") != NULL);
    CHECK(fail_s < 10);
    printf("  budget: the big circuit's job: state %s after %.2f s: %s\n",
           cuzk_job_state_name(s) ? cuzk_job_state_name(s) : "?", fail_s, r.error);
    cuzk_job_result_free(&r);
    /* a preload of it is refused by its code (over budget), with the same reason */
    double secs = 0;
    CHECK_FAILS(cuzk_engine_preload(e, "big", &secs), CUZK_EBUDGET);
    CHECK(strcasestr(cuzk_last_error(), "engine.host_budget") != NULL);
    uint64_t job_small = submit_circuit(e, "small", 2, 9, CUZK_PRIORITY_NORMAL);
    s = await_job(e, job_small, &r);
    CHECK(s == CUZK_JOB_COMPLETED);
    CHECK(result_verifies(&r, &small, 2, 9));
    if (s != CUZK_JOB_COMPLETED) fprintf(stderr, "    the small circuit's job: %s\n", r.error);
    cuzk_job_result_free(&r);
    cuzk_engine_status *st = status_of(e);
    CHECK(st->host_budget == budget && st->host_bytes <= budget);
    free(st);
    cuzk_engine_destroy(e);
}

/* The inputs of live jobs are admitted against the host budget: with a job holding 3 MiB of
 * input on the device (held there by the hook), a second 3 MiB input does not fit a 4 MiB budget
 * and is refused CUZK_EBUDGET naming it; once the first job ends it is admitted. */
static void input_admission(void)
{
    static order_ctx o;
    memset(&o, 0, sizeof o);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.host_budget = 4 * MIB;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, order_hook, &o);
    register_circuit(e, "small", &small_ctx, &small);
    uint8_t *input = calloc(1, 3 * MIB);
    CHECK(input != NULL);
    if (!input) return;
    cuzk_job_request req = circuit_request("small", 1, 41, CUZK_PRIORITY_NORMAL);
    req.input = input;
    req.input_len = 3 * MIB;
    uint64_t first = 0, second = 0;
    bool joined;
    CHECK_OK(cuzk_engine_submit(e, &req, &first, &joined));
    CHECK(wait_picks(&o, 1)); /* on the device, its input held */
    req.seed = 42;
    CHECK_FAILS(cuzk_engine_submit(e, &req, &second, &joined), CUZK_EBUDGET);
    CHECK(strstr(cuzk_last_error(), "engine.host_budget") != NULL && second == 0);
    printf("  budget: a second 3 MiB input: %s\n", cuzk_last_error());
    atomic_store(&o.released, true);
    expect_completed(e, first);
    CHECK_OK(cuzk_engine_submit(e, &req, &second, &joined));
    if (second) expect_completed(e, second);
    free(input);
    cuzk_engine_destroy(e);
}

/* Witness buffers grow only within the host budget: with one buffer's worth less room than two
 * need, a second partition's witness waits for the first buffer instead of growing another
 * (the device held by the hook meanwhile, so that the lane would fill every buffer it may). */
static void buffers_within_budget(void)
{
    static order_ctx o;
    /* one buffer's bytes: what one single-partition job leaves charged beyond the circuit */
    cuzk_engine *e = order_engine(&o, 0);
    atomic_store(&o.released, true);
    expect_completed(e, submit_circuit(e, "small", 1, 3, CUZK_PRIORITY_NORMAL));
    cuzk_engine_status *st = status_of(e);
    const cuzk_engine_circuit_status *cs = circuit_status(st, "small");
    const uint64_t one = st->host_bytes, buffer = cs && one > cs->host_bytes ? one - cs->host_bytes : 0;
    CHECK(buffer > 0);
    free(st);
    cuzk_engine_destroy(e);

    memset(&o, 0, sizeof o);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.threads = 2;
    cfg.urgent_threads = 1;
    cfg.witness_buffers = 4;
    cfg.host_budget = one + buffer / 2;
    e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, order_hook, &o);
    register_circuit(e, "small", &small_ctx, &small);
    uint64_t ids[3];
    for (int i = 0; i < 3; i++) ids[i] = submit_circuit(e, "small", 2, 10 + (uint64_t)i, CUZK_PRIORITY_NORMAL);
    CHECK(wait_picks(&o, 1));
    usleep(300 * 1000); /* the lanes' chance to fill more buffers than the budget holds */
    st = status_of(e);
    CHECK(st->host_bytes <= st->host_budget);
    printf("  budget: witness buffers held to %.2f of %.2f MiB (one buffer %.2f MiB)\n", st->host_bytes / (double)MIB,
           st->host_budget / (double)MIB, buffer / (double)MIB);
    free(st);
    atomic_store(&o.released, true);
    for (int i = 0; i < 3; i++) expect_completed(e, ids[i]);
    st = status_of(e);
    CHECK(st->host_bytes <= st->host_budget);
    free(st);
    cuzk_engine_destroy(e);
}

static void test_budget(void)
{
    circuit_over_budget();
    input_admission();
    buffers_within_budget();
}

/* ---------------------------------------------------------------- 6: injected failures */
typedef struct {
    atomic_bool ready;    /* the hook waits until the target is known */
    atomic_ullong target; /* the job whose partition 1 fails */
    atomic_uint calls, target_calls;
} hook_ctx;

static cuzk_status fail_hook(void *vctx, uint64_t job, unsigned partition, int device)
{
    hook_ctx *h = vctx;
    while (!atomic_load(&h->ready)) usleep(200);
    atomic_fetch_add(&h->calls, 1);
    if (job == atomic_load(&h->target) && partition == 1) {
        atomic_fetch_add(&h->target_calls, 1);
        return cuzk_fail(CUZK_EINVAL, "injected");
    }
    return CUZK_OK;
}

static void test_injected_failures(void)
{
    static hook_ctx hook;
    atomic_init(&hook.ready, false);
    atomic_init(&hook.target, 0);
    atomic_init(&hook.calls, 0);
    atomic_init(&hook.target_calls, 0);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, fail_hook, &hook);
    register_circuit(e, "small", &small_ctx, &small);
    register_circuit(e, "bad", &bad_ctx, &small); /* same shape: the same parameters */
    register_circuit(e, "mixed", &mixed_ctx, &small);

    enum { N = 5, TARGET = 2 };
    uint64_t ids[N];
    for (unsigned i = 0; i < N; i++)
        ids[i] = submit_circuit(e, "small", 3, 500 + 10 * (uint64_t)i, CUZK_PRIORITY_NORMAL);
    atomic_store(&hook.target, ids[TARGET]);
    atomic_store(&hook.ready, true);
    unsigned ok = 0;
    for (unsigned i = 0; i < N; i++) {
        cuzk_job_result r;
        cuzk_job_state s = await_job(e, ids[i], &r);
        if (i == TARGET) {
            CHECK(s == CUZK_JOB_FAILED);
            CHECK(strstr(r.error, "injected") != NULL);
            CHECK(r.proof == NULL || r.proof_len == 0);
            printf("  injected: job %llu %s: %s\n", (unsigned long long)ids[i],
                   cuzk_job_state_name(s) ? cuzk_job_state_name(s) : "?", r.error);
        } else if (s == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 3, 500 + 10 * (uint64_t)i)) {
            ok++;
        } else {
            fprintf(stderr, "    job %llu: state %d: %s\n", (unsigned long long)ids[i], (int)s, r.error);
        }
        cuzk_job_result_free(&r);
    }
    CHECK(ok == N - 1);
    CHECK(atomic_load(&hook.target_calls) == 1);
    CHECK(atomic_load(&hook.calls) >= (N - 1) * 3 + 2); /* before each partition proved */

    /* a circuit whose partition 1 cannot be opened fails that job alone */
    unsigned opens = atomic_load(&bad_ctx.opens);
    uint64_t good1 = submit_circuit(e, "small", 2, 700, CUZK_PRIORITY_NORMAL);
    uint64_t bad = submit_circuit(e, "bad", 3, 710, CUZK_PRIORITY_NORMAL);
    uint64_t good2 = submit_circuit(e, "small", 2, 720, CUZK_PRIORITY_NORMAL);
    cuzk_job_result r;
    cuzk_job_state s = await_job(e, bad, &r);
    CHECK(s == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "bad vanilla proof of partition 1") != NULL);
    printf("  bad circuit: job %llu %s: %s\n", (unsigned long long)bad,
           cuzk_job_state_name(s) ? cuzk_job_state_name(s) : "?", r.error);
    cuzk_job_result_free(&r);
    CHECK(atomic_load(&bad_ctx.opens) > opens);
    CHECK(await_job(e, good1, &r) == CUZK_JOB_COMPLETED);
    CHECK(result_verifies(&r, &small, 2, 700));
    cuzk_job_result_free(&r);
    CHECK(await_job(e, good2, &r) == CUZK_JOB_COMPLETED);
    CHECK(result_verifies(&r, &small, 2, 720));
    cuzk_job_result_free(&r);

    /* a partition whose circuit has another shape than the precompiled one fails its job, by
     * partition, before anything is proved from it */
    uint64_t mixed = submit_circuit(e, "mixed", 3, 730, CUZK_PRIORITY_NORMAL);
    s = await_job(e, mixed, &r);
    CHECK(s == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "partition 1") != NULL && strstr(r.error, "random:1025") != NULL);
    printf("  mixed shapes: job %llu %s: %s\n", (unsigned long long)mixed,
           cuzk_job_state_name(s) ? cuzk_job_state_name(s) : "?", r.error);
    cuzk_job_result_free(&r);
    cuzk_engine_status *st = status_of(e);
    int ci = cuzk_kind_index(CUZK_KIND_CIRCUIT);
    CHECK(st->failed[ci] == 3 && st->completed[ci] == N - 1 + 2);
    CHECK(st->devices[0].in_service); /* a failure that is no device error leaves it in service */
    free(st);
    /* every job that ended is in the latency histogram, failed ones too */
    char *metrics = cuzk_engine_metrics(e);
    CHECK(metrics &&
          metric_value(metrics, "cuzk_job_duration_seconds_bucket{kind=\"circuit\",le=\"+Inf\"}") == N - 1 + 2 + 3);
    CHECK(metrics && metric_value(metrics, "cuzk_jobs_completed_total{kind=\"circuit\",status=\"failed\"}") == 3);
    /* ... each failure counted once, by where it failed */
    CHECK(metrics && metric_sum(metrics, "cuzk_job_failures_total") == 3);
    free(metrics);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 7: destroy with jobs in flight */
typedef struct {
    cuzk_engine *e;
    uint64_t job;
    atomic_bool entered, returned;
    cuzk_status st;
    cuzk_job_result r;
} awaiter;

static void *await_forever(void *arg)
{
    awaiter *a = arg;
    atomic_store(&a->entered, true);
    a->st = cuzk_engine_await(a->e, a->job, -1, &a->r);
    atomic_store(&a->returned, true);
    return NULL;
}

static void test_destroy_in_flight(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    enum { N = 10 };
    uint64_t ids[N];
    for (unsigned i = 0; i < N; i++)
        ids[i] = submit_circuit(e, "small", 4, 800 + 10 * (uint64_t)i, CUZK_PRIORITY_NORMAL);
    CHECK(wait_running(e, 0, 30));
    static awaiter a;
    memset(&a, 0, sizeof a);
    a.e = e;
    a.job = ids[N - 1];
    pthread_t th;
    CHECK(pthread_create(&th, NULL, await_forever, &a) == 0);
    while (!atomic_load(&a.entered)) usleep(100);
    sleep_s(0.2); /* in the wait by now */
    CHECK(!atomic_load(&a.returned));
    double t0 = cuzk_now();
    cuzk_engine_destroy(e);
    double destroy_s = cuzk_now() - t0;
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += 30;
    if (pthread_timedjoin_np(th, NULL, &limit) != 0) {
        harness_fail(__FILE__, __LINE__, "the waiter returns when the engine is destroyed");
        fprintf(stderr, "    the waiter of job %llu still waits 30 s after cuzk_engine_destroy\n",
                (unsigned long long)a.job);
        exit(harness_finish("test_engine"));
    }
    CHECK((a.st == CUZK_OK && a.r.state == CUZK_JOB_CANCELLED) || a.st == CUZK_ESHUTDOWN);
    printf("  destroy: %.2f s with jobs in flight; the waiter got status %d, state %d\n", destroy_s, (int)a.st,
           (int)a.r.state);
    if (a.st == CUZK_OK) cuzk_job_result_free(&a.r);
}

/* ---------------------------------------------------------------- 8: results store */
static void test_results_store(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.result_max = 3;
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    uint64_t ids[5];
    for (unsigned i = 0; i < 5; i++) {
        ids[i] = submit_circuit(e, "small", 1, 900 + (uint64_t)i, CUZK_PRIORITY_NORMAL);
        expect_completed(e, ids[i]);
    }
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    CHECK_FAILS(cuzk_engine_await(e, ids[0], 1, &r), CUZK_ENOTFOUND);
    cuzk_job_result_free(&r); /* filled had the result been kept */
    CHECK_FAILS(cuzk_engine_await(e, ids[1], 1, &r), CUZK_ENOTFOUND);
    cuzk_job_result_free(&r);
    for (unsigned i = 2; i < 5; i++) {
        CHECK(await_job(e, ids[i], &r) == CUZK_JOB_COMPLETED);
        CHECK(result_verifies(&r, &small, 1, 900 + (uint64_t)i));
        cuzk_job_result_free(&r);
    }
    cuzk_engine_status *st = status_of(e);
    CHECK(st->results_kept == 3);
    free(st);
    cuzk_engine_destroy(e);

    /* result_ttl_s: a result is dropped once it is older */
    config_base(&cfg);
    cfg.result_ttl_s = 1;
    e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    uint64_t job = submit_circuit(e, "small", 1, 950, CUZK_PRIORITY_NORMAL);
    expect_completed(e, job);
    double done = cuzk_now();
    cuzk_status s = CUZK_OK;
    while (s == CUZK_OK && cuzk_now() - done < 6) {
        usleep(100000);
        memset(&r, 0, sizeof r);
        s = cuzk_engine_await(e, job, 1, &r);
        if (s == CUZK_OK) cuzk_job_result_free(&r);
    }
    double dropped_after = cuzk_now() - done;
    CHECK(s == CUZK_ENOTFOUND);
    CHECK(dropped_after >= 0.9);
    printf("  results: a result with result_ttl_s 1 was dropped after %.2f s\n", dropped_after);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 10: bad requests */
static void test_bad_requests(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.max_input_bytes = MIB;
    cfg.max_queued = 4;
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "small", &small_ctx, &small);
    cuzk_engine_circuit dup = {0};
    dup.id = "small";
    dup.open = open_circuit;
    dup.ctx = &small_ctx;
    dup.params_path = small.params;
    CHECK_FAILS(cuzk_engine_register_circuit(e, &dup), CUZK_EINVAL);
    dup.id = "porep-32g";
    CHECK_FAILS(cuzk_engine_register_circuit(e, &dup), CUZK_EINVAL);

    static const uint8_t bytes[] = "some bytes";
    cuzk_job_request req = circuit_request("small", 1, 1, CUZK_PRIORITY_NORMAL);
    uint64_t job = 0;
    bool joined;
    req.kind = (cuzk_job_kind)99;
    CHECK(cuzk_engine_submit(e, &req, &job, &joined) != CUZK_OK);
    req = circuit_request("no-such-circuit", 1, 1, CUZK_PRIORITY_NORMAL);
    CHECK(cuzk_engine_submit(e, &req, &job, &joined) != CUZK_OK);
    req.circuit = NULL;
    CHECK(cuzk_engine_submit(e, &req, &job, &joined) != CUZK_OK);
    memset(&req, 0, sizeof req);
    req.kind = CUZK_KIND_POREP;
    req.input = bytes;
    req.input_len = 0;
    CHECK(cuzk_engine_submit(e, &req, &job, &joined) != CUZK_OK);
    uint8_t *huge = calloc(1, MIB + 1);
    req = circuit_request("small", 1, 1, CUZK_PRIORITY_NORMAL);
    req.input = huge;
    req.input_len = MIB + 1;
    CHECK(cuzk_engine_submit(e, &req, &job, &joined) != CUZK_OK);
    req.input_len = MIB; /* at the limit: accepted */
    job = 0;
    CHECK_OK(cuzk_engine_submit(e, &req, &job, &joined));
    if (job) expect_completed(e, job);
    free(huge);
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    CHECK_FAILS(cuzk_engine_await(e, 987654321, 1, &r), CUZK_ENOTFOUND);
    cuzk_job_result_free(&r);
    bool was_running;
    CHECK(cuzk_engine_cancel(e, 987654321, &was_running) == CUZK_ENOTFOUND);

    /* a C1 that does not parse: accepted, then FAILED with the reason */
    static const char garbage[] = "{not json";
    memset(&req, 0, sizeof req);
    req.kind = CUZK_KIND_POREP;
    req.input = (const uint8_t *)garbage;
    req.input_len = strlen(garbage);
    job = 0;
    CHECK_OK(cuzk_engine_submit(e, &req, &job, &joined));
    if (job) {
        cuzk_job_state s = await_job(e, job, &r);
        CHECK(s == CUZK_JOB_FAILED && r.error[0] != 0);
        printf("  PoRep with a bad C1: %s\n", r.error);
        cuzk_job_result_free(&r);
    }
    /* WindowPoSt without its registered proof, with another kind's or another size's: refused
     * at submit naming the field (the one request check); a blob that is not a vanilla proof: a
     * job that fails naming the blob */
    memset(&req, 0, sizeof req);
    req.kind = CUZK_KIND_WINDOW_POST;
    req.input = bytes; /* a PoSt job's vanilla proofs are blobs, not one input */
    req.input_len = sizeof bytes - 1;
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "as blobs") != NULL);
    req.input = NULL;
    req.input_len = 0;
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL); /* none at all */
    CHECK(strstr(cuzk_last_error(), "vanilla_proofs: none") != NULL);
    const uint8_t junk[3] = {1, 2, 3}, *junks[1] = {junk}, *nulls[1] = {NULL}, rnd[32] = {7};
    size_t junk_len[1] = {3};
    req.nblobs = 1; /* a count without its arrays, a blob NULL with a length */
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "are NULL") != NULL);
    req.blobs = nulls;
    req.blob_lens = junk_len;
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "vanilla_proofs[0]: NULL with 3 bytes") != NULL);
    req.blobs = junks;
    req.kind = CUZK_KIND_POREP; /* and a PoRep takes its C1 whole */
    req.input = bytes;
    req.input_len = sizeof bytes - 1;
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "not as blobs") != NULL);
    req.kind = CUZK_KIND_WINDOW_POST;
    req.input = NULL;
    req.input_len = 0;
    job = 0;
    CHECK_FAILS(cuzk_engine_submit(e, &req, &job, &joined), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "registered_proof") != NULL && job == 0);
    printf("  WindowPoSt without its proof type: %s\n", cuzk_last_error());
    const uint8_t rnd0[32] = {1};
    req.randomness = rnd0;
    req.has_registered_proof = true;
    req.registered_proof = 3; /* StackedDrgWinning32GiBV1: not a WindowPoSt proof */
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "not a WindowPoSt RegisteredPoStProof") != NULL);
    req.registered_proof = 13; /* StackedDrgWindow32GiBV1_1 */
    req.sector_size = 2048;
    CHECK_FAILS(cuzk_engine_check_request(e, &req), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "sector_size: 2048") != NULL);
    req.sector_size = 0;
    req.randomness = NULL;
    req.has_registered_proof = true;
    req.registered_proof = 13; /* StackedDrgWindow32GiBV1_1 */
    req.randomness = rnd;
    job = 0;
    CHECK_OK(cuzk_engine_submit(e, &req, &job, &joined));
    if (job) {
        cuzk_job_state s = await_job(e, job, &r);
        CHECK(s == CUZK_JOB_FAILED && strstr(r.error, "vanilla proof blob 0") != NULL);
        printf("  WindowPoSt with a 3-byte blob: %s\n", r.error);
        cuzk_job_result_free(&r);
    }
    /* a public sector list: refused at submit without its arrays or on another kind, and a
     * job fails when it does not list one sector per blob */
    const uint64_t ids[2] = {5, 6};
    const uint8_t comm_rs[64] = {0};
    req.post_nsectors = 2;
    CHECK_FAILS(cuzk_engine_submit(e, &req, &job, &joined), CUZK_EINVAL);
    req.post_sector_ids = ids;
    req.post_comm_rs = comm_rs;
    job = 0;
    CHECK_OK(cuzk_engine_submit(e, &req, &job, &joined));
    if (job) {
        cuzk_job_state s = await_job(e, job, &r);
        CHECK(s == CUZK_JOB_FAILED && strstr(r.error, "2 public sectors, but 1 vanilla proofs") != NULL);
        printf("  WindowPoSt with 2 public sectors for 1 blob: %s\n", r.error);
        cuzk_job_result_free(&r);
    }
    req.kind = CUZK_KIND_SNAP;
    CHECK_FAILS(cuzk_engine_submit(e, &req, &job, &joined), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "post_sectors") != NULL);

    /* max_queued 4 counts queued and running jobs: one running, 3 more accepted */
    uint64_t first = submit_circuit(e, "small", 20, 40, CUZK_PRIORITY_NORMAL);
    CHECK(wait_running(e, first, 30));
    uint64_t more[6];
    unsigned accepted = 0, refused = 0;
    for (unsigned i = 0; i < 6; i++) {
        req = circuit_request("small", 1, 60 + (uint64_t)i, CUZK_PRIORITY_NORMAL);
        more[i] = 0;
        cuzk_status st = cuzk_engine_submit(e, &req, &more[i], &joined);
        if (st == CUZK_OK) accepted++;
        else refused += st == CUZK_EBUSY; /* a full queue is busy, not a bad request */
    }
    CHECK(refused == 3 && accepted == 3);
    if (accepted != 3 || refused != 3)
        fprintf(stderr, "    max_queued 4, one job running: %u more accepted, %u refused (%s)\n", accepted, refused,
                refused ? cuzk_last_error() : "");
    CHECK_OK(cuzk_engine_cancel(e, first, &was_running));
    for (unsigned i = 0; i < 6; i++)
        if (more[i]) {
            cuzk_job_state s = await_job(e, more[i], &r);
            CHECK(s == CUZK_JOB_COMPLETED);
            cuzk_job_result_free(&r);
        }
    CHECK(await_job(e, first, &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 10b: many jobs */
/* Jobs are found by id and request id through the engine's index: with thousands queued (the
 * device held by the hook, so none runs), each request id finds its job, a retry joins it, a
 * cancel ends the one named, the index grows past its first size and the results of ended jobs
 * are dropped oldest first. The cost of one submit, await and cancel among them is printed (a
 * figure, not a check). */
static void test_many_queued(void)
{
    enum { N = 5000 };
    static hold_ctx hold;
    atomic_store(&hold.armed, true);
    atomic_store(&hold.released, false);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.max_queued = N + 10;
    cfg.result_max = N + 10;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, hold_hook, &hold);
    register_circuit(e, "small", &small_ctx, &small);
    static uint64_t ids[N];
    char rid[32];
    for (unsigned i = 0; i < N; i++) {
        snprintf(rid, sizeof rid, "job-%u", i);
        cuzk_job_request req = circuit_request("small", 1, 3000 + i, CUZK_PRIORITY_NORMAL);
        req.request_id = rid;
        ids[i] = 0;
        CHECK_OK(cuzk_engine_submit(e, &req, &ids[i], NULL));
    }
    unsigned found = 0, joined_ok = 0;
    for (unsigned i = 0; i < N; i += 7) {
        uint64_t id = 0;
        bool joined = false;
        snprintf(rid, sizeof rid, "job-%u", i);
        found += !cuzk_engine_find(e, rid, &id) && id == ids[i];
        cuzk_job_request req = circuit_request("small", 1, 3000 + i, CUZK_PRIORITY_NORMAL);
        req.request_id = rid;
        joined_ok += !cuzk_engine_submit(e, &req, &id, &joined) && joined && id == ids[i];
    }
    CHECK(found == (N + 6) / 7 && joined_ok == (N + 6) / 7);
    /* one more submit, an await that times out and a cancel, timed among N jobs */
    double t0 = cuzk_now();
    uint64_t extra = submit_circuit(e, "small", 1, 99999, CUZK_PRIORITY_NORMAL);
    double t_submit = cuzk_now() - t0;
    cuzk_job_result r;
    t0 = cuzk_now();
    CHECK_OK(cuzk_engine_await(e, ids[N / 2], 0, &r));
    double t_await = cuzk_now() - t0;
    CHECK(r.state == CUZK_JOB_QUEUED || r.state == CUZK_JOB_TIMEOUT);
    cuzk_job_result_free(&r);
    bool was_running = true;
    t0 = cuzk_now();
    CHECK_OK(cuzk_engine_cancel(e, ids[N / 2], &was_running));
    double t_cancel = cuzk_now() - t0;
    CHECK(!was_running);
    CHECK(await_job(e, ids[N / 2], &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&r);
    printf("  %u jobs queued: a submit %.1f us, an await %.1f us, a cancel %.1f us\n", N + 1, t_submit * 1e6,
           t_await * 1e6, t_cancel * 1e6);
    /* every job ends (cancelled, the held one released); results beyond result_max go oldest first */
    CHECK(cuzk_engine_cancel_all(e, "test over") == N);
    atomic_store(&hold.released, true);
    CHECK(await_job(e, extra, &r) == CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
}

/* ---------------------------------------------------------------- 10c: many jobs, measured */
/* Only when named (`test_engine queued-bench`), for docs/BENCHMARKS.md: with 10,000 and then
 * 100,000 test jobs of every priority queued behind a device held by the hook, BENCH_SAMPLES
 * more submits, awaits (timed out at once), cancels and picks of each witness lane are timed
 * one by one; the medians and maxima are printed. Figures, not checks. */
enum { BENCH_SAMPLES = 200 };
static atomic_bool bench_released;

static cuzk_status bench_hold(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)ctx, (void)job, (void)partition, (void)device;
    for (double end = cuzk_now() + 3600; !atomic_load(&bench_released) && cuzk_now() < end;) usleep(1000);
    return CUZK_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_spread(const char *what, double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    printf("    %-13s median %9.1f us, max %9.1f us\n", what, v[n / 2] * 1e6, v[n - 1] * 1e6);
}

static void queued_bench_case(unsigned n)
{
    atomic_store(&bench_released, false);
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.max_queued = n + 2 * BENCH_SAMPLES;
    cfg.result_max = n + 2 * BENCH_SAMPLES;
    cuzk_engine *e = engine_start(&cfg);
    cuzk_engine_set_test_hook(e, bench_hold, NULL);
    register_circuit(e, "small", &small_ctx, &small);
    uint64_t *ids = calloc(n, sizeof *ids);
    CHECK(ids != NULL);
    if (!ids) exit(1);
    double t0 = cuzk_now();
    for (unsigned i = 0; i < n; i++)
        ids[i] = submit_circuit(e, "small", 1, 10 + i, (cuzk_priority)(CUZK_PRIORITY_LOW + i % 4));
    double fill_s = cuzk_now() - t0;
    static double submit_s[BENCH_SAMPLES], await_s[BENCH_SAMPLES], cancel_s[BENCH_SAMPLES], pick_s[BENCH_SAMPLES],
        urgent_s[BENCH_SAMPLES];
    for (unsigned k = 0; k < BENCH_SAMPLES; k++) {
        t0 = cuzk_now();
        submit_circuit(e, "small", 1, 1u << 30 | k, (cuzk_priority)(CUZK_PRIORITY_LOW + k % 4));
        submit_s[k] = cuzk_now() - t0;
    }
    for (unsigned k = 0; k < BENCH_SAMPLES; k++) {
        cuzk_job_result r;
        t0 = cuzk_now();
        CHECK_OK(cuzk_engine_await(e, ids[(k * 7919u) % n], 0, &r));
        await_s[k] = cuzk_now() - t0;
        cuzk_job_result_free(&r);
    }
    for (unsigned k = 0; k < BENCH_SAMPLES; k++) {
        bool was_running;
        t0 = cuzk_now();
        CHECK_OK(cuzk_engine_cancel(e, ids[n / 2 + k], &was_running));
        cancel_s[k] = cuzk_now() - t0;
    }
    for (unsigned k = 0; k < BENCH_SAMPLES; k++) {
        pick_s[k] = cuzk_engine_time_pick(e, false);
        urgent_s[k] = cuzk_engine_time_pick(e, true);
    }
    printf("  %u jobs queued (%.1f s to submit them), %u of each call timed:\n", n, fill_s, BENCH_SAMPLES);
    print_spread("submit", submit_s, BENCH_SAMPLES);
    print_spread("await", await_s, BENCH_SAMPLES);
    print_spread("cancel", cancel_s, BENCH_SAMPLES);
    print_spread("pick (bulk)", pick_s, BENCH_SAMPLES);
    print_spread("pick (urgent)", urgent_s, BENCH_SAMPLES);
    fflush(stdout);
    t0 = cuzk_now();
    cuzk_engine_cancel_all(e, "measured");
    atomic_store(&bench_released, true);
    cuzk_engine_destroy(e);
    printf("    cancel all and destroy: %.2f s\n", cuzk_now() - t0);
    free(ids);
}

static void test_queued_bench(void)
{
    queued_bench_case(10000);
    queued_bench_case(100000);
}

/* ---------------------------------------------------------------- 10d: loads stopped */
/* A load slowed down by the load hook (LOAD_PIECE_S for each piece of parameter points: "big"
 * has one piece per section, five, so its load takes over 5 x LOAD_PIECE_S) is stopped within
 * a piece: cuzk_engine_cancel_loads ends a preload with CUZK_ECANCELLED, and the engine then
 * loads and proves the circuit as usual; destroying an engine whose job waits on such a load
 * returns within a piece instead of after the whole load, the job's waiter seeing it
 * CANCELLED. */
#define LOAD_PIECE_S 2.0
static atomic_uint load_pieces;

static cuzk_status slow_load_hook(void *ctx, const char *circuit, uint64_t points)
{
    (void)ctx, (void)circuit, (void)points;
    atomic_fetch_add(&load_pieces, 1);
    sleep_s(LOAD_PIECE_S);
    return CUZK_OK;
}

typedef struct {
    cuzk_engine *e;
    cuzk_status st;
    char err[512];
} preload_run;

static void *preload_main(void *arg)
{
    preload_run *p = arg;
    double secs;
    p->st = cuzk_engine_preload(p->e, "big", &secs);
    snprintf(p->err, sizeof p->err, "%s", p->st ? cuzk_last_error() : "");
    return NULL;
}

static bool wait_load_piece(void)
{
    for (double end = cuzk_now() + 60; cuzk_now() < end; usleep(1000))
        if (atomic_load(&load_pieces) >= 1) return true;
    fprintf(stderr, "    the load read no piece of parameters within 60 s\n");
    return false;
}

static void test_load_stop(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cuzk_engine *e = engine_start(&cfg);
    register_circuit(e, "big", &big_ctx, &big);
    cuzk_engine_set_load_hook(e, slow_load_hook, NULL);
    /* 1. a preload stopped by cuzk_engine_cancel_loads */
    atomic_store(&load_pieces, 0);
    static preload_run pr;
    pr.e = e;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, preload_main, &pr) == 0);
    CHECK(wait_load_piece());
    double t0 = cuzk_now();
    CHECK(cuzk_engine_cancel_loads(e) == 1);
    pthread_join(th, NULL);
    double preload_s = cuzk_now() - t0;
    CHECK(pr.st == CUZK_ECANCELLED && strstr(pr.err, "big") && strstr(pr.err, "stopped"));
    CHECK(preload_s < LOAD_PIECE_S + 2);
    CHECK(atomic_load(&load_pieces) < 5);
    /* 2. the next load is not stopped: the circuit loads and proves */
    cuzk_engine_set_load_hook(e, NULL, NULL);
    double secs;
    CHECK_OK(cuzk_engine_preload(e, "big", &secs));
    expect_completed(e, submit_circuit(e, "big", 1, 4100, CUZK_PRIORITY_NORMAL));
    cuzk_engine_destroy(e);

    /* 3. destroy while a job's circuit loads */
    e = engine_start(&cfg);
    register_circuit(e, "big", &big_ctx, &big);
    cuzk_engine_set_load_hook(e, slow_load_hook, NULL);
    atomic_store(&load_pieces, 0);
    static awaiter a;
    memset(&a, 0, sizeof a);
    a.e = e;
    a.job = submit_circuit(e, "big", 1, 4101, CUZK_PRIORITY_NORMAL);
    CHECK(wait_load_piece());
    CHECK(pthread_create(&th, NULL, await_forever, &a) == 0);
    while (!atomic_load(&a.entered)) usleep(100);
    t0 = cuzk_now();
    cuzk_engine_destroy(e);
    double destroy_s = cuzk_now() - t0;
    pthread_join(th, NULL);
    CHECK(destroy_s < LOAD_PIECE_S + 2);
    CHECK(a.st == CUZK_OK && a.r.state == CUZK_JOB_CANCELLED);
    if (a.st != CUZK_OK || a.r.state != CUZK_JOB_CANCELLED) /* once under a loaded machine's sanitizer run */
        printf("  destroy during a load: await status %d, job %s: %s\n", (int)a.st, cuzk_job_state_name(a.r.state),
               a.r.error);
    cuzk_job_result_free(&a.r);
    printf("  a load of 5 x %.0f s stopped: a preload returned %.2f s after cuzk_engine_cancel_loads, destroy "
           "took %.2f s\n",
           LOAD_PIECE_S, preload_s, destroy_s);

    /* 4. a load's recording of a circuit of parts stops between parts (its stop token, the
     * load's): set before, nothing is recorded; set while it runs, it ends well within the time a
     * whole recording takes (measured here) */
    cuzk_circuit *c = NULL;
    CHECK_OK(cuzk_circuit_open(&c, "random-parts:300:8192"));
    cuzk_pce pce;
    t0 = cuzk_now();
    CHECK_OK(cuzk_pce_record_until(c, &pce, NULL, NULL, NULL));
    double full_s = cuzk_now() - t0;
    cuzk_pce_free(&pce);
    cuzk_cancel set = {0};
    cuzk_cancel_set(&set);
    CHECK(cuzk_pce_record_until(c, &pce, NULL, NULL, &set) == CUZK_ECANCELLED &&
          strstr(cuzk_last_error(), "between its parts"));
    cuzk_cancel running = {0};
    canceller later = {&running, full_s / 8, 0};
    CHECK(pthread_create(&th, NULL, cancel_later, &later) == 0);
    t0 = cuzk_now();
    cuzk_status rst = cuzk_pce_record_until(c, &pce, NULL, NULL, &running);
    double stop_s = cuzk_now() - t0;
    pthread_join(th, NULL);
    CHECK(rst == CUZK_ECANCELLED && stop_s < full_s * 0.6);
    if (!rst) cuzk_pce_free(&pce);
    printf("  a recording of %.2f s stopped %.3f s after its token was set\n", full_s, t0 + stop_s - later.set_t);
    cuzk_circuit_free(c);
}

/* ---------------------------------------------------------------- 11: N devices */
/* The multi-device paths with what a machine has: two CPU workers (engine.cpu_workers), and
 * where a GPU is, two contexts on it (engine.gpu_contexts). Partitions go to whichever device
 * frees first, so both prove; a device error injected on one of them mid-run takes it out of
 * service (the job whose partition it was proving fails, as the engine's policy is), its other
 * work moves to the device left, and no job is lost; the last device is never left without a
 * backend to prove on. */
#define NDEV_MAX (CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS)
typedef struct {
    atomic_int fail_device;            /* the device to fail at its next partition, -1: none */
    atomic_int fail_status;            /* ... with this status (CUZK_EDEVICE or another) */
    atomic_ullong failed_job;          /* the job whose partition was failed (0: none yet) */
    atomic_uint calls[NDEV_MAX];       /* partitions each device began */
    atomic_uint calls_after[NDEV_MAX]; /* ... after the injected error */
} devices_ctx;

static cuzk_status devices_hook(void *vctx, uint64_t job, unsigned partition, int device)
{
    (void)partition;
    devices_ctx *h = vctx;
    if (device < 0 || device >= NDEV_MAX) return cuzk_fail(CUZK_EINVAL, "device %d out of range", device);
    atomic_fetch_add(&h->calls[device], 1);
    if (atomic_load(&h->failed_job)) atomic_fetch_add(&h->calls_after[device], 1);
    int want = device;
    if (atomic_compare_exchange_strong(&h->fail_device, &want, -1)) {
        atomic_store(&h->failed_job, job);
        cuzk_status st = (cuzk_status)atomic_load(&h->fail_status);
        return cuzk_fail(st, "injected %s on device %d", cuzk_status_name(st), device);
    }
    usleep(20000); /* proving slower than the witness, so that every device has work waiting */
    return CUZK_OK;
}

/* Submits n jobs of 3 partitions; returns how many completed with proofs that verify and
 * counts the failed ones, each of which must be the injected job. */
static unsigned run_devices_jobs(cuzk_engine *e, devices_ctx *h, unsigned n, uint64_t seed0, unsigned *failed)
{
    uint64_t ids[16];
    unsigned ok = 0;
    *failed = 0;
    for (unsigned i = 0; i < n && i < 16; i++) ids[i] = submit_circuit(e, "small", 3, seed0 + i, CUZK_PRIORITY_NORMAL);
    for (unsigned i = 0; i < n && i < 16; i++) {
        cuzk_job_result r;
        cuzk_job_state st = await_job(e, ids[i], &r);
        if (st == CUZK_JOB_COMPLETED && result_verifies(&r, &small, 3, seed0 + i)) ok++;
        else if (st == CUZK_JOB_FAILED && ids[i] == atomic_load(&h->failed_job) && strstr(r.error, "injected "))
            (*failed)++;
        else fprintf(stderr, "    job %llu: state %d: %s\n", (unsigned long long)ids[i], (int)st, r.error);
        cuzk_job_result_free(&r);
    }
    return ok;
}

static void devices_case(const char *label, cuzk_engine_config *cfg, unsigned ndev)
{
    static devices_ctx h;
    atomic_store(&h.fail_device, -1);
    atomic_store(&h.fail_status, CUZK_EDEVICE);
    atomic_store(&h.failed_job, 0);
    for (unsigned i = 0; i < NDEV_MAX; i++) atomic_store(&h.calls[i], 0), atomic_store(&h.calls_after[i], 0);
    cuzk_engine *e = engine_start(cfg);
    cuzk_engine_set_test_hook(e, devices_hook, &h);
    register_circuit(e, "small", &small_ctx, &small);
    /* resident on every device first (a GPU otherwise loads a circuit when it finds work that
     * no other device has taken; the first one may take all of a short run's partitions) */
    double load_s = 0;
    CHECK_OK(cuzk_engine_preload(e, "small", &load_s));

    /* every device proves, and shows in status and metrics under a name and label of its own */
    unsigned failed = 0, ok = run_devices_jobs(e, &h, 6, 900, &failed);
    CHECK(ok == 6 && failed == 0);
    cuzk_engine_status *st = status_of(e);
    CHECK(st->ndevices == ndev);
    uint64_t proved = 0;
    for (unsigned d = 0; d < st->ndevices && d < ndev; d++) {
        CHECK(st->devices[d].in_service && st->devices[d].context == d);
        CHECK(st->devices[d].partitions_proved > 0);
        proved += st->devices[d].partitions_proved;
        if (d) CHECK(strcmp(st->devices[d].name, st->devices[0].name) != 0);
    }
    CHECK(proved == 18);
    printf("  %s: 18 partitions over %u devices:", label, st->ndevices);
    for (unsigned d = 0; d < st->ndevices; d++) printf(" %llu", (unsigned long long)st->devices[d].partitions_proved);
    printf("\n");
    char *metrics = cuzk_engine_metrics(e), series[96];
    snprintf(series, sizeof series, "cuzk_device_partitions_total{device=\"%d/1\"}", st->devices[1].ordinal);
    CHECK(metrics && metric_value(metrics, series) == (double)st->devices[1].partitions_proved);
    free(metrics);
    uint64_t proved0 = st->devices[0].partitions_proved, proved1 = st->devices[1].partitions_proved;
    free(st);

    /* a failure that is not the device's (here an internal error) fails its job alone: device 1
     * stays in service */
    atomic_store(&h.fail_status, CUZK_EINTERNAL);
    atomic_store(&h.fail_device, 1);
    ok = run_devices_jobs(e, &h, 3, 940, &failed);
    CHECK(ok == 2 && failed == 1);
    st = status_of(e);
    CHECK(st->devices[1].in_service && st->devices[0].in_service);
    free(st);
    printf("  %s: an internal error on device 1 failed its job; the device stays in service\n", label);

    /* device 1 fails mid-run: out of service with the reason, its job failed, the rest proved
     * on device 0 */
    atomic_store(&h.fail_status, CUZK_EDEVICE);
    atomic_store(&h.failed_job, 0);
    for (unsigned i = 0; i < NDEV_MAX; i++) atomic_store(&h.calls_after[i], 0);
    st = status_of(e);
    proved0 = st->devices[0].partitions_proved;
    proved1 = st->devices[1].partitions_proved;
    free(st);
    atomic_store(&h.fail_device, 1);
    ok = run_devices_jobs(e, &h, 8, 950, &failed);
    CHECK(atomic_load(&h.failed_job) != 0);
    CHECK(ok == 7 && failed == 1);
    st = status_of(e);
    CHECK(!st->devices[1].in_service && strstr(st->devices[1].out_of_service_reason, "injected device failure"));
    CHECK(st->devices[0].in_service);
    CHECK(st->devices[1].partitions_proved == proved1 + atomic_load(&h.calls_after[1]));
    CHECK(atomic_load(&h.calls_after[1]) == 0); /* nothing began there after the error */
    CHECK(st->devices[0].partitions_proved > proved0);
    int ci = cuzk_kind_index(CUZK_KIND_CIRCUIT);
    CHECK(st->completed[ci] == 6 + 2 + 7 && st->failed[ci] == 2); /* no job lost */
    printf("  %s: device 1 out of service (%s); then %u jobs completed, %u failed\n", label,
           st->devices[1].out_of_service_reason, ok, failed);
    free(st);

    /* the device left fails too: a GPU context goes out and the CPU backend takes over; the last
     * CPU worker stays in service. Either way later work completes. */
    atomic_store(&h.failed_job, 0);
    atomic_store(&h.fail_device, 0);
    ok = run_devices_jobs(e, &h, 3, 990, &failed);
    CHECK(ok == 2 && failed == 1);
    ok = run_devices_jobs(e, &h, 2, 995, &failed);
    CHECK(ok == 2 && failed == 0);
    st = status_of(e);
    bool gpu = st->devices[0].ordinal >= 0;
    unsigned serving = 0;
    for (unsigned d = 0; d < st->ndevices; d++) serving += st->devices[d].in_service;
    CHECK(serving == 1);
    if (gpu) CHECK(st->ndevices == ndev + 1 && st->devices[ndev].ordinal == -1 && st->devices[ndev].in_service);
    else CHECK(st->devices[0].in_service);
    CHECK(st->completed[ci] == 6 + 2 + 7 + 2 + 2 && st->failed[ci] == 3);
    free(st);
    cuzk_engine_destroy(e);
}

static void test_devices(void)
{
    cuzk_engine_config cfg;
    config_base(&cfg);
    cfg.cpu_worker = false;
    cfg.cpu_workers = 2;
    devices_case("two CPU workers", &cfg, 2);
    if (cuzk_gpu_device_count() <= 0) {
        printf("  two contexts on one GPU: not run (no GPU here)\n");
        return;
    }
    config_base(&cfg);
    cfg.cpu_worker = false; /* the CPU backend proves only once no GPU context serves */
    cfg.gpus = 1;
    cfg.gpu_contexts = 2;
    devices_case("two contexts on GPU 0", &cfg, 2);
}

/* The parts of the test; those on_request run only when named (measurements). */
static const struct {
    const char *name;
    void (*fn)(void);
    bool on_request;
} tests[] = {
    {"names", test_names, false},
    {"many", test_many_jobs_and_status, false},
    {"request-ids", test_request_ids, false},
    {"priority", test_priority, false},
    {"mixed-order", test_mixed_order, false},
    {"aging", test_aging, false},
    {"cancel", test_cancel, false},
    {"budget", test_budget, false},
    {"injected", test_injected_failures, false},
    {"destroy", test_destroy_in_flight, false},
    {"results", test_results_store, false},
    {"many-queued", test_many_queued, false},
    {"load-stop", test_load_stop, false},
    {"bad-requests", test_bad_requests, false},
    {"devices", test_devices, false},
    {"queued-bench", test_queued_bench, true},
};
#define NTESTS (sizeof tests / sizeof tests[0])

/* test_engine [NAME...]: the named parts only (all by default). */
int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        size_t i = 0;
        while (i < NTESTS && strcmp(argv[a], tests[i].name)) i++;
        if (i == NTESTS) {
            fprintf(stderr, "usage: test_engine [NAME...], names:");
            for (i = 0; i < NTESTS; i++) fprintf(stderr, " %s", tests[i].name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk-engine-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    make_params(&small, "random:1024", 21);
    make_params(&big, "random:16384", 22);
    double t0 = cuzk_now();
    for (size_t i = 0; i < NTESTS; i++) {
        bool run = argc == 1 && !tests[i].on_request;
        for (int a = 1; a < argc; a++) run = run || !strcmp(argv[a], tests[i].name);
        if (!run) continue;
        int failures = harness_failures;
        double t = cuzk_now();
        tests[i].fn();
        printf("%s: %s, %.2f s\n", tests[i].name, harness_failures == failures ? "ok" : "FAILED", cuzk_now() - t);
        fflush(stdout);
    }
    printf("engine tests: %.1f s\n", cuzk_now() - t0);

    cuzk_groth16_vk_free(&small.vk);
    cuzk_groth16_vk_free(&big.vk);
    unlink(small.params);
    unlink(small.vk_path);
    unlink(big.params);
    unlink(big.vk_path);
    if (rmdir(tmpdir) != 0) fprintf(stderr, "note: %s not empty, left in place\n", tmpdir);
    return harness_finish("test_engine");
}
