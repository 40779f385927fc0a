/* The engine's state (include/cuzk/engine.h), shared by its files:
 *   engine.c           create / destroy, submit (the "input checked" event), await, cancel
 *   engine_jobs.c      the job list, its index by id and request id, the ended jobs (results)
 *   engine_request.c   a request's checks and its digest (the job's identity with its id)
 *   engine_blobs.c     a PoSt or SnapDeals job's blobs packed into one input (cuzk/blobs.h)
 *   prove_pce.c        the fast path (cuzk/prove_path.h): PCE recorded or loaded, witness buffers
 *   engine_sched.c     the scheduler: which partition a witness lane or a device takes next
 *   engine_queue.c     the queued jobs (partitions left to make) by circuit and priority
 *   engine_lanes.c     the witness lanes, the device workers and the finisher (verification)
 *   engine_registry.c  the circuits known by id: built-in and registered, with their files
 *   engine_residency.c where circuits live (host, devices) under the budgets, and the loaders
 *   engine_stream.c    parameters streamed from their file to a device (no host copy)
 *   engine_load_watch.c what a load checks between its pieces: its stop token, the test hook
 *   engine_builtin.c   the built-in circuits' table (ids, parameter files, synthetic shapes)
 *   engine_porep.c, engine_post.c, engine_snap.c  each kind's input checked into a job plan
 *   engine_reclaim.c   the background reclaimer for big frees
 *   engine_report.c    status and status JSON, preload and evict
 *   engine_metrics.c   Prometheus metrics: counters, gauges, the latency histograms
 *   engine_stages.c    an ended job's timeline summed by span name and by stage
 *   engine_progress.c  the jobs' progress (cuzk_engine_jobs): stage, counts, time left
 *   engine_trace.c     jobs' timelines as a trace (cuzk_engine_trace), by trace_json.c
 *   engine_lock.c      the engine mutex with its holder tracked (ENGINE_LOCKED checks it)
 *   engine_counts.c    the counts several events change (partitions in flight, host bytes)
 * (engine_config.c, the configuration table and the names of kinds, priorities and states,
 * needs only the public header.) One mutex (engine.mu) guards everything below, and the
 * functions that need it check that their caller holds it (ENGINE_LOCKED); work that takes time
 * (a witness, a proof, a load, a verification, a free) runs without it, on data the lock hands
 * out. The one field read without it is a job's cancel token, which provers poll (an atomic). */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "cuzk/blobs.h"
#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/engine_testing.h"
#include "cuzk/prove_path.h"
#include "cuzk/filecoin.h"
#include "cuzk/gpu.h"
#include "engine_lock.h"

typedef struct engine_job engine_job;
typedef struct engine_circuit engine_circuit;

/* A binary min-heap of jobs by seq (engine_queue.c); each job keeps its place (queue_at). */
typedef struct {
    engine_job **at;
    size_t n, cap;
} job_heap;
#define ENGINE_PRIORITIES 4 /* LOW, NORMAL, HIGH, CRITICAL: a job's priority is never DEFAULT */

/* The stages a job's time is summed by (engine_stages.c). */
enum { STAGE_LOAD, STAGE_WITNESS, STAGE_PROVE, STAGE_VERIFY, JOB_STAGES };
typedef struct {
    double seconds[JOB_STAGES];
    bool seen[JOB_STAGES]; /* the timeline has a span of the stage */
    /* the wall clock from submit to end in parts that add up to it: each instant once, to the
     * first stage the job was in then (prove, witness, load, verify: STAGE_WALL_ORDER), else
     * to waiting (index JOB_STAGES) */
    double wall[JOB_STAGES + 1];
} job_stages;

/* Where a failed job failed: its request (the input check, the circuit), its circuit's load,
 * no device able to prove it, a witness, a proof on a device, or the verification of its
 * proofs. The metrics count failures by it (a small fixed set, unlike the error texts). */
typedef enum {
    FAIL_OTHER,
    FAIL_INPUT,
    FAIL_LOAD,
    FAIL_NO_DEVICE,
    FAIL_WITNESS,
    FAIL_PROVE,
    FAIL_VERIFY,
    JOB_FAIL_REASONS
} job_fail_reason;

/* ---------------------------------------------------------------- built-in circuits */
/* A kind's built-in circuits (one per registered proof of it, sizes sharing parameter files
 * sharing the circuit): their ids, official parameter files and, for loading without a job
 * (preload), partition 0 fed synthetic data of the shape. engine_builtin.c has the table; each
 * kind's adapter (engine_porep.c, engine_post.c, engine_snap.c) its entry. */
