/* The daemon's HTTP endpoint (libmicrohttpd): GET /metrics (Prometheus text exposition of the
 * engine's counters and histograms), GET /status (the engine's status as JSON) and GET
 * /trace?job=ID (a job's trace in the Chrome trace event format, by its request id); anything
 * else 404, other methods 405. Private to the server layer. */
#ifndef CUZK_SERVER_HTTP_H
#define CUZK_SERVER_HTTP_H

#include <stddef.h>

#include "cuzk/engine.h"

typedef struct server_http server_http;
/* Listens on listen ("HOST:PORT", or "PORT" for the loopback address; port 0: any free one) and
 * serves e until stopped. HOST is an IPv4 address, localhost or [an IPv6 address]; 0.0.0.0 or
 * [::] (every interface) sets *warning. A malformed address is CUZK_EINVAL and one that cannot
 * be bound CUZK_EIO, the message naming it. e outlives it. */
cuzk_status server_http_start(server_http **out, const char *listen, cuzk_engine *e, char *warning,
                              size_t warning_cap) CUZK_WARN_UNUSED;
unsigned server_http_port(const server_http *h); /* the port bound */
unsigned server_http_reaped(server_http *h);     /* connections closed past their request deadline */
void server_http_stop(server_http *h);

#endif
