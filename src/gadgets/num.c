/* Number gadgets with bellpepper-core 0.2's constraints: AllocatedNum (a variable) and Num
 * (a linear combination), including the non-strict 255-bit decomposition that the PoRep
 * circuit uses for replica_id and every node. */
#include "cuzk/gadgets/num.h"

#define FR_NUM_BITS 255 /* bits of the BLS12-381 scalar modulus */

cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr *value)
{
    cuzk_num r;
    r.value = cs->values && value ? *value : CUZK_FR_ZERO;
    r.var = cuzk_cs_alloc(cs, &r.value);
    return r;
}

cuzk_var cuzk_num_inputize(cuzk_cs *cs, cuzk_num x)
{
    cuzk_var y = cuzk_cs_alloc_input(cs, &x.value);
    if (cs->keep_lcs) { /* y * ONE = x */
        cuzk_lc_add_one(cs, &cs->lc[0], y);
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_add_one(cs, &cs->lc[2], x.var);
    }
    cuzk_cs_enforce(cs, "enforce input is correct");
    return y;
}

void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_num x, cuzk_bool out[255])
{
    uint8_t le[32] = {0};
    if (cs->values) cuzk_fr_to_bytes_le(le, &x.value);
    /* bit i of the canonical value, allocated least significant first; the value is below
     * 2^255, so the 255 bits are all of it (no range check: this is the non-strict form) */
    for (unsigned i = 0; i < FR_NUM_BITS; i++) {
        cuzk_cs_push(cs, "bit %u", i);
        out[i] = cuzk_bool_is(cuzk_abit_alloc(cs, (le[i / 8] >> (i % 8)) & 1));
        cuzk_cs_pop(cs);
    }
    if (cs->keep_lcs) {                         /* 0 * 0 = sum 2^i b_i - x */
        cuzk_lc_sub_one(cs, &cs->lc[2], x.var); /* first: the bits then append in order */
        for (unsigned i = 0; i < FR_NUM_BITS; i++) cuzk_lc_add_slow(cs, &cs->lc[2], out[i].bit.var, cuzk_fr_pow2(i));
    }
    cuzk_cs_enforce(cs, "unpacking constraint");
}

cuzk_num cuzk_num_mul(cuzk_cs *cs, cuzk_num a, cuzk_num b)
{
    cuzk_num r;
    r.value = CUZK_FR_ZERO;
    if (cs->values) cuzk_fr_mul(&r.value, &a.value, &b.value);
    r.var = cuzk_cs_alloc(cs, &r.value);
    if (cs->keep_lcs) {
        cuzk_lc_add_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[1], b.var);
        cuzk_lc_add_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "multiplication constraint");
    return r;
}

cuzk_num cuzk_num_square(cuzk_cs *cs, cuzk_num x)
{
    cuzk_num r;
    r.value = CUZK_FR_ZERO;
    if (cs->values) cuzk_fr_sqr(&r.value, &x.value);
    r.var = cuzk_cs_alloc(cs, &r.value);
    if (cs->keep_lcs) {
        cuzk_lc_add_one(cs, &cs->lc[0], x.var);
        cuzk_lc_add_one(cs, &cs->lc[1], x.var);
        cuzk_lc_add_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "squaring constraint");
    return r;
}

/* ---------------------------------------------------------------- Num */

void cuzk_lcnum_init(cuzk_lcnum *n)
{
    cuzk_lc_init(&n->lc);
    n->value = CUZK_FR_ZERO;
}

void cuzk_lcnum_free(cuzk_lcnum *n) { cuzk_lc_free(&n->lc); }

void cuzk_lcnum_add_bool_with_coeff(cuzk_cs *cs, cuzk_lcnum *n, cuzk_bool b, const cuzk_fr *coeff)
{
    if (cs->values && cuzk_bool_value(b)) cuzk_fr_add(&n->value, &n->value, coeff ? coeff : &CUZK_FR_ONE);
    cuzk_bool_add_to_lc(cs, &n->lc, b, coeff);
}
