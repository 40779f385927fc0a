/* The matrix-defined circuits' shared parts (builtin.h): cubic and random:N keep an R1CS and
 * a witness function, and synthesize by emitting the matrix. */
#include <stdlib.h>

#include "builtin.h"

void matrix_circuit_free(void *state)
{
    matrix_circuit *mc = state;
    cuzk_r1cs_free(&mc->r1cs);
    free(mc->gates);
    free(mc);
}

void matrix_circuit_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const matrix_circuit *mc = c->state;
    cuzk_fr *input = NULL, *aux = NULL;
    if (cs->values) {
        input = calloc(mc->r1cs.num_inputs, sizeof(cuzk_fr));
        aux = calloc(mc->r1cs.num_aux + 1, sizeof(cuzk_fr));
        cuzk_status st = !input || !aux ? cuzk_fail(CUZK_ENOMEM, "out of memory") : mc->witness(mc, seed, input, aux);
        if (st) {
            cuzk_cs_fail(cs, st);
            free(input);
            free(aux);
            return;
        }
    }
    cuzk_cs_emit_r1cs(cs, &mc->r1cs, input, aux);
    free(input);
    free(aux);
}
