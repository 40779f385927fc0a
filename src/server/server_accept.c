/* The daemon's own listener: connections are accepted here and handed to gRPC's core one by one
 * (grpc_server_add_channel_from_fd), so that the daemon, not the core, decides who is let in
 * and when a connection ends. Why: in the gRPC core Debian 12 ships, one EMFILE on accept stops
 * the core's listener for good, and a connection that never makes a call (only the HTTP/2
 * preface) is never closed. Here:
 *   - out of descriptors, a spare one kept open is given up to accept the waiting connection
 *     and close it at once, then taken again: the listener never stops (the classic reserve);
 *   - at most max_connections at once: a new one takes the place of the connection idle the
 *     longest (no call in flight), or is closed when every connection has a call in flight;
 *   - a connection must make its first call within FIRST_CALL_S, and one without a call for
 *     idle_s is told to go (the core's GOAWAY) and closed IDLE_GRACE_S later if it stays;
 *   - TCP peers outside daemon.allow are closed at once;
 *   - with TLS, an allowed TCP connection is handed to a relay (tls_relay.c) and the core gets
 *     the relay's plaintext end, to which all of the above applies.
 * Calls are counted per connection from their peer name, which the core gives as "fd:N" for a
 * connection added from a descriptor. A connection is closed with shutdown(2), never close(2):
 * the core owns the descriptor and closes it; an entry whose descriptor now names another file
 * (device and inode) is dropped, not touched. */
#define _GNU_SOURCE /* accept4, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <grpc/grpc_posix.h>
#include <grpc/grpc_security.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server_internal.h"

#define FIRST_CALL_S 10.0 /* from accept to the connection's first call */
#define IDLE_GRACE_S 30.0 /* after idle_s, for the client to leave on the GOAWAY */
#define SWEEP_MS 500
#define WARN_EVERY_S 10.0
#define ACCEPT_BURST 256 /* connections taken per wakeup at most, the sweep then running again */

typedef struct {
    int fd; /* -1: a free slot */
    dev_t dev;
    ino_t ino;
    double accepted, last_active; /* cuzk_now() */
    unsigned calls;               /* in flight */
    bool called;                  /* ever */
} conn;

struct server_conns {
    grpc_server *server;
    int listen_fd, reserve_fd, wake[2];
    bool tcp;
    conns_config cfg;
    pthread_t thread;
    bool started;
    atomic_bool stop;
    pthread_mutex_t mu;
    conn *slots; /* cfg.max_connections */
    conns_stats stats;
    double warned; /* last warning about descriptors */
};

/* ---------------------------------------------------------------- the table (locked) */
static bool same_socket(const conn *c)
{
    struct stat st;
    return !fstat(c->fd, &st) && S_ISSOCK(st.st_mode) && st.st_dev == c->dev && st.st_ino == c->ino;
}

static conn *find(server_conns *k, int fd)
{
    for (unsigned i = 0; i < k->cfg.max_connections; i++)
        if (k->slots[i].fd == fd) return &k->slots[i];
    return NULL;
}

/* Ends connection c: the core sees the end of the stream and closes its descriptor. */
static void end_conn(server_conns *k, conn *c, uint64_t *counter)
{
    if (same_socket(c)) shutdown(c->fd, SHUT_RDWR);
    c->fd = -1;
    k->stats.open--;
    (*counter)++;
}

/* Drops entries the core has closed; ends connections past their first-call or idle deadline. */
static void sweep(server_conns *k, double now)
{
    for (unsigned i = 0; i < k->cfg.max_connections; i++) {
        conn *c = &k->slots[i];
        if (c->fd < 0) continue;
        if (!same_socket(c)) {
            c->fd = -1;
            k->stats.open--;
        } else if (!c->called && now - c->accepted > FIRST_CALL_S) {
            end_conn(k, c, &k->stats.closed_no_call);
        } else if (k->cfg.idle_s && !c->calls && now - c->last_active > k->cfg.idle_s + IDLE_GRACE_S) {
            end_conn(k, c, &k->stats.closed_idle);
        }
    }
}

