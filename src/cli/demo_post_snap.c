/* The demo's second part: the three other proofs a storage provider makes, for a 2 KiB CC test
 * sector — WindowPoSt (a partition of that sector), WinningPoSt and SnapDeals (random data
 * encoded into it) — each from its bincode vanilla proofs, as Curio sends them, through an
 * in-process engine (vanilla checks, witness, prover, batch verification). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/demo.h"
#include "cli/settings.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"

typedef struct {
    const char *what, *circuit;
    cuzk_job_request req;
    uint8_t *blobs[16]; /* the vanilla proofs req names (owned) */
    size_t lens[16];
} demo_job;

/* Proves one prepared job: parameters from the cache, the job through the engine. */
static cuzk_status prove_one(cuzk_engine *e, const demo_opts *o, demo_job *d, cuzk_timeline *tl)
{
    char params[4200], vk[4200], id[64];
    cuzk_status st = demo_cached_params(o, d->circuit, params, vk, sizeof params, tl);
    if (!st) st = cuzk_engine_builtin_id(id, d->req.kind, d->req.registered_proof);
    if (!st) st = cuzk_engine_set_files(e, id, params, vk, NULL);
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    if (!st) demo_say("prove %s through the engine", d->what);
    double t0 = demo_step_start();
    if (!st) st = demo_run_job(e, &d->req, &r);
    if (!st) {
        char step[64];
        snprintf(step, sizeof step, "prove %s", d->what);
        demo_step_end(t0, step);
        char hex[2 * CUZK_GROTH16_PROOF_BYTES + 1];
        cuzk_hex_encode(hex, r.proof, CUZK_GROTH16_PROOF_BYTES);
        printf(
            "\ncuzk demo: %s of a 2 KiB sector: %u proof(s) in %.2f s, verified: OK (%zu public inputs)\nproof  %s\n",
            d->what, r.partitions, cuzk_now() - t0, r.ninputs, hex);
        cli_print_timeline_json(d->what, r.timeline_json, stdout);
    }
    cuzk_job_result_free(&r);
    return st ? cuzk_fail_context(st, "%s", d->what) : CUZK_OK;
}

/* The PoSt job of kind for the sealed sector (its one blob: WindowPoSt's partition of one
 * sector, WinningPoSt's challenged sector). */
static cuzk_status post_job(demo_job *d, cuzk_post_proof p, const cuzk_post_replica *rep, const uint8_t rnd[32])
{
    cuzk_status st = cuzk_post_vanilla_prove(p, rnd, 0, rep, 1, &d->blobs[0], &d->lens[0]);
    const cuzk_post_proof_info *info = cuzk_post_proof_info_get(p);
    d->req.kind = info->kind == CUZK_POST_WINDOW ? CUZK_KIND_WINDOW_POST : CUZK_KIND_WINNING_POST;
    d->req.blobs = (const uint8_t *const *)d->blobs;
    d->req.blob_lens = d->lens;
    d->req.nblobs = 1;
    d->req.has_registered_proof = true;
    d->req.registered_proof = (uint64_t)p;
    d->req.randomness = rnd;
    return st;
}

