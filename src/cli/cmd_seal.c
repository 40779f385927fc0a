/* cuzk seal: seal a test sector (2 KiB, 8 MiB, 512 MiB) and write its C1 output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_seal.h"

static cuzk_status pick_proof(const char *size, const char *type, cuzk_seal_proof *out)
{
    static const struct {
        const char *size;
        cuzk_seal_proof v1, v1_1;
    } T[] = {{"2KiB", CUZK_SEAL_2KIB_V1, CUZK_SEAL_2KIB_V1_1},
             {"8MiB", CUZK_SEAL_8MIB_V1, CUZK_SEAL_8MIB_V1_1},
             {"512MiB", CUZK_SEAL_512MIB_V1, CUZK_SEAL_512MIB_V1_1}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(size, T[i].size)) {
            if (!strcmp(type, "V1")) *out = T[i].v1;
            else if (!strcmp(type, "V1_1")) *out = T[i].v1_1;
            else return cuzk_fail(CUZK_EINVAL, "--proof-type must be V1 or V1_1, not '%s'", type);
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EINVAL,
                     "--sector-size must be 2KiB, 8MiB or 512MiB, not '%s' (32 GiB sealing is not needed "
                     "for tests)",
                     size);
}

static cuzk_status hex32_or_random(const char *opt, const char *hex, uint8_t out[32])
{
    if (hex) {
        cuzk_status st = cuzk_hex_decode(out, 32, hex);
        return st ? cuzk_fail_context(st, "--%s", opt) : CUZK_OK;
    }
    cuzk_status st = cuzk_os_random(out, 32);
    out[31] &= 0x3f; /* as lotus' randomness, reduced to a canonical-looking value */
    return st;
}

/* DIR/sealed: the replica, which PoSt vanilla proofs and SnapDeals encoding read. */
static cuzk_status write_replica(const cuzk_sealed_sector *s, const char *path, uint64_t bytes)
{
    if (!path) return CUZK_EIO;
    uint8_t *buf = cuzk_big_alloc(bytes);
    if (!buf) return cuzk_fail(CUZK_ENOMEM, "out of memory for the %llu-byte replica", (unsigned long long)bytes);
    cuzk_sealed_replica_nodes(s, 0, bytes / 32, buf);
    cuzk_status st = cuzk_write_file_atomic(path, buf, bytes);
    cuzk_big_free(buf, bytes);
    return st;
}

