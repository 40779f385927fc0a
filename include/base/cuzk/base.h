/* cuzk base layer: status codes and error messages, thread pools, timelines,
 * mapped input files and atomic output files, hex, randomness.
 *
 * Every fallible function returns a cuzk_status; on failure it also leaves a message in
 * cuzk_last_error() (per thread) that names what was wrong and where. Nothing here aborts
 * on bad input. */
#ifndef CUZK_BASE_H
#define CUZK_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/progress.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- allocation */
/* Large zeroed buffers (mmap with transparent huge pages where possible). NULL on failure,
 * with the error message set. Free with cuzk_big_free(ptr, bytes). */
void *cuzk_big_alloc(size_t bytes);
void cuzk_big_free(void *ptr, size_t bytes);
/* malloc/calloc that set the error message on failure. */
void *cuzk_malloc(size_t bytes);
void *cuzk_calloc(size_t n, size_t size);

/* ---------------------------------------------------------------- integers */
/* The smallest k with 2^k >= n (0 for n <= 1): the log size of an evaluation domain. */
static inline unsigned cuzk_log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (k < 64 && ((uint64_t)1 << k) < n) k++;
    return k;
}

/* Exact decimal parsing: digits only (no sign, space or other character), at most 2^64 - 1;
 * overflow is an error, never a clamp. CUZK_EINVAL with a message the caller prefixes with
 * the option or field. */
cuzk_status cuzk_u64_parse(const char *s, uint64_t *out) CUZK_WARN_UNUSED;
/* Exactly n such integers separated by sep ("8-8-2" with '-'), into out[0 .. n). */
cuzk_status cuzk_u64_list_parse(const char *s, char sep, uint64_t *out, size_t n) CUZK_WARN_UNUSED;

/* An identifier a client chose (a request or job id) as len bytes: at most max, valid UTF-8
 * (RFC 3629), no NUL and no control character (ids go into log lines and messages as they
 * are). CUZK_EINVAL naming field and the offending byte's offset otherwise. */
cuzk_status cuzk_check_client_id(const char *field, const char *s, size_t len, size_t max) CUZK_WARN_UNUSED;
/* The length of the UTF-8 character (RFC 3629) at s[0 .. n): 1 to 4, or 0 when the bytes there
 * are not one (or n is 0). Thread: any. */
size_t cuzk_utf8_char(const char *s, size_t n);
/* s as valid UTF-8 into out (cap bytes, cap >= 1, NUL-terminated, cut at a whole character
 * where it does not fit): each byte that begins no UTF-8 character becomes U+FFFD, so client
 * text or an error quoting a file can go into JSON. Returns out. Thread: any. */
char *cuzk_utf8_repair(const char *s, char *out, size_t cap);

/* ---------------------------------------------------------------- thread pools */
/* A pool of worker threads. Library code runs its parallel loops on the calling thread's
 * current pool (cuzk_pool_bind), so whoever calls into the library decides how many threads
 * the work gets; with no pool bound, loops run on the calling thread alone. A pool runs one
 * loop at a time (other callers of the same pool wait); two pools bound on two threads run
 * side by side. Workers of a pool have it bound, so nested loops run inline there. */
typedef struct cuzk_pool cuzk_pool;
/* nthreads counts the caller (0 = one per online CPU); nthreads - 1 workers are started. */
cuzk_status cuzk_pool_create(cuzk_pool **out, unsigned nthreads) CUZK_WARN_UNUSED;
/* Waits for a loop in progress, then stops the workers. Unbinds it from this thread. */
void cuzk_pool_destroy(cuzk_pool *p);
unsigned cuzk_pool_size(const cuzk_pool *p); /* 1 for NULL */
/* Makes p this thread's current pool (NULL: none) and returns the previous one. */
cuzk_pool *cuzk_pool_bind(cuzk_pool *p);
cuzk_pool *cuzk_pool_current(void);
/* Threads of this thread's current pool (1 when none is bound). */
unsigned cuzk_threads(void);

/* Body of a parallel loop: processes [begin, end). tid < cuzk_threads() identifies the worker
 * (for per-thread scratch). */
typedef void (*cuzk_range_fn)(void *ctx, size_t begin, size_t end, unsigned tid);

/* Runs fn over [0, n) in chunks of at least `grain` items on the current pool; the caller
 * takes part. Returns when all chunks are done. Called from inside a loop of the same pool,
 * it runs inline. */
