/* Boolean gadgets, exactly as bellpepper-core 0.2 builds them (AllocatedBit, Boolean with
 * constant folding arm for arm, add_to_lc/sub_from_lc). Values are tracked only when
 * cs->values; every function builds the same constraints either way. */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

#include "cuzk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An allocated bit: a variable constrained to 0 or 1, and its value. */
typedef struct {
    cuzk_var var;
    bool value;
} cuzk_abit;

typedef enum { CUZK_BOOL_CONSTANT = 0, CUZK_BOOL_IS = 1, CUZK_BOOL_NOT = 2 } cuzk_bool_kind;

/* Boolean: Constant(value), Is(bit) or Not(bit). For Is/Not, bit.value is the bit's value. */
typedef struct {
    cuzk_bool_kind kind;
    bool constant; /* the value of a Constant */
    cuzk_abit bit; /* the bit of Is / Not */
} cuzk_bool;

/* AllocatedBit::alloc: aux v; (ONE - v) * v = 0. */
cuzk_abit cuzk_abit_alloc(cuzk_cs *cs, bool value);
/* AllocatedBit::and / and_not / nor / xor (result allocated first, then its constraint). */
cuzk_abit cuzk_abit_and(cuzk_cs *cs, cuzk_abit a, cuzk_abit b);
cuzk_abit cuzk_abit_and_not(cuzk_cs *cs, cuzk_abit a, cuzk_abit b);
cuzk_abit cuzk_abit_nor(cuzk_cs *cs, cuzk_abit a, cuzk_abit b);
cuzk_abit cuzk_abit_xor(cuzk_cs *cs, cuzk_abit a, cuzk_abit b);

static inline cuzk_bool cuzk_bool_constant(bool v)
{
    cuzk_bool b = {CUZK_BOOL_CONSTANT, v, {0, false}};
    return b;
}
static inline cuzk_bool cuzk_bool_is(cuzk_abit bit)
{
    cuzk_bool b = {CUZK_BOOL_IS, false, bit};
    return b;
}
/* Boolean::not */
cuzk_bool cuzk_bool_not(cuzk_bool b);
/* The value (meaningful when cs->values or for constants). */
bool cuzk_bool_value(cuzk_bool b);

/* Boolean::xor, Boolean::and, sha256_ch, sha256_maj with bellpepper's case analysis. */
cuzk_bool cuzk_bool_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bool_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);
cuzk_bool cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c);
cuzk_bool cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c);
/* Boolean::enforce_equal */
void cuzk_bool_enforce_equal(cuzk_cs *cs, cuzk_bool a, cuzk_bool b);

/* lc += coeff * b  (Is: coeff v; Not: coeff ONE - coeff v; Constant(true): coeff ONE);
 * coeff NULL means one. Nothing is built unless cs->keep_lcs. */
void cuzk_bool_add_to_lc(cuzk_cs *cs, cuzk_lc *lc, cuzk_bool b, const cuzk_fr *coeff);
/* lc -= coeff * b (coeff NULL means one) */
void cuzk_bool_sub_from_lc(cuzk_cs *cs, cuzk_lc *lc, cuzk_bool b, const cuzk_fr *coeff);

#ifdef __cplusplus
}
#endif
#endif
