/* cuzk server: the daemon's layer. The cuzk.v1.ProvingEngine gRPC service (proto/cuzk/v1/
 * proving.proto, over gRPC's C core: HTTP/2 on a Unix socket or TCP) as a thin layer over an
 * engine, the HTTP /metrics and /status endpoint, and a client of the same protocol.
 *
 * Every RPC maps onto an engine call: SubmitProof -> cuzk_engine_submit (a request id seen before
 * joins its job), AwaitProof -> cuzk_engine_await (timeout_ms honoured: TIMEOUT, the job goes on),
 * Prove -> both, bounded by the call's deadline, CancelProof -> cuzk_engine_cancel, GetStatus /
 * GetMetrics -> the engine's status, PreloadSRS / EvictSRS -> cuzk_engine_preload / evict.
 * Proof failures are in-band (status FAILED and error_message); malformed requests are
 * INVALID_ARGUMENT naming the field.
 *
 * Contracts are in the form of cuzk/status.h (docs/API.md); pointer arguments are not NULL
 * unless a contract says so, and a failing call leaves its reason in cuzk_last_error(). */
#ifndef CUZK_SERVER_H
#define CUZK_SERVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/config.h"
#include "cuzk/engine.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A proof kind outside cuzk.v1's ProofKind enum, accepted only with test_kinds (off by default;
 * for the daemon's own tests): it proves the built-in circuit named by vanilla_proof (e.g.
 * "random:4096"), sector_number as its seed and partition_index + 1 partitions, so that load
 * and fault tests run in seconds. */
#define CUZK_SERVER_TEST_KIND 100

/* The daemon's configuration: section "daemon" of the config file (cuzk_server_config_table). */
typedef struct {
    char listen[512];           /* unix:///PATH (or unix:PATH), or HOST:PORT (port 0: any free one) */
    char http_listen[256];      /* HTTP /metrics and /status: HOST:PORT or PORT ("": off) */
    uint64_t max_message_bytes; /* largest request or response message (RESOURCE_EXHAUSTED beyond) */
    unsigned max_calls;         /* calls at once of each class (rpc_call_class); beyond, RESOURCE_EXHAUSTED */
    unsigned drain_grace_s;     /* on stop: seconds in-flight jobs may take to finish before cancel */
    unsigned max_connections;   /* at once; a new one replaces the one idle longest */
    unsigned idle_connection_s; /* a connection without a call this long is told to go (0: never) */
    char allow[512];            /* TCP: client networks let in, CIDR list (Unix sockets: the mode) */
    char tls_cert[512];         /* TCP: the server's PEM certificate (chain) for TLS ("": plaintext) */
    char tls_key[512];          /* ... its PEM private key (set both or neither) */
    char tls_client_ca[512];    /* ... PEM CA(s) client certificates must chain to ("": none asked) */
    bool test_kinds;            /* accept CUZK_SERVER_TEST_KIND */
    bool test_synthetic;        /* ... proved with synthetic parameters made on the GPU (timing only) */
    bool test_params;           /* the official kinds use the demo's cuzk-test-* files (said everywhere) */
    char param_dir[512];        /* official .params/.vk files (env FIL_PROOFS_PARAMETER_CACHE) */
    char cache_dir[512];        /* precompiled circuits kept across restarts ("": recorded in memory) */
    char log_file[512];         /* one JSON line per ended job ("": standard error); reopened by SIGHUP */
} cuzk_server_config;
/* The defaults of every key. Out: *cfg, all of it. Thread: any. */
void cuzk_server_config_default(cuzk_server_config *cfg);
/* The keys of cuzk_server_config (section "daemon"), for cuzk/config.h's calls.
 * Returns: a static table. Out: *n, its length. Thread: any. */
const cuzk_config_key *cuzk_server_config_table(size_t *n);

