/* cuzk GPU layer: NTT, MSM (G1, G2, with the Groth16 0/1 split) and the partition prover on
 * one CUDA device, bit-compatible with the CPU layer (ff.h, groth16.h).
 *
 * Built from the CUDA sources in src/gpu with CUZK_CUDA=ON, or by default where the build
 * machine has an NVIDIA GPU and a CUDA compiler (cmake/cuda.cmake); otherwise every function
 * here that returns a cuzk_status fails with CUZK_EUNSUPPORTED ("built without CUDA support"),
 * cuzk_gpu_available says so and cuzk_gpu_device_count is 0 (the tuning functions still work).
 * A device context (cuzk_gpu_device) is opened for one CUDA device ordinal with a tuning
 * configuration. It holds the device copies of the NTT tables, and every object made on it
 * (MSMs, provers, resident circuits) must be destroyed before it. Not in it, and shared by the
 * whole process: the host NTT tables (computed once, then only read), the CUDA runtime's
 * context of each device, and each device's default memory pool, which opening a context sets
 * to keep what is freed. So two contexts on one device share that pool and the device's
 * memory; otherwise they are independent.
 * Scalars are Fr in Montgomery form (cuzk_fr); points are blst affine points (Montgomery Fp
 * limbs, infinity all zero), as everywhere in cuzk.
 * Threads: the calls that use the device first select it on the calling thread (cudaSetDevice),
 * so a context serves any thread, and several at once (it builds its tables under its own
 * lock). A prover runs one proof at a time: its proof calls must not overlap, but
 * cuzk_gpu_prefetch_witness, cuzk_gpu_prefetch_drop and cuzk_gpu_prefetch_hits may run on
 * other threads meanwhile (they take the prover's lock). An MSM object serves one thread at a
 * time, and so does a resident circuit's cuzk_gpu_pce_evaluate; proofs only read a resident
 * circuit. Every fallible call returns a cuzk_status and sets cuzk_last_error() (per thread). */
#ifndef CUZK_GPU_H
#define CUZK_GPU_H

#include <stdbool.h>

#include "cuzk/config.h"
#include "cuzk/groth16.h"
#include "cuzk/pce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- tuning */
/* Tuning of the GPU code, fixed when a device context is opened. The defaults
 * (cuzk_gpu_config_default) are the measured best on the H200 (docs/BENCHMARKS.md); the other
 * values exist for measurement and for the emulation tests (small NTT passes). The keys, their
 * ranges and defaults are one table (cuzk_gpu_config_table, section "gpu" of the config file). */
typedef struct cuzk_gpu_config {
    unsigned ntt_pass_bits;           /* most row bits per NTT pass (3..11) */
    unsigned ntt_tile_bits;           /* most elements per NTT block, as a power of two (3..11) */
    unsigned ntt_threads;             /* threads per NTT block (32..1024) */
    bool ntt_full_table;              /* the top pass reads a full twiddle table where memory allows */
    bool ntt_natural_out;             /* natural order out through a second buffer, not a reversal pass */
    unsigned msm_window_bits;         /* Pippenger window bits (0: chosen from the size) */
    unsigned msm_s1;                  /* first-round range per thread (0: chosen) */
    bool msm_accum_reg_cap;           /* G1 accumulation kernel capped at 128 registers */
    uint64_t msm_chunk;               /* scalars per MSM chunk (0: 2^25, 2^26 with the scalar split) */
    unsigned msm_reduce_bits;         /* buckets per reduction group, as a power of two (2..6) */
    unsigned msm_first_shift;         /* the first of several MSM pieces is 2^this smaller (0..8) */
    unsigned msm_sum_k;               /* points per thread and step when summing groups (2..64) */
    bool h_glv;                       /* the H MSM splits its scalars (phi(H) resident beside H) */
    bool side_high_priority;          /* urgent side work (L, A, B beside the NTTs) at high priority */
    bool profile;                     /* synchronize at each stage mark and print its time to stderr */
    char placement[16];               /* where provers keep parameters: auto, resident, streamed or mapped */
    unsigned stream_chunk_log;        /* streamed: bases per chunk as a power of two (0: from memory) */
    unsigned stream_batch;            /* streamed: the most proofs per pass over the bases (0: from memory) */
    bool stream_beside;               /* streamed: L, A, B beside the H MSM where the memory holds both (default off) */
    bool stream_witnesses_during_h;   /* streamed, L, A, B after H: the witnesses that fit go to the device
                                       during the last H MSM (default on) */
    bool stream_lab_concurrent;       /* streamed: a batch's L, A, B MSMs on their own thread and streams beside
                                       its proofs, where the memory holds both (default off) */
    unsigned stream_compact_permille; /* streamed: compact witnesses for L, A, B with room for this many
                                         thousandths of the aux values as values other than 0 and 1 (0: off) */
    char stream_file_dir[256];        /* mapped: the folder of the bases' scratch file ("": /var/tmp; the
                                  engine's cache_dir where the engine opens the device) */
    bool pce_on_device; /* the precompiled circuit on the device where it fits (else a, b, c on the CPU) */
    bool pce_stream;    /* where its matrices are not on the device, they stream from host memory for the
                                  device's SpMV (false: a, b, c on the CPU) */
} cuzk_gpu_config;
void cuzk_gpu_config_default(cuzk_gpu_config *cfg);
/* The keys of cuzk_gpu_config (offsets into it), for config files and overrides. */
const cuzk_config_key *cuzk_gpu_config_table(size_t *n);

