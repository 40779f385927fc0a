/* cuzk demo: the main job on an embedded default — seal a 2 KiB test sector, set up (once,
 * cached) its Groth16 parameters, prove its PoRep C2 and verify it, printing the per-stage
 * timeline; then the other three proofs of a 2 KiB sector (demo_post_snap.c). --circuit NAME
 * runs set up / prove / verify of a built-in circuit instead. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/demo.h"
#include "cli/settings.h"
#include "cuzk/testcircuits.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"

static cuzk_status open_named(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                              cuzk_circuit **out)
{
    (void)input;
    (void)input_len;
    (void)seed;
    (void)k;
    return cuzk_circuit_open(out, ctx);
}

/* Proves one job through an in-process engine (the one proving path). */
cuzk_status demo_run_job(cuzk_engine *e, const cuzk_job_request *req, cuzk_job_result *r)
{
    uint64_t id;
    cuzk_status st = cuzk_engine_submit(e, req, &id, NULL);
    if (!st) st = cuzk_engine_await(e, id, -1, r);
    if (!st && r->state != CUZK_JOB_COMPLETED) st = cuzk_fail(CUZK_EVERIFY, "%s", r->error);
    return st;
}

static int demo_circuit(const char *circuit, cuzk_timeline *tl)
{
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("demo");
    cuzk_r1cs m = {0};
    cuzk_groth16_params p = {0};
    char dir[] = "/tmp/cuzk-demo-XXXXXX", params[64], vk[64];
    bool made = mkdtemp(dir) != NULL;
    snprintf(params, sizeof params, "%s/demo.params", dir);
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    int span = cuzk_span_begin(tl, "record circuit");
    cuzk_status st = made ? cuzk_circuit_record(c, &m) : cuzk_fail(CUZK_EIO, "cannot make a folder under /tmp");
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "setup");
        st = cuzk_groth16_setup(&p, &m, NULL, tl);
        if (!st) st = cuzk_groth16_params_write(&p, params);
        cuzk_span_end(tl, span);
    }
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    if (!st) st = cli_engine_create(&e, false, NULL);
    cuzk_engine_circuit reg = {circuit, open_named, (void *)circuit, params, NULL, NULL, false, false};
    if (!st) st = cuzk_engine_register_circuit(e, &reg);
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = circuit, .partitions = 1, .seed = 3};
    if (!st) st = demo_run_job(e, &req, &r);
    cuzk_engine_destroy(e);
    if (!st) {
        printf("cuzk demo: %s, %zu constraints, %zu public inputs: proved and verified OK\n", circuit,
               m.num_constraints, m.num_inputs - 1);
        cuzk_timeline_print(tl, stdout);
        cli_print_timeline_json("the proof (engine)", r.timeline_json, stdout);
    }
    cuzk_job_result_free(&r);
    if (made) {
        remove(params);
        remove(vk);
        rmdir(dir);
    }
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
    return st ? cli_error("demo") : 0;
}

cuzk_status demo_cached_params(const char *cache, const char *circuit, char *path, char *vk, size_t cap,
                               cuzk_timeline *tl)
{
    char stem[96];
    snprintf(stem, sizeof stem, "%s", circuit);
    for (char *q = stem; *q; q++)
        if (*q == ':') *q = '-';
    snprintf(path, cap, "%s/%s.params", cache, stem);
    snprintf(vk, cap, "%s/%s.vk", cache, stem);
    struct stat sb;
    if (stat(path, &sb) == 0 && stat(vk, &sb) == 0) return CUZK_OK;
    if (mkdir(cache, 0777) != 0 && errno != EEXIST)
        return cuzk_fail(CUZK_EIO, "cannot create %s: %s", cache, strerror(errno));
    fprintf(stderr, "cuzk demo: making Groth16 parameters for %s once (cached in %s)...\n", circuit, cache);
    cuzk_circuit *c;
    cuzk_status st = cuzk_circuit_open(&c, circuit);
    if (st) return st;
    cuzk_r1cs m;
    cuzk_groth16_params p = {0};
    char name[128];
    snprintf(name, sizeof name, "setup of %s (first run only)", circuit);
    int span = cuzk_span_begin(tl, name);
    st = cuzk_circuit_record(c, &m);
    cuzk_circuit_free(c);
    if (!st) {
        st = cuzk_groth16_setup(&p, &m, NULL, tl);
        cuzk_r1cs_free(&m);
    }
    if (!st) st = cuzk_groth16_params_write(&p, path);
    if (!st) st = cuzk_groth16_vk_write(&p.vk, vk);
    cuzk_groth16_params_free(&p);
    cuzk_span_end(tl, span);
    return st;
}

