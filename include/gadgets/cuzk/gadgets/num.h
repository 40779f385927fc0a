/* Number gadgets, exactly as bellpepper-core 0.2: AllocatedNum (a variable and its value)
 * and Num (a linear combination and its value). */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

#include "cuzk/gadgets/boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_var var;
    cuzk_fr value; /* meaningful when cs->values */
} cuzk_num;

/* AllocatedNum::alloc (aux, no constraint). value may be NULL when !cs->values. */
cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr *value);
/* AllocatedNum::inputize: input y; y * ONE = x. Returns the input variable. */
cuzk_var cuzk_num_inputize(cuzk_cs *cs, cuzk_num x);
/* AllocatedNum::to_bits_le (non-strict): 255 allocated bits, LE, then
 * 0 * 0 = sum 2^i b_i - x. out gets 255 Booleans (Is). */
void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_num x, cuzk_bool out[255]);
/* AllocatedNum::square / mul: aux r; x * x = r / a * b = r. */
cuzk_num cuzk_num_square(cuzk_cs *cs, cuzk_num x);
cuzk_num cuzk_num_mul(cuzk_cs *cs, cuzk_num a, cuzk_num b);

/* Num: an LC with its value (owned LC; free with cuzk_lcnum_free). */
typedef struct {
    cuzk_lc lc;
    cuzk_fr value;
} cuzk_lcnum;
void cuzk_lcnum_init(cuzk_lcnum *n);
void cuzk_lcnum_free(cuzk_lcnum *n);
/* Num::add_bool_with_coeff: n += coeff * b (ONE for Constant(true), nothing for false);
 * coeff NULL means one. */
void cuzk_lcnum_add_bool_with_coeff(cuzk_cs *cs, cuzk_lcnum *n, cuzk_bool b, const cuzk_fr *coeff);

#ifdef __cplusplus
}
#endif
#endif