/* ---------------------------------------------------------------- device */
/* true when a usable CUDA device is present; otherwise false with the reason in `reason`
 * (e.g. "built without CUDA support", "no CUDA device: ..."). */
bool cuzk_gpu_available(char *reason, size_t n);
/* CUDA devices present (0 without CUDA support or a driver). */
int cuzk_gpu_device_count(void);

typedef struct cuzk_gpu_device cuzk_gpu_device;
/* Opens a context on device `ordinal` (cfg NULL: the defaults; copied). */
cuzk_status cuzk_gpu_device_open(cuzk_gpu_device **out, int ordinal, const cuzk_gpu_config *cfg) CUZK_WARN_UNUSED;
/* Frees the context's tables; every object made on it must have been destroyed. */
void cuzk_gpu_device_close(cuzk_gpu_device *d);
const cuzk_gpu_config *cuzk_gpu_device_config(const cuzk_gpu_device *d);
int cuzk_gpu_device_ordinal(const cuzk_gpu_device *d);
/* One line naming the device (name, SMs, memory), for benchmark tables. */
void cuzk_gpu_describe(const cuzk_gpu_device *d, char *out, size_t n);
/* Device memory: total and currently free, in bytes. */
cuzk_status cuzk_gpu_mem_info(const cuzk_gpu_device *d, size_t *free_bytes, size_t *total_bytes) CUZK_WARN_UNUSED;
/* The memory the memory pool of d's GPU holds now (proofs' workspace in use, or kept for the
 * next proof: the pool keeps what is freed), in bytes; 0 without CUDA. It is this process's,
 * though the driver counts it as not free. */
size_t cuzk_gpu_pool_bytes(const cuzk_gpu_device *d);

/* Device and pinned host buffers. cuzk_gpu_host_alloc returns page-locked memory (fast
 * uploads, usable with every device); free it with cuzk_gpu_host_free. */
cuzk_status cuzk_gpu_malloc(const cuzk_gpu_device *d, void **ptr, size_t bytes) CUZK_WARN_UNUSED;
void cuzk_gpu_free(void *ptr);
cuzk_status cuzk_gpu_host_alloc(void **ptr, size_t bytes) CUZK_WARN_UNUSED;
void cuzk_gpu_host_free(void *ptr);
/* Page-locks memory allocated elsewhere (a reused witness buffer, say) so uploads from it run
 * at full speed; unregister before freeing it. Registering takes time (about a second per
 * few GB): do it once per buffer, not per proof. */
