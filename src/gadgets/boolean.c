/* Boolean gadgets with bellpepper-core 0.2's exact constraints and constant folding.
 *
 * Which constraints exist depends only on the Constant/Is/Not shape of the operands, never
 * on values, so COUNT, RECORD, PROVE, TEST and WITNESS build the same system. Each case
 * analysis below follows bellpepper's match arms in their order: the first arm that matches
 * decides, and several arms deliberately do less folding than they could (sha256_ch with a
 * constant-true `a` still allocates), because the official keys were made that way.
 * Linear combinations are built only when cs->keep_lcs; WITNESS only allocates values. */
#include "cuzk/gadgets/boolean.h"

static inline cuzk_var alloc_bit(cuzk_cs *cs, bool v) { return cuzk_cs_alloc(cs, v ? &CUZK_FR_ONE : &CUZK_FR_ZERO); }

/* lc += coeff*v and lc -= coeff*v with coeff NULL meaning one (the common case, no multiply). */
static void lc_plus(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr *coeff)
{
    if (coeff) cuzk_lc_add_slow(cs, lc, v, coeff);
    else cuzk_lc_add_one(cs, lc, v);
}

static void lc_minus(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr *coeff)
{
    if (coeff) {
        cuzk_fr m;
        cuzk_fr_neg(&m, coeff);
        cuzk_lc_add_slow(cs, lc, v, &m);
    } else {
        cuzk_lc_sub_one(cs, lc, v);
    }
}

void cuzk_bool_add_to_lc(cuzk_cs *cs, cuzk_lc *lc, cuzk_bool b, const cuzk_fr *coeff)
{
    if (!cs->keep_lcs) return;
    switch (b.kind) {
    case CUZK_BOOL_CONSTANT:
        if (b.constant) lc_plus(cs, lc, CUZK_VAR_ONE, coeff);
        break;
    case CUZK_BOOL_IS: lc_plus(cs, lc, b.bit.var, coeff); break;
    case CUZK_BOOL_NOT:
        lc_plus(cs, lc, CUZK_VAR_ONE, coeff);
        lc_minus(cs, lc, b.bit.var, coeff);
        break;
    }
}

void cuzk_bool_sub_from_lc(cuzk_cs *cs, cuzk_lc *lc, cuzk_bool b, const cuzk_fr *coeff)
{
    if (!cs->keep_lcs) return;
    switch (b.kind) {
    case CUZK_BOOL_CONSTANT:
        if (b.constant) lc_minus(cs, lc, CUZK_VAR_ONE, coeff);
        break;
    case CUZK_BOOL_IS: lc_minus(cs, lc, b.bit.var, coeff); break;
    case CUZK_BOOL_NOT:
        lc_minus(cs, lc, CUZK_VAR_ONE, coeff);
        lc_plus(cs, lc, b.bit.var, coeff);
        break;
    }
}

/* ---------------------------------------------------------------- AllocatedBit */

cuzk_abit cuzk_abit_alloc(cuzk_cs *cs, bool value)
{
    cuzk_abit r = {alloc_bit(cs, value), value};
    if (cs->keep_lcs) { /* (ONE - v) * v = 0 */
        cuzk_lc_add_one(cs, &cs->lc[0], CUZK_VAR_ONE);
        cuzk_lc_sub_one(cs, &cs->lc[0], r.var);
        cuzk_lc_add_one(cs, &cs->lc[1], r.var);
    }
    cuzk_cs_enforce(cs, "boolean constraint");
    return r;
}

cuzk_abit cuzk_abit_xor(cuzk_cs *cs, cuzk_abit a, cuzk_abit b)
{
    cuzk_abit r = {alloc_bit(cs, a.value ^ b.value), a.value ^ b.value};
    if (cs->keep_lcs) { /* (a + a) * b = a + b - r */
        cuzk_lc_add_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[1], b.var);
        cuzk_lc_add_one(cs, &cs->lc[2], a.var);
        cuzk_lc_add_one(cs, &cs->lc[2], b.var);
        cuzk_lc_sub_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "xor constraint");
    return r;
}

cuzk_abit cuzk_abit_and(cuzk_cs *cs, cuzk_abit a, cuzk_abit b)
{
    cuzk_abit r = {alloc_bit(cs, a.value & b.value), a.value & b.value};
    if (cs->keep_lcs) { /* a * b = r */
        cuzk_lc_add_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[1], b.var);
        cuzk_lc_add_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "and constraint");
    return r;
}

