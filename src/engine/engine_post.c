/* The PoSt kinds (WindowPoSt, WinningPoSt): one partition's vanilla proofs (one bincode
 * FallbackPoStSectorProof per sector, as Curio sends them) are parsed and checked natively and
 * the partition's public inputs derived from the public data (each sector's comm_r, the
 * randomness, the sector ids, the partition index), on the submitting thread; a bad blob fails
 * its job with the parser's or the check's message. The public sectors are the request's list
 * when it has one (each blob must be of its sector), else the blobs' own. One proof per job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_post.h"
#include "engine_internal.h"

static cuzk_status open_partition(engine_job *j, unsigned k, cuzk_circuit **out)
{
    (void)k;
    return cuzk_post_circuit_open(out, j->plan.state);
}

static void free_partition(void *state) { cuzk_post_partition_free(state); }

/* The request's public sector list, one per blob (NULL when it has none: the blobs' own). */
static cuzk_status public_sectors(const cuzk_job_request *req, size_t nblobs, cuzk_post_public_sector **out)
{
    *out = NULL;
    if (!req->post_nsectors) return CUZK_OK;
    if (req->post_nsectors != nblobs)
        return cuzk_fail(CUZK_EINVAL, "post_sectors: %zu public sectors, but %zu vanilla proofs", req->post_nsectors,
                         nblobs);
    cuzk_post_public_sector *pub = calloc(nblobs, sizeof *pub);
    if (!pub) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nblobs; i++) {
        pub[i].sector_id = req->post_sector_ids[i];
        memcpy(pub[i].comm_r, req->post_comm_rs + 32 * i, 32);
    }
    *out = pub;
    return CUZK_OK;
}

cuzk_status post_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out)
{
    /* the registered proof, randomness and partition were checked with the request */
    const cuzk_post_proof_info *info = cuzk_post_proof_info_get((cuzk_post_proof)req->registered_proof);
    if (!info)
        return cuzk_fail(CUZK_EINTERNAL, "registered_proof: %llu unchecked", (unsigned long long)req->registered_proof);
    const uint8_t **blobs = NULL;
    size_t *lens = NULL, n = 0;
    cuzk_status st = cuzk_blobs_unpack(input, input_len, info->max_blobs, &blobs, &lens, &n);
    cuzk_post_public_sector *pub = NULL;
    if (!st) st = public_sectors(req, n, &pub);
    cuzk_post_partition *pp = NULL;
    if (!st)
        st = cuzk_post_partition_parse(&pp, (cuzk_post_proof)req->registered_proof, req->randomness,
                                       req->partition_index, pub, blobs, lens, n);
    free(pub);
    free(blobs);
    free(lens);
    size_t ni = st ? 0 : cuzk_post_partition_num_inputs(pp);
    cuzk_fr *expect = st ? NULL : calloc(ni, sizeof *expect);
    if (!st && !expect) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st) st = cuzk_post_partition_public_inputs(pp, expect, ni);
    if (st) {
        free(expect);
        cuzk_post_partition_free(pp);
        return st;
    }
    out->plan = (job_plan){.nparts = 1,
                           .ninputs = ni,
                           .expect = expect,
                           .state = pp,
                           .free_state = free_partition,
                           .open = open_partition,
                           .builtin = &builtin_post,
                           .proof = req->registered_proof};
    builtin_post.id(out->circuit_id, req->registered_proof);
    return CUZK_OK;
}

/* ---------------------------------------------------------------- the family */
static bool post_valid(uint64_t p) { return p < 64 && cuzk_post_proof_info_get((cuzk_post_proof)p); }

/* "wpost-32g" and "winning-32g", the ids Curio's daemon used; V1 and V1_1 WindowPoSt share
 * their parameter files, so their circuit. */
static void post_id(char out[64], uint64_t p)
{
    const cuzk_post_proof_info *info = cuzk_post_proof_info_get((cuzk_post_proof)p);
    if (!info) {
        snprintf(out, 64, "post-unknown-%llu", (unsigned long long)p);
        return;
    }
    char size[16];
    builtin_size_suffix(size, info->sector_size);
    snprintf(out, 64, "%s-%s", info->kind == CUZK_POST_WINDOW ? "wpost" : "winning", size);
}

static void post_stem(char out[CUZK_PARAM_STEM_MAX], uint64_t p)
{
    cuzk_post_proof_param_stem(out, (cuzk_post_proof)p);
}

static cuzk_status post_synthetic(uint64_t p, cuzk_circuit **out, void **state, void (**free_state)(void *))
{
    const cuzk_post_proof_info *info = cuzk_post_proof_info_get((cuzk_post_proof)p);
    if (!info) return CUZK_EINVAL;
    char size[16], name[64];
    builtin_size_name(size, info->sector_size);
    snprintf(name, sizeof name, "%s-post:%s", info->kind == CUZK_POST_WINDOW ? "window" : "winning", size);
    cuzk_post_partition *pp = NULL;
    cuzk_status st = cuzk_post_synthetic_open(out, &pp, name, 1);
    *state = pp;
    *free_state = free_partition;
    return st;
}

const builtin_family builtin_post = {
    "PoSt", CUZK_KIND_WINDOW_POST, post_valid, post_id, post_stem, post_synthetic, false,
};
