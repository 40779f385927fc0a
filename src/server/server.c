/* The gRPC server over gRPC's C core: one completion-queue thread takes every event (new calls,
 * received messages, clients going away, responses sent), and each call's handler runs on a
 * thread of its own, since Prove and AwaitProof block for as long as a proof takes (minutes).
 * A call holds a reference for each operation in flight and one for its handler; the last
 * one released frees it. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cq_handoff.h"
#include "server_internal.h"

typedef enum { TAG_NEW_CALL, TAG_RECV, TAG_CLOSE, TAG_SENT, TAG_SHUTDOWN } tag_kind;

typedef struct call_ctx call_ctx;
typedef struct {
    tag_kind kind;
    call_ctx *c;
} tag;

struct call_ctx {
    cuzk_server *s;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *recv, *send;
    grpc_slice status_details;
    bool has_details;
    int cancelled;    /* written by the core when the close arrives */
    cuzk_cancel gone; /* set when the client went away; a waiting handler is woken */
    atomic_int refs;
    int method;
    int conn_fd; /* the connection's descriptor (the listener counts its calls), or -1 */
    double deadline;
    tag t_new, t_recv, t_close, t_sent;
};

static tag shutdown_tag = {TAG_SHUTDOWN, NULL};

static void call_release(call_ctx *c)
{
    if (atomic_fetch_sub(&c->refs, 1) != 1) return;
    conns_call_ended(c->s->conns, c->conn_fd);
    if (c->recv) grpc_byte_buffer_destroy(c->recv);
    if (c->send) grpc_byte_buffer_destroy(c->send);
    if (c->has_details) grpc_slice_unref(c->status_details);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    if (c->call) grpc_call_unref(c->call);
    free(c);
}

/* Starts a batch of operations on c's call with tag t; c may be freed by the completion's
 * thread as soon as this returns, so nothing of it is read after the hand-off. */
static grpc_call_error start_batch(call_ctx *c, const grpc_op *ops, size_t n, tag *t)
{
    grpc_call *call = c->call;
    CQ_HANDOFF(t);
    return grpc_call_start_batch(call, ops, n, t, NULL);
}

/* Asks the core for the next incoming call (one is always asked for while serving). */
static void request_call(cuzk_server *s)
{
    call_ctx *c = calloc(1, sizeof *c);
    if (!c) return; /* out of memory: the next event retries */
    c->s = s;
    c->conn_fd = -1;
    c->t_new = (tag){TAG_NEW_CALL, c};
    c->t_recv = (tag){TAG_RECV, c};
    c->t_close = (tag){TAG_CLOSE, c};
    c->t_sent = (tag){TAG_SENT, c};
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    atomic_init(&c->refs, 1);
    c->gone = (cuzk_cancel){0};
    CQ_HANDOFF(&c->t_new);
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq, &c->t_new) != GRPC_CALL_OK)
        call_release(c);
}

/* Sends the status (and the message when OK); the call's handler reference passes to the send.
 * Every status message leaves through here, so here is where it is made fit for a client
 * (rpc_client_text: no server path, no control character). */
static void respond(call_ctx *c, int code, const char *message, const uint8_t *out, size_t out_len)
{
    char told[1024];
    snprintf(told, sizeof told, "%s", code == RPC_OK ? "" : message);
    rpc_client_text(&c->s->cfg, told, sizeof told);
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    if (code == RPC_OK) {
        grpc_slice sl = grpc_slice_from_copied_buffer((const char *)out, out_len);
        c->send = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = c->send;
    }
    c->status_details = grpc_slice_from_copied_string(told);
    c->has_details = true;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)code;
    ops[n++].data.send_status_from_server.status_details = &c->status_details;
    if (start_batch(c, ops, n, &c->t_sent) != GRPC_CALL_OK) call_release(c);
}

/* A place in the call's class (each class has daemon.max_calls of its own), or false. */
static bool admit(cuzk_server *s, rpc_call_class k)
{
    pthread_mutex_lock(&s->mu);
    bool room = s->class_calls[k] < s->cfg.max_calls;
    if (room) s->class_calls[k]++;
    pthread_mutex_unlock(&s->mu);
    return room;
}

