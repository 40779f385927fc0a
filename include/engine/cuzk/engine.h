/* cuzk engine: the proving engine, a long-lived object that takes jobs (PoRep C2, the PoSt and
 * SnapDeals proofs), schedules their partitions over the GPUs and the CPU backend by priority,
 * keeps parameters and precompiled circuits resident under memory budgets, verifies every proof
 * and returns it with a timeline.
 *
 * The engine is thread-safe: any thread may submit, await, cancel and ask for status at any
 * time, while the engine's own threads (one witness lane for bulk work and one for urgent work,
 * one worker per device, a loader per circuit being loaded, a finisher that verifies, a
 * reclaimer for big frees) do the work. Failures of a job are in-band (its result says FAILED
 * and why); the calls themselves fail only for bad requests and unknown jobs.
 *
 * Contracts are in the form of cuzk/status.h (docs/API.md). Unless a contract says otherwise,
 * an engine argument is one cuzk_engine_create made and cuzk_engine_destroy has not begun to
 * destroy, pointer arguments are not NULL, and a failing call changes nothing and leaves its
 * reason in cuzk_last_error(). */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/config.h"
#include "cuzk/progress.h"
#include "cuzk/status.h"
#include "cuzk/verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Types the engine's calls name but a program using the engine does not look into: a circuit (a
 * registered circuit's open makes one with the library's circuit code), a thread pool, and the
 * GPU kernels' tuning (NULL: the defaults; the daemon sets it from its config file's [gpu] section). */
typedef struct cuzk_circuit cuzk_circuit;
typedef struct cuzk_pool cuzk_pool;
typedef struct cuzk_gpu_config cuzk_gpu_config;

/* ================================================================ the engine */

/* Proof kinds, with the values of cuzk.v1's ProofKind; CIRCUIT is the engine's own: a circuit
 * of the library's circuit code registered by id (tests and benchmarks: cuzk/engine_circuits.h,
 * not installed). */
typedef enum {
    CUZK_KIND_POREP = 1,        /* PoRep C2: input is the C1 output JSON (or its base64 wrapper) */
    CUZK_KIND_SNAP = 2,         /* SnapDeals EmptySectorUpdate: vanilla partition proofs */
    CUZK_KIND_WINDOW_POST = 3,  /* WindowPoSt, one partition: vanilla sector proofs */
    CUZK_KIND_WINNING_POST = 4, /* WinningPoSt: vanilla sector proofs */
    CUZK_KIND_CIRCUIT = 100
} cuzk_job_kind;
#define CUZK_KINDS 5 /* kinds in tables: POREP, SNAP, WINDOW_POST, WINNING_POST, CIRCUIT */
/* Returns: the kind's index in the status and metrics tables (0..CUZK_KINDS-1), -1 for a value
 * that is no kind. Thread: any. */
int cuzk_kind_index(cuzk_job_kind k);
/* Returns: "porep", "snap", "window-post", "winning-post", "circuit" (static), NULL for a value
 * that is no kind. Thread: any. */
const char *cuzk_kind_name(cuzk_job_kind k);
/* Parses a kind's name (cuzk_kind_name's). In: name. Out: *out, set only on success.
 * Errors: CUZK_EINVAL naming the text. Thread: any. */
cuzk_status cuzk_kind_parse(cuzk_job_kind *out, const char *name) CUZK_WARN_UNUSED;

/* Priorities, with the values of cuzk.v1's Priority; DEFAULT takes the kind's default
 * (WinningPoSt CRITICAL, WindowPoSt HIGH, the others NORMAL). */
typedef enum {
    CUZK_PRIORITY_DEFAULT = 0,
    CUZK_PRIORITY_LOW = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_HIGH = 3,
    CUZK_PRIORITY_CRITICAL = 4
} cuzk_priority;
/* Returns: "default", "low", "normal", "high", "critical" (static; "normal" for a value that
 * is no priority). Thread: any. */
const char *cuzk_priority_name(cuzk_priority p);
/* Parses "low", "normal", "high" or "critical". In: name. Out: *out, set only on success.
 * Errors: CUZK_EINVAL naming the text. Thread: any. */
cuzk_status cuzk_priority_parse(cuzk_priority *out, const char *name) CUZK_WARN_UNUSED;

