/* The gRPC status a failed engine or server call answers with, chosen by its cuzk_status alone
 * (never by its message, so rewording a message never changes the wire): whose fault it is and
 * whether a retry can help, as gRPC's status codes say. */
#include "server_internal.h"

int rpc_code_of(cuzk_status st)
{
    switch (st) {
    case CUZK_OK: return RPC_OK;
    case CUZK_EINVAL: return RPC_INVALID_ARGUMENT; /* the request is wrong: a retry fails again */
    case CUZK_ENOTFOUND: return RPC_NOT_FOUND;
    case CUZK_EBUSY: /* a full queue: later, it may pass */
    case CUZK_EBUDGET:
    case CUZK_ENOMEM: return RPC_RESOURCE_EXHAUSTED;
    case CUZK_ESHUTDOWN: return RPC_UNAVAILABLE; /* another daemon, or this one restarted */
    case CUZK_ECANCELLED: return RPC_CANCELLED;
    /* the daemon's files, devices or build: the request may be right, the daemon cannot serve it */
    case CUZK_EIO:
    case CUZK_EFORMAT:
    case CUZK_EVERIFY:
    case CUZK_EUNSUPPORTED:
    case CUZK_EDEVICE: return RPC_FAILED_PRECONDITION;
    case CUZK_EINTERNAL: return RPC_INTERNAL;
    }
    return RPC_INTERNAL;
}
