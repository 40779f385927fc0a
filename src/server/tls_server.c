/* TLS on the daemon's TCP listen: the server's certificate and key (daemon.tls_cert,
 * daemon.tls_key) and, when daemon.tls_client_ca is set, the CA that client certificates must
 * chain to (a client without one is refused in the handshake). The files are read and checked
 * here, at start, so that a wrong one stops the daemon with its key and path named, never the
 * first client.
 *
 * Why the daemon terminates TLS itself (tls_relay.c) rather than gRPC: the daemon's listener
 * hands each connection to the core with grpc_server_add_channel_from_fd (server_accept.c
 * says why), and Debian 12's core takes connections from descriptors as plaintext only. So
 * each TLS connection is decrypted by a relay of OpenSSL's and reaches the core as plaintext
 * over a socketpair; the allowlist, the connection cap and the first-call and idle deadlines
 * apply to it as to any connection. Unix sockets stay plaintext (their mode guards them). */
#include <errno.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tls_internal.h"

/* OpenSSL's first queued error as text ("" when none); the queue is cleared. */
static const char *ssl_reason(char *buf, size_t cap)
{
    unsigned long e = ERR_get_error();
    buf[0] = 0;
    if (e) ERR_error_string_n(e, buf, cap);
    ERR_clear_error();
    return buf;
}

/* An encrypted key would have OpenSSL prompt on the terminal; the daemon has none to ask. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
    (void)buf, (void)size, (void)rwflag, (void)u;
    return 0;
}

/* The file named by key is a regular file of PEM size that can be opened, checked without
 * blocking (opening a FIFO would wait for a writer, and the daemon would hang at start). */
static cuzk_status readable(const char *key, const char *path)
{
    cuzk_status st = cuzk_check_input_file(path, 1u << 20);
    return st ? cuzk_fail_context(st, "daemon.%s", key) : CUZK_OK;
}

static cuzk_status load_key(const char *path, EVP_PKEY **out)
{
    cuzk_status st = readable("tls_key", path);
    if (st) return st;
    FILE *f = fopen(path, "rb");
    if (!f) return cuzk_fail(CUZK_EIO, "daemon.tls_key: cannot read %s: %s", path, strerror(errno));
    *out = PEM_read_PrivateKey(f, NULL, no_passphrase, NULL);
    fclose(f);
    char why[256];
    if (!*out)
        return cuzk_fail(CUZK_EFORMAT, "daemon.tls_key: %s is not a PEM private key without a passphrase (OpenSSL: %s)",
                         path, ssl_reason(why, sizeof why));
    return CUZK_OK;
}

/* The ALPN protocol gRPC speaks: its clients offer "h2" and refuse a server that picks none. */
static int select_h2(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                     unsigned inlen, void *arg)
{
    (void)ssl, (void)arg;
    static const unsigned char h2[] = {2, 'h', '2'};
    unsigned char *sel = NULL;
    if (SSL_select_next_proto(&sel, outlen, h2, sizeof h2, in, inlen) != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    *out = sel;
    return SSL_TLSEXT_ERR_OK;
}

/* The checked context of cfg's files, or a failure naming the key and file. */
static cuzk_status make_context(const cuzk_server_config *cfg, SSL_CTX **out)
{
    *out = NULL;
    char why[256];
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) return cuzk_fail(CUZK_ENOMEM, "TLS: no OpenSSL context (%s)", ssl_reason(why, sizeof why));
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); /* what gRPC requires */
    SSL_CTX_set_default_passwd_cb(ctx, no_passphrase);
    SSL_CTX_set_alpn_select_cb(ctx, select_h2, NULL);
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    EVP_PKEY *key = NULL;
    cuzk_status st = readable("tls_cert", cfg->tls_cert);
    if (!st && SSL_CTX_use_certificate_chain_file(ctx, cfg->tls_cert) != 1)
        st = cuzk_fail(CUZK_EFORMAT, "daemon.tls_cert: %s is not a PEM certificate (OpenSSL: %s)", cfg->tls_cert,
                       ssl_reason(why, sizeof why));
    if (!st) st = load_key(cfg->tls_key, &key);
    if (!st && X509_check_private_key(SSL_CTX_get0_certificate(ctx), key) != 1) {
        ERR_clear_error();
        st = cuzk_fail(CUZK_EINVAL, "daemon.tls_key: %s is not the key of the certificate in daemon.tls_cert (%s)",
                       cfg->tls_key, cfg->tls_cert);
    }
    if (!st && SSL_CTX_use_PrivateKey(ctx, key) != 1)
        st = cuzk_fail(CUZK_EINVAL, "daemon.tls_key: %s cannot be used with daemon.tls_cert %s (OpenSSL: %s)",
                       cfg->tls_key, cfg->tls_cert, ssl_reason(why, sizeof why));
    EVP_PKEY_free(key);
    if (!st && cfg->tls_client_ca[0]) {
        STACK_OF(X509_NAME) *names = NULL;
        st = readable("tls_client_ca", cfg->tls_client_ca);
        if (!st &&
            (SSL_CTX_load_verify_locations(ctx, cfg->tls_client_ca, NULL) != 1 ||
             !(names = SSL_load_client_CA_file(cfg->tls_client_ca))))
            st = cuzk_fail(CUZK_EFORMAT, "daemon.tls_client_ca: %s holds no PEM certificate (OpenSSL: %s)",
                           cfg->tls_client_ca, ssl_reason(why, sizeof why));
        if (!st) {
            SSL_CTX_set_client_CA_list(ctx, names); /* taken */
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
        }
    }
    if (st) {
        SSL_CTX_free(ctx);
        return st;
    }
    *out = ctx;
    return CUZK_OK;
}

cuzk_status server_tls_load(server_tls **out, const cuzk_server_config *cfg)
{
    *out = NULL;
    bool cert = cfg->tls_cert[0], key = cfg->tls_key[0];
    if (cert != key)
        return cuzk_fail(CUZK_EINVAL, "daemon.tls_cert and daemon.tls_key go together: %s is set, %s is not",
                         cert ? "tls_cert" : "tls_key", cert ? "tls_key" : "tls_cert");
    if (!cert && cfg->tls_client_ca[0])
        return cuzk_fail(CUZK_EINVAL,
                         "daemon.tls_client_ca (%s) is set without daemon.tls_cert and daemon.tls_key: client "
                         "certificates are checked only on a TLS listen",
                         cfg->tls_client_ca);
    if (!cert) return CUZK_OK;
    SSL_CTX *ctx;
    cuzk_status st = make_context(cfg, &ctx);
    if (st) return st;
    if ((st = tls_relays_new(out, ctx))) SSL_CTX_free(ctx);
    return st;
}
