/* The daemon's layer in one process: a CPU engine behind the cuzk.v1 server on a Unix socket
 * and on loopback TCP, driven by the C client: every RPC, request ids joining, TIMEOUT from
 * AwaitProof while the job goes on, a client deadline, cancel of a running job, in-band
 * failures, malformed requests named by field, unknown methods, a second server on the same
 * socket refused, no lock-out of control calls by max_calls waiting Proves, the listener's
 * connection cap, first-call deadline and client allowlist, a PreloadSRS load stopped by the
 * drain, and drain on stop. Then the request decoder and checks under mutated
 * requests (a deterministic fuzz of every method's handler). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/engine_testing.h"
#include "cuzk/groth16.h"
#include "cuzk/server.h"
#include "cuzk/testcircuits.h"
#include "cuzk/v1/proving.pb-c.h"
#include "harness.h"
#include "support_named.h"
#include "server/server_internal.h"

static char tmpdir[64];

/* ---------------------------------------------------------------- the test circuits */
static void make_params(const char *name)
{
    char params[300], vk[300];
    snprintf(params, sizeof params, "%s/cuzk-test-%s.params", tmpdir, name);
    snprintf(vk, sizeof vk, "%s/cuzk-test-%s.vk", tmpdir, name);
    for (char *p = params + strlen(tmpdir); *p; p++) *p = *p == ':' ? '-' : *p;
    for (char *p = vk + strlen(tmpdir); *p; p++) *p = *p == ':' ? '-' : *p;
    cuzk_circuit *c;
    cuzk_r1cs m;
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    if (cuzk_circuit_open(&c, name) || cuzk_circuit_record(c, &m) || cuzk_groth16_setup(&p, &m, &rng, NULL) ||
        cuzk_groth16_params_write(&p, params) || cuzk_groth16_vk_write(&p.vk, vk)) {
        fprintf(stderr, "cannot make the parameters of %s: %s\n", name, cuzk_last_error());
        exit(1);
    }
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

/* the host's hook: random:256 and random:16384 are known (parameters made at start) */
static cuzk_status test_circuit(void *ctx, cuzk_engine *e, const char *name)
{
    static const char *const known[] = {"random:256", "random:16384"};
    bool *registered = ctx;
    for (int i = 0; i < 2; i++) {
        if (strcmp(name, known[i])) continue;
        if (registered[i]) return CUZK_OK;
        char params[300];
        snprintf(params, sizeof params, "%s/cuzk-test-random-%s.params", tmpdir, name + 7);
        cuzk_engine_circuit reg = {known[i], named_circuit_open, (void *)known[i], params, NULL, NULL, false, false};
        cuzk_status st = cuzk_engine_register_circuit(e, &reg);
        if (!st) registered[i] = true;
        return st;
    }
    return cuzk_fail(CUZK_EINVAL, "no test circuit '%s'", name);
}

/* ---------------------------------------------------------------- helpers */
static cuzk_rpc_request test_req(const char *circuit, const char *rid, unsigned partitions, uint64_t seed)
{
    cuzk_rpc_request r = {0};
    r.request_id = rid;
    r.proof_kind = CUZK_SERVER_TEST_KIND;
    r.vanilla_proof = (const uint8_t *)circuit;
    r.vanilla_proof_len = strlen(circuit);
    r.partition_index = partitions - 1;
    r.sector_number = seed;
    return r;
}

static bool err_has(const char *needle)
{
    bool ok = strstr(cuzk_last_error(), needle) != NULL;
    if (!ok) fprintf(stderr, "  expected '%s' in: %s\n", needle, cuzk_last_error());
    return ok;
}

/* ---------------------------------------------------------------- the RPCs */
static void rpcs(const char *addr)
{
    printf("RPCs over %s\n", addr);
    cuzk_client *c;
    CHECK_OK(cuzk_client_open(&c, addr, 256u << 20));
    int code = -1;

    /* Prove: 3 partitions of a small circuit */
    cuzk_rpc_request r = test_req("random:256", NULL, 3, 5);
    cuzk_rpc_result res;
    CHECK_OK(cuzk_client_prove(c, &r, 60, &res, &code));
    CHECK(code == 0);
    CHECK(res.status == CUZK_RPC_COMPLETED);
    CHECK(res.proof_len == 3 * 192);
    CHECK(!strncmp(res.job_id, "job-", 4));
    CHECK(res.total_ms >= res.queue_wait_ms);
    cuzk_rpc_result_free(&res);

    /* Submit twice with one request id: one job; Await gets it */
    char id1[256], id2[256];
    char rid[64];
    snprintf(rid, sizeof rid, "join-%s", addr + strlen(addr) - 4);
    r = test_req("random:256", rid, 2, 9);
    CHECK_OK(cuzk_client_submit(c, &r, 10, id1, NULL, NULL));
    CHECK_OK(cuzk_client_submit(c, &r, 10, id2, NULL, NULL));
    CHECK(!strcmp(id1, rid) && !strcmp(id2, rid));
    CHECK_OK(cuzk_client_await(c, rid, 0, 60, &res, NULL));
    CHECK(res.status == CUZK_RPC_COMPLETED && res.proof_len == 2 * 192);
    uint8_t first[384];
    memcpy(first, res.proof, res.proof_len < sizeof first ? res.proof_len : sizeof first);
    cuzk_rpc_result_free(&res);
    /* a retry by request id after the end joins the finished job: the same proof */
    CHECK_OK(cuzk_client_prove(c, &r, 60, &res, NULL));
    CHECK(res.status == CUZK_RPC_COMPLETED && res.proof_len == 384 && !memcmp(res.proof, first, 384));
    cuzk_rpc_result_free(&res);

    /* AwaitProof's timeout: TIMEOUT while the job goes on, then COMPLETED */
    snprintf(rid, sizeof rid, "slow-%s", addr + strlen(addr) - 4);
    r = test_req("random:16384", rid, 6, 1);
    CHECK_OK(cuzk_client_submit(c, &r, 10, id1, NULL, NULL));
    CHECK_OK(cuzk_client_await(c, rid, 50, 10, &res, NULL));
    CHECK(res.status == CUZK_RPC_TIMEOUT);
    cuzk_rpc_result_free(&res);
    /* a client deadline shorter than the job: DEADLINE_EXCEEDED (or the server's TIMEOUT in time) */
    cuzk_status st = cuzk_client_await(c, rid, 0, 0.2, &res, &code);
    CHECK((st && code == RPC_DEADLINE_EXCEEDED) || (!st && res.status == CUZK_RPC_TIMEOUT));
    if (!st) cuzk_rpc_result_free(&res);
    CHECK_OK(cuzk_client_await(c, rid, 0, 120, &res, NULL));
    CHECK(res.status == CUZK_RPC_COMPLETED && res.proof_len == 6 * 192);
    cuzk_rpc_result_free(&res);

    /* CancelProof of a running job */
    snprintf(rid, sizeof rid, "cancel-%s", addr + strlen(addr) - 4);
    r = test_req("random:16384", rid, 40, 3);
    CHECK_OK(cuzk_client_submit(c, &r, 10, id1, NULL, NULL));
    bool was_running = false;
    for (int i = 0; i < 200 && !was_running; i++) {
        char *js = NULL;
        CHECK_OK(cuzk_client_status(c, 10, &js, NULL));
        was_running = js && strstr(js, "\"in_progress\": 1");
        free(js);
        if (!was_running) usleep(10000);
    }
    CHECK_OK(cuzk_client_cancel(c, rid, 10, &was_running, NULL));
    CHECK(was_running);
    CHECK_OK(cuzk_client_await(c, rid, 0, 120, &res, NULL));
    CHECK(res.status == CUZK_RPC_CANCELLED);
    CHECK(res.proof_len == 0);
    cuzk_rpc_result_free(&res);
    /* GetTrace (cuzk's own call): the cancelled job's trace by its request id, in the Chrome
     * trace event format; NOT_FOUND for an id no job has, INVALID_ARGUMENT for an empty one */
    char *trace = NULL;
    CHECK_OK(cuzk_client_trace(c, rid, 10, &trace, NULL));
    CHECK(trace && strstr(trace, "\"traceEvents\"") && strstr(trace, rid) && strstr(trace, "\"ph\":\"X\""));
    free(trace);
    trace = NULL;
    CHECK(cuzk_client_trace(c, "never-submitted", 10, &trace, &code) && code == RPC_NOT_FOUND && !trace);
    CHECK(cuzk_client_trace(c, "", 10, &trace, &code) && code == RPC_INVALID_ARGUMENT && err_has("job_id"));

    /* in-band failures: a PoRep with garbage, an unsupported kind */
    cuzk_rpc_request bad = {0};
    bad.proof_kind = 1;
    bad.vanilla_proof = (const uint8_t *)"\x01\x02garbage";
    bad.vanilla_proof_len = 9;
    CHECK_OK(cuzk_client_prove(c, &bad, 30, &res, &code));
    CHECK(res.status == CUZK_RPC_FAILED && strstr(res.error_message, "C1"));
    cuzk_rpc_result_free(&res);
    const uint8_t blob[3] = {1, 2, 3}, *blobs[1] = {blob}, rnd[32] = {0};
    size_t blen[1] = {3};
    cuzk_rpc_request post = {0};
    post.proof_kind = 4;
    post.vanilla_proofs = blobs;
    post.vanilla_proofs_len = blen;
    post.nvanilla = 1;
    post.randomness = rnd;
    post.randomness_len = 32;
    CHECK_OK(cuzk_client_prove(c, &post, 30, &res, &code)); /* registered_proof 0: StackedDrgWinning2KiBV1 */
    CHECK(res.status == CUZK_RPC_FAILED && strstr(res.error_message, "vanilla proof blob 0"));
    cuzk_rpc_result_free(&res);

    /* malformed requests: INVALID_ARGUMENT naming the field */
    bad.proof_kind = 0;
    CHECK(cuzk_client_prove(c, &bad, 10, &res, &code) && code == RPC_INVALID_ARGUMENT && err_has("proof_kind"));
    bad.proof_kind = 7;
    CHECK(cuzk_client_prove(c, &bad, 10, &res, &code) && code == RPC_INVALID_ARGUMENT && err_has("proof_kind"));
    bad.proof_kind = 1;
    bad.priority = 9;
    CHECK(cuzk_client_submit(c, &bad, 10, id1, NULL, &code) && code == RPC_INVALID_ARGUMENT && err_has("priority"));
    bad.priority = 0;
    /* a PoSt request's registered proof decides its circuit: one of another kind is refused (a
     * PoRep request's is only noted: the C1's governs, tests/daemon/curio_shapes.sh) */
    post.registered_proof = 99;
    CHECK(cuzk_client_submit(c, &post, 10, id1, NULL, &code) && code == RPC_INVALID_ARGUMENT &&
          err_has("registered_proof"));
    post.registered_proof = 0;
    post.randomness_len = 31;
    CHECK(cuzk_client_submit(c, &post, 10, id1, NULL, &code) && code == RPC_INVALID_ARGUMENT && err_has("randomness"));
    r = test_req("no-such-circuit", NULL, 1, 1);
    CHECK(cuzk_client_submit(c, &r, 10, id1, NULL, &code) && code == RPC_INVALID_ARGUMENT && err_has("vanilla_proof"));
    CHECK(cuzk_client_await(c, "never-submitted", 0, 10, &res, &code) && code == RPC_NOT_FOUND);
    CHECK(cuzk_client_cancel(c, "", 10, &was_running, &code) && code == RPC_INVALID_ARGUMENT && err_has("job_id"));

    /* status, metrics, preload, evict */
    char *js = NULL;
    CHECK_OK(cuzk_client_status(c, 10, &js, NULL));
    json_error_t je;
    json_t *o = js ? json_loads(js, 0, &je) : NULL;
    CHECK(o && json_integer_value(json_object_get(o, "total_proofs_completed")) >= 3);
    CHECK(o && json_array_size(json_object_get(o, "queues")) == 5);
    CHECK(o && json_array_size(json_object_get(o, "loaded_srs")) >= 2);
    json_decref(o);
    free(js);
    char *text = NULL;
    CHECK_OK(cuzk_client_metrics(c, 10, &text, NULL));
    CHECK(text && strstr(text, "cuzk_jobs_completed_total") && strstr(text, "cuzk_daemon_calls"));
    free(text);
    bool already = false;
    uint64_t ms = 0, freed = 0;
    CHECK_OK(cuzk_client_preload(c, "random:256", 10, &already, &ms, NULL));
    CHECK(already);
    bool was_loaded = false;
    CHECK_OK(cuzk_client_evict(c, "random:256", 10, &was_loaded, &freed, NULL));
    CHECK(was_loaded && freed > 0);
    CHECK_OK(cuzk_client_preload(c, "random:256", 30, &already, &ms, NULL));
    CHECK(!already);
    /* the built-in PoSt and SnapDeals circuits: no official files here, so the load fails at once
     * naming the file it looked for */
    CHECK(cuzk_client_preload(c, "wpost-32g", 10, &already, &ms, &code) && code == RPC_FAILED_PRECONDITION &&
          err_has("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded6"));
    CHECK(cuzk_client_preload(c, "snap-32g", 10, &already, &ms, &code) && code == RPC_FAILED_PRECONDITION &&
          err_has("v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9"));
    /* ... by its family form too: the same circuit */
    CHECK(cuzk_client_preload(c, "window-post:32GiB", 10, &already, &ms, &code) && code == RPC_FAILED_PRECONDITION &&
          err_has("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded6"));
    CHECK(cuzk_client_preload(c, "", 10, &already, &ms, &code) && code == RPC_INVALID_ARGUMENT);
    cuzk_client_close(c);
}

/* ---------------------------------------------------------------- the fuzz */
/* Valid requests of each method, then byte mutations (flips, cuts, inserted varints): every
 * answer is a status of the allowed set and nothing crashes or blocks. */
/* ---------------------------------------------------------------- no lock-out */
typedef struct {
    const char *addr, *rid;
    cuzk_rpc_result res;
    cuzk_status st;
} long_prove;

static void *prove_main(void *arg)
{
    long_prove *p = arg;
    cuzk_client *c;
    if ((p->st = cuzk_client_open(&c, p->addr, 1 << 20))) return NULL;
    cuzk_rpc_request r = test_req("random:256", p->rid, 1000, 5);
    p->st = cuzk_client_prove(c, &r, 120, &p->res, NULL);
    cuzk_client_close(c);
    return NULL;
}

/* With max_calls Prove calls waiting, the other classes of call still have room: GetStatus,
 * CancelProof (which ends the waiting ones), AwaitProof and a CRITICAL submit; another NORMAL
 * Prove is refused, naming the bound. */
static void no_lockout(cuzk_engine *e, cuzk_server_hooks *hooks, const cuzk_server_config *base)
{
    printf("no lock-out with max_calls Prove calls waiting\n");
    cuzk_server_config lc = *base;
    lc.max_calls = 2;
    snprintf(lc.listen, sizeof lc.listen, "unix://%s/lockout.sock", tmpdir);
    cuzk_server *s = NULL;
    CHECK_OK(cuzk_server_start(&s, &lc, e, hooks));
    if (!s) return;
    long_prove p[2] = {{.addr = cuzk_server_address(s), .rid = "lock-a"},
                       {.addr = cuzk_server_address(s), .rid = "lock-b"}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, prove_main, &p[i]);
    uint64_t eid;
    double until = cuzk_now() + 30;
    while ((cuzk_engine_find(e, "lock-a", &eid) || cuzk_engine_find(e, "lock-b", &eid)) && cuzk_now() < until)
        usleep(20 * 1000);
    cuzk_clear_error();
    cuzk_client *c;
    CHECK_OK(cuzk_client_open(&c, cuzk_server_address(s), 1 << 20));
    int code = -1;
    cuzk_rpc_request r = test_req("random:256", "lock-c", 1, 6);
    cuzk_rpc_result res;
    CHECK(cuzk_client_prove(c, &r, 10, &res, &code) && code == RPC_RESOURCE_EXHAUSTED && err_has("max_calls"));
    char *js = NULL;
    CHECK_OK(cuzk_client_status(c, 10, &js, &code));
    free(js);
    r = test_req("random:256", "lock-crit", 1, 7);
    r.priority = 4; /* CRITICAL */
    char id[256];
    CHECK_OK(cuzk_client_submit(c, &r, 10, id, NULL, &code));
    CHECK_OK(cuzk_client_await(c, "lock-crit", 0, 60, &res, &code));
    CHECK(res.status == CUZK_RPC_COMPLETED);
    cuzk_rpc_result_free(&res);
    bool was_running = false;
    CHECK_OK(cuzk_client_cancel(c, "lock-a", 10, &was_running, &code));
    CHECK_OK(cuzk_client_cancel(c, "lock-b", 10, &was_running, &code));
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        CHECK(p[i].st == CUZK_OK && p[i].res.status == CUZK_RPC_CANCELLED);
        if (p[i].st) fprintf(stderr, "  %s: %s\n", p[i].rid, cuzk_last_error());
        cuzk_rpc_result_free(&p[i].res);
    }
    cuzk_client_close(c);
    cuzk_server_stop(s, 1);
}