typedef struct {
    const char *what; /* for messages: "PoRep", ... */
    cuzk_job_kind kind;
    bool (*valid)(uint64_t proof);
    void (*id)(char out[64], uint64_t proof);
    void (*stem)(char out[CUZK_PARAM_STEM_MAX], uint64_t proof);
    cuzk_status (*synthetic_open)(uint64_t proof, cuzk_circuit **out, void **state, void (**free_state)(void *));
    /* its witnesses' aux values are nearly all 0 or 1 (`cuzk bench synth --values`: PoRep 98.7 %
     * and SnapDeals 98.8 %, PoSt 0.9 %): a streamed GPU may keep them in compact form */
    bool mostly_bits;
} builtin_family;
extern const builtin_family builtin_porep, builtin_post, builtin_snap;
/* The family and proof of a built-in circuit id, or NULL. */
const builtin_family *builtin_of_id(const char *id, uint64_t *proof);
/* Whether id is a built-in circuit's id (registrations may not take it). */
bool builtin_reserved(const char *id);
/* A sector size as the ids spell it ("2k", "32g") and as circuit names do ("2KiB", "32GiB"). */
void builtin_size_suffix(char out[16], uint64_t bytes);
void builtin_size_name(char out[16], uint64_t bytes);

/* ---------------------------------------------------------------- circuits and residency */
/* What a load checks between its pieces of work (engine_load_watch.c): its stop token (set by
 * cuzk_engine_cancel_loads and by destroy) and the test hook (copied when the load starts). */
typedef struct {
    const cuzk_cancel *stop;
    cuzk_engine_load_hook hook;
    void *hook_ctx;
    const char *circuit; /* its id, for messages */
} load_watch;
/* CUZK_ECANCELLED (the load stopped, named) once the stop token is set; else CUZK_OK. */
cuzk_status load_watch_stop(const load_watch *w) CUZK_WARN_UNUSED;
/* After a piece of points: load_watch_stop, then the hook's status. */
cuzk_status load_watch_piece(const load_watch *w, uint64_t points) CUZK_WARN_UNUSED;
/* The same as the watcher of cuzk_groth16_params_read_watched (ctx: a load_watch). */
cuzk_status load_watch_params_piece(void *ctx, int section, size_t n) CUZK_WARN_UNUSED;

/* A stream of a .params file to a device (engine_stream.c): its seconds, the reader's seconds
 * in pread (the rest is decoding and copying behind it), and the file's bytes. */
typedef struct {
    double seconds, read_s;
    uint64_t bytes;
} stream_stats;
/* The prover for gpu in placement pl from the file f opened with cuzk_groth16_params_open,
 * decoded on a pool of threads threads of its own; the points streamed reported to progress
 * (NULL: none); watch checked after each piece (its status, CUZK_ECANCELLED when stopped, ends
 * the stream). */
cuzk_status stream_params_to_device(cuzk_gpu_device *gpu, const cuzk_gpu_placement *pl, cuzk_groth16_params_file *f,
                                    int flags, unsigned threads, const cuzk_progress_sink *progress,
                                    const load_watch *watch, cuzk_gpu_prover **out,
                                    stream_stats *stats) CUZK_WARN_UNUSED;

typedef struct {
    cuzk_gpu_prover *prover; /* parameters on the device */
    cuzk_gpu_pce *pce;       /* the precompiled circuit on the device (NULL: a, b, c on the CPU) */
    uint64_t bytes;          /* measured: prover memory + circuit bytes (at least the placement's) */
    cuzk_gpu_placement pl;   /* where its parameters are (chosen when its load starts) */
    uint64_t host_bytes;     /* page-locked host memory of streamed parameters (host budget) */
    bool pce_unsized;        /* the placement was chosen before the precompiled circuit's size was known */
    bool loading;
    bool unfit; /* does not fit on this device (why): its partitions go elsewhere */
    char why[384];
    unsigned busy; /* partitions of it on this device now */
} circuit_on_device;

struct engine_circuit {
    char id[64];
    const builtin_family *builtin; /* a built-in circuit (its kind adapter opens the partitions), or NULL */
    uint64_t proof;                /* built-in: the registered proof it was made for */
    cuzk_engine_circuit reg;       /* registered circuits (strings owned) */
    char *params_path, *vk_path, *pce_path;
    bool synthetic;
    bool check_params;
    /* the size and mtime (ns) of params_path [0] and vk_path [1] when their digest last passed
     * (check_param_digests): unchanged files are not checked again; written by the load only */
    uint64_t digest_ok[2][2];