/* The engine's configuration: the numeric keys are one table (cuzk_engine_config_table,
 * section "engine" of the config file); the strings, the pool, the log and the progress sink are
 * set by the client. */
typedef struct {
    unsigned gpus;                 /* GPUs to use, from ordinal 0 (default: all found; 0: none) */
    bool cpu_worker;               /* prove on the CPU backend beside the GPUs too (always when no GPU) */
    unsigned gpu_contexts;         /* device contexts (workers) per GPU (0 or 1: one; more: testing) */
    unsigned cpu_workers;          /* CPU backend workers, each a device (0 or 1: one; more: testing) */
    bool keep_host_params;         /* keep a host copy of parameters that are on a GPU (see the table) */
    unsigned threads;              /* threads of the bulk pool: witnesses and CPU proving (0: all CPUs) */
    unsigned urgent_threads;       /* threads of the urgent lane's pool (0: a quarter of the CPUs, >= 1) */
    unsigned witness_buffers;      /* witness buffers ahead of the devices (0: devices + 2, + 1 per GPU to batch) */
    uint64_t witness_buffer_bytes; /* each buffer reserved and page-locked at start (0: at first use) */
    unsigned abc_buffers;          /* a, b, c buffers the lanes fill for GPUs without the matrices (0: auto) */
    unsigned batch_wait_ms;        /* a batching GPU waits this long at most for a job's next witness */
    uint64_t host_budget;          /* host bytes for parameters, circuits, buffers, inputs (0: 80 % of RAM) */
    uint64_t device_budget;        /* bytes per GPU for parameters, circuits, workspace (0: free at start - reserve) */
    uint64_t device_reserve;       /* bytes per GPU left to other processes and the runtime */
    unsigned aging_s;              /* seconds a waiting job takes to rise one priority class (0: no aging) */
    unsigned result_ttl_s;         /* finished results are kept this long ... */
    unsigned result_max;           /* ... and at most this many (the oldest dropped first) */
    unsigned max_queued;           /* jobs queued or running at most; a submit beyond fails */
    uint64_t max_input_bytes;      /* largest input a request may carry */
    /* set by the client (NULL: defaults) */
    const char *param_dir; /* where official .params/.vk files are (NULL: the default directory) */
    const char *cache_dir; /* where precompiled circuits are kept (NULL: recorded in memory on load) */
    /* A .params or .vk file under an official Filecoin name must have the published digest
     * (cuzk/filecoin_params.h) before it loads: hashed at its first load, the result kept in
     * cache_dir by size and mtime (in memory per circuit without one). false: not checked. */
    bool check_param_digests;
    /* The built-in circuits' files are test parameters (the demo's cuzk-test-*, made with random
     * toxic waste), not the official ones: "test_params":true in the status JSON and in every
     * job-log line, so that no proof made with them passes for a real one. */
    bool test_params;
    cuzk_pool *pool; /* the bulk pool to use instead of making one (NULL: its own; not owned) */
    FILE *job_log;   /* one JSON line per ended job (id, kind, state, times, error, timeline), or NULL */
    /* Progress of long work (NULL: none, the default): the partitions proved of each job of
     * more than one, as a task "KIND: partitions proved" from its first witness to its end; a
     * job of one partition's witness ("KIND: witness") and, on the CPU backend, its proof's NTT
     * and MSM ("KIND: NTT", "KIND: MSM"). Reports may come with the engine's lock held (the sink
     * must not call the engine). Not owned; it must outlive the engine. */
    const cuzk_progress_sink *progress;
} cuzk_engine_config;
/* The defaults: every key at its table default, the client's fields NULL.
 * Out: *cfg, all of it. Thread: any. */
void cuzk_engine_config_default(cuzk_engine_config *cfg);
/* The keys of cuzk_engine_config (section "engine"), for cuzk/config.h's calls.
 * Returns: a static table. Out: *n, its length. Thread: any. */
const cuzk_config_key *cuzk_engine_config_table(size_t *n);

typedef struct cuzk_engine cuzk_engine;
/* Starts an engine: opens the GPUs (a device that fails to open is reported in the status and
 * left out; with none, the CPU backend proves), starts the pools and threads, reserves the
 * witness buffers. In: cfg (NULL: the defaults), copied, its strings too; gpu_cfg, tuning for
 * every device (NULL: the defaults). Out: *out, the engine (destroy it with
 * cuzk_engine_destroy); NULL on failure. Errors: CUZK_ENOMEM (memory, or threads that cannot be
 * started); reserving or page-locking the witness buffers' status (engine.witness_buffer_bytes;
 * CUZK_EDEVICE from the GPU). Thread: any; engines are independent of each other. */
cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg,
                               const cuzk_gpu_config *gpu_cfg) CUZK_WARN_UNUSED;
/* Ends every job still queued or running as CANCELLED (a partition on a device stops at its
 * prover's next cancel check, as cuzk_engine_cancel says), wakes every waiter (their calls
 * return CUZK_ESHUTDOWN), waits for the calls in progress to return, stops the threads and
 * frees everything. In: e (NULL: nothing is done). Thread: any, once; no call on e may begin
 * after it begins. */
void cuzk_engine_destroy(cuzk_engine *e);

/* Names the files of a built-in circuit ("porep-2k", cuzk_engine_builtin_id's ids) instead of
 * the official names under param_dir. In: circuit; params_path (NULL: the official file),
 * vk_path (NULL: the parameters' own key), pce_path, where its precompiled circuit is kept
 * (NULL: cache_dir's); copied. Errors: CUZK_EINVAL for an id that is no built-in circuit, or
 * one loaded already (evict it first); CUZK_ENOMEM; CUZK_ESHUTDOWN. Thread: any. */
cuzk_status cuzk_engine_set_files(cuzk_engine *e, const char *circuit, const char *params_path, const char *vk_path,
                                  const char *pce_path) CUZK_WARN_UNUSED;

/* A request id's longest length in bytes (it is checked as UTF-8 without NUL or control
 * characters: it names the job in answers and log lines). */
#define CUZK_REQUEST_ID_MAX 159

typedef struct {
    cuzk_job_kind kind;
    cuzk_priority priority;
    /* Optional. A job is identified by its request id and a digest of what it proves (kind,
     * registered proof, sector, miner, every input byte and field below; not the priority). A
     * request whose id and digest equal those of a job that is queued, running or COMPLETED
     * joins that job (a retry gets the same proof); any other request is a new job, and the id
     * names the newest job submitted or joined under it (cuzk_engine_find). A job that ended
     * FAILED or CANCELLED is never joined: the same request again proves again. */
    const char *request_id;
    const uint8_t *input; /* PoRep: the C1 (parsed during the submit); CIRCUIT: given to its open (copied) */
    size_t input_len;
    /* the client names the registered proof: PoSt and SnapDeals prove with it; for PoRep the
     * C1's governs, as in upstream's commit phase 2, and a different value is reported in the
     * result's note */
    bool has_registered_proof;
    /* numeric RegisteredSealProof (PoRep), RegisteredPoStProof (WindowPoSt, WinningPoSt; needed)
     * or RegisteredUpdateProof (SnapDeals; needed) */
    uint64_t registered_proof;
    /* PoRep: must match the C1 wrapper's when both are given (0: any); SnapDeals: for the job
     * log only */
    uint64_t sector_number;
    uint64_t sector_size; /* PoRep: must equal the C1's; PoSt, SnapDeals: the registered proof's (0: any) */
    /* PoRep: the prover's actor id (0: not given). With a sector number (this one or the C1
     * wrapper's) the C1's replica id is recomputed from it as upstream's commit phase 2 does,
     * and must match. Other kinds: for the job log only. */
    uint64_t miner_id;
    /* PoSt and SnapDeals: their vanilla proofs, one blob each (a FallbackPoStSectorProof per
     * sector; a PartitionProof per partition), copied; input stays NULL. nblobs blobs[i] of
     * blob_lens[i] bytes (a blob of 0 bytes may be NULL). */
    const uint8_t *const *blobs;
    const size_t *blob_lens;
    size_t nblobs;
    /* and: */
    const uint8_t *randomness;                           /* PoSt: 32 bytes */
    uint32_t partition_index;                            /* WindowPoSt: the partition */
    const uint8_t *comm_r_old, *comm_r_new, *comm_d_new; /* SnapDeals: 32 bytes each */
    const char *circuit;                                 /* CIRCUIT: the registered id */
    unsigned partitions;                                 /* CIRCUIT: proofs to make, partition k with seed + k (0: 1) */
    uint64_t seed;                                       /* CIRCUIT */
    /* PoSt, optional: the public sectors the vanilla proofs must be of (what the verifier knows,
     * as a vanilla folder's post.json lists them): post_nsectors ids in strictly ascending order
     * and their comm_r (32 bytes each), one per blob in blob order. 0: each blob's own sector id
     * and comm_r (a Curio request carries no other list). */
    const uint64_t *post_sector_ids;
    const uint8_t *post_comm_rs;
    size_t post_nsectors;
} cuzk_job_request;