/* ---------------------------------------------------------------- a load in the drain */
/* A PreloadSRS call whose load is slowed down by the engine's load hook (LOAD_PIECE_S for each
 * of random:16384's five pieces of parameters) does not hold the drain for the whole load: the
 * drain stops it at its next piece, the call gets CANCELLED and the drain ends within its grace
 * and a piece. */
#define LOAD_PIECE_S 2.0
static atomic_uint load_pieces;

static cuzk_status slow_load(void *ctx, const char *circuit, uint64_t points)
{
    (void)ctx, (void)circuit, (void)points;
    atomic_fetch_add(&load_pieces, 1);
    usleep((useconds_t)(LOAD_PIECE_S * 1e6));
    return CUZK_OK;
}

typedef struct {
    const char *addr;
    cuzk_status st;
    int code;
} preload_call;

static void *preload_main(void *arg)
{
    preload_call *p = arg;
    cuzk_client *c;
    p->st = cuzk_client_open(&c, p->addr, 1 << 20);
    if (p->st) return NULL;
    bool already = false;
    uint64_t ms = 0;
    p->st = cuzk_client_preload(c, "random:16384", 60, &already, &ms, &p->code);
    cuzk_client_close(c);
    return NULL;
}

static void load_in_drain(cuzk_engine *e, cuzk_server_hooks *hooks, const cuzk_server_config *base)
{
    printf("a PreloadSRS load stopped by the drain\n");
    uint64_t freed;
    if (cuzk_engine_evict(e, "random:16384", &freed)) cuzk_clear_error(); /* loaded by the RPCs before, or not */
    cuzk_server_config dc = *base;
    snprintf(dc.listen, sizeof dc.listen, "unix://%s/drain-load.sock", tmpdir);
    cuzk_server *s = NULL;
    CHECK_OK(cuzk_server_start(&s, &dc, e, hooks));
    if (!s) return;
    atomic_store(&load_pieces, 0);
    cuzk_engine_set_load_hook(e, slow_load, NULL);
    preload_call p = {.addr = cuzk_server_address(s), .code = -1};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, preload_main, &p) == 0);
    for (double end = cuzk_now() + 60; atomic_load(&load_pieces) == 0 && cuzk_now() < end;) usleep(1000);
    CHECK(atomic_load(&load_pieces) > 0);
    double t0 = cuzk_now();
    cuzk_server_drain(s, 1, NULL);
    double drain_s = cuzk_now() - t0;
    pthread_join(th, NULL);
    cuzk_engine_set_load_hook(e, NULL, NULL);
    CHECK(p.st && p.code == RPC_CANCELLED);
    CHECK(drain_s < 1 + LOAD_PIECE_S + 2);
    CHECK(atomic_load(&load_pieces) < 5);
    printf("  the drain (grace 1 s) of a load of 5 x %.0f s took %.2f s\n", LOAD_PIECE_S, drain_s);
}

