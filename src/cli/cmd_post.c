/* cuzk post vanilla: the vanilla PoSt proofs of sealed test sectors (`cuzk seal --out DIR`
 * folders), one bincode blob per sector as a storage provider's prover sends them, and
 * post.json with the public data the SNARK prover needs. Nothing is written unless every
 * sector's proof was made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_post.h"

#define MAX_SECTORS 2349 /* the largest partition */

#define SYNOPSIS                                                                                           \
    "cuzk post vanilla --kind winning|window --sector DIR [--sector DIR ...] --randomness HEX --out DIR\n" \
    "                  [--partition K] [--proof-type V1|V1_1]"
#define EXAMPLE                                                                  \
    "examples:\n"                                                                \
    "  cuzk seal --sector-size 2KiB --out s\n"                                   \
    "  cuzk post vanilla --kind window --sector s --randomness "                 \
    "0101010101010101010101010101010101010101010101010101010101010101 --out w\n" \
    "  cuzk prove window-post --vanilla w --params window-2KiB.params --out w.proof"

static const char USAGE[] =
    SYNOPSIS "\n\n"
             "Makes the vanilla PoSt proofs of sealed test sectors (full cuzk seal folders): one bincode blob per\n"
             "sector, as a storage provider's prover sends them to Curio, and post.json with the public data\n"
             "(randomness, sector ids, comm_r; the sectors in ascending id order, as the chain lists them).\n"
             "cuzk prove window-post / winning-post proves the folder.\n\n" EXAMPLE;

typedef struct {
    sector_public pub;
    cuzk_mapped_file sealed;
    cuzk_post_replica rep;
} sector_in;

static cuzk_status read_sector(const char *dir, sector_in *s)
{
    char path[4096];
    cuzk_status st = cuzk_path_join(path, sizeof path, dir, "sector.json");
    if (!st) st = cuzk_check_input_file(path, CLI_SMALL_JSON_MAX);
    if (!st) st = sector_public_read(path, &s->pub);
    if (st) return cuzk_fail_context(st, "sector %s", dir);
    if (s->pub.sparse)
        return cuzk_fail(CUZK_EINVAL,
                         "sector %s is a sparse test sector (cuzk seal --sparse): it has no replica to prove "
                         "PoSt over; seal it without --sparse",
                         dir);
    uint8_t *aux = NULL;
    size_t n = 0;
    if ((st = cuzk_path_join(path, sizeof path, dir, "p_aux")) ||
        (st = cuzk_read_file_max(path, sizeof s->rep.p_aux, &aux, &n)))
        return st;
    if (n != sizeof s->rep.p_aux) {
        free(aux);
        return cuzk_fail(CUZK_EFORMAT, "%s: %zu bytes, p_aux is 64 (comm_c || comm_r_last)", path, n);
    }
    memcpy(s->rep.p_aux, aux, 64);
    free(aux);
    if ((st = cuzk_path_join(path, sizeof path, dir, "sealed")) || (st = cuzk_map_file(&s->sealed, path))) return st;
    s->rep.sector_id = s->pub.sector_id;
    memcpy(s->rep.comm_r, s->pub.comm_r, 32);
    s->rep.replica = s->sealed.data;
    s->rep.replica_len = s->sealed.size;
    return CUZK_OK;
}

/* Every --sector folder, all of one size, and the proof type of that size. */
static cuzk_status read_sectors(const char *const *dirs, size_t n, cuzk_post_kind kind, bool v1_1, sector_in *s,
                                const cuzk_post_proof_info **pi)
{
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n && !st; i++) {
        if ((st = read_sector(dirs[i], &s[i]))) break;
        uint64_t size = cuzk_seal_proof_info_get(s[i].pub.proof)->sector_size;
        if (i == 0) {
            cuzk_post_proof p;
            st = cuzk_post_proof_lookup(&p, kind, size, v1_1);
            if (!st) *pi = cuzk_post_proof_info_get(p);
        } else if (size != (*pi)->sector_size)
            st = cuzk_fail(CUZK_EINVAL, "sector %s is of another size (%llu bytes) than the first (%llu)", dirs[i],
                           (unsigned long long)size, (unsigned long long)(*pi)->sector_size);
        if (!st && s[i].sealed.size != size)
            st = cuzk_fail(CUZK_EFORMAT, "%s/sealed: %zu bytes, the sector's size is %llu", dirs[i], s[i].sealed.size,
                           (unsigned long long)size);
    }
    return st;
}

/* The slots in ascending sector id order, as upstream lists a partition's sectors and as a
 * verifier's public sector list (post.json's) must be: order[i] is the sector of slot i. Two
 * folders of one sector id are refused. */