typedef enum {
    CUZK_JOB_QUEUED = 0,
    CUZK_JOB_RUNNING = 1,
    CUZK_JOB_COMPLETED = 2,
    CUZK_JOB_FAILED = 3,
    CUZK_JOB_CANCELLED = 4,
    CUZK_JOB_TIMEOUT = 5 /* only as an await result: the wait ended, the job goes on */
} cuzk_job_state;
/* Returns: "QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT" (static;
 * "UNKNOWN" for a value that is no state). Thread: any. */
const char *cuzk_job_state_name(cuzk_job_state s);

/* The one check of a request's fields, of every kind (cuzk_engine_submit makes it first; a
 * front end may call it to answer before it copies anything): the kind, the priority, where
 * the input is (input or blobs) and its size, a request id's bytes, a circuit job's circuit and
 * partitions, a PoSt job's registered proof (of its kind and sector size), randomness and
 * partition, a SnapDeals job's registered proof and commitments. The input's content is a
 * job's to check. In: e (NULL: everything but the engine's own limit, engine.max_input_bytes);
 * req. Errors: CUZK_EINVAL naming the field. Thread: any. */
cuzk_status cuzk_engine_check_request(const cuzk_engine *e, const cuzk_job_request *req) CUZK_WARN_UNUSED;

/* Submits a job. A request with the request id and digest of a queued, running or COMPLETED job
 * joins that job (the rule is at cuzk_job_request.request_id). Bad input content (a C1 that does
 * not parse or check) makes a job that ends FAILED with the reason.
 * In: req, borrowed for the call: what the job needs of its bytes is copied or parsed before the
 * call returns (a PoRep job keeps its C1 parsed, never its text; its host charge is the parsed
 * form's size). Out: *job_id, the job (ids start at 1;
 * 0 on failure); *joined (NULL: not wanted), whether an existing job was joined.
 * Errors (nothing queued): CUZK_EINVAL for a malformed request (cuzk_engine_check_request);
 * CUZK_ENOTFOUND for a circuit job's unregistered circuit; CUZK_EBUSY when engine.max_queued
 * jobs are queued or running; CUZK_EBUDGET when the input does not fit engine.host_budget beside
 * the live jobs' inputs (it may once jobs end); CUZK_ESHUTDOWN; CUZK_ENOMEM. Thread: any. */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req, uint64_t *job_id,
                               bool *joined) CUZK_WARN_UNUSED;

typedef struct {
    cuzk_job_state state;
    cuzk_job_kind kind;
    cuzk_priority priority;
    char circuit[64];
    unsigned partitions;
    uint8_t *proof; /* partitions x CUZK_PROOF_BYTES, in order (COMPLETED only; malloc'd) */
    size_t proof_len;
    /* the public inputs, partitions x ninputs (ONE omitted), each CUZK_INPUT_BYTES: the field
     * element's canonical little-endian encoding (malloc'd); cuzk_verifier_check takes both */
    uint8_t *inputs;
    size_t ninputs;
    bool verified;         /* false only for circuits with synthetic parameters */
    char error[1024];      /* FAILED / CANCELLED: why */
    char note[256];        /* COMPLETED: where the request differed from what was proved ("": nowhere) */
    char *timeline_json;   /* the job's spans, a JSON array of {name, parent, start, seconds[, other]} (malloc'd) */
    double queue_s, run_s; /* submit to first partition on a device; from there to the end */
    /* the job's timeline summed by stage (ended jobs): loading its circuit's parameters and
     * precompiled circuit, witnesses (and a, b, c on the CPU), proving on the devices, verifying;
     * each second once (in the innermost stage around it). Stages overlap in time: a partition's
     * witness is made while the one before is proved */
    double load_s, witness_s, prove_s, verify_s;
    /* the same job's wall clock, submit to end (queue_s + run_s), in parts that add up to it
     * (ended jobs): each instant counted once, to proving if a partition of the job was on a
     * device then, else to witnesses if one was being made, else to loading its circuit, else to
     * verifying, else to waiting (queued behind other work, or between its stages) */
    double wall_wait_s, wall_load_s, wall_witness_s, wall_prove_s, wall_verify_s;
} cuzk_job_result;
/* Frees what a result holds (proof, inputs, timeline) and sets those fields NULL; the rest stays.
 * In: r (NULL: nothing is done), a result an await filled or one zeroed. Thread: any. */