void cuzk_parallel_for(size_t n, size_t grain, cuzk_range_fn fn, void *ctx);
/* Runs fn(ctx, i, i+1, tid) for i in [0, ntasks): one task per item, dynamic scheduling. */
void cuzk_parallel_tasks(size_t ntasks, cuzk_range_fn fn, void *ctx);

/* ---------------------------------------------------------------- time and timelines */
double cuzk_now(void); /* monotonic seconds */

/* A timeline is a tree of named spans. Begin/end pairs nest per timeline; spans may be
 * begun and ended from any thread (the timeline locks). */
typedef struct cuzk_timeline cuzk_timeline;
cuzk_timeline *cuzk_timeline_create(const char *name);
void cuzk_timeline_destroy(cuzk_timeline *tl);
/* Returns a span id, or -1 when tl is NULL (every function accepts a NULL timeline). */
int cuzk_span_begin(cuzk_timeline *tl, const char *name);
void cuzk_span_end(cuzk_timeline *tl, int span);
/* A child span of `parent` (rather than of the innermost open span), for concurrent work. */
int cuzk_span_begin_under(cuzk_timeline *tl, int parent, const char *name);
/* Adds an already measured span (e.g. a GPU event timing) under `parent`. */
void cuzk_span_add(cuzk_timeline *tl, int parent, const char *name, double seconds);
/* Seconds of the first span called `name`, or -1. */
double cuzk_span_seconds(const cuzk_timeline *tl, const char *name);
/* The spans of a timeline no thread adds to any more, for reading back (a parent before its children). Span i's name (valid
 * while tl lives), its parent (-1 at top) and its length (an open span: until now). */
int cuzk_timeline_spans(const cuzk_timeline *tl);
const char *cuzk_timeline_span(const cuzk_timeline *tl, int i, int *parent, double *seconds);
/* Prints the tree with durations; each parent lists the time its children do not account for. */
void cuzk_timeline_print(const cuzk_timeline *tl, FILE *out);
/* Writes the spans as a JSON array of {"name","parent","start","seconds"} into out. */
void cuzk_timeline_print_json(const cuzk_timeline *tl, FILE *out);
/* The same JSON as a malloc'd string (NULL when out of memory); a span with children also has
 * "other", the time they do not account for. */
char *cuzk_timeline_json(const cuzk_timeline *tl);
/* Adds a span with given start and end times (cuzk_now() clock) under parent; returns its id. */
int cuzk_span_add_at(cuzk_timeline *tl, int parent, const char *name, double start, double end);
/* Copies every span of src into dst, src's top-level spans under parent (times kept): work
 * timed on a thread's own timeline joins a job's. */
void cuzk_timeline_graft(cuzk_timeline *dst, int parent, const cuzk_timeline *src);
/* The cuzk_now() time the timeline was created at (JSON starts are relative to it). */
double cuzk_timeline_origin(const cuzk_timeline *tl);
/* Where spans ran, for traces (one track per device and lane): a span's track is its own
 * (cuzk_span_set_track), else its parent's, else, at the top, the timeline's (cuzk_timeline_set_track);
 * "" where none is set. Grafting keeps them. Tracks are cut to CUZK_TRACK_MAX - 1 bytes. */
#define CUZK_TRACK_MAX 48
void cuzk_span_set_track(cuzk_timeline *tl, int span, const char *track);
void cuzk_timeline_set_track(cuzk_timeline *tl, const char *track);
/* A span as cuzk_timeline_copy reads it: times on the cuzk_now() clock (an open span ends
 * at the copy), parent -1 at the top or an earlier span's index, track resolved as above. */
typedef struct {
    char name[64];
    char track[CUZK_TRACK_MAX];
    int parent;
    double start, end;
} cuzk_span_copy;
/* Copies every span under the timeline's lock (so a timeline still growing may be read) into
 * *out (malloc'd; NULL when there are none). Returns how many, or -1 when out of memory. */
int cuzk_timeline_copy(const cuzk_timeline *tl, cuzk_span_copy **out);
/* The name the timeline was created with (valid while tl lives; "" for NULL). */
const char *cuzk_timeline_name(const cuzk_timeline *tl);

/* Writes v as a JSON string (quoted, escaped; a byte that begins no UTF-8 character as \ufffd,
 * so the output is valid JSON whatever v holds). */
void cuzk_json_string(FILE *out, const char *v);

/* ---------------------------------------------------------------- files */
/* Inputs are regular files only: they are opened without blocking (a FIFO is refused, not
 * waited on) and checked with fstat before anything is read, so a device (/dev/zero), FIFO or
 * folder gets a message naming it. */
