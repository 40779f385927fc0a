/* UInt32 and MultiEq (see include/cuzk/gadgets/uint32.h). */
#include <string.h>

#include "cuzk/gadgets/uint32.h"

/* Per-bit namespaces only matter for TEST paths; skip the call elsewhere. */
#define NS_PUSH(cs, ...)                                               \
    do {                                                               \
        if ((cs)->mode == CUZK_CS_TEST) cuzk_cs_push(cs, __VA_ARGS__); \
    } while (0)
#define NS_POP(cs)                                       \
    do {                                                 \
        if ((cs)->mode == CUZK_CS_TEST) cuzk_cs_pop(cs); \
    } while (0)

/* ---------------------------------------------------------------- MultiEq */

void cuzk_multieq_init(cuzk_multieq *me)
{
    cuzk_lc_init(&me->lhs);
    cuzk_lc_init(&me->rhs);
    me->bits_used = me->ops = 0;
}

void cuzk_multieq_free(cuzk_multieq *me)
{
    cuzk_lc_free(&me->lhs);
    cuzk_lc_free(&me->rhs);
}

/* MultiEq::accumulate: lhs * ONE = rhs. */
static void accumulate(cuzk_cs *cs, cuzk_multieq *me)
{
    if (cs->keep_lcs) {
        cuzk_lc_add_lc(cs, &cs->lc[0], &me->lhs, NULL);
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_add_lc(cs, &cs->lc[2], &me->rhs, NULL);
    }
    NS_PUSH(cs, "multieq %u", me->ops);
    cuzk_cs_enforce(cs, "packed equality");
    NS_POP(cs);
    cuzk_lc_clear(&me->lhs);
    cuzk_lc_clear(&me->rhs);
    me->bits_used = 0;
    me->ops++;
}

void cuzk_multieq_flush(cuzk_cs *cs, cuzk_multieq *me)
{
    if (me->bits_used > 0) accumulate(cs, me);
}

unsigned cuzk_multieq_reserve(cuzk_cs *cs, cuzk_multieq *me, unsigned nbits)
{
    if (CUZK_MULTIEQ_CAPACITY <= me->bits_used + nbits) accumulate(cs, me);
    if (me->bits_used + nbits >= CUZK_MULTIEQ_CAPACITY) { /* wider than the capacity: upstream asserts */
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "a %u-bit equality does not fit a packed constraint", nbits));
        return 0;
    }
    unsigned shift = me->bits_used;
    me->bits_used += nbits;
    return shift;
}

void cuzk_multieq_enforce_equal(cuzk_cs *cs, cuzk_multieq *me, unsigned nbits, const cuzk_lc *lhs, const cuzk_lc *rhs)
{
    unsigned shift = cuzk_multieq_reserve(cs, me, nbits);
    if (cs->status || !cs->keep_lcs) return;
    cuzk_lc_add_lc(cs, &me->lhs, lhs, cuzk_fr_pow2(shift));
    cuzk_lc_add_lc(cs, &me->rhs, rhs, cuzk_fr_pow2(shift));
}

/* ---------------------------------------------------------------- words */

void cuzk_u32_constant(cuzk_u32 *out, uint32_t v)
{
    for (int i = 0; i < 32; i++) out->bits[i] = cuzk_bool_constant((v >> i) & 1);
    out->value = v;
}

void cuzk_u32_alloc(cuzk_cs *cs, cuzk_u32 *out, uint32_t v)
{
    for (int i = 0; i < 32; i++) {
        NS_PUSH(cs, "allocated bit %d", i);
        out->bits[i] = cuzk_bool_is(cuzk_abit_alloc(cs, (v >> i) & 1));
        NS_POP(cs);
    }
    out->value = v;
}

bool cuzk_u32_is_constant(const cuzk_u32 *x)
{
    for (int i = 0; i < 32; i++)
        if (x->bits[i].kind != CUZK_BOOL_CONSTANT) return false;
    return true;
}

/* The value read from the bits: exact for constants whatever the mode, which the constant
 * shortcut relies on (a word can fold to constants while its operands had no values). */