cuzk_status cuzk_gpu_host_register(void *ptr, size_t bytes) CUZK_WARN_UNUSED;
void cuzk_gpu_host_unregister(void *ptr);
cuzk_status cuzk_gpu_upload(void *dev, const void *host, size_t bytes) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_download(void *host, const void *dev, size_t bytes) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- NTT */
typedef enum {
    CUZK_GPU_NTT_FORWARD = 0,       /* a_k <- sum_j a_j w^(jk) (cuzk_ntt_forward) */
    CUZK_GPU_NTT_INVERSE = 1,       /* with the 1/n factor (cuzk_ntt_inverse) */
    CUZK_GPU_NTT_COSET_FORWARD = 2, /* a_j *= g^j, then forward (cuzk_ntt_coset_forward) */
    CUZK_GPU_NTT_COSET_INVERSE = 3  /* inverse, then a_j *= g^-j (cuzk_ntt_coset_inverse) */
} cuzk_gpu_ntt_kind;

/* nvec vectors of 2^log_n elements each (log_n <= 28), back to back, natural order in and
 * out, transformed in place. `data` is host memory (uploaded, transformed, downloaded; pinned
 * memory uploads fastest) or, with on_device, device memory. Results are identical to the
 * CPU NTT's. */
cuzk_status cuzk_gpu_ntt(cuzk_gpu_device *d, cuzk_fr *data, unsigned log_n, size_t nvec, cuzk_gpu_ntt_kind kind,
                         bool on_device) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- MSM with resident bases */
typedef struct cuzk_gpu_msm cuzk_gpu_msm;