int cli_seal(int argc, char **argv)
{
    const char *size = NULL, *dir = NULL, *type = "V1_1", *prover = "t01000", *sector_s = "1", *ticket_s = NULL,
               *seed_s = NULL, *data_path = NULL, *threads = NULL;
    bool quiet = false, done;
    cli_opt opts[] = {
        {"sector-size", "SIZE", "2KiB, 8MiB or 512MiB", &size, NULL},
        {"out", "DIR", "output folder: unsealed (data), sealed (replica), p_aux, c1.json, sector.json", &dir, NULL},
        {"proof-type", "V1|V1_1", "graph rules (default V1_1)", &type, NULL},
        {"prover-id", "ID", "miner ID address (t01002) or 64 hex digits (default t01000)", &prover, NULL},
        {"sector-id", "N", "sector number (default 1)", &sector_s, NULL},
        {"ticket", "HEX", "64 hex digits (default: random)", &ticket_s, NULL},
        {"seed", "HEX", "interactive seed, 64 hex digits (default: random)", &seed_s, NULL},
        {"data", "FILE", "sector data (Fr32-padded, the sector's size; default: zeros, a CC sector)", &data_path, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv, "cuzk seal --sector-size 2KiB|8MiB|512MiB --out DIR [options]", opts,
                       (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!size) return cli_missing("seal", "sector-size");
    if (!dir) return cli_missing("seal", "out");
    uint64_t sector_id;
    if (cli_u64("seal", "sector-id", sector_s, &sector_id) || cli_threads("seal", threads)) return 2;
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    uint8_t seed[32];
    cuzk_status st = pick_proof(size, type, &sp.proof);
    if (!st) st = parse_prover_id(prover, sp.prover_id);
    if (!st) st = hex32_or_random("ticket", ticket_s, sp.ticket);
    if (!st) st = hex32_or_random("seed", seed_s, seed);
    if (!st && !memcmp(seed, (uint8_t[32]){0}, 32)) st = cuzk_fail(CUZK_EINVAL, "--seed must not be zero");
    if (st) {
        fprintf(stderr, "cuzk seal: %s\n", cuzk_last_error());
        return 2;
    }
    sp.sector_id = sector_id;
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(sp.proof);
    uint8_t *data = NULL;
    size_t data_size = 0;
    /* every output in DIR is checked (and --data read) before the folder is made or any work */
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error("seal");
    cli_outputs_input(outs, "data", data_path);
    cli_outputs_folder(outs, "out", dir, 0777);
    int out_c1 = cli_outputs_add_in(outs, "out", dir, "c1.json");
    int out_unsealed = cli_outputs_add_in(outs, "out", dir, "unsealed");
    int out_sealed = cli_outputs_add_in(outs, "out", dir, "sealed");
    int out_p_aux = cli_outputs_add_in(outs, "out", dir, "p_aux");
    int out_sector = cli_outputs_add_in(outs, "out", dir, "sector.json");
    if (cli_outputs_check(outs)) {
        cli_outputs_free(outs);
        return cli_error("seal");
    }
    if (data_path) {
        if (cuzk_read_file_max(data_path, info->sector_size, &data, &data_size)) {
            cli_outputs_free(outs);
            return cli_error("seal");
        }
        if (data_size != info->sector_size) {
            fprintf(stderr, "cuzk seal: %s has %zu bytes, a %s sector has %llu\n", data_path, data_size, size,
                    (unsigned long long)info->sector_size);
            free(data);
            cli_outputs_free(outs);
            return 1;
        }
        sp.data = data;
    }
    cuzk_timeline *tl = cuzk_timeline_create("seal");
    cuzk_sealed_sector *s = NULL;
    cuzk_c1 *c1 = NULL;
    uint8_t *json = NULL;
    size_t json_len = 0;
    int span = cuzk_span_begin(tl, "precommit");
    st = cuzk_seal_precommit(&s, &sp, tl);
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "commit1");
        st = cuzk_seal_commit1(&c1, s, seed, tl);
        cuzk_span_end(tl, span);
    }
    if (!st) st = cuzk_c1_write(c1, &json, &json_len);
    if (!st) {
        span = cuzk_span_begin(tl, "write files");
        st = cli_outputs_write(outs, out_c1, json, json_len);
        if (!st) {
            if (data) st = cli_outputs_write(outs, out_unsealed, data, data_size);
            else {
                uint8_t *zeros = cuzk_big_alloc(info->sector_size);
                st = zeros ? cli_outputs_write(outs, out_unsealed, zeros, info->sector_size) : CUZK_ENOMEM;
                cuzk_big_free(zeros, info->sector_size);
            }
        }
        if (!st)
            st = cli_outputs_context(outs, out_sealed,
                                     write_replica(s, cli_outputs_path(outs, out_sealed), info->sector_size));
        if (!st) {
            uint8_t p_aux[CUZK_P_AUX_BYTES];
            cuzk_sealed_p_aux(s, p_aux);
            st = cli_outputs_write(outs, out_p_aux, p_aux, sizeof p_aux);
        }
        if (!st) {
            const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
            sector_public pub = {sp.proof, {0}, sector_id, {0}, {0}, {0}, {0}, {0}};
            memcpy(pub.prover_id, sp.prover_id, 32);
            memcpy(pub.ticket, sp.ticket, 32);
            memcpy(pub.seed, seed, 32);
            memcpy(pub.comm_d, cm->comm_d, 32);
            memcpy(pub.comm_r, cm->comm_r, 32);
            memcpy(pub.replica_id, cm->replica_id, 32);
            const char *path = cli_outputs_path(outs, out_sector);
            st = path ? cli_outputs_context(outs, out_sector, sector_public_write(path, &pub)) : CUZK_EIO;
        }
        /* all five files or none */
        if (!st) st = cli_outputs_commit(outs);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
        char d[65], r[65];
        cuzk_hex_encode(d, cm->comm_d, 32);
        cuzk_hex_encode(r, cm->comm_r, 32);
        printf("sealed %s sector %llu (%s)\ncomm_d %s\ncomm_r %s\nwrote %s/c1.json, %s/sector.json, %s/unsealed, "
               "%s/sealed, "
               "%s/p_aux\n",
               info->name, (unsigned long long)sector_id, size, d, r, dir, dir, dir, dir, dir);
        if (!quiet) cuzk_timeline_print(tl, stderr);
    }
    rc = st ? cli_error("seal") : 0;
    cli_outputs_free(outs);
    free(json);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
    free(data);
    cuzk_timeline_destroy(tl);
    return rc;
}