    /* host tier */
    bool host_loading, host_ready;
    cuzk_groth16_params params; /* empty for synthetic circuits, or once dropped from the host */
    bool has_params;
    cuzk_groth16_vk vk; /* the key proofs are verified with (kept with the circuit) */
    bool has_vk;
    cuzk_pce pce;
    size_t ninputs; /* public inputs without ONE */
    uint64_t params_bytes, pce_bytes;
    uint64_t pce_stream_bytes; /* the precompiled circuit's device bytes with its matrices streamed */
    /* the parameter points' size from the file's layout: what a device load streams (the
     * host holds no copy of them unless engine.keep_host_params or the CPU proves) */
    uint64_t params_points_bytes;
    bool params_loading;      /* a host copy is being read for the CPU backend */
    stream_stats last_stream; /* the last parameter stream to a device */
    uint64_t host_need;       /* bytes a load asks of the host budget before it starts */
    char load_error[1024];    /* why the last host load failed ("" when it did not) */
    cuzk_status load_status;  /* ... its status (CUZK_EBUDGET: it cannot fit engine.host_budget) */

    circuit_on_device dev[CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS]; /* by engine.dev index */
    unsigned refs; /* jobs using it (queued or running) */
    /* its jobs with partitions left to make, by priority (LOW first), oldest at each head */
    job_heap queued[ENGINE_PRIORITIES];
    size_t nqueued;
    double last_used;
    /* loads by tier (0: host, 1: the GPUs, summed): that made it resident, that did not, and the
     * seconds of both */
    uint64_t loads[2], load_failures[2];
    double load_s[2];
    uint64_t replaced; /* device loads out of device memory, placed again under a cut budget */
    /* recent times of it on this engine (0: none measured yet), for the jobs' time left
     * (engine_progress.c): a partition's witness, a partition's proof on a device, a job's
     * verification */
    double recent_witness_s, recent_prove_s, recent_verify_s;
    engine_circuit *next;
};

/* ---------------------------------------------------------------- witness buffers */
/* the most partitions one call to a GPU proves (a streamed prover's batch: placement.c's most) */
#define ENGINE_BATCH_MAX 10

typedef struct {
    cuzk_witness w;
    void *pinned_in, *pinned_aux; /* what is page-locked (registered) */
    size_t pinned_in_bytes, pinned_aux_bytes;
    int abc; /* the a, b, c buffer (engine.abcs) its witness's a, b, c are in, or -1 */
    bool busy;
    bool urgent;     /* kept for the urgent lane */
    bool batch_only; /* filled only for a circuit a GPU proves in batches (engine_abc.c) */
} witness_slot;

/* ---------------------------------------------------------------- a, b, c buffers */
/* a, b, c of a witness made on the CPU by a witness lane (engine_abc.c): page-locked where GPUs
 * prove, grown once (cap entries each) */
typedef struct {
    cuzk_fr *v[3];
    size_t cap;
    bool pinned;
    bool busy; /* a slot's (witness_slot.abc) */
} abc_buffer;
/* Whether a free witness buffer s may take a witness of c: a batch_only one only where a GPU
 * proves c in batches (locked). */
bool slot_usable(const cuzk_engine *e, const witness_slot *s, const engine_circuit *c);
/* A free a, b, c buffer for a witness of c, one whose growth fits the host budget first; -1
 * when every free one would outgrow it while another is busy, or none is free (locked). */
int abc_pick(cuzk_engine *e, const engine_circuit *c);
/* The witness's a, b, c into buffer b (unlocked: the buffer is the lane's), grown and page-locked
 * (pin) once; *grown and *pinned get the bytes it grew by. */
cuzk_status abc_make(abc_buffer *b, const cuzk_pce *pce, const cuzk_witness *w, bool pin, cuzk_timeline *tl,
                     uint64_t *grown, int64_t *pinned);
/* Slot s's a, b, c buffer back to the pool, the lanes woken (locked; none held: nothing). */
void abc_release(cuzk_engine *e, witness_slot *s);
/* The GPU prover's notices for one call (cuzk_groth16_prove_opts abc_read and witness_read; its
 * read_ctx): proof k is item[k] (in flight on the calling device). */
typedef struct {
    cuzk_engine *e;
    struct ready_item *item[ENGINE_BATCH_MAX];
    size_t n;
} proof_notice;
/* abc_read: item k's a, b, c buffer back to the pool (unlocked; it takes the engine's lock). */
void notice_abc_read(void *ctx, size_t k);
/* The pool's size (engine.abc_buffers, 0: the witness buffers less 2, at least 1) and its end. */
cuzk_status abc_pool_create(cuzk_engine *e);
void abc_pool_free(cuzk_engine *e);

