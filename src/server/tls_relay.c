/* The relay of one TLS connection (tls_server.c says why the daemon ends TLS itself): a thread
 * that does the handshake on the client's TCP socket and then copies bytes both ways, each
 * direction through one buffer, between OpenSSL and its end of a socketpair whose other end
 * gRPC's core serves as a plaintext connection. Both sockets are non-blocking and the thread
 * sleeps in poll(2) on them and on the stop pipe, so a client that stalls in the handshake
 * holds a thread but never the others; the listener's first-call deadline (server_accept.c),
 * by shutting the core's end down, ends such a relay like any connection. The relays are
 * counted so that server_tls_free waits for the last one (they use the context it frees). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <openssl/err.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tls_internal.h"

#define RELAY_BUF 16384
#define RELAY_STACK (2u << 20) /* as the handlers': it must hold every library's static TLS */

struct server_tls {
    SSL_CTX *ctx;
    int stop[2]; /* written once at free: every relay's poll wakes and it ends */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned relays; /* running */
};

typedef struct {
    server_tls *t;
    SSL *ssl;
    int tcp, plain; /* the client's socket; the relay's end of the pair */
} relay;

typedef struct {
    uint8_t b[RELAY_BUF];
    size_t off, len; /* bytes waiting: b[off .. off + len) */
} relay_buf;

/* What an SSL call that made no progress waits for on the TCP socket; -1: the connection is over
 * (closed, reset, a failed handshake or a protocol error). */
static int ssl_wait(SSL *ssl, int r)
{
    switch (SSL_get_error(ssl, r)) {
    case SSL_ERROR_WANT_READ: return POLLIN;
    case SSL_ERROR_WANT_WRITE: return POLLOUT;
    default: ERR_clear_error(); return -1;
    }
}

/* One pass of everything that can go on without waiting; *tcp_ev and *plain_ev get what each
 * socket is waited for. Returns: 1 when something moved, 0 when all waits, -1 when over. */
static int relay_step(relay *r, bool *handshaken, relay_buf *in, relay_buf *out, short *tcp_ev, short *plain_ev)
{
    int moved = 0, w;
    if (!*handshaken) {
        int a = SSL_accept(r->ssl);
        if (a == 1) {
            *handshaken = true;
            return 1;
        }
        if ((w = ssl_wait(r->ssl, a)) < 0) return -1;
        *tcp_ev |= (short)w;
        return 0;
    }
    /* client -> core: decrypted into in, written to the pair */
    if (!in->len) {
        int n = SSL_read(r->ssl, in->b, sizeof in->b);
        if (n > 0) {
            in->off = 0;
            in->len = (size_t)n;
            moved = 1;
        } else if ((w = ssl_wait(r->ssl, n)) < 0) return -1;
        else *tcp_ev |= (short)w;
    }
    if (in->len) {
        ssize_t n = send(r->plain, in->b + in->off, in->len, MSG_NOSIGNAL);
        if (n > 0) {
            in->off += (size_t)n;
            in->len -= (size_t)n;
            moved = 1;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) *plain_ev |= POLLOUT;
        else return -1; /* the core has closed its end */
    }
    /* core -> client: read from the pair into out, encrypted */
    if (!out->len) {
        ssize_t n = recv(r->plain, out->b, sizeof out->b, 0);
        if (n > 0) {
            out->off = 0;
            out->len = (size_t)n;
            moved = 1;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) *plain_ev |= POLLIN;
        else return -1; /* the core is done: nothing more to send */
    }
    if (out->len) {
        int n = SSL_write(r->ssl, out->b + out->off, (int)out->len);
        if (n > 0) {
            out->off += (size_t)n;
            out->len -= (size_t)n;
            moved = 1;
        } else if ((w = ssl_wait(r->ssl, n)) < 0) return -1;
        else *tcp_ev |= (short)w;
    }
    return moved;
}