/* Uploads n affine bases once (they stay in device memory until destroy). */
cuzk_status cuzk_gpu_msm_create_g1(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p1_affine *bases,
                                   size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_msm_create_g2(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p2_affine *bases,
                                   size_t n) CUZK_WARN_UNUSED;
void cuzk_gpu_msm_destroy(cuzk_gpu_msm *m);
size_t cuzk_gpu_msm_len(const cuzk_gpu_msm *m);

enum {
    CUZK_GPU_MSM_SCALARS_ON_DEVICE = 1, /* scalars point to device memory */
    CUZK_GPU_MSM_NO_SPLIT = 2           /* run every scalar through Pippenger (no 0/1 split) */
};

/* What the last MSM on this object did. */
typedef struct {
    size_t tail; /* scalars that went through Pippenger (n when not split) */
    unsigned window_bits, windows;
    double seconds; /* wall time of the call, upload included */
} cuzk_gpu_msm_stats;

/* out = sum_{i<n} scalars[i] * bases[i] (n <= the number of bases), scalars in Montgomery form.
 * By default zero scalars are skipped, points of one-scalars are added directly and only the
 * rest goes through Pippenger. */
cuzk_status cuzk_gpu_msm_g1(cuzk_gpu_msm *m, blst_p1 *out, const cuzk_fr *scalars, size_t n,
                            int flags) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_msm_g2(cuzk_gpu_msm *m, blst_p2 *out, const cuzk_fr *scalars, size_t n,
                            int flags) CUZK_WARN_UNUSED;
void cuzk_gpu_msm_last_stats(const cuzk_gpu_msm *m, cuzk_gpu_msm_stats *st);

/* ---------------------------------------------------------------- placement */
/* Where a prover keeps a circuit's parameters on a GPU, chosen from the memory it may use:
 * resident (every base in device memory: the fastest) or streamed (the bases in page-locked
 * host memory, copied to the device in chunks during each MSM while earlier chunks are summed,
 * and a proof's stages run one after another so that its workspace fits). Mapped is streamed
 * with the bases in a scratch file on disk, mapped (cuzk_scratch_map), for a host whose memory
 * budget cannot hold them: the kernel keeps what pages it can and reads the rest back, and each
 * chunk is copied from pageable memory (slower than streamed, but it proves). */
typedef enum { CUZK_GPU_RESIDENT = 0, CUZK_GPU_STREAMED = 1, CUZK_GPU_MAPPED = 2 } cuzk_gpu_placement_kind;

/* A circuit as a placement sees it. */
typedef struct {
    size_t n_h, n_l, n_a, n_b; /* bases per section (b: G1 and G2 each) */
    size_t num_inputs, num_aux;
    size_t n;                /* constraints + inputs (the domain is the next power of two) */
    size_t pce_bytes;        /* the precompiled circuit's device size (0: a, b, c come from the CPU) */
    unsigned sms;            /* the device's multiprocessors (workspace of the MSM's first round) */
    size_t pce_stream_bytes; /* its device size with the matrices streamed (cuzk_gpu_pce_stream_bytes; 0:
                                estimated from pce_bytes and the shape) */
    bool mostly_bits;        /* its witnesses' aux values are nearly all 0 or 1 (PoRep 98.7 %, SnapDeals 98.8 %;
                                PoSt: 0.9 %), so compact witnesses may be placed (compact_vals) */
} cuzk_gpu_shape;

typedef struct {
    cuzk_gpu_placement_kind kind;
    bool pce_on_device;           /* the precompiled circuit fits beside the rest */
    bool pce_streamed;            /* else its matrices stream from host memory for the device's SpMV (two
                                     chunk buffers of CUZK_GPU_PCE_CHUNK_BYTES in the workspace) */
    bool h_glv;                   /* the H MSM splits its scalars (resident: phi(H) kept too) */
    uint64_t params_device_bytes; /* resident bases (phi(H) included) */
    uint64_t pce_device_bytes;    /* pce_bytes where pce_on_device, pce_stream_bytes where pce_streamed, else 0 */
    uint64_t workspace_bytes;     /* a proof's peak device memory beside the two above */
    uint64_t pinned_host_bytes;   /* streamed: the bases in page-locked host memory */
    uint64_t file_bytes;          /* mapped: the bases' scratch file (pinned_host_bytes is 0) */
    uint64_t chunk_points;        /* streamed: bases per chunk */
    unsigned window_max;          /* streamed: most Pippenger window bits of L, A, B (0: no limit) */
    unsigned window_max_h;        /* streamed: the same for the H MSM */
    unsigned batch_max;           /* streamed: the most proofs one pass over the L, A, B bases serves
                                     (their witnesses held on the device together); 1 resident */
    bool lab_beside_h;            /* streamed: the L, A, B MSMs run beside the last proof's H MSM, their chunks
                                     between its chunks (their copies cross while H's are summed), through
                                     CUZK_GPU_BESIDE_BUFS chunk buffers of their own */
    bool h_sort_ahead;            /* streamed: the H MSM sorts its next chunk's digits (a second set of keys
                                     and values) while it sums one, where the memory holds both */
    unsigned witnesses_before_h;  /* streamed, L, A, B after H: how many of a batch's witnesses go to the
                                     device for L, A, B during the last proof's H MSM (where the memory holds
                                     them beside it), not after it */
    bool lab_concurrent;          /* streamed: the batch's L, A, B MSMs run on a thread and streams of their
                                     own from the batch's start, beside its proofs' SpMV, NTTs and H MSMs
                                     (their copies cross while those compute), their witnesses uploaded
                                     first, through chunk buffers of their own of lab_chunk_points bases */
    uint64_t lab_chunk_points;    /* with lab_concurrent: the L, A, B MSMs' bases per chunk */
    uint64_t compact_vals;        /* streamed, with the precompiled circuit: each batch proof keeps its witness
                                     for L, A and B on the device in compact form from its SpMV on, with room for
                                     this many aux values other than 0 and 1 (a witness with more has its values
                                     copied from host memory a piece at a time); 0: full witnesses, uploaded
                                     again for L, A and B */
    uint64_t room;                /* the device memory it was chosen for (free less the reserve) */
    char why[480];                /* the sizes behind the choice, in words */
} cuzk_gpu_placement;

/* The chunk buffers of the L, A, B MSMs beside the H MSM: while an H chunk is summed, the link
 * carries H's next chunk and about three of theirs (a 32 GiB PoRep partition: 34.5 GB of L, A, B
 * bases against 12.9 GB of H's), so they need room for three chunks ahead of the one summed. */
#define CUZK_GPU_BESIDE_BUFS 4u

/* The placement of a circuit of shape sh on a device with `room` bytes it may use (free memory
 * less the reserve), under the tuning's placement and stream_chunk_log keys (cfg NULL: the
 * defaults). Returns: CUZK_OK with *out filled; CUZK_EBUDGET when not even the streamed
 * placement's workspace fits (the message names the sizes); CUZK_EINVAL for an unknown
 * placement key or a resident placement asked for that does not fit. Thread: any. */
cuzk_status cuzk_gpu_place(const cuzk_gpu_shape *sh, uint64_t room, const cuzk_gpu_config *cfg,
                           cuzk_gpu_placement *out) CUZK_WARN_UNUSED;
/* "resident", "streamed" or "mapped" */
const char *cuzk_gpu_placement_name(cuzk_gpu_placement_kind k);
/* true for the placements whose bases stay off the device (streamed and mapped) */
bool cuzk_gpu_placement_streams(const cuzk_gpu_placement *pl);
/* A streamed placement made mapped: the bases go to a scratch file in dir instead of page-locked
 * memory, because the host budget has only host_room bytes for them (said in pl->why). */
void cuzk_gpu_place_mapped(cuzk_gpu_placement *pl, const char *dir, uint64_t host_room);

/* ---------------------------------------------------------------- the partition prover */
typedef struct cuzk_gpu_prover cuzk_gpu_prover;

/* Uploads H, L, A, B_G1 and B_G2 (and keeps the vk points the assembly needs); the
 * parameters may be freed afterwards. Device workspace for one partition of this shape is
 * reserved on the first proof and reused. */
cuzk_status cuzk_gpu_prover_create(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                   const cuzk_groth16_params *p) CUZK_WARN_UNUSED;
/* The same, from parameters given piece by piece (a .params file streamed to the device with no
 * host copy of its points): begin with the sections' lengths (h, l, a, b_g1, b_g2, as
 * CUZK_PARAMS_H...) and the key, put every point of every section (blst affine points, in any
 * order and pieces), then commit (phi(H) is made from H). On a failure, destroy the prover. */
cuzk_status cuzk_gpu_prover_begin(cuzk_gpu_device *d, cuzk_gpu_prover **out, const size_t count[CUZK_PARAMS_SECTIONS],
                                  const cuzk_groth16_vk *vk) CUZK_WARN_UNUSED;
/* cuzk_gpu_prover_begin with a placement from cuzk_gpu_place (begin places by the device's free
 * memory at the call, for the circuit without a device PCE). */
cuzk_status cuzk_gpu_prover_begin_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                         const size_t count[CUZK_PARAMS_SECTIONS], const cuzk_groth16_vk *vk,
                                         const cuzk_gpu_placement *pl) CUZK_WARN_UNUSED;