/* A witness made and waiting for a device. */
typedef struct ready_item {
    engine_job *job;
    unsigned part;
    int slot;
    int bound_dev; /* prefetched to this device's prover (only it takes the item), or -1 */
    double ready_t;
    cuzk_timeline *tl; /* the witness spans, grafted into the job's when proved */
    double witness_start;
    unsigned attempts; /* proofs of it that ended in a device out of memory and were retried */
    double partner_t;  /* taken by a device that then waited for a batch partner from here (0: none) */
    struct ready_item *next;
} ready_item;

/* ---------------------------------------------------------------- jobs */
/* How a kind turns a job's input into partition circuits (engine_porep.c for PoRep). */
typedef struct {
    unsigned nparts;
    size_t ninputs;  /* public inputs per partition, ONE omitted */
    cuzk_fr *expect; /* nparts x ninputs recomputed from public data, or NULL */
    void *state;     /* the kind's parsed input */
    void (*free_state)(void *state);
    cuzk_status (*open)(engine_job *j, unsigned k, cuzk_circuit **out);
    const builtin_family *builtin; /* the built-in circuit of the kind (NULL: a registered one) */
    uint64_t proof;                /* ... for this registered proof */
    /* the bytes state and expect hold, when the kind keeps them instead of its input: the job
     * is charged these against the host budget once its input is checked (0: it keeps its input) */
    uint64_t held_bytes;
} job_plan;

/* What checking a job's input makes: on the submitting thread, without the lock, into this
 * object of the caller's; the submit then applies it to the job under the lock, so no field of
 * the job is written unlocked. */
typedef struct {
    job_plan plan;
    char circuit_id[64]; /* the circuit that proves it */
    char note[256];      /* cuzk_job_result.note ("" when none) */
} job_check;

struct engine_job {
    uint64_t id, seq;
    char request_id[CUZK_REQUEST_ID_MAX + 1];
    uint8_t digest[32]; /* of the request (engine_request.c): with request_id, the job's identity */
    uint64_t named;     /* when request_id last named this job (submitted or joined): the newest wins */
    cuzk_job_kind kind;
    cuzk_priority prio;
    cuzk_job_state state;
    engine_circuit *circ;
    /* the job's copy of its request's input, for the kinds that read it after its check (a
     * circuit job's bytes, the packed PoSt and SnapDeals blobs); NULL for PoRep, whose C1 is
     * parsed from the caller's bytes and kept as plan.state alone */
    uint8_t *input;
    size_t input_len;
    uint64_t input_charged; /* the bytes charged for its input (its copy, or what its plan keeps) */
    uint64_t seed;
    job_plan plan;

    unsigned next_part; /* the next partition to make a witness for */
    bool queued;        /* in its circuit's heap of its priority (engine_queue.c), at queue_at */
    size_t queue_at;
    unsigned in_flight; /* partitions being made, waiting, or proved */
    unsigned done_parts;
    unsigned witnessing;     /* witnesses being made now */
    unsigned witnessed;      /* witnesses made (kept until proved or dropped) */
    cuzk_job_stage furthest; /* the furthest stage its progress showed (engine_progress.c) */
    cuzk_progress *progress; /* partitions proved, from the first witness to the end (cfg.progress) */
    bool started;            /* a partition reached a device */
    bool cancel_req, failing;
    /* Set with cancel_req or failing (engine_job_cancel, engine_job_fail): the provers of its
     * partitions on devices poll it and give up at their next check (CUZK_ECANCELLED), so a
     * cancelled or failed job frees its devices within a stage instead of at its partitions'
     * ends. The job outlives every partition in flight (it cannot end while in_flight > 0), so
     * the provers' pointer stays valid. */
    cuzk_cancel cancel;
    bool waiting_load; /* its circuit is loading */
    cuzk_groth16_proof *proofs;
    cuzk_fr *inputs; /* nparts x ninputs from the witnesses */
    char error[1024];
    job_fail_reason fail_reason; /* where the first failure came from (engine_job_fail) */
    char note[256];              /* cuzk_job_result.note (from its job_check) */

    double submit_t, start_t, end_t;
    uint64_t miner_id, sector_number; /* as the request gave them (0: not given), for the log */
    cuzk_timeline *tl;
    int queue_span;
    job_stages stages; /* once ended */

