/* Packing bits into field elements (see include/cuzk/gadgets/multipack.h). The packed sum is
 * built straight into the next constraint's A slot: nothing else is emitted in between. */
#include "cuzk/gadgets/multipack.h"

/* A = sum 2^i bits[i] into cs->lc[0]; returns the value (when cs->values). */
static cuzk_fr pack_into_a(cuzk_cs *cs, const cuzk_bool *bits, size_t n)
{
    cuzk_fr v = CUZK_FR_ZERO;
    for (size_t i = 0; i < n; i++) {
        if (cs->values && cuzk_bool_value(bits[i])) cuzk_fr_add(&v, &v, cuzk_fr_pow2((unsigned)i));
        cuzk_bool_add_to_lc(cs, &cs->lc[0], bits[i], cuzk_fr_pow2((unsigned)i));
    }
    return v;
}

cuzk_var cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits, size_t n)
{
    cuzk_var first = CUZK_VAR_ONE;
    for (size_t at = 0, chunk = 0; at < n; at += CUZK_MULTIPACK_CAPACITY, chunk++) {
        size_t len = n - at < CUZK_MULTIPACK_CAPACITY ? n - at : CUZK_MULTIPACK_CAPACITY;
        cuzk_fr v = pack_into_a(cs, bits + at, len);
        cuzk_var x = cuzk_cs_alloc_input(cs, &v);
        if (chunk == 0) first = x;
        if (cs->keep_lcs) {
            cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
            cuzk_lc_add_one(cs, &cs->lc[2], x);
        }
        cuzk_cs_push(cs, "chunk %zu", chunk);
        cuzk_cs_enforce(cs, "packing constraint");
        cuzk_cs_pop(cs);
    }
    return first;
}

cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bool *bits, size_t n)
{
    if (n > CUZK_MULTIPACK_CAPACITY) n = CUZK_MULTIPACK_CAPACITY;
    cuzk_num x;
    x.value = pack_into_a(cs, bits, n);
    x.var = cuzk_cs_alloc(cs, &x.value);
    if (cs->keep_lcs) {
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_add_one(cs, &cs->lc[2], x.var);
    }
    cuzk_cs_enforce(cs, "packing constraint");
    return x;
}

void cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr *out)
{
    for (size_t at = 0, chunk = 0; at < n; at += CUZK_MULTIPACK_CAPACITY, chunk++) {
        size_t len = n - at < CUZK_MULTIPACK_CAPACITY ? n - at : CUZK_MULTIPACK_CAPACITY;
        out[chunk] = CUZK_FR_ZERO;
        for (size_t i = 0; i < len; i++)
            if (bits[at + i]) cuzk_fr_add(&out[chunk], &out[chunk], cuzk_fr_pow2((unsigned)i));
    }
}