typedef struct {
    const uint8_t *data; /* read-only mapping of the whole file (NULL for an empty file) */
    size_t size;
    char *path;
} cuzk_mapped_file;
cuzk_status cuzk_map_file(cuzk_mapped_file *f, const char *path) CUZK_WARN_UNUSED;
void cuzk_unmap_file(cuzk_mapped_file *f);
/* Scratch memory backed by an unlinked file made in folder dir (never on tmpfs or ramfs),
 * mapped read-write and shared, its blocks reserved at once: pages the kernel may write out and
 * drop under memory pressure instead of holding them in host memory. Nothing is left on disk
 * once it is unmapped or the process ends. A full disk fails here (CUZK_EBUDGET), naming the
 * folder and the size. */
typedef struct {
    void *data;
    size_t size;
} cuzk_scratch_mapping;
cuzk_status cuzk_scratch_map(cuzk_scratch_mapping *m, const char *dir, uint64_t bytes) CUZK_WARN_UNUSED;
void cuzk_scratch_unmap(cuzk_scratch_mapping *m);
/* Reads a whole regular file of at most max_bytes into a NUL-terminated malloc'd buffer (a
 * larger one is refused before it is read). */
cuzk_status cuzk_read_file_max(const char *path, uint64_t max_bytes, uint8_t **data, size_t *size) CUZK_WARN_UNUSED;
/* cuzk_read_file_max without a limit but the file's own size. */
cuzk_status cuzk_read_file(const char *path, uint8_t **data, size_t *size) CUZK_WARN_UNUSED;
/* Checks without reading (and without blocking) that path is a regular file of at most
 * max_bytes, for readers that open the file themselves. */
cuzk_status cuzk_check_input_file(const char *path, uint64_t max_bytes) CUZK_WARN_UNUSED;
/* "dir/name" into out (cap bytes); a path that does not fit is CUZK_EINVAL naming it and the
 * bound, never a truncated path (which could name another file). */
cuzk_status cuzk_path_join(char *out, size_t cap, const char *dir, const char *name) CUZK_WARN_UNUSED;
/* Opens a regular file for reading the same way (*fd blocking, close-on-exec; *size from fstat),
 * for readers that read it in pieces (pread). */
cuzk_status cuzk_open_input_file(const char *path, int *fd, uint64_t *size) CUZK_WARN_UNUSED;

/* An output file. A regular file (or a missing one) is replaced through a temporary in its
 * folder (PATH.tmp.PID), renamed into place only on commit, so a failed run never leaves a
 * partial file behind; a symbolic link is followed (its target replaced, the link kept; a
 * dangling one is refused). A character device or FIFO (/dev/null, /dev/stdout, a pipe) is
 * written in place, and a failed write there (ENOSPC on /dev/full) fails the commit. A folder
 * or other node is refused. */
typedef struct {
    FILE *fp;
    char *path;     /* as given, for messages */
    char *tmp_path; /* NULL when written in place */
    char *dest;     /* what the temporary is renamed to */
} cuzk_out_file;
cuzk_status cuzk_out_open(cuzk_out_file *f, const char *path) CUZK_WARN_UNUSED;
cuzk_status cuzk_out_write(cuzk_out_file *f, const void *data, size_t n) CUZK_WARN_UNUSED;
cuzk_status cuzk_out_commit(cuzk_out_file *f) CUZK_WARN_UNUSED; /* flush, fsync, rename */
void cuzk_out_abort(cuzk_out_file *f);                          /* remove the temporary */
/* Whole-buffer convenience: open, write, commit. */
cuzk_status cuzk_write_file_atomic(const char *path, const void *data, size_t n) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- hex */
void cuzk_hex_encode(char *out, const uint8_t *in, size_t n); /* out: 2n+1 chars */
/* Decodes exactly 2*n hex digits (an optional 0x prefix allowed) into out[n]. */
cuzk_status cuzk_hex_decode(uint8_t *out, size_t n, const char *hex) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- randomness */
/* Bytes from the operating system's CSPRNG. */
cuzk_status cuzk_os_random(void *out, size_t n) CUZK_WARN_UNUSED;
/* A small deterministic generator (xoshiro256**) for tests, benchmarks and seeded witnesses;
 * not for secrets. */
typedef struct {
    uint64_t s[4];
} cuzk_rng;
void cuzk_rng_seed(cuzk_rng *rng, uint64_t seed);
uint64_t cuzk_rng_next(cuzk_rng *rng);
void cuzk_rng_bytes(cuzk_rng *rng, void *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
