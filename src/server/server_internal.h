/* The server layer's private pieces: the state of the server, the view of one call that the
 * RPC handlers get, and the address helpers. */
#ifndef CUZK_SERVER_INTERNAL_H
#define CUZK_SERVER_INTERNAL_H

#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <protobuf-c/protobuf-c.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "cuzk/base.h"
#include "cuzk/server.h"
#include "http.h"

/* gRPC status codes (the values of grpc_status_code, named for the handlers) */
enum {
    RPC_OK = 0,
    RPC_CANCELLED = 1,
    RPC_INVALID_ARGUMENT = 3,
    RPC_DEADLINE_EXCEEDED = 4,
    RPC_NOT_FOUND = 5,
    RPC_RESOURCE_EXHAUSTED = 8,
    RPC_FAILED_PRECONDITION = 9,
    RPC_UNIMPLEMENTED = 12,
    RPC_INTERNAL = 13,
    RPC_UNAVAILABLE = 14
};

/* Client networks (daemon.allow), e.g. "127.0.0.0/8,::1/128" (cidr.c). */
typedef struct {
    uint8_t addr[16]; /* IPv4 as ::ffff:a.b.c.d */
    unsigned bits;    /* prefix length over the 128 bits */
} cidr_entry;
typedef struct {
    cidr_entry *v;
    size_t n;
} cidr_list;
/* Parses a comma-separated list (spaces allowed); an entry that is not ADDRESS[/BITS] is
 * CUZK_EINVAL naming it and the key. */
cuzk_status cidr_list_parse(cidr_list *out, const char *key, const char *text) CUZK_WARN_UNUSED;
void cidr_list_free(cidr_list *l);
/* Whether peer (AF_INET or AF_INET6; an IPv4-mapped IPv6 address as IPv4) is in the list. */
bool cidr_list_allows(const cidr_list *l, const struct sockaddr_storage *peer);

/* TLS on the TCP listen (tls_server.c, tls_relay.c): the daemon ends TLS itself and hands gRPC's
 * core the plaintext end of a socketpair. */
typedef struct server_tls server_tls;
/* The context of daemon.tls_cert, tls_key and tls_client_ca, each file read and checked; *out
 * NULL when TLS is off (neither key set). Errors name the key and the file: CUZK_EIO (cannot
 * read), CUZK_EFORMAT (not PEM), CUZK_EINVAL (only one of cert and key, a key not the
 * certificate's, a client CA without them). */
cuzk_status server_tls_load(server_tls **out, const cuzk_server_config *cfg) CUZK_WARN_UNUSED;
/* Starts the relay of the accepted TCP connection tcp_fd (taken, closed by the relay or here on
 * failure): *grpc_fd is the plaintext end for the core; closing or shutting it down ends the
 * relay, and the relay's end closing ends it for the core. */
cuzk_status server_tls_wrap(server_tls *t, int tcp_fd, int *grpc_fd) CUZK_WARN_UNUSED;
/* Ends every relay (their connections closed), waits for them and frees t. NULL: nothing. */
void server_tls_free(server_tls *t);

/* The daemon's listener and its connections (server_accept.c says why it is ours). */
typedef struct server_conns server_conns;
typedef struct {
    unsigned max_connections;
    unsigned idle_s;        /* without a call this long: told to go (0: never) */
    const cidr_list *allow; /* TCP peers let in */
    server_tls *tls;        /* TCP connections relayed through TLS (NULL: plaintext) */
} conns_config;
typedef struct {
    unsigned open;
    uint64_t accepted, refused_full, refused_descriptors, refused_not_allowed, closed_no_call, closed_idle,
        closed_for_room;
} conns_stats;
/* Accepts on listen_fd (taken: closed by conns_stop) until stopped, adding each connection to
 * server (started). */
cuzk_status conns_start(server_conns **out, grpc_server *server, int listen_fd, bool tcp,
                        const conns_config *cfg) CUZK_WARN_UNUSED;
int conns_fd_of_peer(const char *peer); /* "fd:N" -> N, else -1 */
void conns_call_started(server_conns *k, int fd);
void conns_call_ended(server_conns *k, int fd);
void conns_get_stats(server_conns *k, conns_stats *out);
void conns_stop(server_conns *k); /* no more connections taken; the listener closed */
void conns_free(server_conns *k); /* after the last call has ended */