void cuzk_job_result_free(cuzk_job_result *r);

/* Waits up to timeout_s (< 0: forever) for the job to end.
 * Out: *r, filled on success (free it with cuzk_job_result_free): its state, or TIMEOUT when the
 * wait ended first (the job goes on); the proof, inputs and timeline once it ended. Zeroed on
 * failure. Errors: CUZK_ENOTFOUND for an unknown id (never made, or its result dropped after
 * engine.result_ttl_s / engine.result_max); CUZK_ESHUTDOWN when the engine shuts down before or
 * during the wait; CUZK_ENOMEM. Thread: any; many may await one job. */
cuzk_status cuzk_engine_await(cuzk_engine *e, uint64_t job_id, double timeout_s, cuzk_job_result *r) CUZK_WARN_UNUSED;
/* cuzk_engine_await that also returns (TIMEOUT) once stop is set. The token is checked as the
 * wait begins and whenever cuzk_engine_wake is called, so whoever sets it calls cuzk_engine_wake
 * after: the daemon ends an AwaitProof whose client went away this way, with no polling. The
 * wait sleeps on the job's own condition (woken by its end, a wake, the shutdown).
 * In: stop (NULL: never), kept alive by the caller until the call returns. Out, Errors, Thread:
 * as cuzk_engine_await. */
cuzk_status cuzk_engine_await_until(cuzk_engine *e, uint64_t job_id, double timeout_s, const cuzk_cancel *stop,
                                    cuzk_job_result *r) CUZK_WARN_UNUSED;
/* Wakes every await so it checks its stop token (a no-op while shutting down). Thread: any. */
void cuzk_engine_wake(cuzk_engine *e);
/* How many jobs are queued (no partition on a device yet) and running now, all kinds: cheap, no
 * device is asked, unlike cuzk_engine_get_status. Out: *queued, *running (0 and 0 while
 * shutting down). Thread: any. */
void cuzk_engine_job_counts(cuzk_engine *e, unsigned *queued, unsigned *running);
/* Cancels a job: a queued one ends CANCELLED at once; a running one as soon as its partitions
 * on the devices stop, which they do at their prover's next check of the job's cancel token
 * (the CPU prover between its NTTs and between the tiles of its MSMs, the GPU prover between
 * stages), their buffers going back to the pool and the devices staying in service. Its
 * witnesses made ahead are dropped at once; a job already ended is left as it is.
 * Out: *was_running, whether a partition of it was on a device (false for one that ended).
 * Errors: CUZK_ENOTFOUND for an unknown id; CUZK_ESHUTDOWN. Thread: any. */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, uint64_t job_id, bool *was_running) CUZK_WARN_UNUSED;

/* The job a request id names: the one most recently submitted or joined under it.
 * In: request_id. Out: *job_id (0 on failure). Errors: CUZK_ENOTFOUND when no job has it, or its
 * result was dropped; CUZK_EINVAL for an empty id; CUZK_ESHUTDOWN. Thread: any. */
cuzk_status cuzk_engine_find(cuzk_engine *e, const char *request_id, uint64_t *job_id) CUZK_WARN_UNUSED;
/* The jobs' timelines as one trace in the Chrome trace event format (Perfetto and
 * chrome://tracing open it; docs/DESIGN.md, "Traces"): one process named title, a track per GPU
 * (context), CPU worker and witness lane where the jobs' partitions ran, and one per job for the
 * rest of its spans (queue, input check, load, verification), every span a complete event on
 * the engine's one clock, so the jobs' overlap and the gaps between them show. A job still
 * running is traced as far as it got. In: job_ids, n of them (n >= 1); title, copied.
 * Out: *json, the text (malloc'd; the caller frees it), NULL on failure. Errors: CUZK_EINVAL for
 * n = 0; CUZK_ENOTFOUND naming an id never made or whose result was dropped (engine.result_ttl_s,
 * engine.result_max); CUZK_ENOMEM; CUZK_ESHUTDOWN. Thread: any. */
