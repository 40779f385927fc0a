/* Request options of the client commands (client_request.h). */
#include "cli/client_request.h"

#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"

void client_request_opts_init(client_request_opts *o) { memset(o, 0, sizeof *o); }

void client_request_opts_free(client_request_opts *o)
{
    cuzk_unmap_file(&o->c1_file);
    for (size_t i = 0; i < o->nblobs; i++) free(o->blobs[i]);
    free(o->blobs);
    free(o->blob_lens);
    o->blobs = NULL;
    o->blob_lens = NULL;
    o->nblobs = 0;
}

int client_request_opt_table(client_request_opts *o, cli_opt *opts, int cap)
{
    const cli_opt t[] = {
        {"kind", "K", "porep, snap, window-post, winning-post, or test (a built-in circuit; the daemon's test kinds)",
         &o->kind, NULL},
        {"c1", "FILE", "porep: the C1 output (JSON, or Curio's wrapper)", &o->c1, NULL},
        {"vanilla", "FILE", "snap / PoSt: the vanilla proofs, a JSON array of base64 strings", &o->vanilla, NULL},
        {"circuit", "NAME", "test: the built-in circuit (e.g. random:1024)", &o->circuit, NULL},
        {"request-id", "ID", "the idempotency key (a retry joins the job; default: the daemon makes one)",
         &o->request_id, NULL},
        {"priority", "P", "low, normal, high, critical (default: the kind's)", &o->priority, NULL},
        {"registered-proof", "N", "the registered proof's number", &o->registered_proof, NULL},
        {"sector-size", "BYTES", "the sector size in bytes", &o->sector_size, NULL},
        {"sector-number", "N", "the sector number (test: the seed)", &o->sector_number, NULL},
        {"miner-id", "N", "the miner id", &o->miner_id, NULL},
        {"randomness", "HEX", "PoSt: the 32-byte challenge seed", &o->randomness, NULL},
        {"partition", "K", "WindowPoSt: the partition index (test: partitions - 1)", &o->partition, NULL},
        {"comm-r-old", "HEX", "snap: 32 bytes", &o->comm_r_old, NULL},
        {"comm-r-new", "HEX", "snap: 32 bytes", &o->comm_r_new, NULL},
        {"comm-d-new", "HEX", "snap: 32 bytes", &o->comm_d_new, NULL},
    };
    int n = (int)(sizeof t / sizeof t[0]);
    if (n > cap) n = cap;
    memcpy(opts, t, (size_t)n * sizeof *t);
    return n;
}

/* a JSON array of base64 strings (what Curio stores and its tools write), from a regular file
 * no larger than the base64 of a request the client sends, with room for the array's layout */
#define VANILLA_JSON_MAX (CLIENT_MAX_MESSAGE_BYTES / 3 * 4 + ((uint64_t)1 << 20))
static int read_vanilla(const char *cmd, client_request_opts *o)
{
    uint8_t *text;
    size_t text_len;
    if (cuzk_read_file_max(o->vanilla, VANILLA_JSON_MAX, &text, &text_len)) {
        fprintf(stderr, "cuzk %s: --vanilla: %s\n", cmd, cuzk_last_error());
        return 1;
    }
    json_error_t err;
    json_t *a = json_loadb((const char *)text, text_len, JSON_REJECT_DUPLICATES, &err);
    free(text);
    if (!a || !json_is_array(a)) {
        fprintf(stderr, "cuzk %s: --vanilla %s: %s (a JSON array of base64 strings expected)\n", cmd, o->vanilla,
                a ? "not an array" : err.text);
        json_decref(a);
        return 1;
    }
    size_t n = json_array_size(a);
    o->blobs = calloc(n ? n : 1, sizeof *o->blobs);
    o->blob_lens = calloc(n ? n : 1, sizeof *o->blob_lens);
    if (!o->blobs || !o->blob_lens) return json_decref(a), fprintf(stderr, "cuzk %s: out of memory\n", cmd), 1;
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(a, i));
        size_t len = s ? strlen(s) : 0;
        uint8_t *b = s && len % 4 == 0 ? malloc(len / 4 * 3 + 1) : NULL;
        int got = b ? EVP_DecodeBlock(b, (const unsigned char *)s, (int)len) : -1;
        if (got < 0) {
            free(b);
            fprintf(stderr, "cuzk %s: --vanilla %s: element %zu is not a base64 string\n", cmd, o->vanilla, i);
            json_decref(a);
            return 1;
        }
        /* EVP_DecodeBlock counts the padding as bytes */
        if (len && s[len - 1] == '=') got--;
        if (len > 1 && s[len - 2] == '=') got--;
        o->blobs[i] = b;
        o->blob_lens[i] = (size_t)got;
        o->nblobs++;
    }
    json_decref(a);
    return 0;
}

