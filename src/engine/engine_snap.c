/* The SnapDeals kind (EmptySectorUpdate): every partition's vanilla proof (one bincode
 * PartitionProof each, as Curio sends them) is parsed and checked natively against the
 * commitments (comm_r_old, comm_r_new, comm_d_new), and each partition's public inputs derived
 * from them, on the submitting thread; a bad blob fails its job with the reason. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/filecoin_snap.h"
#include "engine_internal.h"

static cuzk_status open_partition(engine_job *j, unsigned k, cuzk_circuit **out)
{
    return cuzk_snap_circuit_open(out, j->plan.state, k);
}

static void free_proofs(void *state) { cuzk_snap_proofs_free(state); }

cuzk_status snap_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out)
{
    /* the registered proof and commitments were checked with the request */
    const cuzk_update_proof_info *info = cuzk_update_proof_info_get((cuzk_update_proof)req->registered_proof);
    if (!info)
        return cuzk_fail(CUZK_EINTERNAL, "registered_proof: %llu unchecked", (unsigned long long)req->registered_proof);
    const uint8_t **blobs = NULL;
    size_t *lens = NULL, n = 0;
    cuzk_status st = cuzk_blobs_unpack(input, input_len, info->partitions, &blobs, &lens, &n);
    cuzk_snap_proofs *sp = NULL;
    if (!st)
        st = cuzk_snap_parse(&sp, (cuzk_update_proof)req->registered_proof, req->comm_r_old, req->comm_r_new,
                             req->comm_d_new, blobs, lens, n);
    free(blobs);
    free(lens);
    unsigned np = st ? 0 : cuzk_snap_partitions(sp);
    size_t ni = cuzk_update_proof_num_inputs((cuzk_update_proof)req->registered_proof);
    cuzk_fr *expect = st ? NULL : calloc((size_t)np * ni, sizeof *expect);
    if (!st && !expect) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (unsigned k = 0; !st && k < np; k++) st = cuzk_snap_public_inputs(sp, k, expect + (size_t)k * ni, ni);
    if (st) {
        free(expect);
        cuzk_snap_proofs_free(sp);
        return st;
    }
    out->plan = (job_plan){.nparts = np,
                           .ninputs = ni,
                           .expect = expect,
                           .state = sp,
                           .free_state = free_proofs,
                           .open = open_partition,
                           .builtin = &builtin_snap,
                           .proof = req->registered_proof};
    builtin_snap.id(out->circuit_id, req->registered_proof);
    return CUZK_OK;
}

/* ---------------------------------------------------------------- the family */
static bool snap_valid(uint64_t p) { return p < 64 && cuzk_update_proof_info_get((cuzk_update_proof)p); }

/* "snap-32g", the id Curio's daemon used. */
static void snap_id(char out[64], uint64_t p)
{
    const cuzk_update_proof_info *info = cuzk_update_proof_info_get((cuzk_update_proof)p);
    if (!info) {
        snprintf(out, 64, "snap-unknown-%llu", (unsigned long long)p);
        return;
    }
    char size[16];
    builtin_size_suffix(size, info->sector_size);
    snprintf(out, 64, "snap-%s", size);
}

static void snap_stem(char out[CUZK_PARAM_STEM_MAX], uint64_t p)
{
    cuzk_update_proof_param_stem(out, (cuzk_update_proof)p);
}

static cuzk_status snap_synthetic(uint64_t p, cuzk_circuit **out, void **state, void (**free_state)(void *))
{
    const cuzk_update_proof_info *info = cuzk_update_proof_info_get((cuzk_update_proof)p);
    if (!info) return CUZK_EINVAL;
    char size[16], name[64];
    builtin_size_name(size, info->sector_size);
    snprintf(name, sizeof name, "snap:%s", size);
    cuzk_snap_proofs *sp = NULL;
    cuzk_status st = cuzk_snap_synthetic_open(out, &sp, name, 1);
    *state = sp;
    *free_state = free_proofs;
    return st;
}

const builtin_family builtin_snap = {
    "SnapDeals", CUZK_KIND_SNAP, snap_valid, snap_id, snap_stem, snap_synthetic, true,
};