/* ---------------------------------------------------------------- the listener */
/* A raw connection to the server's Unix socket or TCP address (sending nothing); -1 if refused. */
static int raw_connect(const cuzk_server *s)
{
    const char *a = cuzk_server_address(s);
    int fd;
    if (!strncmp(a, "unix://", 7)) {
        struct sockaddr_un u = {.sun_family = AF_UNIX};
        snprintf(u.sun_path, sizeof u.sun_path, "%s", a + 7);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&u, sizeof u)) close(fd), fd = -1;
    } else {
        struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(strrchr(a, ':') + 1))};
        in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&in, sizeof in)) close(fd), fd = -1;
    }
    return fd;
}

/* Seconds until the server closes fd (recv sees the end), at most limit. */
static double until_closed(int fd, double limit)
{
    double t0 = cuzk_now();
    struct timeval tv = {(time_t)limit, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[256];
    for (;;) {
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r <= 0 || cuzk_now() - t0 >= limit) return cuzk_now() - t0;
    }
}

static bool status_call(const cuzk_server *s)
{
    cuzk_client *c;
    if (cuzk_client_open(&c, cuzk_server_address(s), 1 << 20)) return false;
    char *js = NULL;
    bool ok = cuzk_client_status(c, 10, &js, NULL) == CUZK_OK;
    free(js);
    cuzk_client_close(c);
    return ok;
}

