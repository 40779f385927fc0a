/* The TLS pieces' shared declaration: the relays of tls_relay.c are made by tls_server.c from
 * the context it has checked. */
#ifndef CUZK_TLS_INTERNAL_H
#define CUZK_TLS_INTERNAL_H

#include <openssl/ssl.h>

#include "server_internal.h"

/* The relays' owner, serving connections with ctx (taken: freed with the last relay). */
cuzk_status tls_relays_new(server_tls **out, SSL_CTX *ctx) CUZK_WARN_UNUSED;

#endif