cuzk_status cuzk_engine_trace(cuzk_engine *e, const uint64_t *job_ids, size_t n, const char *title,
                              char **json) CUZK_WARN_UNUSED;
/* Cancels every job queued or running (as cuzk_engine_cancel does each), with why as their
 * error. Submits go on being accepted (a draining server stops taking calls first).
 * Returns: how many were live (0 while shutting down). In: why, copied. Thread: any. */
unsigned cuzk_engine_cancel_all(cuzk_engine *e, const char *why);
/* Stops every circuit load in progress (parameters and precompiled circuits read into host
 * memory, streamed or uploaded to a device) at its next piece of work (a piece: at most 48 MB
 * of parameter points; a precompiled circuit is recorded part by part, or read as one piece): what it read
 * is freed, a preload waiting on it returns CUZK_ECANCELLED and the jobs waiting on it fail
 * with why the load stopped; loads started later run as usual. With cuzk_engine_cancel_all, a
 * draining server leaves nothing running past its grace. Returns: how many loads were
 * running (0 while shutting down: cuzk_engine_destroy stops them itself). Thread: any. */
unsigned cuzk_engine_cancel_loads(cuzk_engine *e);

/* ---------------------------------------------------------------- jobs' progress */
/* Where a job is. A job moves forward through these, skipping those it does not need (a
 * loaded circuit, a job that fails at its input); one that waits again after a stage (for a
 * witness lane once its circuit is loaded, for a device between partitions, for a GPU's load
 * after its first witnesses) is shown in the furthest it reached: never a step back. */
typedef enum {
    CUZK_STAGE_QUEUED = 0,    /* waiting for a witness lane (or for its input to be checked) */
    CUZK_STAGE_LOADING = 1,   /* its circuit (parameters, precompiled circuit) is being loaded */
    CUZK_STAGE_WITNESS = 2,   /* witnesses being made, none on a device yet */
    CUZK_STAGE_PROVING = 3,   /* a partition on a device (and from then to its last proof) */
    CUZK_STAGE_VERIFYING = 4, /* every partition proved: the batch verification */
    CUZK_STAGE_ENDED = 5      /* COMPLETED, FAILED or CANCELLED */
} cuzk_job_stage;
/* Returns: "queued", "loading", "witness", "proving", "verifying", "ended" (static; "unknown"
 * for a value that is no stage). Thread: any. */
const char *cuzk_job_stage_name(cuzk_job_stage s);

/* One job's progress, as cuzk_engine_jobs and cuzk_engine_job_progress report it. */
typedef struct {
    uint64_t job_id;
    char request_id[CUZK_REQUEST_ID_MAX + 1]; /* "" when submitted without one */
    cuzk_job_kind kind;
    cuzk_priority priority;
    char circuit[64]; /* "" until its input is checked */
    cuzk_job_state state;
    cuzk_job_stage stage;
    /* PROVING on the CPU backend: the prover's stage ("a, b, c", "ntt", "msm", "assemble"); ""
     * otherwise (a GPU proves in one call) */
    char prove_stage[16];
    unsigned partitions; /* in all (0 until its input is checked) */
    unsigned proved;     /* partitions proved */
    unsigned witnessed;  /* partitions whose witness is made (those proved included) */
    unsigned devices;    /* devices proving a partition of it now */
    double elapsed_s;    /* since it was submitted (to its end, once ended) */
    double queue_s;      /* submit to its first partition on a device (so far, while it has none) */
    /* Expected time to its end, < 0 when unknown: from this engine's recent times of its
     * circuit (a partition's witness, a partition's proof, a verification; unknown until one
     * partition of the circuit was proved here), the partitions left (witnesses made one after
     * another, proofs spread over the devices proving it, the time its partitions on devices
     * have run taken off) and the verification. A queued job's is the time of its own work,
     * not of its wait behind others. 0 once ended. */
    double left_s;
    char error[256]; /* FAILED, CANCELLED: why (cut to fit); "" otherwise */
} cuzk_job_progress;