/* The daemon's own listener: calls are counted on their connection; at max_connections a new
 * client takes the place of the connection idle longest; a connection that makes no call (only
 * the HTTP/2 preface) is closed at the first-call deadline; a TCP client outside daemon.allow
 * is closed at once; daemon.allow entries are checked. */
static void listener(cuzk_engine *e, cuzk_server_hooks *hooks, const cuzk_server_config *base)
{
    printf("the listener\n");
    cuzk_server_config lc = *base;
    lc.max_connections = 4;
    snprintf(lc.listen, sizeof lc.listen, "unix://%s/listener.sock", tmpdir);
    cuzk_server *s = NULL;
    CHECK_OK(cuzk_server_start(&s, &lc, e, hooks));
    if (!s) return;
    CHECK(status_call(s));
    conns_stats st;
    conns_get_stats(s->conns, &st);
    CHECK(st.accepted == 1);
    int idle[4];
    for (int i = 0; i < 4; i++) {
        idle[i] = raw_connect(s);
        CHECK(idle[i] >= 0);
        usleep(100 * 1000); /* accepted in this order */
    }
    const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    CHECK(send(idle[3], preface, sizeof preface - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof preface - 1));
    CHECK(status_call(s)); /* four idle connections held: one gives way */
    conns_get_stats(s->conns, &st);
    CHECK(st.closed_for_room >= 1 && st.open <= 4);
    CHECK(until_closed(idle[0], 2) < 2);       /* the one idle longest */
    double waited = until_closed(idle[3], 15); /* the preface only: closed at the first-call deadline */
    CHECK(waited > 7 && waited < 14);
    printf("  a connection that sent only the HTTP/2 preface closed after %.1f s\n", waited);
    for (int i = 0; i < 4; i++) close(idle[i]);
    conns_get_stats(s->conns, &st);
    CHECK(st.closed_no_call >= 1);

    /* a connection with a call in flight never gives way */
    long_prove lp = {.addr = cuzk_server_address(s), .rid = "listener-long"};
    pthread_t t;
    pthread_create(&t, NULL, prove_main, &lp);
    uint64_t eid;
    for (double until = cuzk_now() + 30; cuzk_engine_find(e, "listener-long", &eid) && cuzk_now() < until;)
        usleep(20 * 1000);
    cuzk_clear_error();
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) idle[i] = raw_connect(s);
        CHECK(status_call(s));
        for (int i = 0; i < 4; i++)
            if (idle[i] >= 0) close(idle[i]);
    }
    cuzk_client *c;
    bool was_running;
    CHECK_OK(cuzk_client_open(&c, cuzk_server_address(s), 1 << 20));
    CHECK_OK(cuzk_client_cancel(c, "listener-long", 10, &was_running, NULL));
    cuzk_client_close(c);
    pthread_join(t, NULL);
    CHECK(lp.st == CUZK_OK && lp.res.status == CUZK_RPC_CANCELLED); /* not cut off */
    if (lp.st) fprintf(stderr, "  the long Prove: %s\n", cuzk_last_error());
    cuzk_rpc_result_free(&lp.res);
    cuzk_server_stop(s, 1);

    /* TCP: loopback allowed by default; a list without it closes the client at once */
    snprintf(lc.listen, sizeof lc.listen, "127.0.0.1:0");
    snprintf(lc.allow, sizeof lc.allow, "10.0.0.0/8, fd00::/8");
    s = NULL;
    CHECK_OK(cuzk_server_start(&s, &lc, e, hooks));
    if (s) {
        CHECK(!status_call(s));
        conns_get_stats(s->conns, &st);
        CHECK(st.refused_not_allowed >= 1 && st.open == 0);
        cuzk_server_stop(s, 1);
    }
    static const char *const bad[] = {"10.0.0.0/33", "::1/129", "nonsense", "10.0.0.1/", "1.2.3.4/8x", "10.0.0.0/8,,x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(lc.allow, sizeof lc.allow, "%s", bad[i]);
        s = NULL;
        CHECK(cuzk_server_start(&s, &lc, e, hooks) == CUZK_EINVAL && err_has("daemon.allow"));
    }
    cidr_list l;
    CHECK_OK(cidr_list_parse(&l, "allow", " 192.168.1.0/24 ,::1, 10.1.2.3 "));
    struct sockaddr_storage p = {0};
    struct sockaddr_in *p4 = (struct sockaddr_in *)&p;
    p4->sin_family = AF_INET;
    inet_pton(AF_INET, "192.168.1.77", &p4->sin_addr);
    CHECK(l.n == 3 && cidr_list_allows(&l, &p));
    inet_pton(AF_INET, "192.168.2.77", &p4->sin_addr);
    CHECK(!cidr_list_allows(&l, &p));
    inet_pton(AF_INET, "10.1.2.3", &p4->sin_addr);
    CHECK(cidr_list_allows(&l, &p));
    struct sockaddr_in6 *p6 = (struct sockaddr_in6 *)&p;
    memset(&p, 0, sizeof p);
    p6->sin6_family = AF_INET6;
    inet_pton(AF_INET6, "::ffff:192.168.1.5", &p6->sin6_addr); /* IPv4 on an IPv6 socket */
    CHECK(cidr_list_allows(&l, &p));
    inet_pton(AF_INET6, "::2", &p6->sin6_addr);
    CHECK(!cidr_list_allows(&l, &p));
    cidr_list_free(&l);
}

