/* Per-thread error messages behind cuzk_status returns. */
#include "cuzk/base.h"

#include <stdio.h>
#include <string.h>

#define CUZK_ERRMSG_MAX 1024
static _Thread_local char errmsg[CUZK_ERRMSG_MAX];

const char *cuzk_last_error(void) { return errmsg; }

void cuzk_clear_error(void) { errmsg[0] = 0; }

cuzk_status cuzk_fail(cuzk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    return st;
}

cuzk_status cuzk_fail_context(cuzk_status st, const char *fmt, ...)
{
    char prefix[CUZK_ERRMSG_MAX], old[CUZK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, errmsg, sizeof old);
    /* Truncation is fine here: the message is for people and stays bounded. A long context
     * (a path of thousands of bytes) is cut to half the room, so that the cause after it is
     * never the part lost. */
    size_t n = strlen(prefix);
    if (n > sizeof errmsg / 2) {
        n = sizeof errmsg / 2;
        memcpy(prefix + n - 3, "...", 3);
    }
    memcpy(errmsg, prefix, n);
    memcpy(errmsg + n, ": ", 2);
    size_t room = sizeof errmsg - n - 3, m = strlen(old);
    if (m > room) m = room;
    memcpy(errmsg + n + 2, old, m);
    errmsg[n + 2 + m] = 0;
    return st;
}

const char *cuzk_status_name(cuzk_status st)
{
    switch (st) {
    case CUZK_OK: return "ok";
    case CUZK_EINVAL: return "invalid input";
    case CUZK_EIO: return "i/o error";
    case CUZK_ENOMEM: return "out of memory";
    case CUZK_EFORMAT: return "bad format";
    case CUZK_EVERIFY: return "verification failed";
    case CUZK_EUNSUPPORTED: return "unsupported";
    case CUZK_EINTERNAL: return "internal error";
    case CUZK_ECANCELLED: return "cancelled";
    case CUZK_EBUSY: return "busy";
    case CUZK_ENOTFOUND: return "not found";
    case CUZK_ESHUTDOWN: return "shutting down";
    case CUZK_EDEVICE: return "device failure";
    case CUZK_EBUDGET: return "over budget";
    }
    return "unknown status";
}

cuzk_status cuzk_cancel_check(const cuzk_cancel *c, const char *where)
{
    return cuzk_cancel_requested(c) ? cuzk_fail(CUZK_ECANCELLED, "cancelled (during %s)", where) : CUZK_OK;
}