static cuzk_status sector_order(const sector_in *s, const char *const *dirs, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = i; /* insertion: at most 2349 sectors, usually given in order */
        while (k > 0 && s[order[k - 1]].pub.sector_id > s[i].pub.sector_id) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (size_t i = 1; i < n; i++)
        if (s[order[i]].pub.sector_id == s[order[i - 1]].pub.sector_id)
            return cuzk_fail(CUZK_EINVAL, "--sector %s and --sector %s are both sector %llu", dirs[order[i - 1]],
                             dirs[order[i]], (unsigned long long)s[order[i]].pub.sector_id);
    return CUZK_OK;
}

static cuzk_status write_json(const char *path, const cuzk_post_proof_info *pi, const char *kind, const uint8_t rnd[32],
                              uint64_t k, const sector_in *s, const size_t *order, size_t n)
{
    size_t cap = 512 + n * 200;
    char *buf = malloc(cap), hex[65];
    if (!buf) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_hex_encode(hex, rnd, 32);
    size_t o = (size_t)snprintf(buf, cap,
                                "{\n  \"registered_proof\": %d,\n  \"registered_proof_name\": \"%s\",\n  \"kind\": "
                                "\"%s\",\n  \"randomness\": \"%s\",\n  \"partition_index\": %llu,\n  \"sectors\": [",
                                (int)pi->id, pi->name, kind, hex, (unsigned long long)k);
    for (size_t i = 0; i < n; i++) {
        char id[SECTOR_ID_JSON_MAX];
        const sector_in *si = &s[order[i]];
        sector_id_json(id, si->pub.sector_id); /* above 2^63 - 1 a string: jansson reads it back */
        cuzk_hex_encode(hex, si->pub.comm_r, 32);
        o += (size_t)snprintf(buf + o, cap - o,
                              "%s\n    {\"sector_id\": %s, \"comm_r\": \"%s\", \"vanilla_proof\": \"vanilla-%zu.bin\"}",
                              i ? "," : "", id, hex, i);
    }
    o += (size_t)snprintf(buf + o, cap - o, "\n  ]\n}\n");
    cuzk_status st = cuzk_write_file_atomic(path, buf, o);
    free(buf);
    return st;
}

