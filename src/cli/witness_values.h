/* How a witness's values split for a partition's L, A and B MSMs (`cuzk bench synth --values`):
 * zeros (skipped), ones (their bases added directly) and the rest (summed through Pippenger's
 * buckets), each over the bases the prover takes for it. On a GPU whose bases stream from host
 * memory, the rest is what the MSMs' sums cost, beside the bases' copies. Given a second
 * partition's witness, it also counts the bases whose value is zero in both: those a pass over the
 * bases for a batch of the two could leave out of its copies, and how many of them lie in runs
 * long enough to leave out without gathering the others on the host. */
#ifndef CUZK_CLI_WITNESS_VALUES_H
#define CUZK_CLI_WITNESS_VALUES_H

#include <stdint.h>

#include "cuzk/pce.h"

/* runs of at least this many bases zero in both witnesses (a copy of its own each) */
#define VALUE_RUN_MIN 8

typedef struct {
    uint64_t bases, zeros, ones, other;
    uint64_t zeros_both, zeros_both_in_runs; /* with a second witness: zero in both; of them in runs */
} value_split;

/* L: every aux value; A: every input, then the aux with A density; B: the inputs and aux with B
 * density (its G1 and G2 MSMs take the same values) */
typedef struct {
    value_split l, a, b;
} witness_values;

/* counts the values of input[ni] and aux[na] as circuit p's densities select them; input2 and
 * aux2 (NULL: none) are a second witness of the same circuit */
void witness_values_count(const cuzk_pce *p, const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                          const cuzk_fr *input2, const cuzk_fr *aux2, witness_values *out);

#endif