/* A free slot, made by ending the connection idle the longest when all are taken; NULL when
 * every connection has a call in flight. */
static conn *room(server_conns *k)
{
    conn *free_slot = NULL, *oldest = NULL;
    for (unsigned i = 0; i < k->cfg.max_connections && !free_slot; i++) {
        conn *c = &k->slots[i];
        if (c->fd < 0) free_slot = c;
        else if (!c->calls && (!oldest || c->last_active < oldest->last_active)) oldest = c;
    }
    if (free_slot || !oldest) return free_slot;
    end_conn(k, oldest, &k->stats.closed_for_room);
    return oldest;
}

/* ---------------------------------------------------------------- accepting */
static bool allowed(const server_conns *k, const struct sockaddr_storage *peer)
{
    return !k->tcp || cidr_list_allows(k->cfg.allow, peer);
}

static void warn_descriptors(server_conns *k, int err)
{
    double now = cuzk_now();
    if (now - k->warned < WARN_EVERY_S) return;
    k->warned = now;
    fprintf(stderr,
            "cuzk daemon: accept: %s: a connection was refused (%u open; raise the descriptor limit, "
            "LimitNOFILE= under systemd, or lower daemon.max_connections)\n",
            strerror(err), k->stats.open);
}

/* Out of descriptors: the reserve is given up to take the waiting connection and close it. */
static void shed_one(server_conns *k, int err)
{
    if (k->reserve_fd >= 0) close(k->reserve_fd);
    int fd = accept4(k->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd >= 0) close(fd);
    k->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pthread_mutex_lock(&k->mu);
    k->stats.refused_descriptors++;
    warn_descriptors(k, err);
    pthread_mutex_unlock(&k->mu);
}

static void take(server_conns *k, int fd, const struct sockaddr_storage *peer)
{
    struct stat st;
    if (k->tcp) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    /* with TLS the core gets the relay's plaintext end, which is what the table then holds */
    bool wrap_failed = false;
    if (k->cfg.tls && allowed(k, peer) && server_tls_wrap(k->cfg.tls, fd, &fd)) wrap_failed = true;
    pthread_mutex_lock(&k->mu);
    if (wrap_failed) { /* no thread or descriptors: refused as when full (the socket is closed) */
        k->stats.refused_full++;
        pthread_mutex_unlock(&k->mu);
        return;
    }
    conn *stale = find(k, fd); /* the core closed it and the number came back */
    if (stale) {
        stale->fd = -1;
        k->stats.open--;
    }
    conn *c = NULL;
    if (!allowed(k, peer)) k->stats.refused_not_allowed++;
    else if (fstat(fd, &st)) k->stats.refused_full++;
    else if (!(c = room(k))) k->stats.refused_full++;
    if (c) {
        *c = (conn){fd, st.st_dev, st.st_ino, cuzk_now(), cuzk_now(), 0, false};
        k->stats.open++;
        k->stats.accepted++;
    }
    pthread_mutex_unlock(&k->mu);
    if (!c) {
        close(fd);
        return;
    }
    grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
    grpc_server_add_channel_from_fd(k->server, fd, creds);
    grpc_server_credentials_release(creds);
}