/* Classes of call, each with its own daemon.max_calls, so that one kind of call cannot lock out
 * another: proof work at LOW/NORMAL priority (SubmitProof, Prove, PreloadSRS, EvictSRS), the
 * same at HIGH/CRITICAL priority (the PoSt kinds by default), AwaitProof, and control
 * (CancelProof, GetStatus, GetMetrics). */
typedef enum { CALL_WORK, CALL_URGENT, CALL_WAIT, CALL_CONTROL, CALL_CLASSES } rpc_call_class;

struct cuzk_server {
    cuzk_server_config cfg;
    cuzk_server_hooks hooks;
    cuzk_engine *e;
    grpc_server *server;
    grpc_completion_queue *cq;
    pthread_t cq_thread;
    bool cq_started;
    char address[600];
    char socket_path[512]; /* the Unix socket made (removed on stop if still ours), or "" */
    dev_t socket_dev;      /* the socket file this process bound: shutdown removes the path */
    ino_t socket_ino;      /* only while it still names that file */
    server_http *http;
    double start_t;
    char warning[1200];  /* for the operator at start (cuzk_server_warning), or "" */
    cidr_list allow;     /* daemon.allow, parsed */
    server_conns *conns; /* the listener */
    server_tls *tls;     /* daemon.tls_cert's context and its relays, or NULL */

    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned calls;                     /* handler threads running */
    unsigned class_calls[CALL_CLASSES]; /* handlers admitted, by class (each up to max_calls) */
    bool draining;                      /* no new calls are taken */
    bool shutdown_done;                 /* the gRPC server said it has shut down */
    atomic_bool stopping;               /* waits in handlers end (their callers get CANCELLED or UNAVAILABLE) */
    pthread_mutex_t test_mu;            /* test circuits are made known to the engine one at a time */
};

/* What a handler knows of its call. */
typedef struct {
    cuzk_server *s;
    double deadline;         /* cuzk_now() clock; 0: none */
    const cuzk_cancel *gone; /* set when the client went away (cancelled, disconnected, deadline) */
    /* The slice holding the request's bytes (rpc_handle's in and len point into it): the one
     * copy, gRPC's byte buffer being destroyed before the handler runs. A Prove releases it
     * (unref, then an empty slice in its place) once its job is submitted, before it waits for
     * the proof; handler_main (server.c) unrefs what is left after rpc_handle returns. NULL
     * where a test calls rpc_handle without one. */
    grpc_slice *in;
} rpc_call;

/* A handler's answer: a gRPC status (and its message when not OK) and the encoded response. */
typedef struct {
    int code;
    char message[1024];
    uint8_t *out; /* malloc'd */
    size_t out_len;
} rpc_reply;

/* The methods of cuzk.v1.ProvingEngine, in the order of rpc_method_names; -1 when unknown. */
int rpc_method_index(const char *path, size_t len);
/* The class of a call of method m (rpc_method_index) with request bytes in; the priority read
 * from the wire (a malformed request: CALL_WORK, its handler refuses it). */
rpc_call_class rpc_classify(int m, const uint8_t *in, size_t len);
const char *rpc_call_class_name(rpc_call_class k);
/* Runs method m on the request bytes (server_rpc.c). */
void rpc_handle(const rpc_call *call, int m, const uint8_t *in, size_t len, rpc_reply *r);
/* A SubmitProofRequest checked and turned into an engine request (rpc_decode_submit): req's
 * pointers borrow from the message, from job_id and circuit, and from blobs and lens (the PoSt
 * and SnapDeals blobs: pointers into the message and their lengths; malloc'd). */
typedef struct Cuzk__V1__SubmitProofRequest Cuzk__V1__SubmitProofRequest;
typedef struct {
    cuzk_job_request req;
    char job_id[256];  /* the request id, or a random job-... one when empty */
    char circuit[128]; /* the test kind's circuit name (registering it is the caller's) */
    const uint8_t **blobs;
    size_t *lens;
} rpc_submit;
/* A field's bytes as they came on the wire (wire_field.h). */
typedef struct {
    const uint8_t *bytes;
    size_t len;
} rpc_wire_bytes;
/* Checks every field of q (a refusal: false, r INVALID_ARGUMENT naming the field, or
 * RESOURCE_EXHAUSTED / INTERNAL) and fills *out; the engine is not involved. raw_id: the
 * request id's wire bytes (NULL: q's string, where a NUL inside cannot be seen). test_kinds:
 * proof kind 100 is accepted. Free *out with rpc_submit_free either way. */