/* ---------------------------------------------------------------- what clients are told */
static void client_text(void)
{
    printf("client text\n");
    cuzk_server_config cfg;
    cuzk_server_config_default(&cfg);
    snprintf(cfg.param_dir, sizeof cfg.param_dir, "/srv/params/");
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "/var/cache/cuzk");
    static const char *const cases[][2] = {
        {"cannot open /srv/params/v28-x.params: No such file", "cannot open [param_dir]/v28-x.params: No such file"},
        {"cannot create '/var/cache/cuzk/porep.pce'", "cannot create '[cache_dir]/porep.pce'"},
        {"reading /home/op/secret/c1.json (line 3)", "reading .../c1.json (line 3)"},
        {"two\nlines\r\tand \x7f", "two lines  and  "},
        {"porep:2KiB/8MiB and unix:///run/x.sock stay", "porep:2KiB/8MiB and unix:///run/x.sock stay"},
        {"/etc", ".../etc"},
        {"/srv/paramsX/a", ".../a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[256];
        snprintf(t, sizeof t, "%s", cases[i][0]);
        rpc_client_text(&cfg, t, sizeof t);
        CHECK(!strcmp(t, cases[i][1]));
        if (strcmp(t, cases[i][1])) fprintf(stderr, "  '%s' -> '%s', not '%s'\n", cases[i][0], t, cases[i][1]);
    }
    char small[8] = "/a/b/c";
    rpc_client_text(&cfg, small, sizeof small);
    CHECK(!strcmp(small, ".../c"));
}