static int hex32(const char *cmd, const char *opt, const char *hex, uint8_t out[32])
{
    if (cuzk_hex_decode(out, 32, hex)) {
        fprintf(stderr, "cuzk %s: --%s: 64 hex digits (32 bytes) expected\n", cmd, opt);
        return 2;
    }
    return 0;
}

int client_request_build(const char *cmd, client_request_opts *o, cuzk_rpc_request *r)
{
    memset(r, 0, sizeof *r);
    if (!o->kind) return cli_missing(cmd, "kind");
    uint64_t v;
    if (!strcmp(o->kind, "test")) r->proof_kind = CUZK_SERVER_TEST_KIND;
    else {
        cuzk_job_kind k;
        if (cuzk_kind_parse(&k, o->kind) || k == CUZK_KIND_CIRCUIT) {
            cuzk_clear_error();
            if (cli_u64(cmd, "kind", o->kind, &v)) return 2;
            r->proof_kind = (uint32_t)v;
        } else {
            r->proof_kind = (uint32_t)k;
        }
    }
    if (o->priority) {
        cuzk_priority p;
        if (cuzk_priority_parse(&p, o->priority)) {
            fprintf(stderr, "cuzk %s: --priority: %s\n", cmd, cuzk_last_error());
            return 2;
        }
        r->priority = (uint32_t)p;
    }
    r->request_id = o->request_id;
    if ((o->registered_proof && cli_u64(cmd, "registered-proof", o->registered_proof, &r->registered_proof)) ||
        (o->sector_size && cli_u64(cmd, "sector-size", o->sector_size, &r->sector_size)) ||
        (o->sector_number && cli_u64(cmd, "sector-number", o->sector_number, &r->sector_number)) ||
        (o->miner_id && cli_u64(cmd, "miner-id", o->miner_id, &r->miner_id)))
        return 2;
    if (o->partition) {
        if (cli_u64(cmd, "partition", o->partition, &v)) return 2;
        if (v > UINT32_MAX) return fprintf(stderr, "cuzk %s: --partition: at most %u\n", cmd, UINT32_MAX), 2;
        r->partition_index = (uint32_t)v;
    }
    if (o->randomness) {
        if (hex32(cmd, "randomness", o->randomness, o->rand)) return 2;
        r->randomness = o->rand;
        r->randomness_len = 32;
    }
    const char *commit_opts[3] = {o->comm_r_old, o->comm_r_new, o->comm_d_new};
    const char *commit_names[3] = {"comm-r-old", "comm-r-new", "comm-d-new"};
    const uint8_t **commit_out[3] = {&r->comm_r_old, &r->comm_r_new, &r->comm_d_new};
    for (int i = 0; i < 3; i++) {
        if (!commit_opts[i]) continue;
        if (hex32(cmd, commit_names[i], commit_opts[i], o->commits[i])) return 2;
        *commit_out[i] = o->commits[i];
    }
    if (r->proof_kind == CUZK_SERVER_TEST_KIND) {
        if (!o->circuit) return cli_missing(cmd, "circuit");
        r->vanilla_proof = (const uint8_t *)o->circuit;
        r->vanilla_proof_len = strlen(o->circuit);
    }
    if (o->c1) {
        if (cuzk_map_file(&o->c1_file, o->c1)) return cli_error(cmd);
        r->vanilla_proof = o->c1_file.data;
        r->vanilla_proof_len = o->c1_file.size;
    }
    if (o->vanilla) {
        int rc = read_vanilla(cmd, o);
        if (rc) return rc;
        r->vanilla_proofs = (const uint8_t *const *)o->blobs;
        r->vanilla_proofs_len = o->blob_lens;
        r->nvanilla = o->nblobs;
    }
    return 0;
}
