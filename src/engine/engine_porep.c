/* The PoRep kind: a C1 output (raw or in the base64 wrapper) is parsed, its vanilla proofs are
 * checked natively and the public inputs of every partition recomputed from the public data,
 * on the submitting thread, before any device time is spent; a bad C1 fails its job with the
 * parser's or the check's message (JSON path, partition, challenge). The job keeps the parsed
 * C1 alone (no copy of its text), charged to the host budget at cuzk_c1_bytes. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/filecoin.h"
#include "cuzk/filecoin_circuit.h"
#include "engine_internal.h"

static cuzk_status open_partition(engine_job *j, unsigned k, cuzk_circuit **out)
{
    return cuzk_porep_circuit_open(out, j->plan.state, k);
}

static void free_c1(void *state) { cuzk_c1_free(state); }

/* What the request says against the C1 (upstream's commit phase 2 takes the proof type from
 * the C1 and ignores the caller's: Curio's supraseal path rewrites it, so a different value is
 * a note, not a failure; the sizes and sector must agree). */
static cuzk_status check_request_against_c1(const cuzk_job_request *req, const cuzk_c1 *c1, int64_t sector_num,
                                            char note[256])
{
    if (req->sector_size && req->sector_size != c1->info->sector_size)
        return cuzk_fail(CUZK_EINVAL, "sector_size: %llu, but the C1 output is a %s proof of %llu-byte sectors",
                         (unsigned long long)req->sector_size, c1->info->name,
                         (unsigned long long)c1->info->sector_size);
    if (req->sector_number && sector_num >= 0 && (uint64_t)sector_num != req->sector_number)
        return cuzk_fail(CUZK_EINVAL, "sector_number: %llu, but the C1 wrapper names sector %lld",
                         (unsigned long long)req->sector_number, (long long)sector_num);
    if (c1->partitions != c1->info->partitions)
        return cuzk_fail(CUZK_EINVAL, "the C1 output has %u partitions, a %s proof has %u", c1->partitions,
                         c1->info->name, c1->info->partitions);
    if (req->has_registered_proof && req->registered_proof != (uint64_t)c1->proof) {
        const cuzk_seal_proof_info *asked = cuzk_seal_proof_info_get((cuzk_seal_proof)req->registered_proof);
        cuzk_clear_error();
        snprintf(note, 256,
                 "registered_proof: the request named %llu (%s), the C1 output is a %s (%d) proof; proved as the C1's",
                 (unsigned long long)req->registered_proof, asked ? asked->name : "unknown", c1->info->name,
                 (int)c1->proof);
    }
    return CUZK_OK;
}

cuzk_status porep_plan(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out)
{
    cuzk_c1 *c1 = NULL;
    int64_t sector_num = -1;
    cuzk_status st = cuzk_c1_parse_any(&c1, input, input_len, &sector_num, NULL);
    if (st) return cuzk_fail_context(st, "the C1 output");
    st = check_request_against_c1(req, c1, sector_num, out->note);
    const uint8_t *prover = NULL;
    uint8_t prover_id[32];
    uint64_t sector = req->sector_number ? req->sector_number : (uint64_t)sector_num;
    /* the replica id is checked where the request says whose sector it is (proto3 cannot tell a
     * missing sector number from sector 0, so a raw C1 needs the request's nonzero one) */
    if (req->miner_id && (req->sector_number || sector_num >= 0)) {
        cuzk_prover_id_from_actor(prover_id, req->miner_id);
        prover = prover_id;
    }
    if (!st && (st = cuzk_c1_verify(c1, prover, sector)))
        cuzk_fail_context(st, prover ? "the C1's vanilla proofs (miner %llu, sector %llu)" : "the C1's vanilla proofs",
                          (unsigned long long)req->miner_id, (unsigned long long)sector);
    size_t ni = cuzk_seal_proof_num_inputs(c1->proof);
    cuzk_fr *expect = st ? NULL : calloc((size_t)c1->partitions * ni, sizeof *expect);
    if (!st && !expect) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (unsigned k = 0; !st && k < c1->partitions; k++)
        st = cuzk_porep_public_inputs(expect + (size_t)k * ni, ni, c1->proof, c1->replica_id, c1->comm_d, c1->comm_r,
                                      c1->seed, k);
    if (st) {
        free(expect);
        cuzk_c1_free(c1);
        return st;
    }
    out->plan = (job_plan){.nparts = c1->partitions,
                           .ninputs = ni,
                           .expect = expect,
                           .state = c1,
                           .free_state = free_c1,
                           .open = open_partition,
                           .builtin = &builtin_porep,
                           .proof = (uint64_t)c1->proof,
                           .held_bytes = cuzk_c1_bytes(c1) + (size_t)c1->partitions * ni * sizeof *expect};
    cuzk_porep_circuit_id(out->circuit_id, (uint64_t)c1->proof);
    return CUZK_OK;
}

/* ---------------------------------------------------------------- the family */
static bool porep_valid(uint64_t p) { return p < CUZK_SEAL_PROOF_COUNT; }

void cuzk_porep_circuit_id(char out[64], uint64_t registered_proof)
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get((cuzk_seal_proof)registered_proof);
    if (!info) {
        snprintf(out, 64, "porep-unknown-%llu", (unsigned long long)registered_proof);
        return;
    }
    char size[16];
    builtin_size_suffix(size, info->sector_size);
    snprintf(out, 64, "%sporep-%s", info->challenges == CUZK_CHALLENGES_NI ? "ni-" : "", size);
}

static void porep_stem(char out[CUZK_PARAM_STEM_MAX], uint64_t p)
{
    cuzk_seal_proof_param_stem(out, (cuzk_seal_proof)p);
}

static cuzk_status porep_synthetic(uint64_t p, cuzk_circuit **out, void **state, void (**free_state)(void *))
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get((cuzk_seal_proof)p);
    if (!info) return CUZK_EINVAL;
    char size[16], name[64];
    builtin_size_name(size, info->sector_size);
    snprintf(name, sizeof name, "porep:%s", size);
    cuzk_c1 *c1 = NULL;
    cuzk_status st = cuzk_porep_synthetic_open(out, &c1, name, 1);
    *state = c1;
    *free_state = free_c1;
    return st;
}

const builtin_family builtin_porep = {
    "PoRep", CUZK_KIND_POREP, porep_valid, cuzk_porep_circuit_id, porep_stem, porep_synthetic, true,
};
