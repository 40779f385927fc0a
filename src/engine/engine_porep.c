/* The PoRep kind: a C1 output (raw or in the base64 wrapper) is parsed, its vanilla proofs are
 * checked natively and the public inputs of every partition recomputed from the public data,
 * on the submitting thread, before any device time is spent; a bad C1 fails its job with the
 * parser's or the check's message (JSON path, partition, challenge). */
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

cuzk_status porep_plan(cuzk_engine *e, engine_job *j, const cuzk_job_request *req, char *circuit_id)
{
    (void)e;
    cuzk_c1 *c1 = NULL;
    int64_t sector_num = -1;
    cuzk_status st = cuzk_c1_parse_any(&c1, j->input, j->input_len, &sector_num, NULL);
    if (st) return cuzk_fail_context(st, "the C1 output");
    if (req->has_registered_proof && req->registered_proof != (uint64_t)c1->proof)
        st = cuzk_fail(CUZK_EINVAL, "registered_proof: %llu, but the C1 output is a %s (%d) proof",
                       (unsigned long long)req->registered_proof, c1->info->name, (int)c1->proof);
    if (!st && req->sector_number && sector_num >= 0 && (uint64_t)sector_num != req->sector_number)
        st = cuzk_fail(CUZK_EINVAL, "sector_number: %llu, but the C1 wrapper names sector %lld",
                       (unsigned long long)req->sector_number, (long long)sector_num);
    if (!st && c1->partitions != c1->info->partitions)
        st = cuzk_fail(CUZK_EINVAL, "the C1 output has %u partitions, a %s proof has %u", c1->partitions,
                       c1->info->name, c1->info->partitions);
    if (!st && (st = cuzk_c1_verify(c1, NULL, 0))) cuzk_fail_context(st, "the C1's vanilla proofs");
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
    j->plan.nparts = c1->partitions;
    j->plan.ninputs = ni;
    j->plan.expect = expect;
    j->plan.state = c1;
    j->plan.free_state = free_c1;
    j->plan.open = open_partition;
    j->plan.seal_proof = (uint64_t)c1->proof;
    cuzk_porep_circuit_id(circuit_id, (uint64_t)c1->proof);
    return CUZK_OK;
}
