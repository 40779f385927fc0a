/* cuzk seal: a test sector's C1 output. Sealed in full (2 KiB, 8 MiB, 512 MiB): the data, the
 * replica and p_aux beside c1.json and sector.json, as PoSt and SnapDeals need them. Sparse
 * (--sparse, every size up to 64 GiB): c1.json and sector.json only, the sector itself never
 * materialized (cuzk/filecoin_seal.h). The output files are checked before any work, everything
 * is computed before anything is written, and the files are committed together (cli/outputs.h):
 * a failure leaves none of them behind (nor the folder, when this run made it), and files of an
 * earlier run they would have replaced keep their content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "cli/progress_term.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_seal.h"

/* Published sector sizes; the first FULL_SIZES are the ones sealed in full. */
static const char *const SIZES[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])
#define FULL_SIZES 3

/* --proof-type: a short name or the serde name's suffix after the size. */
static const struct {
    const char *alias, *suffix;
} TYPES[] = {
    {"V1", "V1"}, {"V1_1", "V1_1"}, {"synthetic", "V1_1_Feat_SyntheticPoRep"}, {"ni", "V1_2_Feat_NonInteractivePoRep"}};

static cuzk_status pick_proof(const char *size, const char *type, bool sparse, cuzk_seal_proof *out)
{
    size_t i = 0;
    while (i < NSIZES && strcmp(size, SIZES[i])) i++;
    if (i == NSIZES)
        return cuzk_fail(CUZK_EINVAL,
                         "--sector-size must be 2KiB, 8MiB or 512MiB (with --sparse also 32GiB or 64GiB), not '%s'",
                         size);
    if (i >= FULL_SIZES && !sparse)
        return cuzk_fail(CUZK_EINVAL,
                         "--sector-size %s needs --sparse: sectors this large are not sealed in full for tests "
                         "(--sparse makes their C1 in moments)",
                         size);
    const char *suffix = NULL;
    for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0] && !suffix; t++)
        if (!strcmp(type, TYPES[t].alias) || !strcmp(type, TYPES[t].suffix)) suffix = TYPES[t].suffix;
    if (!suffix)
        return cuzk_fail(CUZK_EINVAL,
                         "--proof-type must be V1, V1_1, synthetic (V1_1_Feat_SyntheticPoRep) or ni "
                         "(V1_2_Feat_NonInteractivePoRep), not '%s'",
                         type);
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%s%s", size, suffix);
    return cuzk_seal_proof_from_name(out, name, strlen(name));
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

/* ---------------------------------------------------------------- the output files */
/* DIR's files, registered in this order (a sparse seal writes the first two only). */
enum { OUT_C1, OUT_SECTOR, OUT_UNSEALED, OUT_SEALED, OUT_P_AUX, NOUT };
static const char *const OUT_NAMES[NOUT] = {"c1.json", "sector.json", "unsealed", "sealed", "p_aux"};

/* Output i streamed: *f is its temporary, closed by output_close. */
static cuzk_status output_open(cli_outputs *o, int i, cuzk_out_file *f)
{
    const char *p = cli_outputs_path(o, i);
    return p ? cli_outputs_context(o, i, cuzk_out_open(f, p)) : CUZK_EIO;
}

static cuzk_status output_close(cli_outputs *o, int i, cuzk_out_file *f, cuzk_status st)
{
    if (st) {
        cuzk_out_abort(f);
        return cli_outputs_context(o, i, st);
    }
    return cli_outputs_context(o, i, cuzk_out_commit(f));
}

/* ---------------------------------------------------------------- sealing */
typedef struct {
    cuzk_seal_params sp;
    uint8_t seed[32];
    const char *size, *dir;
    bool quiet;
} seal_request;

static cuzk_status write_sector_json(cli_outputs *o, const seal_request *q, const cuzk_seal_commitments *cm,
                                     bool sparse)
{
    sector_public pub;
    memset(&pub, 0, sizeof pub);
    pub.proof = q->sp.proof;
    pub.sector_id = q->sp.sector_id;
    pub.sparse = sparse;
    memcpy(pub.prover_id, q->sp.prover_id, 32);
    memcpy(pub.ticket, q->sp.ticket, 32);
    memcpy(pub.seed, q->seed, 32);
    memcpy(pub.comm_d, cm->comm_d, 32);
    memcpy(pub.comm_r, cm->comm_r, 32);
    memcpy(pub.replica_id, cm->replica_id, 32);
    char *text;
    size_t n;
    cuzk_status st = sector_public_format(&pub, &text, &n);
    if (!st) st = cli_outputs_write(o, OUT_SECTOR, text, n);
    free(text);
    return st;
}