/* What the server asks of its host (the CLI): a test kind's circuit made known to the engine
 * (registered, with parameters) on first use; CUZK_EINVAL naming it when there is no such
 * circuit (the call gets INVALID_ARGUMENT), another status when it cannot be served (e.g. no
 * parameters: FAILED_PRECONDITION). NULL: test kinds prove nothing. */
typedef struct {
    cuzk_status (*test_circuit)(void *ctx, cuzk_engine *e, const char *name);
    void *ctx;
} cuzk_server_hooks;

typedef struct cuzk_server cuzk_server;
/* Binds the listen address and starts serving on e. A Unix socket is created mode 0600, its
 * parent folder made when missing, a stale socket replaced; another daemon listening on the
 * path, or a path that is not a socket, is refused with a message saying so. Starts the HTTP
 * endpoint when configured. In: cfg, copied; e, not owned (it must outlive the server); hooks
 * (NULL: none), copied. Out: *out, the server (stop it with cuzk_server_stop); NULL on failure.
 * With tls_cert and tls_key set, a TCP listen speaks TLS only (a Unix socket stays plaintext:
 * cuzk_server_warning says so); the files are read and checked here.
 * Errors: CUZK_EINVAL for an address or allow list that does not parse; CUZK_EIO for one that
 * cannot be bound or a socket path that is refused; for the TLS files (each message naming the
 * key and the file): CUZK_EIO when one cannot be read, CUZK_EFORMAT when it is not PEM,
 * CUZK_EINVAL for a key that is not the certificate's or only one of the two set; CUZK_ENOMEM.
 * Thread: any. */
cuzk_status cuzk_server_start(cuzk_server **out, const cuzk_server_config *cfg, cuzk_engine *e,
                              const cuzk_server_hooks *hooks) CUZK_WARN_UNUSED;
/* Returns: the address bound, as a client would dial it ("unix:///PATH", "127.0.0.1:PORT");
 * valid while s lives. Thread: any. */
const char *cuzk_server_address(const cuzk_server *s);
/* Returns: a warning for the operator about the setup (a socket folder other users can write
 * to, an HTTP endpoint on every interface), or ""; valid while s lives. Thread: any. */
const char *cuzk_server_warning(const cuzk_server *s);
/* Returns: the HTTP endpoint's bound port (0 when off). Thread: any. */
unsigned cuzk_server_http_port(const cuzk_server *s);
/* Returns: the calls being handled now. Thread: any. */
unsigned cuzk_server_calls(const cuzk_server *s);
/* Drains and frees: stops taking calls, lets the jobs queued or running end for up to grace_s
 * seconds, cancels the rest (their callers get CANCELLED) and stops the engine's loads in
 * progress (a PreloadSRS call open gets CANCELLED), answers every call still open, stops
 * the HTTP endpoint and removes the Unix socket (only while it is the socket bound). The engine
 * is left running. In: s (NULL: nothing is done). Thread: any, once; s is gone after it. */
void cuzk_server_stop(cuzk_server *s, double grace_s);
/* cuzk_server_stop whose grace ends early once *cut_short is set: the daemon sets it on a second
 * SIGTERM/SIGINT during the drain. In: cut_short (NULL: never), the caller's, alive until the
 * call returns. Thread: as cuzk_server_stop. */
void cuzk_server_drain(cuzk_server *s, double grace_s, const atomic_bool *cut_short);

/* ================================================================ client */

/* A request as cuzk.v1's SubmitProofRequest carries it (pointers are borrowed). */
typedef struct {
    const char *request_id;
    uint32_t proof_kind; /* ProofKind value (or the test kind) */
    uint64_t sector_size, registered_proof;
    uint32_t priority; /* Priority value (0: the kind's default) */
    const uint8_t *vanilla_proof;
    size_t vanilla_proof_len;
    const uint8_t *const *vanilla_proofs; /* nvanilla blobs */
    const size_t *vanilla_proofs_len;
    size_t nvanilla;
    uint64_t sector_number, miner_id;
    const uint8_t *randomness;
    size_t randomness_len;
    uint32_t partition_index;
    const uint8_t *comm_r_old, *comm_r_new, *comm_d_new; /* 32 bytes each, or NULL */
} cuzk_rpc_request;