bool rpc_decode_submit(const Cuzk__V1__SubmitProofRequest *q, const rpc_wire_bytes *raw_id, bool test_kinds,
                       rpc_submit *out, rpc_reply *r);
void rpc_submit_free(rpc_submit *out);
/* Rewrites text (cap bytes) as a client may see it: the daemon's folders by their key
 * ("[param_dir]/v28-....params"), other absolute paths as ".../LAST", control characters as
 * spaces (client_text.c). */
void rpc_client_text(const cuzk_server_config *cfg, char *text, size_t cap);
/* A proof kind's label in answers ("porep-c2", "snap-update", "window-post", "winning-post",
 * "test-circuit"; "" for another value): QueueStatus.proof_kind, GPUStatus, JobStatus. */
const char *rpc_kind_label(uint32_t kind);
/* GetStatus's fields of cuzk's own (rpc_jobs.c). The job a GetStatusRequest asks for, read from
 * its wire bytes in[0 .. len) (field 100, job_id; a NUL inside shows there), into id: "" for
 * every job. false: refused (r INVALID_ARGUMENT naming job_id). */
bool rpc_status_job_id(const uint8_t *in, size_t len, char id[CUZK_REQUEST_ID_MAX + 1], rpc_reply *r);
/* The jobs of a GetStatusResponse: those the engine lists (at most CUZK_STATUS_JOBS_MAX; total
 * counts them all), or job_id's alone (not "": NOT_FOUND into r when no job has it). Each
 * message's strings point into progress; errors rewritten as rpc_client_text does. */
typedef struct Cuzk__V1__JobStatus Cuzk__V1__JobStatus;
typedef struct {
    cuzk_job_progress *progress;
    Cuzk__V1__JobStatus *msgs, **ptrs; /* ptrs[i] = &msgs[i], as the response's array */
    size_t n, total;
} rpc_jobs;
/* false: refused or out of memory (r says why); free *out with rpc_jobs_free either way. */
bool rpc_jobs_fill(cuzk_engine *e, const cuzk_server_config *cfg, const char *job_id, rpc_jobs *out, rpc_reply *r);
void rpc_jobs_free(rpc_jobs *j);
/* Sets r to a non-OK status with a printf message. */
void rpc_fail(rpc_reply *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The gRPC status for a failed call's cuzk_status (rpc_status.c): by the code, never the text. */
int rpc_code_of(cuzk_status st);

/* The client's TLS credentials from tls's files (client_tls.c): *creds NULL when tls is NULL
 * or names no file (plaintext). Errors as cuzk_client_open_tls's. */
cuzk_status client_tls_credentials(const cuzk_client_tls *tls, grpc_channel_credentials **creds) CUZK_WARN_UNUSED;
/* One unary call of the client (client.c): *resp (malloc'd) gets the response bytes. */
cuzk_status client_call(cuzk_client *c, const char *method, const ProtobufCMessage *req, double deadline_s,
                        uint8_t **resp, size_t *resp_len, int *code) CUZK_WARN_UNUSED;

/* Address helpers (server_listen.c). listen "unix:///PATH", "unix:PATH" -> *path set (the
 * socket prepared: parent made, stale socket removed, a live one refused), else TCP "HOST:PORT". */
cuzk_status listen_prepare(const char *listen, char *grpc_addr, size_t cap, char *path, size_t path_cap, char *warning,
                           size_t warning_cap) CUZK_WARN_UNUSED;
/* The listening socket of listen_prepare's address: the Unix socket at path (when path is not
 * empty) or TCP addr ("HOST:PORT"; *port the one bound). */
cuzk_status listen_bind(const char *addr, const char *path, int *fd, unsigned *port) CUZK_WARN_UNUSED;
/* After the bind: the socket file at path (*dev, *ino), refused if path is not a socket. */
cuzk_status listen_claim_socket(const char *path, dev_t *dev, ino_t *ino) CUZK_WARN_UNUSED;
/* At shutdown: path removed only while it is still the socket claimed (a file or another
 * daemon's socket put there since is left alone). */
void listen_remove_socket(const char *path, dev_t dev, ino_t ino);

#endif