static void *accept_main(void *arg)
{
    server_conns *k = arg;
    while (!atomic_load(&k->stop)) {
        struct pollfd p[2] = {{k->listen_fd, POLLIN, 0}, {k->wake[0], POLLIN, 0}};
        int n = poll(p, 2, SWEEP_MS);
        pthread_mutex_lock(&k->mu);
        sweep(k, cuzk_now());
        pthread_mutex_unlock(&k->mu);
        if (n <= 0 || !(p[0].revents & POLLIN)) continue;
        /* every connection waiting, not one per wakeup: a burst (a flood of connections) must not
         * keep the backlog full, where a gRPC client's connect on a unix socket fails (its
         * non-blocking connect gets EAGAIN, which the core takes for a connect in progress, and
         * its first read then fails with EINVAL) */
        for (unsigned a = 0; a < ACCEPT_BURST && !atomic_load(&k->stop); a++) {
            struct sockaddr_storage peer;
            socklen_t len = sizeof peer;
            int fd = accept4(k->listen_fd, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (fd >= 0) {
                take(k, fd, &peer);
                continue;
            }
            if (errno == EMFILE || errno == ENFILE) shed_one(k, errno);
            else if (errno == EINTR || errno == ECONNABORTED) continue;
            else if (errno != EAGAIN) usleep(50 * 1000); /* and go on */
            break;
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------- the server's side */
cuzk_status conns_start(server_conns **out, grpc_server *server, int listen_fd, bool tcp, const conns_config *cfg)
{
    *out = NULL;
    server_conns *k = calloc(1, sizeof *k);
    conn *slots = calloc(cfg->max_connections, sizeof *slots);
    if (!k || !slots) {
        free(k);
        free(slots);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    k->server = server;
    k->listen_fd = listen_fd;
    k->reserve_fd = k->wake[0] = k->wake[1] = -1;
    k->tcp = tcp;
    k->cfg = *cfg;
    k->slots = slots;
    for (unsigned i = 0; i < cfg->max_connections; i++) slots[i].fd = -1;
    pthread_mutex_init(&k->mu, NULL);
    atomic_init(&k->stop, false);
    fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
    k->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (k->reserve_fd < 0 || pipe2(k->wake, O_CLOEXEC)) {
        cuzk_status st = cuzk_fail(CUZK_EIO, "listen: cannot set up the listener: %s", strerror(errno));
        conns_stop(k);
        conns_free(k);
        return st;
    }
    if (pthread_create(&k->thread, NULL, accept_main, k)) {
        conns_stop(k);
        conns_free(k);
        return cuzk_fail(CUZK_EIO, "listen: cannot start the listener's thread");
    }
    k->started = true;
    *out = k;
    return CUZK_OK;
}

int conns_fd_of_peer(const char *peer)
{
    if (!peer || strncmp(peer, "fd:", 3)) return -1;
    char *end;
    long fd = strtol(peer + 3, &end, 10);
    return *end || fd < 0 || fd > INT32_MAX ? -1 : (int)fd;
}

void conns_call_started(server_conns *k, int fd)
{
    if (!k || fd < 0) return;
    pthread_mutex_lock(&k->mu);
    conn *c = find(k, fd);
    if (c) {
        c->calls++;
        c->called = true;
        c->last_active = cuzk_now();
    }
    pthread_mutex_unlock(&k->mu);
}

void conns_call_ended(server_conns *k, int fd)
{
    if (!k || fd < 0) return;
    pthread_mutex_lock(&k->mu);
    conn *c = find(k, fd);
    if (c && c->calls) {
        c->calls--;
        c->last_active = cuzk_now();
    }
    pthread_mutex_unlock(&k->mu);
}

void conns_get_stats(server_conns *k, conns_stats *out)
{
    pthread_mutex_lock(&k->mu);
    *out = k->stats;
    pthread_mutex_unlock(&k->mu);
}

void conns_stop(server_conns *k)
{
    if (!k || atomic_exchange(&k->stop, true)) return;
    if (k->started) {
        if (write(k->wake[1], "x", 1) < 0) { /* the poll's timeout wakes it anyway */
        }
        pthread_join(k->thread, NULL);
    }
    if (k->listen_fd >= 0) close(k->listen_fd);
    k->listen_fd = -1;
}

void conns_free(server_conns *k)
{
    if (!k) return;
    conns_stop(k);
    if (k->reserve_fd >= 0) close(k->reserve_fd);
    if (k->wake[0] >= 0) close(k->wake[0]);
    if (k->wake[1] >= 0) close(k->wake[1]);
    pthread_mutex_destroy(&k->mu);
    free(k->slots);
    free(k);
}