static void print_summary(const seal_request *q, const cuzk_seal_commitments *cm, const char *what, double secs,
                          size_t c1_bytes)
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(q->sp.proof);
    char d[65], r[65];
    cuzk_hex_encode(d, cm->comm_d, 32);
    cuzk_hex_encode(r, cm->comm_r, 32);
    printf("%s %s sector %llu (%s): %u partition(s) of %u challenges, in %.3f s; c1.json %.2f MiB\n"
           "comm_d %s\ncomm_r %s\n",
           what, info->name, (unsigned long long)q->sp.sector_id, q->size, info->partitions,
           info->challenges_per_partition, secs, (double)c1_bytes / (1 << 20), d, r);
}

/* The replica, streamed from the sealed sector in slices. */
static cuzk_status write_replica(cuzk_out_file *f, const cuzk_sealed_sector *s, uint64_t nodes)
{
    const uint64_t slice = 1 << 15; /* nodes: 1 MiB */
    uint8_t *buf = malloc(slice * 32);
    if (!buf) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_status st = CUZK_OK;
    for (uint64_t v = 0; v < nodes && !st; v += slice) {
        uint64_t n = nodes - v < slice ? nodes - v : slice;
        cuzk_sealed_replica_nodes(s, v, n, buf);
        st = cuzk_out_write(f, buf, n * 32);
    }
    free(buf);
    return st;
}

/* Zeros: the unsealed data of a CC sector. */
static cuzk_status write_zeros(cuzk_out_file *f, uint64_t bytes)
{
    static const uint8_t zeros[1 << 16];
    cuzk_status st = CUZK_OK;
    for (uint64_t off = 0; off < bytes && !st; off += sizeof zeros)
        st = cuzk_out_write(f, zeros, bytes - off < sizeof zeros ? bytes - off : sizeof zeros);
    return st;
}

static int seal_full(const seal_request *q, const uint8_t *data, cli_outputs *o)
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(q->sp.proof);
    cuzk_timeline *tl = cuzk_timeline_create("seal");
    cuzk_sealed_sector *s = NULL;
    cuzk_c1 *c1 = NULL;
    uint8_t *json = NULL;
    size_t json_len = 0;
    double t0 = cuzk_now();
    int span = cuzk_span_begin(tl, "precommit");
    cuzk_status st = cuzk_seal_precommit_progress(&s, &q->sp, tl, cli_progress(q->quiet, false));
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "commit1");
        st = cuzk_seal_commit1(&c1, s, q->seed, tl);
        cuzk_span_end(tl, span);
    }
    if (!st) st = cuzk_c1_write(c1, &json, &json_len);
    double secs = cuzk_now() - t0;
    if (!st) {
        span = cuzk_span_begin(tl, "write files");
        cuzk_out_file f;
        st = cli_outputs_write(o, OUT_C1, json, json_len);
        if (!st && !(st = output_open(o, OUT_UNSEALED, &f)))
            st = output_close(o, OUT_UNSEALED, &f,
                              data ? cuzk_out_write(&f, data, info->sector_size) : write_zeros(&f, info->sector_size));
        if (!st && !(st = output_open(o, OUT_SEALED, &f)))
            st = output_close(o, OUT_SEALED, &f, write_replica(&f, s, info->nodes));
        if (!st) {
            uint8_t p_aux[CUZK_P_AUX_BYTES];
            cuzk_sealed_p_aux(s, p_aux);
            st = cli_outputs_write(o, OUT_P_AUX, p_aux, sizeof p_aux);
        }
        if (!st) st = write_sector_json(o, q, cuzk_sealed_commitments(s), false);
        if (!st) st = cli_outputs_commit(o);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        print_summary(q, cuzk_sealed_commitments(s), "sealed", secs, json_len);
        const char *d = q->dir;
        printf("wrote %s/c1.json, %s/sector.json, %s/unsealed, %s/sealed, %s/p_aux\n", d, d, d, d, d);
        if (!q->quiet) cuzk_timeline_print(tl, stderr);
    }
    int rc = st ? cli_error("seal") : 0;
    free(json);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
    cuzk_timeline_destroy(tl);
    return rc;
}