static void *handler_main(void *arg)
{
    call_ctx *c = arg;
    cuzk_server *s = c->s;
    grpc_byte_buffer_reader rd;
    grpc_slice in = grpc_empty_slice();
    if (grpc_byte_buffer_reader_init(&rd, c->recv)) {
        in = grpc_byte_buffer_reader_readall(&rd);
        grpc_byte_buffer_reader_destroy(&rd);
    }
    /* one copy of a large request is enough */
    grpc_byte_buffer_destroy(c->recv);
    c->recv = NULL;
    rpc_reply r = {RPC_OK, "", NULL, 0};
    rpc_call_class k = rpc_classify(c->method, GRPC_SLICE_START_PTR(in), GRPC_SLICE_LENGTH(in));
    if (admit(s, k)) {
        rpc_call view = {s, c->deadline, &c->gone, &in};
        rpc_handle(&view, c->method, GRPC_SLICE_START_PTR(in), GRPC_SLICE_LENGTH(in), &r);
        pthread_mutex_lock(&s->mu);
        s->class_calls[k]--;
        pthread_mutex_unlock(&s->mu);
    } else {
        rpc_fail(&r, RPC_RESOURCE_EXHAUSTED, "too many calls in progress: %u of %s (daemon.max_calls, for each class)",
                 s->cfg.max_calls, rpc_call_class_name(k));
    }
    grpc_slice_unref(in);
    if (r.code == RPC_OK && r.out_len > s->cfg.max_message_bytes)
        rpc_fail(&r, RPC_RESOURCE_EXHAUSTED, "the response is %zu bytes, more than daemon.max_message_bytes (%llu)",
                 r.out_len, (unsigned long long)s->cfg.max_message_bytes);
    respond(c, r.code, r.message, r.out, r.out_len);
    free(r.out);
    pthread_mutex_lock(&s->mu);
    s->calls--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static double deadline_of(gpr_timespec d)
{
    gpr_timespec inf = gpr_inf_future(d.clock_type);
    if (gpr_time_cmp(d, inf) >= 0) return 0;
    gpr_timespec left = gpr_time_sub(gpr_convert_clock_type(d, GPR_CLOCK_MONOTONIC), gpr_now(GPR_CLOCK_MONOTONIC));
    double t = cuzk_now() + (double)left.tv_sec + left.tv_nsec * 1e-9;
    return t > 0 ? t : 1e-9;
}

/* A new call: watch for its end, read its one message. */
static void on_new_call(cuzk_server *s, call_ctx *c)
{
    c->method =
        rpc_method_index((const char *)GRPC_SLICE_START_PTR(c->details.method), GRPC_SLICE_LENGTH(c->details.method));
    c->deadline = deadline_of(c->details.deadline);
    char *peer = grpc_call_get_peer(c->call);
    c->conn_fd = conns_fd_of_peer(peer);
    gpr_free(peer);
    conns_call_started(s->conns, c->conn_fd);
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    atomic_fetch_add(&c->refs, 1);
    if (start_batch(c, &op, 1, &c->t_close) != GRPC_CALL_OK) call_release(c);
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->recv;
    /* the new-call reference passes to the receive */
    if (start_batch(c, &op, 1, &c->t_recv) != GRPC_CALL_OK) call_release(c);
}

/* The message is in (or the call failed before it came). */
static void on_recv(cuzk_server *s, call_ctx *c, bool ok)
{
    if (!ok || cuzk_cancel_requested(&c->gone)) {
        call_release(c); /* the core has answered the client already (e.g. RESOURCE_EXHAUSTED) */
        return;
    }
    if (c->method < 0) {
        char m[256];
        int len = (int)GRPC_SLICE_LENGTH(c->details.method);
        snprintf(m, sizeof m,
                 "unknown method %.*s (cuzk.v1.ProvingEngine has SubmitProof, AwaitProof, Prove, "
                 "CancelProof, GetStatus, GetMetrics, PreloadSRS, EvictSRS, GetTrace)",
                 len > 120 ? 120 : len, (const char *)GRPC_SLICE_START_PTR(c->details.method));
        respond(c, RPC_UNIMPLEMENTED, m, NULL, 0);
        return;
    }
    if (!c->recv) {
        respond(c, RPC_INVALID_ARGUMENT, "the call carried no request message", NULL, 0);
        return;
    }
    pthread_mutex_lock(&s->mu);
    /* the threads of every class together; each class is bounded in its handler */
    bool full = s->calls >= CALL_CLASSES * s->cfg.max_calls, draining = s->draining;
    if (!full && !draining) s->calls++;
    pthread_mutex_unlock(&s->mu);
    if (draining) {
        respond(c, RPC_UNAVAILABLE, "the daemon is shutting down", NULL, 0);
        return;
    }
    if (full) {
        respond(c, RPC_RESOURCE_EXHAUSTED, "too many calls in progress (4 x daemon.max_calls)", NULL, 0);
        return;
    }
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    /* the default 8 MiB would be fine too (only touched pages count); a smaller stack must
     * still hold the static TLS of every library loaded (the CUDA runtime's is large) */
    pthread_attr_setstacksize(&a, 2u << 20);
    pthread_t t;
    int err = pthread_create(&t, &a, handler_main, c);
    pthread_attr_destroy(&a);
    if (err) {
        pthread_mutex_lock(&s->mu);
        s->calls--;
        pthread_mutex_unlock(&s->mu);
        char m[160];
        snprintf(m, sizeof m, "no thread for the call: %s", strerror(err));
        respond(c, RPC_RESOURCE_EXHAUSTED, m, NULL, 0);
    }
}

static void *cq_main(void *arg)
{
    cuzk_server *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
        if (ev.type != GRPC_OP_COMPLETE) continue;
        tag *t = ev.tag;
        CQ_TAKEN(t);
        call_ctx *c = t->c;
        switch (t->kind) {
        case TAG_NEW_CALL:
            if (!ev.success) {
                call_release(c); /* the server is shutting down */
                break;
            }
            pthread_mutex_lock(&s->mu);
            bool serving = !s->draining;
            pthread_mutex_unlock(&s->mu);
            if (serving) request_call(s);
            on_new_call(s, c);
            break;
        case TAG_RECV: on_recv(s, c, ev.success); break;
        case TAG_CLOSE:
            if (c->cancelled) {
                cuzk_cancel_set(&c->gone);
                cuzk_engine_wake(s->e); /* its handler may be waiting for a job */
            }
            call_release(c);
            break;
        case TAG_SENT: call_release(c); break;
        case TAG_SHUTDOWN:
            pthread_mutex_lock(&s->mu);
            s->shutdown_done = true;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            break;
        }
    }
    return NULL;
}

