/* Built-in circuits for tests, benchmarks and the demo.
 *
 * A circuit knows its R1CS (for setup and evaluation) and makes its own satisfying witness
 * from a seed. Names: "cubic" (x^3 + x + 5 = y, y public) and "random:N" (a random
 * satisfiable R1CS of N constraints with a few public inputs and a realistic witness: most
 * values are bits, as in SHA-256-heavy Filecoin circuits). */
#ifndef CUZK_CIRCUITS_H
#define CUZK_CIRCUITS_H

#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_circuit cuzk_circuit;

/* Opens a built-in circuit by name; unknown names fail with CUZK_EINVAL and a list of the
 * known ones. */
cuzk_status cuzk_circuit_open(cuzk_circuit **out, const char *name) CUZK_WARN_UNUSED;
void cuzk_circuit_free(cuzk_circuit *c);
const char *cuzk_circuit_name(const cuzk_circuit *c);
const cuzk_r1cs *cuzk_circuit_r1cs(const cuzk_circuit *c);
/* Fills input[num_inputs] (input[0] = ONE) and aux[num_aux] with a satisfying assignment
 * derived from seed. */
cuzk_status cuzk_circuit_witness(const cuzk_circuit *c, uint64_t seed, cuzk_fr *input, cuzk_fr *aux) CUZK_WARN_UNUSED;
/* One line listing the names cuzk_circuit_open accepts. */
const char *cuzk_circuit_names(void);

#ifdef __cplusplus
}
#endif
#endif
