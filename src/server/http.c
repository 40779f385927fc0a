/* The daemon's HTTP endpoint on libmicrohttpd: GET (and HEAD) /metrics, /status,
 * /status?job=ID (a job's progress) and /trace?job=ID (a job's trace, job_trace.h). The socket
 * is bound here rather than by libmicrohttpd so that a refused address is reported with the
 * system's reason; libmicrohttpd serves it from its own thread. Slow or silent clients cannot
 * hold it: a cap on connections in all and per client address, an idle timeout, and a deadline
 * for each request (headers and body in, answer out) that libmicrohttpd has no option for, so
 * a reaper thread enforces it: it shuts down the socket of a connection past its deadline and
 * libmicrohttpd then closes the connection as any failed one. "PORT" alone is the loopback
 * address; every interface must be asked for (0.0.0.0 or [::]) and draws a warning. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "http_route.h"
#include "job_trace.h"

#define HTTP_CONNECTIONS 64 /* at once; beyond, new ones are refused until one ends */
#define HTTP_PER_CLIENT 8   /* at once from one client address */
#define HTTP_IDLE_S 10      /* a connection that sends nothing this long is closed */
#define HTTP_REQUEST_S 5    /* from the connection (or the last answer) to the answer sent */
#define HTTP_REAP_EVERY_MS 250

/* A connection's deadline, in the list the reaper walks (under the endpoint's mutex). */
typedef struct http_conn {
    int fd;
    double deadline; /* CLOCK_MONOTONIC seconds */
    struct http_conn *next, **prev_next;
} http_conn;

struct server_http {
    struct MHD_Daemon *d;
    cuzk_engine *e;
    unsigned port;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    http_conn *conns;
    unsigned reaped; /* connections shut down past their deadline */
    bool stop, reaper_started;
    pthread_t reaper;
};

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- the address */
/* "HOST:PORT", "[IPv6]:PORT" or "PORT" into a socket address ("PORT" and an empty host: the
 * loopback address; [::]: IPv6 and IPv4 both where IPv6 is available, so *any is set for a
 * fallback to IPv4 alone). */
static cuzk_status parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len, bool *any)
{
    *any = false;
    memset(ss, 0, sizeof *ss);
    if (!addr || !addr[0]) return cuzk_fail(CUZK_EINVAL, "HTTP listen address: empty (HOST:PORT or PORT)");
    char host[64] = "";
    const char *port_s = addr;
    bool v6 = false;
    if (addr[0] == '[') {
        const char *close = strchr(addr, ']');
        if (!close || close[1] != ':' || (size_t)(close - addr - 1) >= sizeof host)
            return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: an IPv6 address is written [ADDRESS]:PORT", addr);
        memcpy(host, addr + 1, (size_t)(close - addr - 1));
        port_s = close + 2;
        v6 = true;
    } else if (strchr(addr, ':')) {
        const char *colon = strchr(addr, ':');
        if (strchr(colon + 1, ':'))
            return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: an IPv6 address is written [ADDRESS]:PORT", addr);
        if ((size_t)(colon - addr) >= sizeof host)
            return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: the host is too long", addr);
        memcpy(host, addr, (size_t)(colon - addr));
        port_s = colon + 1;
    }
    size_t digits = strspn(port_s, "0123456789");
    unsigned long port = digits && digits <= 5 && !port_s[digits] ? strtoul(port_s, NULL, 10) : 65536;
    if (port > 65535)
        return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: the port is not a number 0..65535 (HOST:PORT or PORT)",
                         addr);
    if (!strcmp(host, "localhost") || (!host[0] && !v6)) snprintf(host, sizeof host, "127.0.0.1");
    if (v6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
            return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: '%s' is no IPv6 address", addr, host);
        *len = sizeof *a;
        *any = IN6_IS_ADDR_UNSPECIFIED(&a->sin6_addr);
        return CUZK_OK;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
        return cuzk_fail(CUZK_EINVAL, "HTTP listen address %s: '%s' is no IPv4 address, [IPv6 address] or localhost",
                         addr, host);
    *len = sizeof *a;
    *any = a->sin_addr.s_addr == htonl(INADDR_ANY);
    return CUZK_OK;
}

/* Every address on IPv4 alone (no IPv6 on this machine). */
static void ipv4_any(struct sockaddr_storage *ss, socklen_t *len)
{
    uint16_t port = ((struct sockaddr_in6 *)ss)->sin6_port;
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = port;
    a->sin_addr.s_addr = htonl(INADDR_ANY);
    *len = sizeof *a;
}