/* A Prove lets go of its request's bytes once its job is submitted, not when the proof ends:
 * the slice it was given is empty when the call returns (and the job completed). */
static void prove_releases_request(cuzk_server *s)
{
    Cuzk__V1__SubmitProofRequest q = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    q.request_id = "release";
    q.proof_kind = CUZK_SERVER_TEST_KIND;
    q.vanilla_proof.data = (uint8_t *)"random:256";
    q.vanilla_proof.len = strlen("random:256");
    q.sector_number = 5;
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &q;
    uint8_t buf[256];
    size_t n = protobuf_c_message_pack(&p.base, buf);
    grpc_slice in = grpc_slice_from_copied_buffer((const char *)buf, n);
    cuzk_cancel gone = {0};
    rpc_call call = {s, 0, &gone, &in};
    rpc_reply r = {0, "", NULL, 0};
    rpc_handle(&call, rpc_method_index("/cuzk.v1.ProvingEngine/Prove", strlen("/cuzk.v1.ProvingEngine/Prove")),
               GRPC_SLICE_START_PTR(in), GRPC_SLICE_LENGTH(in), &r);
    CHECK(r.code == RPC_OK);
    CHECK(GRPC_SLICE_LENGTH(in) == 0); /* released by the handler */
    grpc_slice_unref(in);
    free(r.out);
    printf("a Prove released its request's bytes before waiting for its proof\n");
}