/* The placement the prover was made with. */
const cuzk_gpu_placement *cuzk_gpu_prover_placement(const cuzk_gpu_prover *pr);
cuzk_status cuzk_gpu_prover_put(cuzk_gpu_prover *pr, int section, size_t first, size_t n,
                                const void *points) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_prover_commit(cuzk_gpu_prover *pr) CUZK_WARN_UNUSED;
void cuzk_gpu_prover_destroy(cuzk_gpu_prover *pr);
/* The device context the prover was made on. */
cuzk_gpu_device *cuzk_gpu_prover_device(const cuzk_gpu_prover *pr);

/* The same proof as cuzk_groth16_prove for the same witness, r and s (NULL: drawn from the OS
 * CSPRNG). Witness arrays may be ordinary or pinned host memory (pinned uploads directly;
 * ordinary memory is handed to the CUDA runtime as it is, which copies it through staging of
 * its own, more slowly: the prover has no pinned staging buffers). Stage spans (uploads, NTTs, each
 * MSM, assembly) go on tl (may be NULL). */
cuzk_status cuzk_gpu_prove(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                           const cuzk_fr *r, const cuzk_fr *s, cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* cuzk_gpu_prove with the CPU prover's options (opts NULL: the defaults). The cancel token is
 * polled on the host between the prover's stages (before the NTTs, before each MSM): once it
 * is set no further stage is issued, the work already on the device is waited for (it reads
 * the witness's host memory and the stage buffers), the buffers go back to the memory pool,
 * and the call returns CUZK_ECANCELLED with the device fit for the next proof. */
cuzk_status cuzk_gpu_prove_with(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                                const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;

/* The most proofs cuzk_gpu_prove_batch_with takes at once: 1 with the parameters resident;
 * streamed, the placement's batch_max (as many witnesses as the device holds beside the rest). */
unsigned cuzk_gpu_prover_batch_max(const cuzk_gpu_prover *pr);
/* n proofs of the prover's circuit in one call (1 <= n <= cuzk_gpu_prover_batch_max): out[j] for
 * w[j], each as cuzk_gpu_prove_with makes it. Streamed, each proof's NTTs and H MSM run in turn,
 * then one pass over each of the L, A, B_G1 and B_G2 bases serves every proof (each chunk crosses
 * the link once). opts->r and opts->s, where set, hold n randomizers each; the cancel token ends
 * the whole batch. */
cuzk_status cuzk_gpu_prove_batch_with(cuzk_gpu_prover *pr, size_t n, cuzk_groth16_proof *out,
                                      const cuzk_groth16_witness *const *w,
                                      const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;

/* Memory figures for the prover: *device_bytes is its parameter arrays (phi(H) included where
 * kept) plus the high-water mark of the reserved memory in the default memory pool of the
 * calling thread's current CUDA device (the workspace of everything using that pool, not this
 * prover's alone; its prefetch slots are not counted); *pinned_host_bytes is the page-locked
 * host memory of a streamed prover's parameters (0 when resident). */
void cuzk_gpu_prover_memory(const cuzk_gpu_prover *pr, size_t *device_bytes, size_t *pinned_host_bytes);
/* The prover's own device memory (its parameter arrays, or a streamed prover's chunk buffers),
 * without the memory pool's workspace. */
size_t cuzk_gpu_prover_own_bytes(const cuzk_gpu_prover *pr);
/* Bytes the prover's proofs have copied from host memory to the device so far: a streamed
 * prover's chunks of bases, the witnesses, a, b, c where they come from the CPU (the link's
 * traffic; not the prefetched witnesses, nor the parameters' first upload). Thread: any. */
uint64_t cuzk_gpu_prover_uploaded_bytes(const cuzk_gpu_prover *pr);

/* ---------------------------------------------------------------- resident precompiled circuit */
/* The precompiled circuit (pce.h) in device memory: A, B, C (row offsets, columns,
 * coefficient indices), the coefficient table, the density bitmaps and a plan for the long
 * rows, uploaded once (a 32 GiB PoRep partition: about 7 GB). The host PCE may be freed
 * afterwards. With it, a, b, c are computed on the device by a sparse matrix-vector product
 * and never cross PCIe: only the assignment is uploaded. */
typedef struct cuzk_gpu_pce cuzk_gpu_pce;
cuzk_status cuzk_gpu_pce_create(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p) CUZK_WARN_UNUSED;
void cuzk_gpu_pce_destroy(cuzk_gpu_pce *g);
/* device bytes the circuit occupies */
size_t cuzk_gpu_pce_bytes(const cuzk_gpu_pce *g);

/* The same circuit with its matrices left in host memory (a GPU without room for them): the
 * coefficient table, the density bitmaps and the long-row plan go to the device; the row
 * offsets, columns and coefficient indices are page-locked where they are and copied in chunks
 * of rows (at most CUZK_GPU_PCE_CHUNK_BYTES each, two buffers, the copy of the next chunk
 * beside the SpMV of this one) for each proof's a, b, c. The host PCE must outlive the handle
 * and stay unchanged. Fails (naming the row) where a row's terms do not fit one chunk. Its
 * device bytes are cuzk_gpu_pce_bytes; cuzk_gpu_pce_stream_bytes gives them beforehand. */
#define CUZK_GPU_PCE_CHUNK_BYTES (64ull << 20)
cuzk_status cuzk_gpu_pce_create_streamed(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p) CUZK_WARN_UNUSED;
/* The device bytes cuzk_gpu_pce_create_streamed takes for p, and the SpMV's partial sums of its
 * long rows beside a and b (A's go into b's memory, not yet made, where they fit it), for the
 * placement. Plain C: also without CUDA. */
uint64_t cuzk_gpu_pce_stream_bytes(const cuzk_pce *p);
/* The most terms one thread of the SpMV adds (spmv.cuh; longer rows are cut into segments). */
#define CUZK_GPU_SPMV_SEG 16u

/* a, b, c (num_constraints + num_inputs entries each, host memory) computed on the device
 * and downloaded: the same bytes as cuzk_pce_evaluate. For checks; proofs use
 * cuzk_gpu_prove_pce, which keeps them on the device. */
cuzk_status cuzk_gpu_pce_evaluate(cuzk_gpu_pce *g, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b,
                                  cuzk_fr *c) CUZK_WARN_UNUSED;

/* The same proof as cuzk_gpu_prove (and cuzk_groth16_prove) for the witness whose a, b, c
 * cuzk_pce_evaluate would give, but a, b, c are computed on the device from the uploaded
 * assignment (input[ni], input[0] = ONE; aux[na]) and the resident circuit, whose densities
 * are used too. pr and pce must fit (the error names what does not). */
cuzk_status cuzk_gpu_prove_pce(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                               const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na, const cuzk_fr *r,
                               const cuzk_fr *s, cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* cuzk_gpu_prove_pce with options; the cancel token as in cuzk_gpu_prove_with (also polled
 * before a, b, c are computed). */
cuzk_status cuzk_gpu_prove_pce_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                                    const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                                    const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;
/* n proofs through the resident circuit in one call, as cuzk_gpu_prove_batch_with batches them
 * (input[j], aux[j]: witness j's assignment). */
cuzk_status cuzk_gpu_prove_pce_batch_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, size_t n,
                                          cuzk_groth16_proof *out, const cuzk_fr *const *input, size_t ni,
                                          const cuzk_fr *const *aux, size_t na,
                                          const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;

/* Starts copying a later proof's assignment (host memory left unchanged until that proof)
 * to the device on a stream of its own, so that it overlaps the proof running now.
 * cuzk_gpu_prove_pce with the same pointers and counts then uses the copy instead of
 * uploading. Two staging slots alternate; a slot waits for the proof that last read it.
 * Failing (no device memory for the slots) costs only the overlap. */
cuzk_status cuzk_gpu_prefetch_witness(cuzk_gpu_prover *pr, const cuzk_fr *input, size_t ni, const cuzk_fr *aux,
                                      size_t na) CUZK_WARN_UNUSED;
/* Forgets a prefetched copy of a witness at input / aux that will not be proved here (its host
 * buffers are about to hold another witness, which must not be taken for the copy). */
void cuzk_gpu_prefetch_drop(cuzk_gpu_prover *pr, const cuzk_fr *input, const cuzk_fr *aux);
/* How many proofs so far used a prefetched witness. */
size_t cuzk_gpu_prefetch_hits(cuzk_gpu_prover *pr);

/* ---------------------------------------------------------------- benchmark support */
/* Synthetic parameters generated on the device (valid, distinct curve points; no toxic waste
 * is known, so proofs do not verify): vk from seed, h_len = N - 1, l_len = num_aux,
 * a_len = num_inputs + a_popcount, b_len = b points in G1 and G2. */
typedef struct {
    size_t n_h, n_l, n_a, n_b;
    size_t num_inputs;
    uint64_t seed;
} cuzk_gpu_synthetic_shape;
cuzk_status cuzk_gpu_prover_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                             const cuzk_gpu_synthetic_shape *shape) CUZK_WARN_UNUSED;
/* The same in a given placement (NULL: by the device's free memory, as create_synthetic). */
cuzk_status cuzk_gpu_prover_create_synthetic_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                                    const cuzk_gpu_synthetic_shape *shape,
                                                    const cuzk_gpu_placement *pl) CUZK_WARN_UNUSED;

/* Fixed-base multiplication for parameter generation: out[i] = scalars[i] * base (affine, in
 * blst's layout; the point at infinity for a zero scalar), computed on d's device with a comb
 * table, out and scalars in host memory. The same points as cuzk_g1_fixed_base_mul and
 * cuzk_g2_fixed_base_mul. */
cuzk_status cuzk_gpu_fixed_base_g1(cuzk_gpu_device *d, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars,
                                   size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_gpu_fixed_base_g2(cuzk_gpu_device *d, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars,
                                   size_t n) CUZK_WARN_UNUSED;

/* n distinct affine points (a + i b) G, i < n (a, b from seed), generated on the device into
 * host memory `out` (blst_p1_affine, or blst_p2_affine when g2). */
cuzk_status cuzk_gpu_synthetic_points(cuzk_gpu_device *d, void *out, size_t n, bool g2, uint64_t seed) CUZK_WARN_UNUSED;
/* An MSM object over n such points generated directly in device memory (for benchmarks). */
cuzk_status cuzk_gpu_msm_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_msm **out, size_t n, bool g2,
                                          uint64_t seed) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
