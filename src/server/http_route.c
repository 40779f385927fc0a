/* Routing of the daemon's HTTP requests (http_route.h). */
#include "http_route.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/base.h"
#include "cuzk/engine.h"

#define HTTP_ECHO_MAX 200 /* bytes of the client's path or method quoted in an answer */
#define ALLOWED "GET /metrics, /status, /status?job=ID or /trace?job=ID"

/* s (NULL: empty) quoted into out (cap >= 4 * HTTP_ECHO_MAX + 4): printable ASCII as it is,
 * other bytes as \xNN, cut at HTTP_ECHO_MAX bytes with "...". */
static void echo(char *out, size_t cap, const char *s)
{
    size_t o = 0;
    s = s ? s : "";
    for (size_t i = 0; s[i] && o + 5 < cap; i++) {
        if (i == HTTP_ECHO_MAX) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') out[o++] = (char)c;
        else o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    out[o] = 0;
}

/* A refusal: code and its printf message (malloc'd; NULL when out of memory). */
static void refuse(http_route *r, unsigned code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(http_route *r, unsigned code, const char *fmt, ...)
{
    r->answer = HTTP_ANSWER_REFUSED;
    r->code = code;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    r->message = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!r->message) return;
    va_start(ap, fmt);
    vsnprintf(r->message, (size_t)n + 1, fmt, ap);
    va_end(ap);
}

void server_http_route(http_route *r, const char *method, const char *path, const char *job, size_t job_len)
{
    memset(r, 0, sizeof *r);
    char quoted[4 * HTTP_ECHO_MAX + 8];
    method = method ? method : "";
    path = path ? path : "";
    if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
        r->allow = "GET, HEAD";
        echo(quoted, sizeof quoted, method);
        refuse(r, HTTP_ROUTE_NOT_ALLOWED, "method %s not allowed: " ALLOWED "\n", quoted);
        return;
    }
    r->code = HTTP_ROUTE_OK;
    if (!strcmp(path, "/metrics")) {
        r->answer = HTTP_ANSWER_METRICS;
        return;
    }
    bool status = !strcmp(path, "/status");
    if (status && !job) {
        r->answer = HTTP_ANSWER_STATUS;
        return;
    }
    if (!status && strcmp(path, "/trace")) {
        echo(quoted, sizeof quoted, path);
        refuse(r, HTTP_ROUTE_NOT_FOUND, "not found: %s (" ALLOWED ")\n", quoted);
        return;
    }
    if (!job) {
        refuse(r, HTTP_ROUTE_BAD_REQUEST,
               "/trace: the job is missing: GET /trace?job=ID (the request id it was submitted with)\n");
        return;
    }
    cuzk_status st = job_len ? cuzk_check_client_id("job", job, job_len, CUZK_REQUEST_ID_MAX)
                             : cuzk_fail(CUZK_EINVAL, "job: empty (the request id the job was submitted with)");
    if (st) {
        /* the message quotes no byte of the id: it names the offset */
        echo(quoted, sizeof quoted, cuzk_last_error());
        refuse(r, HTTP_ROUTE_BAD_REQUEST, "%s: %s\n", path, quoted);
        return;
    }
    r->answer = status ? HTTP_ANSWER_STATUS_JOB : HTTP_ANSWER_TRACE;
}
