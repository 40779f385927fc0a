/* How a witness's values split for a partition's L, A and B MSMs (`cuzk bench synth --values`):
 * zeros (skipped), ones (their bases added directly) and the rest (summed through Pippenger's
 * buckets), each over the bases the prover takes for it. On a GPU whose bases stream from host
 * memory, the rest is what the MSMs' sums cost, beside the bases' copies. */
#ifndef CUZK_CLI_WITNESS_VALUES_H
#define CUZK_CLI_WITNESS_VALUES_H

#include <stdint.h>

#include "cuzk/pce.h"

typedef struct {
    uint64_t bases, zeros, ones, other;
} value_split;

/* L: every aux value; A: every input, then the aux with A density; B: the inputs and aux with B
 * density (its G1 and G2 MSMs take the same values) */
typedef struct {
    value_split l, a, b;
} witness_values;

/* counts the values of input[ni] and aux[na] as circuit p's densities select them */
void witness_values_count(const cuzk_pce *p, const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                          witness_values *out);

#endif