static void server_free(cuzk_server *s)
{
    conns_stop(s->conns);
    if (s->http) server_http_stop(s->http);
    if (s->server) grpc_server_destroy(s->server);
    if (s->cq) {
        grpc_completion_queue_shutdown(s->cq);
        if (s->cq_started) pthread_join(s->cq_thread, NULL);
        else /* the queue must be drained before it is destroyed */
            while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
                   GRPC_QUEUE_SHUTDOWN) {}
        grpc_completion_queue_destroy(s->cq);
    }
    conns_free(s->conns);    /* every call has been released */
    server_tls_free(s->tls); /* after the core has closed its ends of the relays */
    cidr_list_free(&s->allow);
    if (s->socket_path[0]) listen_remove_socket(s->socket_path, s->socket_dev, s->socket_ino);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->test_mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    grpc_shutdown();
}

/* A start that failed after the gRPC server started: it is shut down and freed; st returned. */
static cuzk_status start_failed(cuzk_server *s, cuzk_status st)
{
    grpc_server_shutdown_and_notify(s->server, s->cq, &shutdown_tag);
    grpc_server_cancel_all_calls(s->server);
    pthread_mutex_lock(&s->mu);
    while (!s->shutdown_done) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    server_free(s);
    return st;
}

cuzk_status cuzk_server_start(cuzk_server **out, const cuzk_server_config *cfg, cuzk_engine *e,
                              const cuzk_server_hooks *hooks)
{
    *out = NULL;
    cuzk_server *s = calloc(1, sizeof *s);
    if (!s) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    s->cfg = *cfg;
    if (hooks) s->hooks = *hooks;
    s->e = e;
    s->start_t = cuzk_now();
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->test_mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    atomic_init(&s->stopping, false);
    grpc_init();

    char addr[600];
    cuzk_status st = listen_prepare(cfg->listen, addr, sizeof addr, s->socket_path, sizeof s->socket_path, s->warning,
                                    sizeof s->warning);
    if (st) {
        s->socket_path[0] = 0;
        server_free(s);
        return st;
    }
    if ((st = cidr_list_parse(&s->allow, "daemon.allow", cfg->allow))) {
        s->socket_path[0] = 0;
        server_free(s);
        return st;
    }
    if ((st = server_tls_load(&s->tls, cfg))) {
        s->socket_path[0] = 0;
        server_free(s);
        return st;
    }
    if (s->tls && s->socket_path[0]) {
        /* the files were checked all the same: a TCP listen later takes them as they are */
        size_t w = strlen(s->warning);
        snprintf(s->warning + w, sizeof s->warning - w,
                 "%sdaemon.tls_cert is set but the listen address is a Unix socket: TLS applies to TCP listens "
                 "only, the socket speaks plaintext (its mode, 0600, guards it)",
                 w ? "; " : "");
    }
    int lfd = -1;
    unsigned port = 0;
    if ((st = listen_bind(addr, s->socket_path, &lfd, &port))) {
        s->socket_path[0] = 0; /* not ours */
        server_free(s);
        return st;
    }
    if (s->socket_path[0] && (st = listen_claim_socket(s->socket_path, &s->socket_dev, &s->socket_ino))) {
        s->socket_path[0] = 0; /* not provably ours: left where it is */
        close(lfd);
        server_free(s);
        return st;
    }
    if (s->socket_path[0]) {
        snprintf(s->address, sizeof s->address, "unix://%s", s->socket_path);
    } else {
        const char *colon = strrchr(cfg->listen, ':');
        snprintf(s->address, sizeof s->address, "%.*s:%u", (int)(colon - cfg->listen), cfg->listen, port);
    }
    int max = cfg->max_message_bytes > INT32_MAX ? INT32_MAX : (int)cfg->max_message_bytes;
    int idle_ms = cfg->idle_connection_s && cfg->idle_connection_s < INT32_MAX / 1000
        ? (int)cfg->idle_connection_s * 1000
        : INT32_MAX;
    grpc_arg args[3] = {
        {GRPC_ARG_INTEGER, GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, {.integer = max}},
        {GRPC_ARG_INTEGER, GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, {.integer = max}},
        /* a connection without a call this long gets a GOAWAY (the listener closes it later) */
        {GRPC_ARG_INTEGER, GRPC_ARG_MAX_CONNECTION_IDLE_MS, {.integer = idle_ms}},
    };
    grpc_channel_args ca = {3, args};
    s->server = grpc_server_create(&ca, NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    grpc_server_start(s->server);
    if (pthread_create(&s->cq_thread, NULL, cq_main, s)) {
        server_free(s);
        return cuzk_fail(CUZK_EIO, "cannot start the server's thread");
    }
    s->cq_started = true;
    conns_config cc = {cfg->max_connections, cfg->idle_connection_s, &s->allow, s->socket_path[0] ? NULL : s->tls};
    if ((st = conns_start(&s->conns, s->server, lfd, !s->socket_path[0], &cc))) {
        return start_failed(s, st);
    }
    char http_warning[400] = "";
    if (cfg->http_listen[0] &&
        (st = server_http_start(&s->http, cfg->http_listen, e, http_warning, sizeof http_warning))) {
        return start_failed(s, st);
    }
    if (http_warning[0]) {
        size_t w = strlen(s->warning);
        snprintf(s->warning + w, sizeof s->warning - w, "%s%s", w ? "; " : "", http_warning);
    }
    for (int i = 0; i < 4; i++) request_call(s);
    *out = s;
    return CUZK_OK;
}

const char *cuzk_server_address(const cuzk_server *s) { return s->address; }
const char *cuzk_server_warning(const cuzk_server *s) { return s->warning; }
unsigned cuzk_server_http_port(const cuzk_server *s) { return s->http ? server_http_port(s->http) : 0; }

unsigned cuzk_server_calls(const cuzk_server *s)
{
    pthread_mutex_lock((pthread_mutex_t *)&s->mu);
    unsigned n = s->calls;
    pthread_mutex_unlock((pthread_mutex_t *)&s->mu);
    return n;
}

static unsigned live_jobs(cuzk_engine *e)
{
    unsigned queued, running;
    cuzk_engine_job_counts(e, &queued, &running);
    return queued + running;
}

void cuzk_server_stop(cuzk_server *s, double grace_s) { cuzk_server_drain(s, grace_s, NULL); }

void cuzk_server_drain(cuzk_server *s, double grace_s, const atomic_bool *cut_short)
{
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    s->draining = true;
    pthread_mutex_unlock(&s->mu);
    /* no new connections or calls; the calls open go on */
    conns_stop(s->conns);
    grpc_server_shutdown_and_notify(s->server, s->cq, &shutdown_tag);
    double end = cuzk_now() + grace_s;
    while (live_jobs(s->e) && cuzk_now() < end && !(cut_short && atomic_load(cut_short))) usleep(50 * 1000);
    /* no new job from here (a Prove or Submit now is UNAVAILABLE); handlers waiting on jobs see
     * them end CANCELLED */
    atomic_store(&s->stopping, true);
    cuzk_engine_cancel_all(s->e, "the daemon is shutting down");
    /* a load (a PreloadSRS call's, or a cancelled job's) stops at its next piece instead of
     * holding the drain for the rest of a 44 GiB read */
    cuzk_engine_cancel_loads(s->e);
    pthread_mutex_lock(&s->mu);
    while (s->calls) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    grpc_server_cancel_all_calls(s->server);
    pthread_mutex_lock(&s->mu);
    while (!s->shutdown_done) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    server_free(s);
}
