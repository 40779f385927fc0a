/* cuzk demo: the main job on an embedded default — seal a 2 KiB test sector, set up (once,
 * cached) its Groth16 parameters, prove its PoRep C2 and verify it, printing the per-stage
 * timeline. --circuit NAME runs set up / prove / verify of a built-in circuit instead. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/testcircuits.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/groth16.h"

static int demo_circuit(const char *circuit, cuzk_timeline *tl)
{
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("demo");
    cuzk_r1cs m = {0};
    cuzk_groth16_params p = {0};
    cuzk_prove_result pr = {0};
    cuzk_groth16_proof proof;
    int span = cuzk_span_begin(tl, "record circuit");
    cuzk_status st = cuzk_circuit_record(c, &m);
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "setup");
        st = cuzk_groth16_setup(&p, &m, NULL, tl);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        span = cuzk_span_begin(tl, "synthesize");
        st = cuzk_circuit_prove_input(c, 3, &pr);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
        st = cuzk_groth16_prove(&proof, &p, &w, NULL, NULL, tl);
    }
    if (!st) {
        span = cuzk_span_begin(tl, "verify");
        st = cuzk_groth16_verify(&p.vk, &proof, pr.input + 1, pr.num_inputs - 1);
        cuzk_span_end(tl, span);
    }
    if (!st)
        printf("cuzk demo: %s, %zu constraints, %zu public inputs: verified OK\n", circuit, m.num_constraints,
               m.num_inputs - 1);
    cuzk_prove_result_free(&pr);
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
    return st ? cli_error("demo") : 0;
}

/* Parameters for porep:2KiB from the cache folder, made there on first use. */
static cuzk_status cached_params(const char *cache, cuzk_groth16_params *p, cuzk_timeline *tl)
{
    char path[4096], vk[4096];
    snprintf(path, sizeof path, "%s/porep-2KiB.params", cache);
    snprintf(vk, sizeof vk, "%s/porep-2KiB.vk", cache);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        int span = cuzk_span_begin(tl, "read cached params");
        cuzk_status st = cuzk_groth16_params_read(p, path, CUZK_PARAMS_UNCHECKED);
        cuzk_span_end(tl, span);
        return st;
    }
    if (mkdir(cache, 0777) != 0 && errno != EEXIST)
        return cuzk_fail(CUZK_EIO, "cannot create %s: %s", cache, strerror(errno));
    fprintf(stderr, "cuzk demo: making Groth16 parameters for porep:2KiB once (cached in %s)...\n", cache);
    cuzk_circuit *c;
    cuzk_status st = cuzk_circuit_open(&c, "porep:2KiB");
    if (st) return st;
    cuzk_r1cs m;
    int span = cuzk_span_begin(tl, "setup (first run only)");
    st = cuzk_circuit_record(c, &m);
    cuzk_circuit_free(c);
    if (!st) {
        st = cuzk_groth16_setup(p, &m, NULL, tl);
        cuzk_r1cs_free(&m);
    }
    if (!st) st = cuzk_groth16_params_write(p, path);
    if (!st) st = cuzk_groth16_vk_write(&p->vk, vk);
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
    cuzk_groth16_params p = {0};
    cuzk_prove_result pr = {0};
    cuzk_groth16_proof proof;
    cuzk_fr inputs[64];
    cuzk_porep_shape shape;
    int job = cuzk_span_begin(tl, "PoRep C2, 2 KiB sector");
    int span = cuzk_span_begin(tl, "seal (precommit + commit1)");
    if (!st) st = cuzk_seal_precommit(&s, &sp, tl);
    if (!st) st = cuzk_seal_commit1(&c1, s, seed, tl);
    cuzk_span_end(tl, span);
    if (!st) st = cached_params(cache, &p, tl);
    if (!st) st = cuzk_porep_shape_for_proof(&shape, c1->proof);
    if (!st) {
        span = cuzk_span_begin(tl, "synthesize");
        cuzk_cs *cs;
        st = cuzk_cs_create(&cs, CUZK_CS_PROVE, true);
        if (!st) {
            cuzk_stacked_synthesize(cs, &shape, c1, 0);
            st = cuzk_cs_finish_prove(cs, &pr);
            cuzk_cs_destroy(cs);
        }
        cuzk_span_end(tl, span);
    }
    if (!st) {
        cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
        st = cuzk_groth16_prove(&proof, &p, &w, NULL, NULL, tl);
    }
    if (!st) {
        span = cuzk_span_begin(tl, "verify");
        st = cuzk_porep_public_inputs(inputs, 64, c1->proof, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, 0);
        if (!st) st = cuzk_groth16_verify(&p.vk, &proof, inputs, cuzk_seal_proof_num_inputs(c1->proof));
        cuzk_span_end(tl, span);
    }
    cuzk_span_end(tl, job);
    if (!st) {
        const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
        char d[65], r[65], hex[2 * CUZK_GROTH16_PROOF_BYTES + 1];
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        cuzk_hex_encode(d, cm->comm_d, 32);
        cuzk_hex_encode(r, cm->comm_r, 32);
        cuzk_groth16_proof_encode(bytes, &proof);
        cuzk_hex_encode(hex, bytes, sizeof bytes);
        printf("cuzk demo: PoRep C2 of a 2 KiB sector (StackedDrg2KiBV1_1, t01002, sector 1), %u threads\n"
               "comm_d %s\ncomm_r %s\nproof  %s\n",
               cuzk_threads(), d, r, hex);
        cuzk_timeline_print(tl, stdout);
        printf("verified: OK (%zu public inputs recomputed from the sector's public data)\n",
               cuzk_seal_proof_num_inputs(c1->proof));
    }
    cuzk_prove_result_free(&pr);
    cuzk_groth16_params_free(&p);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
    return st ? cli_error("demo") : 0;
}

int cli_demo(int argc, char **argv)
{
    const char *circuit = NULL, *threads = NULL, *cache = NULL;
    bool done;
    cli_opt opts[] = {
        {"cache", "DIR", "where the 2 KiB parameters are kept (default $HOME/.cache/cuzk)", &cache, NULL},
        {"circuit", "NAME", "instead: set up, prove and verify a built-in circuit (e.g. random:65536)", &circuit, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc = cli_parse(argc, argv, "cuzk demo [--cache DIR] [--circuit NAME] [--threads T]", opts,
                       (int)(sizeof opts / sizeof opts[0]), &done);
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
    if (circuit && rc == 0) cuzk_timeline_print(tl, stdout);
    cuzk_timeline_destroy(tl);
    return rc;
}