static int seal_sparse(const seal_request *q, cli_outputs *o)
{
    /* a full seal's files beside a sparse sector.json would describe another sector */
    static const char *const full_only[] = {"unsealed", "sealed", "p_aux"};
    for (size_t i = 0; i < sizeof full_only / sizeof full_only[0]; i++) {
        char path[4096];
        if (cuzk_path_join(path, sizeof path, q->dir, full_only[i])) return cli_error("seal");
        if (access(path, F_OK) == 0) {
            fprintf(stderr,
                    "cuzk seal: %s holds a fully sealed sector (%s): a sparse one has none of its files; give "
                    "another --out\n",
                    q->dir, full_only[i]);
            return 1;
        }
    }
    cuzk_timeline *tl = cuzk_timeline_create("seal --sparse");
    cuzk_c1 *c1 = NULL;
    cuzk_seal_commitments cm;
    uint8_t *json = NULL;
    size_t json_len = 0;
    double t0 = cuzk_now();
    cuzk_status st = cuzk_seal_sparse_commit1(&c1, &cm, &q->sp, q->seed, tl);
    if (!st) {
        int span = cuzk_span_begin(tl, "C1 JSON");
        st = cuzk_c1_write(c1, &json, &json_len);
        cuzk_span_end(tl, span);
    }
    double secs = cuzk_now() - t0;
    if (!st) {
        int span = cuzk_span_begin(tl, "write files");
        st = cli_outputs_write(o, OUT_C1, json, json_len);
        if (!st) st = write_sector_json(o, q, &cm, true);
        if (!st) st = cli_outputs_commit(o);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        print_summary(q, &cm, "sparse test sector", secs, json_len);
        printf("wrote %s/c1.json, %s/sector.json (not materialized: no unsealed, sealed or p_aux)\n", q->dir, q->dir);
        if (!q->quiet) cuzk_timeline_print(tl, stderr);
    }
    int rc = st ? cli_error("seal") : 0;
    free(json);
    cuzk_c1_free(c1);
    cuzk_timeline_destroy(tl);
    return rc;
}

static const char USAGE[] =
    "cuzk seal --sector-size 2KiB|8MiB|512MiB --out DIR [options]\n"
    "       cuzk seal --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB --sparse --out DIR [options]\n\n"
    "Seals a test sector and writes its C1 output (what cuzk prove porep proves) and public data.\n"
    "A full seal writes DIR/c1.json, sector.json, unsealed (the data), sealed (the replica) and p_aux.\n"
    "--sparse makes a sparse test sector of any size: zero data, and only what the challenges open\n"
    "is computed (the challenged nodes' labels; every other label is zero), in moments and a few MiB\n"
    "even for 64GiB. Its c1.json is proved by `cuzk prove porep` and checked by `cuzk verify porep`\n"
    "like any other; sector.json says \"test_sector\": \"sparse\". The sector is not materialized: there\n"
    "is no unsealed, sealed or p_aux file, so no PoSt or SnapDeals on it. Interactive proof types\n"
    "only (V1, V1_1): synthetic and NI challenges are derived from comm_r, which commits to the\n"
    "challenged columns themselves. --data does not go with it.\n\n"
    "examples:\n"
    "  cuzk seal --sector-size 2KiB --out s\n"
    "  cuzk seal --sector-size 32GiB --sparse --out s32";