    /* the result, once ended */
    uint8_t *proof_bytes;
    bool verified;
    char *timeline_json;
    engine_job *next, *prev; /* engine.jobs, newest first */
    engine_job *id_next;     /* engine.index's chain of its id's bucket */
    engine_job *rid_next;    /* ... of its request id's bucket (named jobs) */
    engine_job *ended_next;  /* engine.ended, in the order jobs ended */
    engine_job *finish_next; /* in engine.finish_q */
    bool finishing;
    /* Awaits of this job sleep on ended_cv (broadcast when it ends, on cuzk_engine_wake and at
     * shutdown); while waiters > 0 the job is not pruned, so a waiter's pointer stays valid. */
    pthread_cond_t ended_cv;
    unsigned waiters;
};

/* ---------------------------------------------------------------- devices */
typedef struct {
    struct cuzk_engine *e;
    int index;        /* in engine.dev */
    int ordinal;      /* CUDA ordinal, -1: the CPU backend */
    unsigned context; /* which context of its GPU, or which CPU worker */
    cuzk_gpu_device *gpu;
    char name[160];
    char track[CUZK_TRACK_MAX]; /* its track in traces: "GPU 0", "GPU 0 context 1", "CPU", "CPU worker 1" */
    bool in_service;
    char out_reason[256];
    pthread_t thread;
    bool thread_started;
    uint64_t running_job;
    unsigned running_part;
    double running_t; /* when the running partition was taken */
    /* The CPU backend's prover stage (cuzk_prove_stage, or DEVICE_STAGE_ABC), written by the
     * device's thread with relaxed atomic stores while it proves without the lock, read by the
     * progress snapshots: one writer, no contention. */
    int prove_stage;
    uint64_t proved;
    uint64_t batches, batched; /* calls that proved two or more partitions, and those partitions */
    uint64_t uploaded;         /* bytes its GPU provers copied from host memory */
    double busy_s, started_t;
    double gap_max_s, gap_total_s;
    uint64_t gaps;
    uint64_t budget;          /* measured at start; cut where device memory ran out (res_device_shrank) */
    uint64_t reclaim_pending; /* its circuits' device memory evicted, not yet freed by the reclaimer */
    unsigned budget_cuts;     /* times res_device_shrank cut the budget */
    uint64_t mem_total;
    cuzk_groth16_workspace ws; /* CPU backend */
    cuzk_fr *abc[3];           /* a, b, c when computed on the CPU (grown; owned) */
    size_t abc_n;
} engine_device;

/* ---------------------------------------------------------------- reclaimer */
typedef struct reclaim_item {
    void (*fn)(void *arg);
    void *arg;
    uint64_t bytes;
    int dev; /* the device whose memory it frees (engine.dev index), or -1 */
    char what[96];
    struct reclaim_item *next;
} reclaim_item;

/* ---------------------------------------------------------------- metrics */
#define ENGINE_STAGES 48
typedef struct {
    char name[112]; /* room for "load <a 63-byte id> (parameters, precompiled circuit)" */
    double seconds;
    uint64_t count;
} stage_sum;

/* A latency histogram over the fixed bounds of engine_metrics.c (0.1 s to 600 s). */
#define HIST_BOUNDS 10
typedef struct {
    uint64_t n[HIST_BOUNDS + 1]; /* observations by bucket, not cumulative; the last: above every bound */
    uint64_t count;
    double sum;
} engine_hist;

typedef struct {
    struct cuzk_engine *e;
    pthread_t thread;
    bool started;
    bool urgent;
    cuzk_pool *pool;
    bool own_pool;
} witness_lane;

typedef struct loader {
    pthread_t thread;
    struct loader *next;
    bool done;
    cuzk_cancel stop; /* set to stop the load (cuzk_engine_cancel_loads, destroy); polled unlocked */
} loader;

/* Hash tables of the jobs (engine_jobs.c): by id, and by request id for the named ones, each a
 * power-of-two array of buckets chained through the jobs, grown as the jobs grow. */
typedef struct {
    engine_job **by_id, **by_rid;
    size_t nbuckets, count;
} job_index;

struct cuzk_engine {
    cuzk_engine_config cfg;
    cuzk_engine_partition_hook test_hook; /* engine_testing.h; written under the lock */
    void *test_hook_ctx;
    cuzk_engine_load_hook load_hook; /* ... the same for loads */
    void *load_hook_ctx;
    cuzk_gpu_config gpu_cfg;
    char *param_dir, *cache_dir;
    engine_mutex mu;
    pthread_cond_t work_cv; /* lanes and devices: something to do */
    pthread_cond_t done_cv; /* a job ended, a load finished */
    bool stopping;
    unsigned callers; /* threads inside API calls (destroy waits for them) */
    double start_t;