cuzk_abit cuzk_abit_and_not(cuzk_cs *cs, cuzk_abit a, cuzk_abit b)
{
    cuzk_abit r = {alloc_bit(cs, a.value & !b.value), a.value & !b.value};
    if (cs->keep_lcs) { /* a * (ONE - b) = r */
        cuzk_lc_add_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_sub_one(cs, &cs->lc[1], b.var);
        cuzk_lc_add_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "and not constraint");
    return r;
}

cuzk_abit cuzk_abit_nor(cuzk_cs *cs, cuzk_abit a, cuzk_abit b)
{
    cuzk_abit r = {alloc_bit(cs, !a.value & !b.value), !a.value & !b.value};
    if (cs->keep_lcs) { /* (ONE - a) * (ONE - b) = r */
        cuzk_lc_add_one(cs, &cs->lc[0], CUZK_VAR_ONE);
        cuzk_lc_sub_one(cs, &cs->lc[0], a.var);
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_sub_one(cs, &cs->lc[1], b.var);
        cuzk_lc_add_one(cs, &cs->lc[2], r.var);
    }
    cuzk_cs_enforce(cs, "nor constraint");
    return r;
}

/* ---------------------------------------------------------------- Boolean */

cuzk_bool cuzk_bool_not(cuzk_bool b)
{
    switch (b.kind) {
    case CUZK_BOOL_CONSTANT: b.constant = !b.constant; break;
    case CUZK_BOOL_IS: b.kind = CUZK_BOOL_NOT; break;
    case CUZK_BOOL_NOT: b.kind = CUZK_BOOL_IS; break;
    }
    return b;
}

bool cuzk_bool_value(cuzk_bool b)
{
    switch (b.kind) {
    case CUZK_BOOL_IS: return b.bit.value;
    case CUZK_BOOL_NOT: return !b.bit.value;
    default: return b.constant;
    }
}

static inline bool is_const(cuzk_bool b, bool v) { return b.kind == CUZK_BOOL_CONSTANT && b.constant == v; }

cuzk_bool cuzk_bool_xor(cuzk_cs *cs, cuzk_bool a, cuzk_bool b)
{
    if (is_const(a, false)) return b;
    if (is_const(b, false)) return a;
    if (is_const(a, true)) return cuzk_bool_not(b);
    if (is_const(b, true)) return cuzk_bool_not(a);
    /* Is ^ Not = not(Is ^ Is), with the Is operand first whichever side it came from */
    if (a.kind == CUZK_BOOL_IS && b.kind == CUZK_BOOL_NOT)
        return cuzk_bool_not(cuzk_bool_is(cuzk_abit_xor(cs, a.bit, b.bit)));
    if (a.kind == CUZK_BOOL_NOT && b.kind == CUZK_BOOL_IS)
        return cuzk_bool_not(cuzk_bool_is(cuzk_abit_xor(cs, b.bit, a.bit)));
    /* Is ^ Is, and Not ^ Not = Is ^ Is */
    return cuzk_bool_is(cuzk_abit_xor(cs, a.bit, b.bit));
}

cuzk_bool cuzk_bool_and(cuzk_cs *cs, cuzk_bool a, cuzk_bool b)
{
    if (is_const(a, false) || is_const(b, false)) return cuzk_bool_constant(false);
    if (is_const(a, true)) return b;
    if (is_const(b, true)) return a;
    if (a.kind == CUZK_BOOL_IS && b.kind == CUZK_BOOL_NOT) return cuzk_bool_is(cuzk_abit_and_not(cs, a.bit, b.bit));
    if (a.kind == CUZK_BOOL_NOT && b.kind == CUZK_BOOL_IS) return cuzk_bool_is(cuzk_abit_and_not(cs, b.bit, a.bit));
    if (a.kind == CUZK_BOOL_NOT) return cuzk_bool_is(cuzk_abit_nor(cs, a.bit, b.bit));
    return cuzk_bool_is(cuzk_abit_and(cs, a.bit, b.bit));
}

static inline bool is_constant(cuzk_bool b) { return b.kind == CUZK_BOOL_CONSTANT; }

