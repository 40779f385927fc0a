/* The options that make a cuzk.v1 SubmitProofRequest, shared by `cuzk client prove|submit`
 * and `cuzk bench throughput`. */
#ifndef CUZK_CLI_CLIENT_REQUEST_H
#define CUZK_CLI_CLIENT_REQUEST_H

#include "cli/args.h"
#include "cuzk/base.h"
#include "cuzk/server.h"

/* The largest message the client commands send or take (Curio's client allows 256 MiB). */
#define CLIENT_MAX_MESSAGE_BYTES ((uint64_t)256 << 20)

typedef struct {
    const char *kind, *c1, *vanilla, *circuit, *request_id, *priority, *registered_proof, *sector_size, *sector_number,
        *miner_id, *randomness, *partition, *comm_r_old, *comm_r_new, *comm_d_new;
    /* what the request points into */
    cuzk_mapped_file c1_file;
    uint8_t **blobs;
    size_t *blob_lens, nblobs;
    uint8_t rand[32], commits[3][32];
} client_request_opts;

void client_request_opts_init(client_request_opts *o);
void client_request_opts_free(client_request_opts *o);
/* Fills opts[0..] with the request options (at most cap); returns how many. */
int client_request_opt_table(client_request_opts *o, cli_opt *opts, int cap);
/* Builds the request from the options (files read, hex decoded); 0, or 2 after a usage error
 * naming the option, or 1 when a file cannot be read. --vanilla is read only from a regular file
 * of at most the base64 of one message (a FIFO is refused, not waited on). */
int client_request_build(const char *cmd, client_request_opts *o, cuzk_rpc_request *r);

#endif
