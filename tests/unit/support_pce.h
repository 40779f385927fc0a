/* Test support: a built-in circuit as the fast path sees it — its precompiled circuit (PCE),
 * a witness, and a, b, c from the CPU evaluation — for comparing other evaluations and
 * provers against. */
#ifndef CUZK_TEST_SUPPORT_PCE_H
#define CUZK_TEST_SUPPORT_PCE_H

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/pce.h"

typedef struct {
    cuzk_circuit *circuit;
    cuzk_pce pce;
    cuzk_witness w;
    size_t n;                /* rows of a, b, c: constraints + inputs */
    cuzk_fr *abc[3];         /* cuzk_pce_evaluate's result */
    cuzk_groth16_witness gw; /* the CPU prover's view */
} pce_job;

/* Records the circuit's PCE (a COUNT of constraints above max_constraints, when nonzero, skips
 * it: returns 0 and leaves j empty), makes the witness for seed and evaluates a, b, c on the
 * CPU. Returns 1 when j is ready; exits the test program when the circuit cannot be opened. */
int pce_job_open(pce_job *j, const char *name, uint64_t seed, size_t max_constraints);
void pce_job_close(pce_job *j);
/* Parameters for the job's circuit (setup from its PCE, seeded). */
void pce_job_setup(const pce_job *j, cuzk_groth16_params *p, uint64_t seed);
/* 1 when got[k] equals the CPU's a, b, c; otherwise 0, naming the first row that differs. */
int pce_job_same_abc(const pce_job *j, cuzk_fr *const got[3], const char *what);

#endif