static void fuzz(cuzk_server *s)
{
    printf("fuzz the handlers\n");
    Cuzk__V1__SubmitProofRequest q = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    q.request_id = "fz";
    q.proof_kind = 1;
    q.vanilla_proof.data = (uint8_t *)"{\"a\":1}";
    q.vanilla_proof.len = 7;
    q.randomness.data = (uint8_t *)"0123456789abcdef0123456789abcdef";
    q.randomness.len = 32;
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aw.job_id = "fz";
    aw.timeout_ms = 1;
    Cuzk__V1__PreloadSrsRequest pl = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pl.circuit_id = "porep-2k";
    const ProtobufCMessage *seeds[] = {&q.base, &aw.base, &pl.base};
    const int seed_method[] = {0, 1, 6};
    uint8_t buf[512], mut[600];
    cuzk_cancel gone = {0};
    rpc_call call = {s, 0, &gone, NULL};
    uint64_t x = 0x9e3779b97f4a7c15ull;
    unsigned answers[17] = {0};
    for (int it = 0; it < 6000; it++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int k = (int)(x % 3);
        size_t n = protobuf_c_message_pack(seeds[k], buf);
        memcpy(mut, buf, n);
        int edits = 1 + (int)((x >> 8) % 4);
        for (int e = 0; e < edits; e++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = n ? (size_t)(x >> 20) % n : 0;
            switch ((x >> 4) % 4) {
            case 0: mut[at] ^= (uint8_t)(1u << ((x >> 12) % 8)); break;
            case 1: n = at; break;
            case 2:
                if (n + 3 < sizeof mut) {
                    memmove(mut + at + 3, mut + at, n - at);
                    mut[at] = (uint8_t)(x >> 32), mut[at + 1] = 0xff, mut[at + 2] = (uint8_t)(x >> 40);
                    n += 3;
                }
                break;
            default: mut[at] = (uint8_t)(x >> 24); break;
            }
        }
        /* any method may get any bytes */
        int m = (x >> 50) % 2 ? seed_method[k] : (int)((x >> 52) % 9); /* the nine methods, GetTrace too */
        if (m == 2) m = 0; /* Prove waits for a job without a timeout: Submit is the same check */
        rpc_reply r = {0, "", NULL, 0};
        rpc_handle(&call, m, mut, n, &r);
        bool allowed = r.code == RPC_OK || r.code == RPC_INVALID_ARGUMENT || r.code == RPC_NOT_FOUND ||
            r.code == RPC_FAILED_PRECONDITION;
        if (!allowed) fprintf(stderr, "  method %d: status %d: %s\n", m, r.code, r.message);
        CHECK(allowed);
        CHECK(r.code == RPC_OK || r.message[0]);
        answers[r.code]++;
        free(r.out);
    }
    printf("  6000 mutated requests: %u OK, %u INVALID_ARGUMENT, %u NOT_FOUND, %u FAILED_PRECONDITION\n", answers[0],
           answers[3], answers[5], answers[9]);
}

/* The gRPC status of each engine status: by the code alone (a message that reads like another
 * failure changes nothing), whose fault it is and whether a retry can help. */
static void status_codes(void)
{
    static const struct {
        cuzk_status st;
        int code;
    } want[] = {
        {CUZK_OK, RPC_OK},
        {CUZK_EINVAL, RPC_INVALID_ARGUMENT},
        {CUZK_ENOTFOUND, RPC_NOT_FOUND},
        {CUZK_EBUSY, RPC_RESOURCE_EXHAUSTED},
        {CUZK_EBUDGET, RPC_RESOURCE_EXHAUSTED},
        {CUZK_ENOMEM, RPC_RESOURCE_EXHAUSTED},
        {CUZK_ESHUTDOWN, RPC_UNAVAILABLE},
        {CUZK_ECANCELLED, RPC_CANCELLED},
        {CUZK_EIO, RPC_FAILED_PRECONDITION},
        {CUZK_EFORMAT, RPC_FAILED_PRECONDITION},
        {CUZK_EVERIFY, RPC_FAILED_PRECONDITION},
        {CUZK_EUNSUPPORTED, RPC_FAILED_PRECONDITION},
        {CUZK_EDEVICE, RPC_FAILED_PRECONDITION},
        {CUZK_EINTERNAL, RPC_INTERNAL},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        cuzk_fail(want[i].st, "too many jobs: the engine is shutting down; unknown circuit");
        CHECK(rpc_code_of(want[i].st) == want[i].code);
        CHECK(strcmp(cuzk_status_name(want[i].st), "unknown status") != 0);
    }
    CHECK(rpc_code_of((cuzk_status)999) == RPC_INTERNAL);
}

