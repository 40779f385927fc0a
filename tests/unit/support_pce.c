#include "support_pce.h"

#include <string.h>

#include "cuzk/testcircuits.h"
#include "harness.h"

int pce_job_open(pce_job *j, const char *name, uint64_t seed, size_t max_constraints)
{
    memset(j, 0, sizeof *j);
    if (cuzk_circuit_open(&j->circuit, name)) {
        fprintf(stderr, "cannot open %s: %s\n", name, cuzk_last_error());
        exit(1);
    }
    cuzk_circuit_counts cnt;
    CHECK_OK(cuzk_circuit_count(j->circuit, &cnt));
    if (max_constraints && cnt.constraints > max_constraints) {
        cuzk_circuit_free(j->circuit);
        memset(j, 0, sizeof *j);
        return 0;
    }
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    CHECK_OK(cuzk_circuit_synthesize(j->circuit, cs, 0));
    CHECK_OK(cuzk_cs_finish_record_pce(cs, &j->pce));
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_circuit_witness(j->circuit, seed, true, &j->w));
    j->n = j->pce.num_constraints + j->pce.num_inputs;
    for (int k = 0; k < 3; k++) j->abc[k] = calloc(j->n, sizeof(cuzk_fr));
    cuzk_pce_evaluate(&j->pce, j->w.input, j->w.aux, j->abc[0], j->abc[1], j->abc[2]);
    cuzk_groth16_witness gw = {j->abc[0],     j->abc[1],       j->abc[2],    j->n,
                               j->w.input,    j->w.num_inputs, j->w.aux,     j->w.num_aux,
                               &j->pce.a_aux, &j->pce.b_input, &j->pce.b_aux};
    j->gw = gw;
    return 1;
}

void pce_job_close(pce_job *j)
{
    for (int k = 0; k < 3; k++) free(j->abc[k]);
    cuzk_witness_free(&j->w);
    cuzk_pce_free(&j->pce);
    cuzk_circuit_free(j->circuit);
    memset(j, 0, sizeof *j);
}

void pce_job_setup(const pce_job *j, cuzk_groth16_params *p, uint64_t seed)
{
    cuzk_r1cs m;
    CHECK_OK(cuzk_pce_to_r1cs(&j->pce, &m));
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    CHECK_OK(cuzk_groth16_setup(p, &m, &rng, NULL));
    cuzk_r1cs_free(&m);
}

int pce_job_same_abc(const pce_job *j, cuzk_fr *const got[3], const char *what)
{
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < j->n; i++)
            if (memcmp(&got[k][i], &j->abc[k][i], sizeof(cuzk_fr))) {
                fprintf(stderr, "    %s: %s differs from the CPU's %c at row %zu of %zu\n", j->circuit->name, what,
                        "abc"[k], i, j -> n);
                return 0;
            }
    return 1;
}