/* The SnapDeals job: seeded random data encoded into the sector, its partition proofs. */
static cuzk_status snap_job(demo_job *d, cuzk_snap_encoded **enc, const uint8_t *sealed, const uint8_t p_aux[64])
{
    const cuzk_update_proof_info *info = cuzk_update_proof_info_get(CUZK_UPDATE_2KIB_V1);
    uint8_t *data = malloc(info->sector_size);
    if (!data) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 2026);
    cuzk_rng_bytes(&rng, data, info->sector_size);
    for (uint64_t i = 0; i < info->nodes; i++) data[i * 32 + 31] &= 0x3f; /* Fr32: canonical nodes */
    cuzk_status st = cuzk_snap_encode(enc, CUZK_UPDATE_2KIB_V1, sealed, data, p_aux, NULL);
    free(data);
    if (st) return st;
    cuzk_snap_encoded_view v;
    cuzk_snap_encoded_get(*enc, &v);
    if (v.partitions > 16) return cuzk_fail(CUZK_EINTERNAL, "a 2 KiB SnapDeals proof of %u partitions", v.partitions);
    for (unsigned k = 0; !st && k < v.partitions; k++)
        st = cuzk_snap_partition_write(&v.proofs[k], &d->blobs[k], &d->lens[k]);
    d->req.kind = CUZK_KIND_SNAP;
    d->req.blobs = (const uint8_t *const *)d->blobs;
    d->req.blob_lens = d->lens;
    d->req.nblobs = v.partitions;
    d->req.has_registered_proof = true;
    d->req.registered_proof = CUZK_UPDATE_2KIB_V1;
    return st;
}

int demo_post_snap(const demo_opts *o)
{
    cuzk_timeline *tl = cuzk_timeline_create("demo: PoSt and SnapDeals");
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = CUZK_SEAL_2KIB_V1_1;
    cuzk_prover_id_from_actor(sp.prover_id, 1002);
    sp.sector_id = 2;
    memset(sp.ticket, 7, 32);
    cuzk_sealed_sector *s = NULL;
    double t0 = demo_step_start();
    cuzk_status st = cuzk_seal_precommit(&s, &sp, tl);
    uint8_t *replica = NULL;
    cuzk_post_replica rep;
    memset(&rep, 0, sizeof rep);
    const uint64_t bytes = 2048;
    if (!st && !(replica = malloc(bytes))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st) {
        cuzk_sealed_replica_nodes(s, 0, bytes / 32, replica);
        rep.sector_id = sp.sector_id;
        memcpy(rep.comm_r, cuzk_sealed_commitments(s)->comm_r, 32);
        rep.replica = replica;
        rep.replica_len = bytes;
        cuzk_sealed_p_aux(s, rep.p_aux);
    }
    uint8_t rnd[32];
    memset(rnd, 0x5a, 32);
    rnd[31] &= 0x3f; /* as Curio sends it: a canonical field element */
    demo_job jobs[3] = {{.what = "WindowPoSt", .circuit = "window-post:2KiB"},
                        {.what = "WinningPoSt", .circuit = "winning-post:2KiB"},
                        {.what = "SnapDeals", .circuit = "snap:2KiB"}};
    cuzk_snap_encoded *enc = NULL;
    if (!st) st = post_job(&jobs[0], CUZK_POST_WINDOW_2KIB_V1_1, &rep, rnd);
    if (!st) st = post_job(&jobs[1], CUZK_POST_WINNING_2KIB_V1, &rep, rnd);
    if (!st) st = snap_job(&jobs[2], &enc, replica, rep.p_aux);
    cuzk_snap_encoded_view v;
    if (!st) {
        cuzk_snap_encoded_get(enc, &v);
        jobs[2].req.comm_r_old = v.comm_r_old;
        jobs[2].req.comm_r_new = v.comm_r_new;
        jobs[2].req.comm_d_new = v.comm_d_new;
    }
    if (!st) demo_step_end(t0, "seal a 2 KiB CC sector, its PoSt vanilla proofs and a SnapDeals update");
    cuzk_engine *e = NULL;
    if (!st) st = cli_engine_create_progress(&e, false, NULL, o->progress);
    for (int i = 0; i < 3 && !st; i++) st = prove_one(e, o, &jobs[i], tl);
    cuzk_engine_destroy(e);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 16; k++) free(jobs[i].blobs[k]);
    cuzk_snap_encoded_free(enc);
    free(replica);
    cuzk_sealed_sector_free(s);
    int rc = 0;
    if (st) {
        fprintf(stderr, "cuzk demo: %s\n", cuzk_last_error());
        rc = 1;
    }
    cuzk_timeline_destroy(tl);
    return rc;
}