int main(void)
{
    status_codes();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk-test-server-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    make_params("random:256");
    make_params("random:16384");
    cuzk_engine_config ec;
    cuzk_engine_config_default(&ec);
    ec.gpus = 0;
    ec.threads = 2;
    ec.urgent_threads = 1;
    cuzk_engine *e;
    CHECK_OK(cuzk_engine_create(&e, &ec, NULL));
    bool registered[2] = {false, false};
    cuzk_server_hooks hooks = {test_circuit, registered};
    cuzk_server_config sc;
    cuzk_server_config_default(&sc);
    sc.test_kinds = true;
    snprintf(sc.param_dir, sizeof sc.param_dir, "%s", tmpdir);
    snprintf(sc.listen, sizeof sc.listen, "unix://%s/run/sub/d.sock", tmpdir);
    cuzk_server *s = NULL, *s2 = NULL, *t = NULL;
    CHECK_OK(cuzk_server_start(&s, &sc, e, &hooks));
    if (!s) return 1;
    char path[300];
    snprintf(path, sizeof path, "%s/run/sub/d.sock", tmpdir);
    struct stat sb;
    CHECK(!stat(path, &sb) && S_ISSOCK(sb.st_mode) && (sb.st_mode & 0777) == 0600);
    /* a second server on the same socket is refused; the first goes on */
    CHECK(cuzk_server_start(&s2, &sc, e, &hooks) && err_has("another daemon is listening"));
    rpcs(cuzk_server_address(s));
    /* loopback TCP, port 0: any free port */
    cuzk_server_config tc = sc;
    snprintf(tc.listen, sizeof tc.listen, "127.0.0.1:0");
    CHECK_OK(cuzk_server_start(&t, &tc, e, &hooks));
    if (t) {
        CHECK(strncmp(cuzk_server_address(t), "127.0.0.1:", 10) == 0 && strcmp(cuzk_server_address(t), "127.0.0.1:0"));
        rpcs(cuzk_server_address(t));
        /* a second server on that port is refused */
        snprintf(tc.listen, sizeof tc.listen, "%s", cuzk_server_address(t));
        CHECK(cuzk_server_start(&s2, &tc, e, &hooks) && err_has("cannot bind"));
    }
    /* a message over the limit: RESOURCE_EXHAUSTED from the transport */
    cuzk_server *small = NULL;
    cuzk_server_config mc = sc;
    mc.max_message_bytes = 65536;
    snprintf(mc.listen, sizeof mc.listen, "unix://%s/small.sock", tmpdir);
    CHECK_OK(cuzk_server_start(&small, &mc, e, &hooks));
    if (small) {
        cuzk_client *c;
        CHECK_OK(cuzk_client_open(&c, cuzk_server_address(small), 1 << 24));
        uint8_t *big_in = calloc(1, 100000);
        cuzk_rpc_request r = {0};
        r.proof_kind = 1;
        r.vanilla_proof = big_in;
        r.vanilla_proof_len = 100000;
        cuzk_rpc_result res;
        int code = 0;
        CHECK(cuzk_client_prove(c, &r, 10, &res, &code) && code == RPC_RESOURCE_EXHAUSTED);
        /* and one under it is served */
        r.vanilla_proof_len = 1000;
        CHECK_OK(cuzk_client_prove(c, &r, 10, &res, &code));
        CHECK(res.status == CUZK_RPC_FAILED);
        cuzk_rpc_result_free(&res);
        free(big_in);
        cuzk_client_close(c);
        cuzk_server_stop(small, 1);
    }
    client_text();
    no_lockout(e, &hooks, &sc);
    load_in_drain(e, &hooks, &sc);
    listener(e, &hooks, &sc);
    fuzz(s);
    prove_releases_request(s);
    /* a bad address is refused naming it */
    snprintf(tc.listen, sizeof tc.listen, "nonsense");
    CHECK(cuzk_server_start(&s2, &tc, e, &hooks) && err_has("nonsense"));
    snprintf(tc.listen, sizeof tc.listen, "unix://relative/path");
    CHECK(cuzk_server_start(&s2, &tc, e, &hooks) && err_has("absolute"));

    /* stop drains: a job in flight finishes within the grace period, the socket goes */
    cuzk_client *c;
    CHECK_OK(cuzk_client_open(&c, cuzk_server_address(s), 1 << 20));
    cuzk_rpc_request r = test_req("random:256", "drain", 4, 77);
    char id[256];
    CHECK_OK(cuzk_client_submit(c, &r, 10, id, NULL, NULL));
    cuzk_server_stop(t, 10);
    cuzk_server_stop(s, 30);
    CHECK(stat(path, &sb) != 0);
    cuzk_job_result jr;
    uint64_t eid = 0;
    CHECK_OK(cuzk_engine_find(e, "drain", &eid));
    CHECK_OK(cuzk_engine_await(e, eid, 0, &jr));
    CHECK(jr.state == CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&jr);
    cuzk_client_close(c);
    cuzk_engine_destroy(e);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", tmpdir);
    return harness_finish("server");
}