/* Which jobs cuzk_engine_jobs lists (OR them). */
#define CUZK_JOBS_RUNNING 1u
#define CUZK_JOBS_QUEUED 2u
#define CUZK_JOBS_ENDED 4u /* the results the engine keeps (engine.result_ttl_s, engine.result_max) */
#define CUZK_JOBS_ALL 7u
/* The jobs' progress: the running ones (newest first), then the queued ones (in the order they
 * were submitted), then the ended ones (most recently ended first), those of filter only, at
 * most max of them. In: filter, CUZK_JOBS_* OR'ed; out, room for max (max 0: only counted).
 * Out: out[0 .. *n); *total (NULL: not wanted), how many filter matched, listed or not.
 * Errors: CUZK_EINVAL for a filter of none of the bits; CUZK_ESHUTDOWN. Thread: any; it walks
 * the job list once under the engine's lock. */
cuzk_status cuzk_engine_jobs(cuzk_engine *e, unsigned filter, cuzk_job_progress *out, size_t max, size_t *n,
                             size_t *total) CUZK_WARN_UNUSED;
/* One job's progress, found by its id without walking the other jobs. Out: *out (zeroed on
 * failure). Errors: CUZK_ENOTFOUND for an id never made or whose result was dropped;
 * CUZK_ESHUTDOWN. Thread: any. */
cuzk_status cuzk_engine_job_progress(cuzk_engine *e, uint64_t job_id, cuzk_job_progress *out) CUZK_WARN_UNUSED;
/* One job's progress as a JSON object (the fields of cuzk_job_progress by those names, the
 * kind, priority, state and stage by their names, left_s null when unknown, fraction_done),
 * as /status and `cuzk client jobs --json` show it. In: f, where it is written; p. Thread: any. */
void cuzk_job_progress_json(FILE *f, const cuzk_job_progress *p);
/* The longest list of jobs the status JSON carries (its "jobs_total" counts them all). */
#define CUZK_STATUS_JOBS_MAX 100
/* The job request_id names (cuzk_engine_find) as one JSON object (cuzk_job_progress_json).
 * Out: *json (malloc'd; the caller frees it), NULL on failure. Errors: cuzk_engine_find's;
 * CUZK_ENOMEM. Thread: any. */
cuzk_status cuzk_engine_job_json(cuzk_engine *e, const char *request_id, char **json) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- status and metrics */
#define CUZK_ENGINE_MAX_DEVICES 16    /* GPU device contexts, all GPUs together */
#define CUZK_ENGINE_MAX_CONTEXTS 4    /* engine.gpu_contexts */
#define CUZK_ENGINE_MAX_CPU_WORKERS 8 /* engine.cpu_workers */
#define CUZK_ENGINE_MAX_CIRCUITS 64
typedef struct {
    int ordinal;      /* CUDA ordinal, -1 for the CPU backend */
    unsigned context; /* which of its GPU's contexts, or which CPU worker (0 unless more were asked for) */
    char name[160];
    bool in_service;
    char out_of_service_reason[256];
    uint64_t running_job;      /* 0 when idle */
    char running_request[160]; /* its request id ("" when it has none) */
    char prove_stage[16];      /* the CPU backend: its prover's stage, as cuzk_job_progress's ("" for a GPU) */
    cuzk_job_kind running_kind;
    unsigned running_partition;
    uint64_t partitions_proved;
    /* streamed GPU provers: calls that proved a batch (two or more partitions of a job sharing
     * each pass over the bases), and the partitions they proved */
    uint64_t batches, partitions_batched;
    uint64_t upload_bytes;         /* bytes its proofs copied from host memory to the GPU (the link's traffic) */
    double busy_s, idle_s;         /* since the engine started */
    double gap_max_s, gap_total_s; /* idle between two partitions while work waited */
    uint64_t gaps;
    uint64_t resident_bytes, budget_bytes; /* resident parameters + circuits vs its budget */
    uint64_t mem_total, mem_free;          /* device memory as the driver reports it (0 for the CPU) */
} cuzk_engine_device_status;
typedef struct {
    char id[64];
    bool host_params, host_pce;           /* tiers: in host memory */
    bool device[CUZK_ENGINE_MAX_DEVICES]; /* resident on GPU i (parameters and circuit) */
    bool loading;
    uint64_t host_bytes, device_bytes;      /* device bytes summed over the GPUs */
    bool streamed[CUZK_ENGINE_MAX_DEVICES]; /* on GPU i with its parameters streamed from host memory */
    bool mapped[CUZK_ENGINE_MAX_DEVICES];   /* ... streamed from a scratch file (the mapped placement) */
    uint64_t pinned_bytes;                  /* the page-locked host memory those parameters take */
    char placement[480]; /* the placement on the first GPU it is on or loading to, and why ("" if none) */
    unsigned refs;       /* jobs using it now */
    double idle_s;       /* since it was last used */
} cuzk_engine_circuit_status;
typedef struct {
    unsigned queued[CUZK_KINDS], running[CUZK_KINDS]; /* by cuzk_kind_index */
    uint64_t completed[CUZK_KINDS], failed[CUZK_KINDS], cancelled[CUZK_KINDS];
    unsigned ndevices;
    cuzk_engine_device_status devices[CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS];
    unsigned ncircuits;
    cuzk_engine_circuit_status circuits[CUZK_ENGINE_MAX_CIRCUITS];
    uint64_t host_bytes, host_budget, pinned_bytes;
    unsigned results_kept;
    unsigned witnesses_ready; /* partitions whose witness is made, waiting for a device */
    uint64_t reclaimed_bytes; /* freed by the background reclaimer */
    double reclaim_s;
    double uptime_s;
} cuzk_engine_status;
/* A snapshot of the engine: jobs by kind, devices (each GPU asked for its free memory), circuits
 * and their tiers, memory. Out: *out, all of it. Thread: any; it
 * takes the engine's lock for a moment, so a caller that only needs the counts of jobs calls
 * cuzk_engine_job_counts. */