    engine_job *jobs;               /* every job, newest first, ended ones until dropped */
    job_index index;                /* the jobs by id and by request id (engine_jobs.c) */
    engine_job *ended, *ended_last; /* ended jobs, oldest first: results are dropped from here */
    unsigned nended;
    uint64_t next_id, next_seq;
    uint64_t next_name; /* engine_job.named */
    unsigned queued_or_running;

    engine_circuit *circuits;
    size_t nqueued; /* jobs in the circuits' heaps: partitions wait for a witness lane */

    witness_slot *slots;
    unsigned nslots;
    abc_buffer *abcs; /* a, b, c made by the lanes (engine_abc.c) */
    unsigned nabc;
    witness_lane lanes[2];
    ready_item *ready;

    engine_device dev[CUZK_ENGINE_MAX_DEVICES + CUZK_ENGINE_MAX_CPU_WORKERS];
    unsigned ndev;     /* GPUs and the CPU backend (when active) */
    int cpu_dev;       /* index of the CPU backend, -1 when none */
    bool cpu_fallback; /* the CPU backend proves only when no GPU is in service */

    engine_job *finish_q; /* jobs whose partitions are all proved (or that must end) */
    pthread_t finisher;
    bool finisher_started;
    pthread_cond_t finish_cv;

    reclaim_item *reclaim_q, *reclaim_tail;
    pthread_t reclaimer;
    bool reclaimer_started;
    pthread_cond_t reclaim_cv;
    bool reclaim_stop;
    uint64_t reclaimed_bytes, reclaims;
    double reclaim_s;

    loader *loaders;

    uint64_t host_used;     /* parameters, circuits, buffers, job inputs */
    uint64_t inputs_bytes;  /* ... of which the live jobs' inputs */
    uint64_t buffers_bytes; /* ... and the witness buffers (they only grow) */
    uint64_t pinned_bytes;
    uint64_t host_budget;

    uint64_t submitted[CUZK_KINDS], completed[CUZK_KINDS], failed[CUZK_KINDS], cancelled[CUZK_KINDS];
    uint64_t partitions_proved;
    uint64_t partition_retries;                      /* partitions proved again after their GPU ran out of memory */
    uint64_t failures[CUZK_KINDS][JOB_FAIL_REASONS]; /* failed jobs by kind and reason */
    stage_sum stages[ENGINE_STAGES];
    /* by kind, as jobs end: submit to end, submit to the first partition on a device (jobs that
     * got there), and each stage the job's timeline has */
    engine_hist job_hist[CUZK_KINDS], queue_hist[CUZK_KINDS], stage_hist[JOB_STAGES][CUZK_KINDS];
};

/* engine_request.c (and cuzk_engine_check_request, public) */
/* The digest of what a request proves (every field but the priority). */
void engine_request_digest(const cuzk_job_request *req, uint8_t out[32]);
/* The bytes of a checked request's input: the C1 or circuit input as it is, the blobs packed
 * (cuzk/blobs.h); and the copy of them into dst, which holds that many. */
size_t engine_request_input_bytes(const cuzk_job_request *req);
/* Whether a job keeps a copy of its request's input past its check (all kinds but PoRep, whose
 * plan keeps the parsed C1 only). */
bool engine_request_keeps_input(const cuzk_job_request *req);
void engine_request_copy_input(const cuzk_job_request *req, uint8_t *dst);

/* engine.c */
cuzk_status engine_enter(cuzk_engine *e); /* an API call begins: locks (fails while stopping) */
void engine_leave(cuzk_engine *e);        /* ... and ends: unlocks */
/* Drops results beyond result_max or older than result_ttl_s (locked; from API calls only,
 * never while a job list is being walked). */
void engine_prune_results(cuzk_engine *e);
/* *ts = now + timeout_s on the clock the engine's condition variables wait by */
void engine_deadline_of(struct timespec *ts, double timeout_s);
/* engine_jobs.c: the job list, its index and the ended jobs' order (all locked) */
cuzk_status jobs_init(cuzk_engine *e);
void jobs_free_all(cuzk_engine *e);
void jobs_add(cuzk_engine *e, engine_job *j);   /* listed and indexed, newest first */
void jobs_ended(cuzk_engine *e, engine_job *j); /* to the end of the ended jobs */
/* The next job named request_id after `after` (NULL: the first), in no particular order. */
engine_job *jobs_named(cuzk_engine *e, const char *request_id, engine_job *after);
void engine_end_job(cuzk_engine *e, engine_job *j, cuzk_job_state st); /* locked */
engine_job *find_job_locked(cuzk_engine *e, uint64_t id);              /* locked; NULL when none */
/* Marks a live job failing with the first reason given (locked): its partitions stop at their
 * next check and it ends FAILED once none is in flight. reason: where it failed, for the
 * metrics and the job log. */