static uint32_t value_of_bits(const cuzk_u32 *x)
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) v |= (uint32_t)cuzk_bool_value(x->bits[i]) << i;
    return v;
}

void cuzk_u32_from_bits_be(cuzk_u32 *out, const cuzk_bool bits[32])
{
    for (int i = 0; i < 32; i++) out->bits[31 - i] = bits[i];
    out->value = value_of_bits(out);
}

void cuzk_u32_into_bits_be(const cuzk_u32 *x, cuzk_bool out[32])
{
    for (int i = 0; i < 32; i++) out[i] = x->bits[31 - i];
}

void cuzk_u32_rotr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by)
{
    cuzk_u32 t;
    if (out == x) { /* in place: read from a copy */
        t = *x;
        x = &t;
    }
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->bits[i] = x->bits[(i + by) % 32];
    out->value = by ? (x->value >> by) | (x->value << (32 - by)) : x->value;
}

void cuzk_u32_shr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by)
{
    cuzk_u32 t;
    if (out == x) {
        t = *x;
        x = &t;
    }
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->bits[i] = i + by < 32 ? x->bits[i + by] : cuzk_bool_constant(false);
    out->value = x->value >> by;
}

void cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b)
{
    uint32_t v = a->value ^ b->value;
    for (int i = 0; i < 32; i++) {
        NS_PUSH(cs, "xor of bit %d", i);
        out->bits[i] = cuzk_bool_xor(cs, a->bits[i], b->bits[i]);
        NS_POP(cs);
    }
    out->value = v;
}

void cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c)
{
    uint32_t v = (a->value & b->value) ^ (~a->value & c->value);
    for (int i = 0; i < 32; i++) {
        NS_PUSH(cs, "ch %d", i);
        out->bits[i] = cuzk_bool_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
        NS_POP(cs);
    }
    out->value = v;
}

void cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c)
{
    uint32_t v = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    for (int i = 0; i < 32; i++) {
        NS_PUSH(cs, "maj %d", i);
        out->bits[i] = cuzk_bool_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
        NS_POP(cs);
    }
    out->value = v;
}

void cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *me, cuzk_u32 *out, const cuzk_u32 *const *ops, size_t n)
{
    if (n < 2 || n > 10) { /* upstream asserts 2 <= n <= 10 */
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "addmany of %zu operands (2 to 10 supported)", n));
        return;
    }
    bool all_constant = true;
    for (size_t k = 0; k < n && all_constant; k++) all_constant = cuzk_u32_is_constant(ops[k]);
    if (all_constant) {
        uint64_t sum = 0;
        for (size_t k = 0; k < n; k++) sum += value_of_bits(ops[k]);
        cuzk_u32_constant(out, (uint32_t)sum);
        return;
    }
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) sum += ops[k]->value;
    /* bit length of the largest possible sum, n (2^32 - 1) */
    unsigned nbits = 0;
    for (uint64_t max = (uint64_t)n * UINT32_MAX; max; max >>= 1) nbits++;
    cuzk_bool res[36]; /* 10 (2^32 - 1) < 2^36 */
    for (unsigned i = 0; i < nbits; i++) {
        NS_PUSH(cs, "result bit %u", i);
        res[i] = cuzk_bool_is(cuzk_abit_alloc(cs, (sum >> i) & 1));
        NS_POP(cs);
    }
    /* the pending packed row (if full) is emitted after the result bits, as upstream */
    unsigned shift = cuzk_multieq_reserve(cs, me, nbits);
    if (cs->keep_lcs && !cs->status) {
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                cuzk_bool_add_to_lc(cs, &me->lhs, ops[k]->bits[i], cuzk_fr_pow2(shift + i));
        for (unsigned i = 0; i < nbits; i++) cuzk_lc_add_slow(cs, &me->rhs, res[i].bit.var, cuzk_fr_pow2(shift + i));
    }
    memcpy(out->bits, res, sizeof out->bits); /* the carry bits are dropped */
    out->value = (uint32_t)sum;
}
