/* por-private:HASHER:SHAPE:LEAVES — one inclusion proof with the root kept private, as the
 * PoRep circuit uses it (inputs: ONE, path). */
#include <stdlib.h>

#include "circuits/merkle_tree.h"

static cuzk_status por_private_open(cuzk_circuit *c, const char *args) { return por_family_open(c, args, true); }

const cuzk_circuit_def cuzk_circuit_por_private = {
    "por-private:",
    "por-private:HASHER:SHAPE:LEAVES  as por, with the root kept private; public input: the packed index bits",
    por_private_open, por_family_synthesize, free};
