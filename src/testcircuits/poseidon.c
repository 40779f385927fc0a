/* poseidon:ARITY — neptune's legacy Poseidon circuit over an allocated random preimage, with
 * the digest exposed (inputize) so the circuit has a public input. */
#include <stdlib.h>

#include "builtin.h"
#include "cuzk/gadgets/poseidon.h"

static cuzk_status poseidon_open(cuzk_circuit *c, const char *args)
{
    char *end;
    unsigned long a = strtoul(args, &end, 10);
    if (!*args || *end || a > 11 || cuzk_poseidon_circuit_size((unsigned)a) == 0)
        return cuzk_fail(CUZK_EINVAL, "poseidon: arity '%s' is not 2, 4, 8 or 11", args);
    unsigned *arity = malloc(sizeof *arity);
    if (!arity) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    *arity = (unsigned)a;
    c->state = arity;
    return CUZK_OK;
}

static void poseidon_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const unsigned arity = *(const unsigned *)c->state;
    cuzk_num pre[11];
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    for (unsigned i = 0; i < arity; i++) {
        cuzk_fr v;
        if (cs->values) cuzk_fr_random(&v, &rng);
        cuzk_cs_push(cs, "data %u", i);
        pre[i] = cuzk_num_alloc(cs, cs->values ? &v : NULL);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_push(cs, "poseidon");
    cuzk_num digest = cuzk_poseidon_circuit(cs, arity, pre);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "digest");
    cuzk_num_inputize(cs, digest);
    cuzk_cs_pop(cs);
}

const cuzk_circuit_def cuzk_circuit_poseidon = {
    .prefix = "poseidon:",
    .help = "poseidon:ARITY  neptune legacy Poseidon circuit (ARITY 2, 4, 8, 11) of a random allocated preimage; the "
            "digest "
            "is inputized, so it has one public input",
    .example = "poseidon:11",
    .open = poseidon_open,
    .synthesize = poseidon_synthesize,
    .free_state = free,
};