static int demo_porep(const char *cache, cuzk_timeline *tl)
{
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = CUZK_SEAL_2KIB_V1_1;
    cuzk_prover_id_from_actor(sp.prover_id, 1002);
    sp.sector_id = 1;
    /* the 2 KiB devnet sector of porep-circuit.md: its comm_d and comm_r are on record */
    cuzk_status st = cuzk_hex_decode(sp.ticket, 32, "c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0");
    uint8_t seed[32];
    if (!st) st = cuzk_hex_decode(seed, 32, "62a9ec8794bdb9cf9899e3e1fde9dd3c84ecb285bfeeace7fdbf4924b25eba85");
    cuzk_sealed_sector *s = NULL;
    cuzk_c1 *c1 = NULL;
    char params[4200], vk[4200], id[64];
    uint8_t *json = NULL;
    size_t json_len = 0;
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    int job = cuzk_span_begin(tl, "PoRep C2, 2 KiB sector");
    int span = cuzk_span_begin(tl, "seal (precommit + commit1)");
    if (!st) st = cuzk_seal_precommit(&s, &sp, tl);
    if (!st) st = cuzk_seal_commit1(&c1, s, seed, tl);
    if (!st) st = cuzk_c1_write(c1, &json, &json_len); /* the C1 JSON, as Curio would send it */
    cuzk_span_end(tl, span);
    if (!st) st = demo_cached_params(cache, "porep:2KiB", params, vk, sizeof params, tl);
    /* the proof through an in-process engine: vanilla checks, witness, prover, verification */
    if (!st) {
        cuzk_porep_circuit_id(id, (uint64_t)c1->proof);
        span = cuzk_span_begin(tl, "start the engine");
        st = cli_engine_create(&e, false, NULL);
        if (!st) st = cuzk_engine_set_files(e, id, params, vk, NULL);
        cuzk_span_end(tl, span);
    }
    cuzk_job_request req = {.kind = CUZK_KIND_POREP, .input = json, .input_len = json_len};
    if (!st) {
        span = cuzk_span_begin(tl, "prove (engine job)");
        st = demo_run_job(e, &req, &r);
        cuzk_span_end(tl, span);
    }
    cuzk_engine_destroy(e);
    cuzk_span_end(tl, job);
    if (!st) {
        const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
        char d[65], rr[65], hex[2 * CUZK_GROTH16_PROOF_BYTES + 1];
        cuzk_hex_encode(d, cm->comm_d, 32);
        cuzk_hex_encode(rr, cm->comm_r, 32);
        cuzk_hex_encode(hex, r.proof, CUZK_GROTH16_PROOF_BYTES);
        printf("cuzk demo: PoRep C2 of a 2 KiB sector (StackedDrg2KiBV1_1, t01002, sector 1), %u threads\n"
               "comm_d %s\ncomm_r %s\nproof  %s\n",
               cuzk_threads(), d, rr, hex);
        cuzk_timeline_print(tl, stdout);
        cli_print_timeline_json("the proof (engine job)", r.timeline_json, stdout);
        printf("verified: OK (%zu public inputs recomputed from the sector's public data)\n",
               cuzk_seal_proof_num_inputs(c1->proof));
    }
    cuzk_job_result_free(&r);
    free(json);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
    return st ? cli_error("demo") : 0;
}

int cli_demo(int argc, char **argv)
{
    const char *circuit = NULL, *threads = NULL, *cache = NULL;
    bool done;
    cli_opt opts[] = {
        {"cache", "DIR", "where the 2 KiB parameters are made once and kept (default $HOME/.cache/cuzk)", &cache, NULL},
        {"circuit", "NAME",
         "instead: set up, prove and verify this built-in circuit (e.g. random:65536; default: the 2 KiB sector)",
         &circuit, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk demo [--cache DIR] [--circuit NAME] [--threads T]\n\n"
                       "A 2 KiB sector end to end: seals it, then proves and verifies its PoRep C2, a WindowPoSt, a\n"
                       "WinningPoSt and a SnapDeals update, printing each step's time. The parameters are made once\n"
                       "(a few minutes) and kept in --cache. With --circuit: setup, prove and verify of that\n"
                       "built-in circuit, with the timeline.\n\n"
                       "examples:\n  cuzk demo\n  cuzk demo --circuit random:65536",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (cli_threads("demo", threads)) return 2;
    char def[4096];
    if (!cache) {
        const char *home = cli_settings_get()->home;
        snprintf(def, sizeof def, "%s/.cache/cuzk", home ? home : "/tmp");
        if (home) {
            char parent[4096];
            snprintf(parent, sizeof parent, "%s/.cache", home);
            mkdir(parent, 0777);
        }
        cache = def;
    }
    cuzk_timeline *tl = cuzk_timeline_create("demo");
    rc = circuit ? demo_circuit(circuit, tl) : demo_porep(cache, tl);
    if (!circuit && rc == 0) rc = demo_post_snap(cache);
    if (circuit && rc == 0) cuzk_timeline_print(tl, stdout);
    cuzk_timeline_destroy(tl);
    return rc;
}