void engine_job_fail(cuzk_engine *e, engine_job *j, job_fail_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Cancels a live job (locked): its made witnesses go, its partitions on devices stop at their
 * next check, and it ends CANCELLED (why, or "cancelled", as its error) once none is in flight. */
void engine_job_cancel(cuzk_engine *e, engine_job *j, const char *why);
bool engine_job_live(const engine_job *j);
int engine_rank(const cuzk_engine *e, const engine_job *j, double now);

/* engine_queue.c (all locked): a job with partitions left to make, in its circuit's heap of its
 * priority. add: at its "input checked" (false: out of memory); drop: whenever it stops
 * being one (its last partition taken, cancel, failure, end), any number of times. */
bool queue_add(cuzk_engine *e, engine_job *j);
void queue_drop(cuzk_engine *e, engine_job *j);
engine_job *queue_head(const engine_circuit *c, cuzk_priority prio); /* the oldest, or NULL */
void queue_free(engine_circuit *c);                                  /* the heaps' memory */

/* engine_sched.c (all locked) */
/* The next partition's job for a lane, with the witness buffer (*slot) and, where its a, b, c
 * are made on the CPU, the a, b, c buffer (*abc, else -1) it takes; NULL when none. */
engine_job *sched_pick_witness(cuzk_engine *e, bool urgent, int *slot, int *abc);
/* The event "job queued" (its input checked, in its circuit's queue): its circuit's verdict
 * applied now (a load started, or the circuit's queued jobs failed when no device can prove
 * it), and the lanes woken only where a witness buffer is free for it. */
void sched_job_queued(cuzk_engine *e, engine_job *j);
ready_item *sched_pick_ready(cuzk_engine *e, engine_device *d);
/* More made witnesses of first's job that device d may prove with it in one batch (a streamed
 * GPU prover's pass over the bases serves them all), up to room, lowest partitions first: taken
 * off the ready list into out; their count. Only those whose a, b, c are made where the device
 * has no precompiled circuit. */
unsigned sched_pick_batch(cuzk_engine *e, engine_device *d, const ready_item *first, ready_item **out, unsigned room);
/* Whether device d, holding first (no batch partner ready), should wait for its job's next
 * witness: one is being made now and d has nothing else it could prove (the policy; it reads and
 * changes nothing). */
bool sched_wait_for_partner(const cuzk_engine *e, const engine_device *d, const ready_item *first);
/* Whether a made witness other than those taken is ready for device d to prove now. */
bool sched_other_ready(const cuzk_engine *e, const engine_device *d);
/* A ready item taken by a pick and not proved, back on the ready list for the next pick. */
void sched_put_back(cuzk_engine *e, ready_item *r);
void sched_drop_ready_of(cuzk_engine *e, engine_job *j);
void sched_release_slot(cuzk_engine *e, int slot, engine_job *j);
void sched_maybe_finish(cuzk_engine *e, engine_job *j);

/* engine_lanes.c */
cuzk_status lanes_start(cuzk_engine *e);
void *device_main(void *arg);
void *finisher_main(void *arg);

/* engine_residency.c (locked unless said) */
engine_circuit *res_find(cuzk_engine *e, const char *id);
engine_circuit *res_by_id(cuzk_engine *e, const char *id); /* also built-in ids ("porep-32g") */
/* res_find, and a built-in circuit by its family form ("porep:32GiB" for "porep-32g"): for the
 * calls that name a circuit (preload, evict), not for jobs (a circuit job's name is its own). */
engine_circuit *res_find_spelled(cuzk_engine *e, const char *id);
cuzk_status res_get_builtin(cuzk_engine *e, const builtin_family *f, uint64_t proof, engine_circuit **out);
/* Starts the host load of c if needed; the job that triggers it supplies partition 0. */
void res_want_host(cuzk_engine *e, engine_circuit *c, engine_job *j);
/* Starts loading c onto device d if it may; false when it cannot go there. */
bool res_want_device(cuzk_engine *e, engine_circuit *c, engine_device *d);
bool res_device_ready(const engine_circuit *c, const engine_device *d);
bool res_cpu_ready(const engine_circuit *c);
/* After a device allocation on d failed (another process took memory since the budget was
 * measured): the budget of d's GPU measured again, and cut when smaller by a margin; then c,
 * when given and no longer fitting, is taken off d (placed again on its next use). Returns
 * whether the budget was cut, that is whether a retry would be placed differently. */
bool res_device_shrank(cuzk_engine *e, engine_device *d, engine_circuit *c);
/* Whether the witness lanes make c's a, b, c (locked): every GPU in service that holds or loads c
 * proves it without the circuit's matrices (its placement has no room for them), and there is
 * one. */
bool res_abc_on_host(const cuzk_engine *e, const engine_circuit *c);
/* Starts reading a host copy of c's parameters for the CPU backend when c has none (locked). */
void res_want_host_params(cuzk_engine *e, engine_circuit *c);
/* Frees idle circuits, least recently used first, until need more bytes fit the host budget. */
bool res_make_host_room(cuzk_engine *e, uint64_t need, const engine_circuit *keep);
/* The host bytes eviction cannot free: the witness buffers. */
uint64_t res_fixed_bytes(const cuzk_engine *e);
uint64_t res_evict_circuit(cuzk_engine *e, engine_circuit *c); /* drops every tier; returns bytes */
void res_free_all(cuzk_engine *e);
void res_join_loaders(cuzk_engine *e, bool all);            /* unlocked */
unsigned res_stop_loaders(cuzk_engine *e);                  /* locked: the loads running told to stop */
cuzk_status res_preload(cuzk_engine *e, engine_circuit *c); /* unlocked; waits */

/* engine_porep.c: a PoRep request's input checked into out (unlocked: on the submitting thread;
 * nothing in out to free when it fails) */
cuzk_status porep_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out);
/* engine_post.c, engine_snap.c (the same) */
cuzk_status post_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out);
cuzk_status snap_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out);

