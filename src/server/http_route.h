/* The daemon's HTTP requests routed from plain strings (the method, the path and the job
 * query argument as libmicrohttpd hands them over) to the answer and its status code, apart
 * from the socket so that any bytes can be tried on it (tests/fuzz/fuzz_http_route.c). Private
 * to the server layer. */
#ifndef CUZK_SERVER_HTTP_ROUTE_H
#define CUZK_SERVER_HTTP_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    HTTP_ANSWER_METRICS,    /* 200: the engine's metrics */
    HTTP_ANSWER_STATUS,     /* 200: the engine's status */
    HTTP_ANSWER_STATUS_JOB, /* /status?job=ID: that job's progress (the engine decides: 200, 404 or 503) */
    HTTP_ANSWER_TRACE,      /* the trace of job (the engine decides: 200, 404 or 503) */
    HTTP_ANSWER_REFUSED,    /* code with message */
} http_answer;

/* The codes a route gives: 200 for an answer, 400 (a /trace job missing, a /trace or /status
 * job empty or malformed), 404
 * (another path) and 405 (a method other than GET and HEAD). */
#define HTTP_ROUTE_OK 200u
#define HTTP_ROUTE_BAD_REQUEST 400u
#define HTTP_ROUTE_NOT_FOUND 404u
#define HTTP_ROUTE_NOT_ALLOWED 405u

typedef struct {
    http_answer answer;
    unsigned code;
    const char *allow; /* with 405: the methods allowed ("GET, HEAD"); else NULL */
    /* HTTP_ANSWER_REFUSED: the text answered (malloc'd, the caller frees; NULL when out of
     * memory): printable ASCII and one final newline, the client's bytes in it escaped and
     * cut short, so that a hostile path cannot put controls or a flood into the answer */
    char *message;
} http_route;

/* Routes a request: method and path as C strings (NULL: empty), the job argument (of /trace and
 * /status) as job_len bytes (a NUL inside is refused; job NULL: no argument). The job id is
 * checked as the engine names jobs (cuzk_check_client_id, at most CUZK_REQUEST_ID_MAX bytes)
 * before an engine is asked. */
void server_http_route(http_route *r, const char *method, const char *path, const char *job, size_t job_len);

#endif