void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out);
/* The status as one JSON object, with the jobs' progress (cuzk_engine_jobs: running, queued,
 * then recently ended, at most CUZK_STATUS_JOBS_MAX of them, each as cuzk_job_progress_json)
 * in "jobs" and their number in "jobs_total". Returns: the text (malloc'd; the caller frees
 * it), NULL when out of memory. Thread: any. */
char *cuzk_engine_status_json(cuzk_engine *e);
/* The counters, gauges and latency histograms in Prometheus text exposition (format 0.0.4).
 * Returns: the text (malloc'd; the caller frees it), NULL when out of memory. Thread: any. */
char *cuzk_engine_metrics(cuzk_engine *e);

/* Makes a circuit resident (parameters and precompiled circuit, on every GPU that has room, or
 * in host memory for the CPU backend) and waits for it. In: circuit, a built-in id
 * ("porep-32g", cuzk_engine_builtin_id's) or a registered one. Out: *seconds, how long it took
 * (0 when it was resident). Errors: CUZK_EINVAL for an unknown id; CUZK_EIO, CUZK_EFORMAT for
 * files that cannot be read or are not what they should be; CUZK_EBUDGET when it does not fit
 * the budgets; CUZK_EBUSY, CUZK_ESHUTDOWN; CUZK_EDEVICE. Thread: any. */
cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit, double *seconds) CUZK_WARN_UNUSED;
/* Drops an idle circuit from every tier (the memory freed in the background). In: circuit, as
 * cuzk_engine_preload's. Out: *freed, the bytes (0 on failure). Errors: CUZK_EINVAL for an
 * unknown id; CUZK_EBUSY while jobs use it or it is loading or proving; CUZK_ESHUTDOWN.
 * Thread: any. */
cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit, uint64_t *freed) CUZK_WARN_UNUSED;

/* The circuit id of a PoRep proof: "porep-2k", "porep-8m", "porep-512m", "porep-32g",
 * "porep-64g" (the NI proofs "ni-" before them). In: registered_proof, a RegisteredSealProof.
 * Out: out, the id ("porep-unknown-N" for a value N that is no RegisteredSealProof).
 * Thread: any. */
void cuzk_porep_circuit_id(char out[64], uint64_t registered_proof);
/* The built-in circuit id of any kind's registered proof: the PoRep ids above, "wpost-32g" and
 * "winning-32g" (RegisteredPoStProof), "snap-32g" (RegisteredUpdateProof). Out: out, the id.
 * Errors: CUZK_EINVAL for a kind without built-in circuits or a proof id not of that kind.
 * Thread: any. */
cuzk_status cuzk_engine_builtin_id(char out[64], cuzk_job_kind kind, uint64_t registered_proof) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
