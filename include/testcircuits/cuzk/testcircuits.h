/* The named circuits for tests, benchmarks and the demo: cubic, random:N, parts, SHA-256,
 * Poseidon, Merkle inclusion proofs, and the PoRep partitions (porep:SIZE, porep-test:...)
 * reached through the filecoin layer. A named circuit makes its own satisfying witness from a
 * seed (a random preimage, random leaves, a sealed test sector, ...). The production path
 * (filecoin, gpu, engine) never depends on this module. */
#ifndef CUZK_TESTCIRCUITS_H
#define CUZK_TESTCIRCUITS_H

#include "cuzk/circuits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opens a circuit by name; unknown names fail with CUZK_EINVAL and the list. Free it with
 * cuzk_circuit_free. */
cuzk_status cuzk_circuit_open(cuzk_circuit **out, const char *name) CUZK_WARN_UNUSED;
/* Lines "  name  description" for every family. */
const char *cuzk_circuit_names(void);
/* The number of families, and the example instance of family i (NULL for a family with no
 * built-in witness, or past the last family). */
size_t cuzk_circuit_family_count(void);
const char *cuzk_circuit_example(size_t i);

#ifdef __cplusplus
}
#endif
#endif
