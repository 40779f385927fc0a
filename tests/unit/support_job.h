/* Test support: a built-in circuit with its recorded matrices and one proving input, ready
 * for setup (j.m) and proving (j.w). */
#ifndef CUZK_TEST_SUPPORT_JOB_H
#define CUZK_TEST_SUPPORT_JOB_H

#include <stdbool.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"

typedef struct {
    cuzk_circuit *circuit;
    cuzk_r1cs r1cs;
    const cuzk_r1cs *m;
    cuzk_prove_result pr;
    cuzk_fr *input; /* pr.input: ONE, then the public inputs */
    cuzk_groth16_witness w;
} job;

/* Exits the test program when the circuit cannot be opened or recorded. */
void job_open(job *j, const char *name, uint64_t seed);
void job_close(job *j);

/* Whether two proofs encode to the same 192 bytes (the GPU against the CPU prover). */
bool proofs_same_bytes(const cuzk_groth16_proof *a, const cuzk_groth16_proof *b);

#endif