/* AwaitProofResponse. */
typedef enum {
    CUZK_RPC_UNKNOWN = 0,
    CUZK_RPC_COMPLETED = 1,
    CUZK_RPC_FAILED = 2,
    CUZK_RPC_CANCELLED = 3,
    CUZK_RPC_TIMEOUT = 4
} cuzk_rpc_status;
/* Returns: "UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT" (static). Thread: any. */
const char *cuzk_rpc_status_name(cuzk_rpc_status s);
typedef struct {
    char job_id[256];
    cuzk_rpc_status status;
    uint8_t *proof; /* malloc'd */
    size_t proof_len;
    char error_message[2048];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} cuzk_rpc_result;
/* Frees r's proof and sets it NULL. In: r (NULL: nothing is done). Thread: any. */
void cuzk_rpc_result_free(cuzk_rpc_result *r);

typedef struct cuzk_client cuzk_client;
/* A channel to addr; it connects on the first call. In: addr ("unix:///PATH", "unix:PATH",
 * "HOST:PORT"), copied; max_message_bytes, the largest message sent or received. Out: *out, the
 * client (close it with cuzk_client_close); NULL on failure. Errors: CUZK_EINVAL for an empty
 * address or one gRPC cannot make a channel to; CUZK_ENOMEM. Thread: any. */
cuzk_status cuzk_client_open(cuzk_client **out, const char *addr, uint64_t max_message_bytes) CUZK_WARN_UNUSED;
/* TLS for a client (cuzk_client_open_tls): PEM file paths, NULL or "" when not given. */
typedef struct {
    const char *ca_file;     /* the CA(s) the server's certificate must chain to (NULL: the system's) */
    const char *cert_file;   /* the client's certificate, for a daemon that asks for one ... */
    const char *key_file;    /* ... and its private key (both or neither) */
    const char *server_name; /* the name the server's certificate must carry (NULL: the address's host) */
} cuzk_client_tls;
/* cuzk_client_open over TLS when tls sets any file (else plaintext, as cuzk_client_open). The
 * files are read here; the handshake happens on the first call, and a failed one (a server
 * without TLS, a certificate not trusted, no client certificate where one is asked for) makes
 * that call fail UNAVAILABLE. In: addr, max_message_bytes as cuzk_client_open; tls (NULL:
 * plaintext), its strings copied. Out: *out; NULL on failure. Errors: cuzk_client_open's;
 * CUZK_EIO naming a file that cannot be read, CUZK_EFORMAT one that is not PEM, CUZK_EINVAL for
 * a certificate without its key or a key without its certificate. Thread: any. */
cuzk_status cuzk_client_open_tls(cuzk_client **out, const char *addr, uint64_t max_message_bytes,
                                 const cuzk_client_tls *tls) CUZK_WARN_UNUSED;
/* Closes the channel. In: c (NULL: nothing is done). Thread: any, once no call on c runs. */
void cuzk_client_close(cuzk_client *c);
/* The RPCs, one call each: SubmitProof, AwaitProof, Prove, CancelProof, GetStatus, GetMetrics,
 * PreloadSRS, EvictSRS, GetTrace. In: deadline_s, the call's deadline in seconds (<= 0: none); request
 * pointers are borrowed. Out: the response's fields; *code (NULL: not wanted), the call's gRPC
 * status code (0 on success); malloc'd text (status JSON, metrics) and result proofs are the
 * caller's to free. Errors: CUZK_EIO naming the method, the gRPC status and its message when
 * the call does not end OK (no connection, a deadline, a refusal); CUZK_ENOMEM. Thread: any;
 * calls on one client may run at once on several threads. */
