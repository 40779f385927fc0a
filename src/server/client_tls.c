/* The client's side of TLS (cuzk_client_open_tls): the PEM files read and checked here, so that
 * a wrong path or a file of the wrong kind is named at once rather than as a failed handshake,
 * and handed to gRPC's SSL credentials. */
#include <errno.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

#define PEM_FILE_MAX (1u << 20) /* a certificate bundle is kilobytes */

static bool given(const char *s) { return s && s[0]; }

/* The whole of file what (e.g. "CA file") as a string (malloc'd): a regular file of at most
 * PEM_FILE_MAX bytes, read without blocking on a FIFO. */
static cuzk_status read_text(const char *what, const char *path, char **out)
{
    *out = NULL;
    uint8_t *data = NULL;
    size_t n = 0;
    cuzk_status st = cuzk_read_file_max(path, PEM_FILE_MAX, &data, &n);
    if (st) return cuzk_fail_context(st, "TLS %s", what);
    *out = (char *)data;
    return CUZK_OK;
}

static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
    (void)buf, (void)size, (void)rwflag, (void)u;
    return 0;
}

/* text parses as PEM of its kind (a certificate; a key without a passphrase); *cert and *key
 * get what was parsed when asked for (NULL: not). */
static cuzk_status check_pem(const char *what, const char *path, const char *text, bool is_key, X509 **cert,
                             EVP_PKEY **key)
{
    BIO *bio = BIO_new_mem_buf(text, -1);
    if (!bio) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    X509 *x = NULL;
    EVP_PKEY *k = NULL;
    if (is_key) k = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL);
    else x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    ERR_clear_error();
    if (!x && !k)
        return cuzk_fail(CUZK_EFORMAT, "TLS %s %s: not a PEM %s", what, path,
                         is_key ? "private key without a passphrase" : "certificate");
    if (cert) *cert = x;
    else X509_free(x);
    if (key) *key = k;
    else EVP_PKEY_free(k);
    return CUZK_OK;
}

cuzk_status client_tls_credentials(const cuzk_client_tls *tls, grpc_channel_credentials **creds)
{
    *creds = NULL;
    if (!tls || (!given(tls->ca_file) && !given(tls->cert_file) && !given(tls->key_file))) return CUZK_OK;
    if (given(tls->cert_file) != given(tls->key_file))
        return cuzk_fail(CUZK_EINVAL, "TLS: a client certificate and its key go together: the %s is given, the %s not",
                         given(tls->cert_file) ? "certificate" : "key", given(tls->cert_file) ? "key" : "certificate");
    char *ca = NULL, *cert = NULL, *key = NULL;
    X509 *x = NULL;
    EVP_PKEY *k = NULL;
    cuzk_status st = CUZK_OK;
    if (given(tls->ca_file) && !(st = read_text("CA file", tls->ca_file, &ca)))
        st = check_pem("CA file", tls->ca_file, ca, false, NULL, NULL);
    if (!st && given(tls->cert_file)) {
        if (!(st = read_text("certificate", tls->cert_file, &cert)))
            st = check_pem("certificate", tls->cert_file, cert, false, &x, NULL);
        if (!st && !(st = read_text("key", tls->key_file, &key)))
            st = check_pem("key", tls->key_file, key, true, NULL, &k);
        if (!st && X509_check_private_key(x, k) != 1) {
            ERR_clear_error();
            st = cuzk_fail(CUZK_EINVAL, "TLS key %s is not the key of the certificate %s", tls->key_file,
                           tls->cert_file);
        }
    }
    if (!st) {
        grpc_ssl_pem_key_cert_pair pair = {key, cert};
        *creds = grpc_ssl_credentials_create_ex(ca, cert ? &pair : NULL, NULL, NULL);
        if (!*creds) st = cuzk_fail(CUZK_EINTERNAL, "TLS: gRPC made no SSL credentials");
    }
    X509_free(x);
    EVP_PKEY_free(k);
    free(ca);
    free(cert);
    if (key) OPENSSL_cleanse(key, strlen(key));
    free(key);
    return st;
}
