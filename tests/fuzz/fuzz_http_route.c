/* The daemon's HTTP front: the routing of a request's method, path and job argument (/trace, /status)
 * (server_http_route, http_route.h) as libmicrohttpd hands them over, any bytes. Input: the
 * method, a NUL, the path, a NUL, then the job argument (the rest, NULs and all: it travels
 * with its length); without the second NUL there is no job argument. The answer is one of
 * the documented codes and the one the rules give (405 for every method but GET and HEAD, with
 * Allow; 200 for /metrics and /status; /trace and /status?job= go to the engine only with a clean
 * job id; 404
 * for any other path), a refusal's text is printable ASCII ending in one newline and bounded
 * however long the path, and routing twice gives the same answer. */
#include <stdbool.h>
#include <string.h>

#include "cuzk/base.h"
#include "cuzk/engine.h"
#include "server/http_route.h"
#include "support.h"

#define MESSAGE_MAX 1200 /* a refusal quotes at most 200 bytes of the client's, escaped 4x */

static void check_message(const http_route *r)
{
    if (r->answer != HTTP_ANSWER_REFUSED) {
        FUZZ_CHECK(r->message == NULL, "an answer with a refusal's text");
        return;
    }
    FUZZ_CHECK(r->message != NULL, "a refusal without its text");
    size_t n = strlen(r->message);
    FUZZ_CHECK(n >= 2 && n <= MESSAGE_MAX && r->message[n - 1] == '\n', "refusal text of %zu bytes", n);
    for (size_t i = 0; i + 1 < n; i++)
        FUZZ_CHECK(r->message[i] >= 0x20 && r->message[i] < 0x7f, "byte 0x%02x at %zu of the refusal text",
                   (unsigned char)r->message[i], i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return -1;
    char *buf = malloc(size + 1); /* the method and path end at their NULs, the last one here */
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    const char *method = buf, *path = NULL, *job = NULL;
    size_t job_len = 0, m = strlen(buf);
    if (m < size) {
        path = buf + m + 1;
        size_t p = strlen(path);
        if (m + 1 + p < size) {
            job = path + p + 1;
            job_len = size - (m + 1 + p + 1);
        }
    }

    http_route r, again;
    server_http_route(&r, method, path, job, job_len);
    server_http_route(&again, method, path, job, job_len);
    FUZZ_CHECK(r.answer == again.answer && r.code == again.code && r.allow == again.allow &&
                   (r.message == NULL) == (again.message == NULL) && (!r.message || !strcmp(r.message, again.message)),
               "routing twice gave two answers");
    FUZZ_CHECK(r.code == HTTP_ROUTE_OK || r.code == HTTP_ROUTE_BAD_REQUEST || r.code == HTTP_ROUTE_NOT_FOUND ||
                   r.code == HTTP_ROUTE_NOT_ALLOWED,
               "code %u is none of the documented ones", r.code);
    FUZZ_CHECK((r.code == HTTP_ROUTE_OK) == (r.answer != HTTP_ANSWER_REFUSED), "code %u with answer %d", r.code,
               (int)r.answer);
    check_message(&r);

    const char *p = path ? path : "";
    bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    FUZZ_CHECK((r.code == HTTP_ROUTE_NOT_ALLOWED) == !get, "method %s gave %u", method, r.code);
    FUZZ_CHECK((r.allow != NULL) == !get && (!r.allow || !strcmp(r.allow, "GET, HEAD")), "Allow header");
    if (get) {
        bool metrics = !strcmp(p, "/metrics"), status = !strcmp(p, "/status"), trace = !strcmp(p, "/trace");
        FUZZ_CHECK((r.answer == HTTP_ANSWER_METRICS) == metrics, "/metrics routed wrong");
        FUZZ_CHECK((r.answer == HTTP_ANSWER_STATUS) == (status && !job), "/status routed wrong");
        FUZZ_CHECK((r.code == HTTP_ROUTE_NOT_FOUND) == !(metrics || status || trace), "path routed to %u", r.code);
        /* the engine is asked only for an id it could have been given */
        bool clean = job && job_len && !cuzk_check_client_id("job", job, job_len, CUZK_REQUEST_ID_MAX);
        FUZZ_CHECK((r.answer == HTTP_ANSWER_TRACE) == (trace && clean), "/trace with a %s job routed to %d",
                   clean ? "clean" : "missing or malformed", (int)r.answer);
        FUZZ_CHECK((r.answer == HTTP_ANSWER_STATUS_JOB) == (status && clean), "/status with a %s job routed to %d",
                   clean ? "clean" : "missing or malformed", (int)r.answer);
        FUZZ_CHECK(!trace || clean || r.code == HTTP_ROUTE_BAD_REQUEST, "/trace refused with %u", r.code);
        FUZZ_CHECK(!status || !job || clean || r.code == HTTP_ROUTE_BAD_REQUEST, "/status?job= refused with %u",
                   r.code);
    }
    free(r.message);
    free(again.message);
    free(buf);
    return 0;
}