int cli_seal(int argc, char **argv)
{
    const char *size = NULL, *dir = NULL, *type = "V1_1", *prover = "t01000", *sector_s = "1", *ticket_s = NULL,
               *seed_s = NULL, *data_path = NULL, *threads = NULL;
    bool quiet = false, sparse = false, done;
    cli_opt opts[] = {
        {"sector-size", "SIZE", "2KiB, 8MiB or 512MiB; with --sparse also 32GiB or 64GiB (required)", &size, NULL},
        {"out", "DIR",
         "output folder (required): c1.json and sector.json; sealed in full also unsealed (data), sealed (replica) "
         "and p_aux",
         &dir, NULL},
        {"sparse", NULL, "a sparse test sector of any size, not materialized (see above)", NULL, &sparse},
        {"proof-type", "TYPE",
         "V1, V1_1, synthetic (V1_1_Feat_SyntheticPoRep) or ni (V1_2_Feat_NonInteractivePoRep); default V1_1", &type,
         NULL},
        {"prover-id", "ID", "miner ID address (t01002) or 64 hex digits (default t01000)", &prover, NULL},
        {"sector-id", "N", "sector number (default 1)", &sector_s, NULL},
        {"ticket", "HEX", "64 hex digits (default: random)", &ticket_s, NULL},
        {"seed", "HEX", "interactive seed, 64 hex digits (default: random)", &seed_s, NULL},
        {"data", "FILE", "sector data (Fr32-padded, the sector's size; default: zeros, a CC sector); not with --sparse",
         &data_path, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv, USAGE, opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!size) return cli_missing("seal", "sector-size");
    if (!dir) return cli_missing("seal", "out");
    if (sparse && data_path) {
        fprintf(stderr,
                "cuzk seal: --data does not go with --sparse: a sparse sector holds zero data (a CC sector; "
                "it is never materialized, only its challenged nodes are computed); seal without --sparse "
                "to seal data\n");
        return 2;
    }
    uint64_t sector_id;
    if (cli_u64("seal", "sector-id", sector_s, &sector_id) || cli_threads("seal", threads)) return 2;
    seal_request q;
    memset(&q, 0, sizeof q);
    q.size = size;
    q.dir = dir;
    q.quiet = quiet;
    q.sp.sector_id = sector_id;
    cuzk_status st = pick_proof(size, type, sparse, &q.sp.proof);
    const cuzk_seal_proof_info *info = st ? NULL : cuzk_seal_proof_info_get(q.sp.proof);
    if (!st && sparse && info->challenges != CUZK_CHALLENGES_INTERACTIVE)
        st = cuzk_fail(CUZK_EINVAL,
                       "--sparse needs an interactive proof type (V1 or V1_1), not %s: its challenges are derived "
                       "from comm_r, which commits to every challenged column, so they cannot be known before the "
                       "columns they select are computed",
                       info->name);
    if (!st) st = parse_prover_id(prover, q.sp.prover_id);
    if (!st) st = hex32_or_random("ticket", ticket_s, q.sp.ticket);
    if (!st) st = hex32_or_random("seed", seed_s, q.seed);
    if (!st && !memcmp(q.seed, (uint8_t[32]){0}, 32)) st = cuzk_fail(CUZK_EINVAL, "--seed must not be zero");
    if (st) {
        fprintf(stderr, "cuzk seal: %s\n", cuzk_last_error());
        return 2;
    }
    /* every output in DIR is checked (and --data read) before the folder is made or any work */
    cli_outputs *o = cli_outputs_new();
    if (!o) return cli_error("seal");
    cli_outputs_input(o, "data", data_path);
    cli_outputs_folder(o, "out", dir, 0777);
    for (int i = 0; i < (sparse ? OUT_UNSEALED : NOUT); i++) cli_outputs_add_in(o, "out", dir, OUT_NAMES[i]);
    if (cli_outputs_check(o)) {
        cli_outputs_free(o);
        return cli_error("seal");
    }
    if (sparse) {
        rc = seal_sparse(&q, o);
        cli_outputs_free(o);
        return rc;
    }
    uint8_t *data = NULL;
    size_t data_size = 0;
    if (data_path) {
        if (cuzk_read_file_max(data_path, info->sector_size, &data, &data_size)) {
            cli_outputs_free(o);
            return cli_error("seal");
        }
        if (data_size != info->sector_size) {
            fprintf(stderr, "cuzk seal: %s has %zu bytes, a %s sector has %llu\n", data_path, data_size, size,
                    (unsigned long long)info->sector_size);
            free(data);
            cli_outputs_free(o);
            return 1;
        }
        q.sp.data = data;
    }
    rc = seal_full(&q, data, o);
    cli_outputs_free(o);
    free(data);
    return rc;
}
