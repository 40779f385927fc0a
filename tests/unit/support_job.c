#include "support_job.h"

#include <string.h>

#include "cuzk/testcircuits.h"
#include "harness.h"

void job_open(job *j, const char *name, uint64_t seed)
{
    memset(j, 0, sizeof *j);
    if (cuzk_circuit_open(&j->circuit, name) || cuzk_circuit_record(j->circuit, &j->r1cs)) {
        fprintf(stderr, "cannot open %s: %s\n", name, cuzk_last_error());
        exit(1);
    }
    j->m = &j->r1cs;
    CHECK_OK(cuzk_circuit_prove_input(j->circuit, seed, &j->pr));
    CHECK(cuzk_r1cs_first_unsatisfied(j->m, j->pr.input, j->pr.aux) == -1);
    j->input = j->pr.input;
    cuzk_groth16_witness w = cuzk_groth16_witness_of(&j->pr);
    j->w = w;
}

void job_close(job *j)
{
    cuzk_prove_result_free(&j->pr);
    cuzk_r1cs_free(&j->r1cs);
    cuzk_circuit_free(j->circuit);
}

bool proofs_same_bytes(const cuzk_groth16_proof *a, const cuzk_groth16_proof *b)
{
    uint8_t ea[CUZK_GROTH16_PROOF_BYTES], eb[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_encode(ea, a);
    cuzk_groth16_proof_encode(eb, b);
    return !memcmp(ea, eb, sizeof ea);
}
