/* por-private:HASHER:SHAPE:LEAVES — one inclusion proof with the root kept private, as the
 * PoRep circuit uses it (inputs: ONE, path). */
#include <stdlib.h>

#include "merkle_tree.h"

static cuzk_status por_private_open(cuzk_circuit *c, const char *args) { return por_family_open(c, args, true); }

const cuzk_circuit_def cuzk_circuit_por_private = {
    .prefix = "por-private:",
    .help = "por-private:HASHER:SHAPE:LEAVES  as por, with the root kept private; public input: the packed index bits",
    .example = "por-private:sha256:2-0-0:4",
    .open = por_private_open,
    .synthesize = por_family_synthesize,
    .free_state = free,
};