/* A socket bound to ss and listening, or -1 with errno (and *step: the call that failed). */
static int bind_one(const struct sockaddr_storage *ss, socklen_t len, bool dual_stack, const char **step)
{
    *step = "socket";
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1, zero = 0;
    /* a restart binds again while the last run's connections linger (a live listener still refuses) */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (dual_stack) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    *step = "bind";
    if (!bind(fd, (const struct sockaddr *)ss, len)) {
        *step = "listen";
        if (!listen(fd, HTTP_CONNECTIONS)) return fd;
    }
    int err = errno;
    close(fd);
    errno = err;
    return -1;
}

/* A listening socket on addr; *port: the one bound; *any: on every interface. */
static cuzk_status open_listener(const char *addr, int *out, unsigned *port, bool *any)
{
    *out = -1;
    struct sockaddr_storage ss;
    socklen_t len = 0;
    cuzk_status st = parse_addr(addr, &ss, &len, any);
    if (st) return st;
    const char *step;
    bool dual = *any && ss.ss_family == AF_INET6;
    int fd = bind_one(&ss, len, dual, &step);
    if (fd < 0 && dual && (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT || errno == EADDRNOTAVAIL)) {
        ipv4_any(&ss, &len);
        fd = bind_one(&ss, len, false, &step);
    }
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    if (fd >= 0 && getsockname(fd, (struct sockaddr *)&bound, &blen)) {
        step = "getsockname";
        int err = errno;
        close(fd);
        errno = err;
        fd = -1;
    }
    if (fd < 0) return cuzk_fail(CUZK_EIO, "HTTP listen address %s: %s: %s", addr, step, strerror(errno));
    *port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                              : ((struct sockaddr_in *)&bound)->sin_port);
    *out = fd;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- requests */
/* Queues body (malloc'd, taken; NULL: out of memory, a 500) with its content type. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, const char *allow)
{
    if (!body) {
        code = MHD_HTTP_INTERNAL_SERVER_ERROR;
        type = "text/plain; charset=utf-8";
        body = strdup("out of memory\n");
        if (!body) return MHD_NO;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (allow) MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

/* A printf text (malloc'd; NULL when out of memory). */
static char *text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* GET /trace?job=ID of a job id the route accepted: 200 with the trace; 404 for one no job has
 * (or whose result was dropped), 503 while the engine shuts down. */
static enum MHD_Result answer_trace(server_http *h, struct MHD_Connection *c, const char *id, size_t len)
{
    char *json = NULL;
    cuzk_status st = server_job_trace(h->e, id, len, &json);
    if (!st) return reply(c, MHD_HTTP_OK, "application/json", json, NULL);
    unsigned code = st == CUZK_EINVAL ? MHD_HTTP_BAD_REQUEST
        : st == CUZK_ENOTFOUND        ? MHD_HTTP_NOT_FOUND
        : st == CUZK_ESHUTDOWN        ? MHD_HTTP_SERVICE_UNAVAILABLE
                                      : MHD_HTTP_INTERNAL_SERVER_ERROR;
    return reply(c, code, "text/plain; charset=utf-8", text("/trace: %s\n", cuzk_last_error()), NULL);
}

/* GET /status?job=ID of a job id the route accepted (no NUL inside): 200 with the job's progress
 * (cuzk_engine_job_json); 404 for one no job has (or whose result was dropped), 503 while the
 * engine shuts down. */
static enum MHD_Result answer_status_job(server_http *h, struct MHD_Connection *c, const char *id)
{
    char *json = NULL;
    cuzk_status st = cuzk_engine_job_json(h->e, id, &json);
    if (!st) return reply(c, MHD_HTTP_OK, "application/json", json, NULL);
    unsigned code = st == CUZK_ENOTFOUND ? MHD_HTTP_NOT_FOUND
        : st == CUZK_ESHUTDOWN           ? MHD_HTTP_SERVICE_UNAVAILABLE
        : st == CUZK_EINVAL              ? MHD_HTTP_BAD_REQUEST
                                         : MHD_HTTP_INTERNAL_SERVER_ERROR;
    return reply(c, code, "text/plain; charset=utf-8", text("/status: %s\n", cuzk_last_error()), NULL);
}

/* GET and HEAD are answered once the request is in (a body sent with them is dropped), so that
 * the connection may be kept for the next scrape; other methods at once, from their headers
 * (their body is not read: the connection is closed after the answer). Which answer is the
 * route's (http_route.h). */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    server_http *h = cls;
    (void)version;
    (void)upload_data;
    bool get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);
    if (get && !*con_cls) {
        *con_cls = h; /* not NULL: the headers are in, the next call has the body or its end */
        return MHD_YES;
    }
    if (get && *upload_data_size) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    /* the job argument with its length: a %00 in it is refused, not cut there */
    const char *job = NULL;
    size_t job_len = 0;
    if (MHD_lookup_connection_value_n(c, MHD_GET_ARGUMENT_KIND, "job", 3, &job, &job_len) != MHD_YES) job = NULL;
    http_route r;
    server_http_route(&r, method, url, job, job_len);
    switch (r.answer) {
    case HTTP_ANSWER_METRICS:
        return reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", cuzk_engine_metrics(h->e), NULL);
    case HTTP_ANSWER_STATUS: return reply(c, MHD_HTTP_OK, "application/json", cuzk_engine_status_json(h->e), NULL);
    case HTTP_ANSWER_STATUS_JOB: return answer_status_job(h, c, job);
    case HTTP_ANSWER_TRACE: return answer_trace(h, c, job, job_len);
    case HTTP_ANSWER_REFUSED: break;
    }
    return reply(c, r.code, "text/plain; charset=utf-8", r.message, r.allow);
}