static void relay_loop(relay *r)
{
    relay_buf *in = calloc(1, sizeof *in), *out = calloc(1, sizeof *out);
    bool handshaken = false;
    if (!in || !out) goto done;
    for (;;) {
        short tcp_ev = 0, plain_ev = 0;
        int m;
        while ((m = relay_step(r, &handshaken, in, out, &tcp_ev, &plain_ev)) > 0) tcp_ev = plain_ev = 0;
        if (m < 0) break;
        struct pollfd p[3] = {{r->tcp, tcp_ev, 0}, {r->plain, plain_ev, 0}, {r->t->stop[0], POLLIN, 0}};
        if (poll(p, 3, -1) < 0 && errno != EINTR) break;
        if (p[2].revents) break; /* the server is going */
        /* a hang-up nobody waits for would wake poll at once, again and again: the relay ends */
        if ((p[0].revents & (POLLERR | POLLNVAL)) || (p[1].revents & (POLLERR | POLLNVAL))) break;
        if ((p[0].revents & POLLHUP) && !(tcp_ev & POLLIN)) break;
        if ((p[1].revents & POLLHUP) && !(plain_ev & POLLIN)) break;
    }
    if (handshaken) SSL_shutdown(r->ssl); /* a close_notify, as far as it goes without waiting */
done:
    free(in);
    free(out);
}

static void *relay_main(void *arg)
{
    relay *r = arg;
    /* OpenSSL writes the socket with write(2): a client gone would raise SIGPIPE, which kills a
     * process that has not ignored it (the CLI's daemon has; a program embedding the server
     * need not). Blocked on this thread, the write fails EPIPE instead. */
    sigset_t sigpipe_set;
    sigemptyset(&sigpipe_set);
    sigaddset(&sigpipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &sigpipe_set, NULL);
    relay_loop(r);
    SSL_free(r->ssl);
    close(r->tcp);
    close(r->plain);
    server_tls *t = r->t;
    free(r);
    pthread_mutex_lock(&t->mu);
    if (!--t->relays) pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

cuzk_status tls_relays_new(server_tls **out, SSL_CTX *ctx)
{
    *out = NULL;
    server_tls *t = calloc(1, sizeof *t);
    if (!t) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (pipe2(t->stop, O_CLOEXEC)) {
        free(t);
        return cuzk_fail(CUZK_EIO, "TLS: cannot make the relays' stop pipe: %s", strerror(errno));
    }
    t->ctx = ctx;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    *out = t;
    return CUZK_OK;
}

cuzk_status server_tls_wrap(server_tls *t, int tcp_fd, int *grpc_fd)
{
    *grpc_fd = -1;
    int pair[2] = {-1, -1};
    relay *r = calloc(1, sizeof *r);
    SSL *ssl = SSL_new(t->ctx);
    cuzk_status st = CUZK_OK;
    if (!r || !ssl) st = cuzk_fail(CUZK_ENOMEM, "TLS: out of memory for a connection");
    /* both ends non-blocking: the core reads its end speculatively, and a blocking read would
     * hold its poller thread until the next bytes came */
    else if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, pair))
        st = cuzk_fail(CUZK_EIO, "TLS: no socketpair for a connection: %s", strerror(errno));
    else if (!SSL_set_fd(ssl, tcp_fd)) st = cuzk_fail(CUZK_EINTERNAL, "TLS: SSL_set_fd failed");
    if (st) goto fail;
    fcntl(tcp_fd, F_SETFL, fcntl(tcp_fd, F_GETFL) | O_NONBLOCK);
    *r = (relay){t, ssl, tcp_fd, pair[1]};
    pthread_mutex_lock(&t->mu);
    t->relays++;
    pthread_mutex_unlock(&t->mu);
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, RELAY_STACK);
    pthread_t th;
    int err = pthread_create(&th, &a, relay_main, r);
    pthread_attr_destroy(&a);
    if (err) {
        pthread_mutex_lock(&t->mu);
        if (!--t->relays) pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        st = cuzk_fail(CUZK_EIO, "TLS: no thread for a connection: %s", strerror(err));
        goto fail;
    }
    *grpc_fd = pair[0];
    return CUZK_OK;
fail:
    SSL_free(ssl);
    free(r);
    if (pair[0] >= 0) close(pair[0]), close(pair[1]);
    close(tcp_fd);
    return st;
}

void server_tls_free(server_tls *t)
{
    if (!t) return;
    if (write(t->stop[1], "x", 1) < 0) { /* each relay also ends when the core's end closes */
    }
    pthread_mutex_lock(&t->mu);
    while (t->relays) pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
    close(t->stop[0]);
    close(t->stop[1]);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    SSL_CTX_free(t->ctx);
    free(t);
}
