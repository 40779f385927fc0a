/* por:HASHER:SHAPE:LEAVES — one inclusion proof with the root public, as upstream's
 * storage-proofs-core/tests/por_circuit.rs compound tests (inputs: ONE, path, root). */
#include <stdlib.h>

#include "merkle_tree.h"

static cuzk_status por_open(cuzk_circuit *c, const char *args) { return por_family_open(c, args, false); }

const cuzk_circuit_def cuzk_circuit_por = {
    .prefix = "por:",
    .help =
        "por:HASHER:SHAPE:LEAVES  Merkle inclusion proof of a random leaf (HASHER sha256|poseidon, SHAPE e.g. 2-0-0, "
        "8-8-2, LEAVES e.g. 64); public inputs: the packed index bits and the root",
    .example = "por:poseidon:8-0-0:64",
    .open = por_open,
    .synthesize = por_family_synthesize,
    .free_state = free,
};
