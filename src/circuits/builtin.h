/* Internals shared by the built-in circuits. */
#ifndef CUZK_CIRCUITS_BUILTIN_H
#define CUZK_CIRCUITS_BUILTIN_H

#include "cuzk/circuits.h"

/* One step of the random circuit: which constraint it adds and how its witness is computed. */
typedef struct {
    uint8_t op;
    uint32_t x, y, z, k;
} random_gate;

struct cuzk_circuit {
    char name[64];
    cuzk_r1cs r1cs;
    cuzk_status (*witness)(const cuzk_circuit *c, uint64_t seed, cuzk_fr *input, cuzk_fr *aux);
    random_gate *gates; /* random:N only */
    size_t ngates;
};

cuzk_status cubic_build(cuzk_circuit *c);
cuzk_status random_build(cuzk_circuit *c, size_t n);

#endif
