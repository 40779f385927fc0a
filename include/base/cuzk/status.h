/* cuzk status codes, error messages and cancel tokens: what every fallible call of the library
 * returns, and how long work is given up.
 *
 * Every fallible function returns a cuzk_status; on failure it also leaves a message in
 * cuzk_last_error() (per thread) that names what was wrong and where. Nothing in the library
 * aborts on bad input.
 *
 * The contracts of this header and of the other installed ones (version.h, config.h,
 * progress.h, engine.h, server.h, verify.h) are written in one form, docs/API.md:
 *   Returns: the value returned.   In: what is read, and whether NULL is allowed.
 *   Out: what is written, and who frees it.   Thread: who may call it, and when.
 *   Errors: each status but CUZK_OK, and when. */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_WARN_UNUSED __attribute__((warn_unused_result))

typedef enum {
    CUZK_OK = 0,
    CUZK_EINVAL,       /* bad argument or malformed input */
    CUZK_EIO,          /* a file could not be read or written */
    CUZK_ENOMEM,       /* allocation failed */
    CUZK_EFORMAT,      /* a file or encoding is not in the expected format */
    CUZK_EVERIFY,      /* a proof or check did not verify */
    CUZK_EUNSUPPORTED, /* valid request this build or machine cannot serve */
    CUZK_EINTERNAL,    /* a bug: an invariant did not hold (never a device's or an input's fault) */
    CUZK_ECANCELLED,   /* the work was given up because its cancel token was set (cuzk_cancel) */
    CUZK_EBUSY,        /* a bound on waiting work was reached (a full queue): try again later */
    CUZK_ENOTFOUND,    /* what was named (a job, a circuit) is not there */
    CUZK_ESHUTDOWN,    /* the engine or server is shutting down and takes no new work */
    CUZK_EDEVICE,      /* a device (GPU) failed: the device, not the work, is at fault */
    CUZK_EBUDGET       /* the work does not fit the memory budget it was given */
} cuzk_status;

/* The message of the last failure on this thread.
 * Returns: the message ("" when none); valid until this thread's next library call.
 * Thread: any; each thread has its own message. */
const char *cuzk_last_error(void);

/* Records a failure's message (printf-style) for cuzk_last_error, as the library does: for a
 * callback the library calls (a registered circuit's open) to say why it failed.
 * Returns: st, so that `return cuzk_fail(CUZK_EINVAL, "...")` fails with the message.
 * In: fmt, not NULL; a message longer than 1023 bytes is cut. Thread: any (this thread's). */
cuzk_status cuzk_fail(cuzk_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepends context to this thread's message: "reading foo.params: " + the message before.
 * Returns: st. In: fmt, not NULL. Thread: any (this thread's). */
cuzk_status cuzk_fail_context(cuzk_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The code's name.
 * Returns: "ok", "invalid input", ... (a static string; "unknown status" for a value outside
 * the enum). Thread: any. */
const char *cuzk_status_name(cuzk_status st);

/* Empties this thread's message. Thread: any (this thread's). */
void cuzk_clear_error(void);

/* A cancel token: one flag that whoever owns a piece of long work sets, from any thread, and
 * the work polls at its safe points (between NTTs, between MSM tiles, between the GPU prover's
 * stages) to give up there with CUZK_ECANCELLED, its memory freed as on any failure. Polling is
 * one relaxed atomic load, so the points can be many; the work's result is only ever the whole
 * result or CUZK_ECANCELLED. The owner zeroes it ({0}) before the work starts and keeps it alive
 * until the work has returned; once set it stays set. Work given NULL is never cancelled. A plain
 * int under the compiler's atomic builtins, so that C and CUDA C++ share the header. */
typedef struct cuzk_cancel {
    int flag;
} cuzk_cancel;

/* Sets the token. In: c, not NULL. Thread: any, at any time. */
static inline void cuzk_cancel_set(cuzk_cancel *c) { __atomic_store_n(&c->flag, 1, __ATOMIC_RELAXED); }

/* Returns: whether c is set (false for NULL). Thread: any, at any time. */
static inline bool cuzk_cancel_requested(const cuzk_cancel *c)
{
    return c && __atomic_load_n(&c->flag, __ATOMIC_RELAXED);
}

/* Returns: CUZK_OK while c is not set (or NULL). In: where, not NULL, names the work.
 * Errors: CUZK_ECANCELLED with the message "cancelled (during WHERE)" once c is set.
 * Thread: any. */
cuzk_status cuzk_cancel_check(const cuzk_cancel *c, const char *where) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