static int post_vanilla(int argc, char **argv)
{
    /* --sector repeats: collect them, hand the rest to the option table */
    const char *dirs[MAX_SECTORS];
    size_t ndirs = 0;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest) return cli_error("post vanilla");
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--sector")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cuzk post vanilla: --sector needs a value (DIR)\n");
                free(rest);
                return 2;
            }
            if (ndirs == MAX_SECTORS) {
                fprintf(stderr, "cuzk post vanilla: more than %d --sector folders\n", MAX_SECTORS);
                free(rest);
                return 2;
            }
            dirs[ndirs++] = argv[++i];
        } else rest[nrest++] = argv[i];
    }
    const char *kind_s = NULL, *rnd_s = NULL, *part_s = "0", *type = NULL, *out = NULL, *dummy = NULL;
    bool done;
    cli_opt opts[] = {
        {"kind", "winning|window", "WinningPoSt (one sector, 66 challenges) or WindowPoSt (a partition; required)",
         &kind_s, NULL},
        {"sector", "DIR", "a cuzk seal --out folder (sealed, p_aux, sector.json; required); repeat for Window", &dummy,
         NULL},
        {"randomness", "HEX",
         "64 hex digits, a canonical field element (required; clear the top two bits: byte 31 &= 0x3f)", &rnd_s, NULL},
        {"partition", "K", "partition index (Window; default 0)", &part_s, NULL},
        {"proof-type", "V1|V1_1", "Window: V1_1 (default, StackedDrgWindow*V1_2) or V1; Winning: V1", &type, NULL},
        {"out", "DIR",
         "output folder (required): vanilla-0.bin ... (one per sector, in ascending sector id order), post.json", &out,
         NULL},
    };
    int rc = cli_parse(nrest, rest, USAGE, opts, (int)(sizeof opts / sizeof opts[0]), &done);
    free(rest);
    if (rc || done) return rc;
    if (!kind_s) return cli_missing("post vanilla", "kind");
    if (!ndirs) return cli_missing("post vanilla", "sector");
    if (!rnd_s) return cli_missing("post vanilla", "randomness");
    if (!out) return cli_missing("post vanilla", "out");
    cuzk_post_kind kind;
    if (!strcmp(kind_s, "winning")) kind = CUZK_POST_WINNING;
    else if (!strcmp(kind_s, "window")) kind = CUZK_POST_WINDOW;
    else {
        fprintf(stderr, "cuzk post vanilla: --kind must be winning or window, not '%s'\n", kind_s);
        return 2;
    }
    if (!type) type = kind == CUZK_POST_WINDOW ? "V1_1" : "V1";
    if (strcmp(type, "V1") && strcmp(type, "V1_1")) {
        fprintf(stderr, "cuzk post vanilla: --proof-type must be V1 or V1_1, not '%s'\n", type);
        return 2;
    }
    uint64_t k;
    if (cli_u64("post vanilla", "partition", part_s, &k)) return 2;
    uint8_t rnd[32];
    if (cuzk_hex_decode(rnd, 32, rnd_s) || cuzk_post_check_randomness(rnd)) {
        fprintf(stderr, "cuzk post vanilla: --randomness: %s\n", cuzk_last_error());
        return 2;
    }
    if (k > UINT32_MAX) {
        fprintf(stderr, "cuzk post vanilla: --partition %llu is out of range\n", (unsigned long long)k);
        return 2;
    }

    /* the output folder and its files are checked before any work, and written all or none */
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error("post vanilla");
    for (size_t i = 0; i < ndirs; i++) {
        cli_outputs_input_in(outs, "sector", dirs[i], "sector.json");
        cli_outputs_input_in(outs, "sector", dirs[i], "p_aux");
        cli_outputs_input_in(outs, "sector", dirs[i], "sealed");
    }
    cli_outputs_folder(outs, "out", out, 0777);
    for (size_t i = 0; i < ndirs; i++) {
        char name[64];
        snprintf(name, sizeof name, "vanilla-%zu.bin", i);
        cli_outputs_add_in(outs, "out", out, name);
    }
    int out_json = cli_outputs_add_in(outs, "out", out, "post.json");
    if (cli_outputs_check(outs)) {
        cli_outputs_free(outs);
        return cli_error("post vanilla");
    }
    sector_in *s = calloc(ndirs, sizeof *s);
    uint8_t **blobs = calloc(ndirs, sizeof *blobs);
    size_t *lens = calloc(ndirs, sizeof *lens), *order = calloc(ndirs, sizeof *order);
    cuzk_post_replica *reps = calloc(ndirs, sizeof *reps);
    cuzk_status st = s && blobs && lens && order && reps ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    const cuzk_post_proof_info *pi = NULL;
    if (!st) st = read_sectors(dirs, ndirs, kind, !strcmp(type, "V1_1"), s, &pi);
    if (!st) st = sector_order(s, dirs, ndirs, order);
    for (size_t i = 0; i < ndirs && !st; i++) reps[i] = s[order[i]].rep;
    if (!st) st = cuzk_post_vanilla_prove(pi->id, rnd, (uint32_t)k, reps, ndirs, blobs, lens);
    /* every file or none */
    for (size_t i = 0; i < ndirs && !st; i++) st = cli_outputs_write(outs, (int)i, blobs[i], lens[i]);
    if (!st) {
        const char *path = cli_outputs_path(outs, out_json);
        st = path ? cli_outputs_context(outs, out_json, write_json(path, pi, kind_s, rnd, k, s, order, ndirs))
                  : CUZK_EIO;
    }
    if (!st) st = cli_outputs_commit(outs);
    if (!st)
        printf("%s partition %llu: %zu vanilla proof%s (%zu bytes each) in %s\n", pi->name, (unsigned long long)k,
               ndirs, ndirs == 1 ? "" : "s", lens[0], out);
    for (size_t i = 0; s && i < ndirs; i++) {
        cuzk_unmap_file(&s[i].sealed);
        if (blobs) free(blobs[i]);
    }
    free(s);
    free(blobs);
    free(lens);
    free(order);
    free(reps);
    cli_outputs_free(outs);
    return st ? cli_error("post vanilla") : 0;
}

int cli_post(int argc, char **argv)
{
    char name[64];
    if (argc >= 2 && !strcmp(argv[1], "vanilla"))
        return post_vanilla(argc - 1, cli_subcommand(argv, name, sizeof name));
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: cuzk post vanilla [options]   (cuzk post vanilla --help for its options)\n\n"
               "PoSt test data: the one verb\n"
               "  vanilla   the vanilla WindowPoSt or WinningPoSt proofs of sealed test sectors (bincode blobs\n"
               "            and post.json), what cuzk prove window-post / winning-post proves\n\n" EXAMPLE "\n");
        return 0;
    }
    if (argc >= 2) fprintf(stderr, "cuzk post: unknown verb '%s' (vanilla)\n", argv[1]);
    fprintf(stderr, "usage: %s\n(cuzk post vanilla --help: what it does, its options and examples)\n", SYNOPSIS);
    return 2;
}