/* engine_counts.c: the counts several events change, only through these (locked) */
void job_hold(cuzk_engine *e, engine_job *j);   /* one more of j's partitions in flight */
void job_unhold(cuzk_engine *e, engine_job *j); /* ... one fewer */
void host_charge(cuzk_engine *e, uint64_t bytes);
void host_release(cuzk_engine *e, uint64_t bytes);
void input_charge(cuzk_engine *e, uint64_t bytes);   /* a job's input: host bytes and inputs_bytes */
void buffers_charge(cuzk_engine *e, uint64_t bytes); /* witness buffers grown: host bytes and buffers_bytes */
void input_release(cuzk_engine *e, uint64_t bytes);

/* engine_reclaim.c */
void reclaim_push(cuzk_engine *e, void (*fn)(void *), void *arg, uint64_t bytes, const char *what); /* locked */
/* ... device memory of engine.dev[dev]: counted in its reclaim_pending until freed (locked) */
void reclaim_push_device(cuzk_engine *e, void (*fn)(void *), void *arg, uint64_t bytes, const char *what, int dev);
void *reclaimer_main(void *arg);
void reclaim_free_big(void *arg); /* arg: a reclaim_big */
typedef struct {
    void *ptr;
    size_t bytes;
} reclaim_big;

/* engine_report.c */
/* A text made from a status snapshot by body (malloc'd; NULL when out of memory). */
char *report_text(cuzk_engine *e, void (*body)(cuzk_engine *e, const cuzk_engine_status *s, FILE *f));

/* engine_progress.c */
/* A partition's a, b, c on the CPU backend, as engine_device.prove_stage says it (beside the
 * CPU prover's own cuzk_prove_stage values). */
#define DEVICE_STAGE_ABC 100
/* The progress of j into *out (locked). */
void progress_of(cuzk_engine *e, engine_job *j, double now, cuzk_job_progress *out);
/* The name of a device's prove_stage ("" for none). */
const char *device_stage_name(int stage);
/* One more measurement into a recent time (*avg 0: the first). */
void recent_time(double *avg, double seconds);

/* engine_stages.c */
/* Sums an ended job's timeline (NULL: none) by span name into e->stages and by stage into *out,
 * and splits its wall clock [submit_t, end_t] into out->wall (locked). */
void stages_account(cuzk_engine *e, const cuzk_timeline *tl, double submit_t, double end_t, job_stages *out);
const char *stage_name(int stage); /* "load", "witness", "prove", "verify" */

/* engine_metrics.c */
void metrics_job_ended(cuzk_engine *e, const engine_job *j); /* locked: into the histograms */
const char *fail_reason_name(job_fail_reason r);             /* "input", "load", ... */
/* engine_joblog.c: the job's line in the job log (one JSON object; engine.h's job_log) */
void job_log_write(FILE *f, const engine_job *j, bool test_params);

#endif
