/* The named circuit families of this module (one file each in src/testcircuits/). */
#ifndef CUZK_TESTCIRCUITS_BUILTIN_H
#define CUZK_TESTCIRCUITS_BUILTIN_H

#include "cuzk/testcircuits.h"

extern const cuzk_circuit_def cuzk_circuit_cubic;
extern const cuzk_circuit_def cuzk_circuit_random;
extern const cuzk_circuit_def cuzk_circuit_random_parts;
extern const cuzk_circuit_def cuzk_circuit_parts;
extern const cuzk_circuit_def cuzk_circuit_sha256_compress;
extern const cuzk_circuit_def cuzk_circuit_sha256_bytes;
extern const cuzk_circuit_def cuzk_circuit_poseidon;
extern const cuzk_circuit_def cuzk_circuit_por;
extern const cuzk_circuit_def cuzk_circuit_por_private;

/* Matrix-defined circuits (cubic, random:N) keep their R1CS and a witness function. */
typedef struct matrix_circuit matrix_circuit;
struct matrix_circuit {
    cuzk_r1cs r1cs;
    cuzk_status (*witness)(const matrix_circuit *mc, uint64_t seed, cuzk_fr *input, cuzk_fr *aux);
    struct random_gate *gates; /* random:N only */
    size_t ngates;
};
void matrix_circuit_free(void *state);
void matrix_circuit_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed);

#endif