cuzk_status cuzk_client_submit(cuzk_client *c, const cuzk_rpc_request *r, double deadline_s, char job_id[256],
                               unsigned *queue_position, int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_await(cuzk_client *c, const char *job_id, uint64_t timeout_ms, double deadline_s,
                              cuzk_rpc_result *out, int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_prove(cuzk_client *c, const cuzk_rpc_request *r, double deadline_s, cuzk_rpc_result *out,
                              int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_cancel(cuzk_client *c, const char *job_id, double deadline_s, bool *was_running,
                               int *code) CUZK_WARN_UNUSED;
/* GetStatus rendered as one JSON object in *json (malloc'd): upstream's fields and cuzk's own
 * "jobs" (each a cuzk_rpc_job's fields by their names, expected_left_ms -1 when unknown) and
 * "jobs_total"; GetMetrics' text in *text (malloc'd); the rest of these calls' contract is
 * cuzk_client_submit's, above. */
cuzk_status cuzk_client_status(cuzk_client *c, double deadline_s, char **json, int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_metrics(cuzk_client *c, double deadline_s, char **text, int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_preload(cuzk_client *c, const char *circuit_id, double deadline_s, bool *already_loaded,
                                uint64_t *load_time_ms, int *code) CUZK_WARN_UNUSED;
cuzk_status cuzk_client_evict(cuzk_client *c, const char *circuit_id, double deadline_s, bool *was_loaded,
                              uint64_t *freed_bytes, int *code) CUZK_WARN_UNUSED;
/* GetTrace (cuzk's own call): the trace of the job request id job_id, in the Chrome trace event
 * format (cuzk_engine_trace), in *json (malloc'd); an unknown id or one whose result was dropped
 * ends NOT_FOUND (CUZK_EIO, *code 5). The rest of the contract is cuzk_client_submit's, above. */
cuzk_status cuzk_client_trace(cuzk_client *c, const char *job_id, double deadline_s, char **json,
                              int *code) CUZK_WARN_UNUSED;
/* One job's progress as GetStatus answers it (cuzk's own JobStatus; proving.proto says each
 * field); strings cut to fit. */
typedef struct {
    char job_id[160]; /* the request id */
    uint64_t engine_job;
    char proof_kind[32], priority[16], circuit_id[64];
    char state[16], stage[16], prove_stage[16];
    uint32_t partitions, partitions_proved, partitions_witnessed, devices;
    double fraction_done;
    uint64_t elapsed_ms, queue_ms;
    int64_t expected_left_ms; /* -1: unknown */
    char error_message[256];
} cuzk_rpc_job;
/* GetStatus for the jobs' progress: job_id's alone (NULL or "": every job the daemon lists, at
 * most 100). Out: *jobs (malloc'd, *n of them; the caller frees it), *total (NULL: not wanted),
 * how many jobs the daemon has, listed or not. Errors: an unknown job_id ends NOT_FOUND (CUZK_EIO,
 * *code 5); the rest as cuzk_client_submit's. */
cuzk_status cuzk_client_jobs(cuzk_client *c, const char *job_id, double deadline_s, cuzk_rpc_job **jobs, size_t *n,
                             size_t *total, int *code) CUZK_WARN_UNUSED;
/* The same jobs as JSON, {"jobs": [...], "jobs_total": N}, each job with the fields of
 * cuzk_rpc_job (uncut), as cuzk_client_status's "jobs": *json malloc'd; errors as
 * cuzk_client_jobs'. */
cuzk_status cuzk_client_jobs_json(cuzk_client *c, const char *job_id, double deadline_s, char **json,
                                  int *code) CUZK_WARN_UNUSED;
/* Returns: the name of a gRPC status code ("OK", "INVALID_ARGUMENT", ...; static). Thread: any. */
const char *cuzk_grpc_code_name(int code);

#ifdef __cplusplus
}
#endif
#endif
