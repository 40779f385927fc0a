/* cubic: x^3 + x + 5 = y with y public, the classic four-constraint example.
 * Variables: ONE, y (inputs); x, x2 = x*x, x3 = x2*x, t = x3 + x (aux). */
#include <stdlib.h>

#include "builtin.h"

enum { V_ONE, V_Y, V_X, V_X2, V_X3, V_T };

static cuzk_status cubic_witness(const matrix_circuit *mc, uint64_t seed, cuzk_fr *input, cuzk_fr *aux)
{
    cuzk_fr x, x2, x3, t, five, y;
    cuzk_fr_from_u64(&x, seed);
    cuzk_fr_mul(&x2, &x, &x);
    cuzk_fr_mul(&x3, &x2, &x);
    cuzk_fr_add(&t, &x3, &x);
    cuzk_fr_from_u64(&five, 5);
    cuzk_fr_add(&y, &t, &five);
    input[0] = CUZK_FR_ONE;
    input[1] = y;
    aux[0] = x;
    aux[1] = x2;
    aux[2] = x3;
    aux[3] = t;
    return CUZK_OK;
}

static cuzk_status cubic_open(cuzk_circuit *c, const char *args)
{
    matrix_circuit *mc = calloc(1, sizeof *mc);
    if (!mc) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = mc;
    cuzk_r1cs_builder b;
    cuzk_status st = cuzk_r1cs_builder_init(&b, 2);
    if (st) return st;
    cuzk_fr five;
    cuzk_fr_from_u64(&five, 5);
    const cuzk_fr *one = &CUZK_FR_ONE;
    /* x * x = x2;  x2 * x = x3;  (x3 + x) * 1 = t;  (t + 5) * 1 = y */
    if ((st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_X, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_B, V_X, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_C, V_X2, one)) || (st = cuzk_r1cs_builder_row(&b)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_X2, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_B, V_X, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_C, V_X3, one)) || (st = cuzk_r1cs_builder_row(&b)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_X3, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_X, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_B, V_ONE, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_C, V_T, one)) || (st = cuzk_r1cs_builder_row(&b)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_T, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_A, V_ONE, &five)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_B, V_ONE, one)) ||
        (st = cuzk_r1cs_builder_term(&b, CUZK_MAT_C, V_Y, one)) || (st = cuzk_r1cs_builder_row(&b)) ||
        (st = cuzk_r1cs_builder_finish(&b, 4, &mc->r1cs))) {
        cuzk_r1cs_builder_free(&b);
        return st;
    }
    mc->witness = cubic_witness;
    return CUZK_OK;
}

const cuzk_circuit_def cuzk_circuit_cubic = {
    .prefix = "cubic",
    .help = "cubic          x^3 + x + 5 = y, y public (the witness x is the seed, default 3)",
    .example = "cubic",
    .open = cubic_open,
    .synthesize = matrix_circuit_synthesize,
    .free_state = matrix_circuit_free,
};