/* ---------------------------------------------------------------- deadlines */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    server_http *h = cls;
    pthread_mutex_lock(&h->mu);
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        http_conn *k = fd ? calloc(1, sizeof *k) : NULL;
        if (k) { /* without a record the connection has only the idle timeout */
            k->fd = fd->connect_fd;
            k->deadline = mono_now() + HTTP_REQUEST_S;
            k->next = h->conns;
            k->prev_next = &h->conns;
            if (h->conns) h->conns->prev_next = &k->next;
            h->conns = k;
        }
        *socket_context = k;
    } else if (*socket_context) {
        /* called before libmicrohttpd closes the socket: the reaper, under the same lock,
         * never shuts down a descriptor that is closed and perhaps reused */
        http_conn *k = *socket_context;
        *k->prev_next = k->next;
        if (k->next) k->next->prev_next = k->prev_next;
        free(k);
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&h->mu);
}

/* An answer sent: the connection (kept alive) has HTTP_REQUEST_S for its next request. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    server_http *h = cls;
    (void)con_cls;
    (void)toe;
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    pthread_mutex_lock(&h->mu);
    if (i && i->socket_context) ((http_conn *)i->socket_context)->deadline = mono_now() + HTTP_REQUEST_S;
    pthread_mutex_unlock(&h->mu);
}

static void *reaper_main(void *arg)
{
    server_http *h = arg;
    pthread_mutex_lock(&h->mu);
    while (!h->stop) {
        double now = mono_now();
        for (http_conn *k = h->conns; k; k = k->next)
            if (k->fd >= 0 && now > k->deadline) {
                shutdown(k->fd, SHUT_RDWR); /* libmicrohttpd sees the end and closes it */
                k->fd = -1;
                h->reaped++;
            }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += HTTP_REAP_EVERY_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&h->cv, &h->mu, &until);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

/* ---------------------------------------------------------------- start / stop */
static void http_free(server_http *h)
{
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    free(h);
}

cuzk_status server_http_start(server_http **out, const char *listen, cuzk_engine *e, char *warning, size_t warning_cap)
{
    *out = NULL;
    server_http *h = calloc(1, sizeof *h);
    if (!h) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    h->e = e;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    int fd = -1;
    bool any = false;
    cuzk_status st = open_listener(listen, &fd, &h->port, &any);
    if (st) {
        http_free(h);
        return st;
    }
    if (any)
        snprintf(
            warning, warning_cap,
            "HTTP /metrics, /status and /trace on every interface (%s): anyone who can reach this machine can read "
            "them; 127.0.0.1:PORT (or PORT alone) keeps them local",
            listen);
    /* the daemon takes the socket (and closes it when stopped) */
    h->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, answer, h, MHD_OPTION_LISTEN_SOCKET, fd,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                            (unsigned)HTTP_PER_CLIENT, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_S,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, h, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
                            h, MHD_OPTION_END);
    if (!h->d) {
        close(fd);
        http_free(h);
        return cuzk_fail(CUZK_EIO, "HTTP listen address %s: the HTTP server (libmicrohttpd) did not start", listen);
    }
    h->reaper_started = !pthread_create(&h->reaper, NULL, reaper_main, h);
    if (!h->reaper_started) {
        server_http_stop(h);
        return cuzk_fail(CUZK_EIO, "HTTP listen address %s: cannot start the thread that enforces deadlines", listen);
    }
    *out = h;
    return CUZK_OK;
}

unsigned server_http_port(const server_http *h) { return h ? h->port : 0; }

unsigned server_http_reaped(server_http *h)
{
    pthread_mutex_lock(&h->mu);
    unsigned n = h->reaped;
    pthread_mutex_unlock(&h->mu);
    return n;
}

void server_http_stop(server_http *h)
{
    if (!h) return;
    if (h->reaper_started) {
        pthread_mutex_lock(&h->mu);
        h->stop = true;
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->reaper, NULL);
    }
    MHD_stop_daemon(h->d); /* every connection's CLOSED notice frees its record */
    http_free(h);
}