cuzk_bool cuzk_bool_sha256_ch(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    bool av = cuzk_bool_value(a), bv = cuzk_bool_value(b), cv = cuzk_bool_value(c);
    bool chv = (av & bv) ^ (!av & cv);
    if (is_constant(a) && is_constant(b) && is_constant(c)) return cuzk_bool_constant(chv);
    if (is_const(a, false)) return c;
    if (is_const(b, false)) return cuzk_bool_and(cs, cuzk_bool_not(a), c);
    if (is_const(c, false)) return cuzk_bool_and(cs, a, b);
    if (is_const(c, true)) return cuzk_bool_not(cuzk_bool_and(cs, a, cuzk_bool_not(b)));
    if (is_const(b, true)) return cuzk_bool_not(cuzk_bool_and(cs, cuzk_bool_not(a), cuzk_bool_not(c)));
    /* a constant true (b, c allocated) falls through to the general case, as upstream */
    cuzk_abit ch = {alloc_bit(cs, chv), chv};
    if (cs->keep_lcs) { /* (b - c) * a = ch - c */
        cuzk_bool_add_to_lc(cs, &cs->lc[0], b, NULL);
        cuzk_bool_sub_from_lc(cs, &cs->lc[0], c, NULL);
        cuzk_bool_add_to_lc(cs, &cs->lc[1], a, NULL);
        cuzk_lc_add_one(cs, &cs->lc[2], ch.var);
        cuzk_bool_sub_from_lc(cs, &cs->lc[2], c, NULL);
    }
    cuzk_cs_enforce(cs, "ch computation");
    return cuzk_bool_is(ch);
}

cuzk_bool cuzk_bool_sha256_maj(cuzk_cs *cs, cuzk_bool a, cuzk_bool b, cuzk_bool c)
{
    bool av = cuzk_bool_value(a), bv = cuzk_bool_value(b), cv = cuzk_bool_value(c);
    bool majv = (av & bv) ^ (av & cv) ^ (bv & cv);
    if (is_constant(a) && is_constant(b) && is_constant(c)) return cuzk_bool_constant(majv);
    if (is_const(a, false)) return cuzk_bool_and(cs, b, c);
    if (is_const(b, false)) return cuzk_bool_and(cs, a, c);
    if (is_const(c, false)) return cuzk_bool_and(cs, a, b);
    if (is_const(c, true)) return cuzk_bool_not(cuzk_bool_and(cs, cuzk_bool_not(a), cuzk_bool_not(b)));
    if (is_const(b, true)) return cuzk_bool_not(cuzk_bool_and(cs, cuzk_bool_not(a), cuzk_bool_not(c)));
    if (is_const(a, true)) return cuzk_bool_not(cuzk_bool_and(cs, cuzk_bool_not(b), cuzk_bool_not(c)));
    /* maj is allocated before b AND c: the aux order depends on it */
    cuzk_abit maj = {alloc_bit(cs, majv), majv};
    cuzk_cs_push(cs, "b and c");
    cuzk_bool bc = cuzk_bool_and(cs, b, c);
    cuzk_cs_pop(cs);
    if (cs->keep_lcs) { /* (2bc - b - c) * a = bc - maj */
        cuzk_bool_add_to_lc(cs, &cs->lc[0], bc, cuzk_fr_pow2(1));
        cuzk_bool_sub_from_lc(cs, &cs->lc[0], b, NULL);
        cuzk_bool_sub_from_lc(cs, &cs->lc[0], c, NULL);
        cuzk_bool_add_to_lc(cs, &cs->lc[1], a, NULL);
        cuzk_bool_add_to_lc(cs, &cs->lc[2], bc, NULL);
        cuzk_lc_sub_one(cs, &cs->lc[2], maj.var);
    }
    cuzk_cs_enforce(cs, "maj computation");
    return cuzk_bool_is(maj);
}

void cuzk_bool_enforce_equal(cuzk_cs *cs, cuzk_bool a, cuzk_bool b)
{
    if (is_constant(a) && is_constant(b)) {
        /* bellpepper reports Unsatisfiable here and emits nothing */
        if (a.constant != b.constant)
            cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "enforce_equal of two different constant booleans"));
        return;
    }
    if (cs->keep_lcs) {
        if (is_const(a, true) || is_const(b, true)) { /* 0 * 0 = ONE - x */
            cuzk_lc_add_one(cs, &cs->lc[2], CUZK_VAR_ONE);
            cuzk_bool_sub_from_lc(cs, &cs->lc[2], is_const(a, true) ? b : a, NULL);
        } else if (is_const(a, false) || is_const(b, false)) { /* 0 * 0 = x */
            cuzk_bool_add_to_lc(cs, &cs->lc[2], is_const(a, false) ? b : a, NULL);
        } else { /* 0 * 0 = a - b */
            cuzk_bool_add_to_lc(cs, &cs->lc[2], a, NULL);
            cuzk_bool_sub_from_lc(cs, &cs->lc[2], b, NULL);
        }
    }
    cuzk_cs_enforce(cs, "enforce equal");
}
