/* cuzk snap encode: SnapDeals encoding of a test sector written by `cuzk seal` (its replica,
 * p_aux and sector.json) with new data: the updated replica, every partition's vanilla proof
 * as the bincode a prover receives, and the commitments. The outputs are checked before the
 * work, everything is computed before the first file is written, and the files are written
 * all or none (outputs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/faults.h"
#include "cli/outputs.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_snap.h"

static cuzk_status read_exact(const char *dir, const char *name, uint64_t want, uint8_t **out)
{
    char path[4096];
    size_t n = 0;
    cuzk_status st = cuzk_path_join(path, sizeof path, dir, name);
    if (!st) st = cuzk_read_file_max(path, want, out, &n);
    if (st) return st;
    if (n != want) {
        free(*out);
        *out = NULL;
        return cuzk_fail(CUZK_EINVAL, "%s has %zu bytes, expected %llu", path, n, (unsigned long long)want);
    }
    return CUZK_OK;
}

static char *update_json(const cuzk_update_proof_info *pi, const cuzk_snap_encoded_view *v)
{
    char o[65], d[65], n[65], c[65];
    cuzk_hex_encode(o, v->comm_r_old, 32);
    cuzk_hex_encode(d, v->comm_d_new, 32);
    cuzk_hex_encode(n, v->comm_r_new, 32);
    cuzk_hex_encode(c, v->comm_r_last_new, 32);
    size_t cap = 1024;
    char *s = malloc(cap);
    if (s)
        snprintf(s, cap,
                 "{\n  \"update_proof\": %d,\n  \"update_proof_name\": \"%s\",\n  \"sector_size\": %llu,\n"
                 "  \"partitions\": %u,\n  \"h\": %u,\n  \"comm_r_old\": \"%s\",\n  \"comm_d_new\": \"%s\",\n"
                 "  \"comm_r_new\": \"%s\",\n  \"comm_r_last_new\": \"%s\"\n}\n",
                 (int)pi->id, pi->name, (unsigned long long)pi->sector_size, pi->partitions, pi->h, o, d, n, c);
    return s;
}

#define SYNOPSIS "cuzk snap encode --sector DIR (--data FILE | --random-data SEED) --out DIR [--threads T]"
#define ABOUT                                                                                             \
    "SnapDeals: encodes new data into a sealed test sector (a full cuzk seal of 2KiB, 8MiB or 512MiB),\n" \
    "writing the updated replica, every partition's vanilla proof (bincode PartitionProof, what Curio\n"  \
    "sends) and update.json with comm_r_old, comm_r_new and comm_d_new.\n"
#define EXAMPLE                                               \
    "examples:\n"                                             \
    "  cuzk seal --sector-size 2KiB --out s\n"                \
    "  cuzk snap encode --sector s --random-data 1 --out u\n" \
    "  cuzk prove snap --vanilla u --params snap-2KiB.params --out u.proof"

static int snap_encode(int argc, char **argv)
{
    const char *sector = NULL, *data_path = NULL, *random_seed = NULL, *out = NULL, *threads = NULL;
    bool done;
    cli_opt opts[] = {
        {"sector", "DIR", "a sealed sector as cuzk seal --out DIR writes it (sealed, p_aux, sector.json; required)",
         &sector, NULL},
        {"data", "FILE", "the new data: Fr32-padded (every 32-byte node canonical), the sector's size", &data_path,
         NULL},
        {"random-data", "SEED", "instead of --data: random Fr32 data from SEED (for tests)", &random_seed, NULL},
        {"out", "DIR", "output folder (required): sealed-new, partition-K.bin (bincode PartitionProof), update.json",
         &out, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc =
        cli_parse(argc, argv, SYNOPSIS "\n\n" ABOUT "\n" EXAMPLE, opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!sector) return cli_missing("snap encode", "sector");
    if (!out) return cli_missing("snap encode", "out");
    if (!data_path == !random_seed) {
        fprintf(stderr, "cuzk snap encode: give exactly one of --data and --random-data\n");
        return 2;
    }
    uint64_t seed = 0;
    if (random_seed && cli_u64("snap encode", "random-data", random_seed, &seed)) return 2;
    if (cli_threads("snap encode", threads)) return 2;

    char path[4096];
    sector_public pub;
    if (cuzk_path_join(path, sizeof path, sector, "sector.json") || cuzk_check_input_file(path, CLI_SMALL_JSON_MAX) ||
        sector_public_read(path, &pub))
        return cli_error("snap encode");
    if (pub.sparse) {
        fprintf(stderr,
                "cuzk snap encode: %s is a sparse test sector (cuzk seal --sparse): it has no replica to encode "
                "into; seal it without --sparse\n",
                sector);
        return 1;
    }
    const cuzk_seal_proof_info *si = cuzk_seal_proof_info_get(pub.proof);
    cuzk_update_proof up;
    if (!si || cuzk_update_proof_for_sector_size(&up, si->sector_size)) return cli_error("snap encode");
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(up);

    /* the output folder and its files are checked before any work, and written all or none */
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error("snap encode");
    cli_outputs_input_in(outs, "sector", sector, "sector.json");
    cli_outputs_input_in(outs, "sector", sector, "p_aux");
    cli_outputs_input_in(outs, "sector", sector, "sealed");
    cli_outputs_input(outs, "data", data_path);
    cli_outputs_folder(outs, "out", out, 0777);
    int out_replica = cli_outputs_add_in(outs, "out", out, "sealed-new");
    int out_parts[16];
    for (unsigned k = 0; k < pi->partitions && k < 16; k++) {
        char name[32];
        snprintf(name, sizeof name, "partition-%u.bin", k);
        out_parts[k] = cli_outputs_add_in(outs, "out", out, name);
    }
    int out_json = cli_outputs_add_in(outs, "out", out, "update.json");
    if (cli_outputs_check(outs)) {
        cli_outputs_free(outs);
        return cli_error("snap encode");
    }

    uint8_t *sealed = NULL, *p_aux = NULL, *data = NULL;
    cuzk_snap_encoded *enc = NULL;
    uint8_t *blobs[16] = {0};
    size_t lens[16] = {0};
    char *json = NULL;
    cuzk_status st = read_exact(sector, "sealed", pi->sector_size, &sealed);
    if (!st) st = read_exact(sector, "p_aux", 64, &p_aux);
    if (!st && data_path) {
        size_t n = 0;
        st = cuzk_read_file_max(data_path, pi->sector_size, &data, &n);
        if (!st && n != pi->sector_size)
            st = cuzk_fail(CUZK_EINVAL, "%s has %zu bytes, a %s sector has %llu", data_path, n, pi->name,
                           (unsigned long long)pi->sector_size);
    } else if (!st) {
        data = malloc(pi->sector_size);
        if (!data) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        else {
            cuzk_rng rng;
            cuzk_rng_seed(&rng, seed);
            cuzk_rng_bytes(&rng, data, pi->sector_size);
            for (uint64_t i = 0; i < pi->nodes; i++) data[i * 32 + 31] &= 0x3f;
        }
    }
    cuzk_timeline *tl = cuzk_timeline_create("snap encode");
    if (!st) st = cuzk_snap_encode(&enc, up, sealed, data, p_aux, tl);
    cuzk_snap_encoded_view v;
    memset(&v, 0, sizeof v);
    if (!st) {
        cuzk_snap_encoded_get(enc, &v);
        /* the sector's public comm_r is the encoding's comm_r_old */
        if (memcmp(v.comm_r_old, pub.comm_r, 32))
            st =
                cuzk_fail(CUZK_EINVAL, "%s/sector.json: comm_r does not match H(comm_c, comm_r_last) of p_aux", sector);
    }
    for (unsigned k = 0; !st && k < v.partitions; k++)
        st = cuzk_snap_partition_write(&v.proofs[k], &blobs[k], &lens[k]);
    if (!st) cli_fault_snap_blobs(blobs, lens, v.partitions); /* nothing, but in the test binary */
    /* the folder's blobs pass the prover's own parse and checks, or nothing is written */
    if (!st) {
        cuzk_snap_proofs *check = NULL;
        st = cuzk_snap_parse(&check, up, v.comm_r_old, v.comm_r_new, v.comm_d_new, (const uint8_t *const *)blobs, lens,
                             v.partitions);
        if (st) st = cuzk_fail_context(st, "the encoded partition proofs, checked as cuzk prove snap checks them");
        cuzk_snap_proofs_free(check);
    }
    if (!st) {
        json = update_json(pi, &v);
        if (!json) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    if (!st && v.partitions > 16) st = cuzk_fail(CUZK_EINTERNAL, "%u partitions", v.partitions);
    if (!st) st = cli_outputs_write(outs, out_replica, v.replica, pi->sector_size);
    for (unsigned k = 0; !st && k < v.partitions; k++) st = cli_outputs_write(outs, out_parts[k], blobs[k], lens[k]);
    if (!st) st = cli_outputs_write(outs, out_json, json, strlen(json));
    if (!st) st = cli_outputs_commit(outs);
    if (!st) {
        char d[65], r[65];
        cuzk_hex_encode(d, v.comm_d_new, 32);
        cuzk_hex_encode(r, v.comm_r_new, 32);
        printf("encoded %s (%u partitions)\ncomm_d_new %s\ncomm_r_new %s\nwrote %s/sealed-new, %s/partition-*.bin, "
               "%s/update.json\n",
               pi->name, v.partitions, d, r, out, out, out);
        cuzk_timeline_print(tl, stderr);
    }
    rc = st ? cli_error("snap encode") : 0;
    cli_outputs_free(outs);
    for (unsigned k = 0; k < 16; k++) free(blobs[k]);
    free(json);
    cuzk_snap_encoded_free(enc);
    cuzk_timeline_destroy(tl);
    free(sealed);
    free(p_aux);
    free(data);
    return rc;
}

int cli_snap(int argc, char **argv)
{
    char name[64];
    if (argc >= 2 && !strcmp(argv[1], "encode")) return snap_encode(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: cuzk snap encode [options]   (cuzk snap encode --help for its options)\n\n"
               "SnapDeals test data: the one verb\n"
               "  encode   encode new data into a sealed test sector: the updated replica, every partition's\n"
               "           vanilla proof and update.json, what cuzk prove snap proves\n\n" EXAMPLE "\n");
        return 0;
    }
    if (argc >= 2) fprintf(stderr, "cuzk snap: unknown verb '%s' (encode)\n", argv[1]);
    fprintf(stderr, "usage: %s\n(cuzk snap encode --help: what it does, its options and examples)\n", SYNOPSIS);
    return 2;
}
