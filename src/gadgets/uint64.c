/* 64-bit words (see include/cuzk/gadgets/uint64.h). */
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/uint64.h"

void cuzk_u64_constant(cuzk_u64 *out, uint64_t v)
{
    for (int i = 0; i < 64; i++) out->bits[i] = cuzk_bool_constant((v >> i) & 1);
    out->value = v;
}

void cuzk_u64_alloc(cuzk_cs *cs, cuzk_u64 *out, uint64_t v)
{
    for (int i = 0; i < 64; i++) {
        cuzk_cs_push(cs, "allocated bit %d", i);
        out->bits[i] = cuzk_bool_is(cuzk_abit_alloc(cs, (v >> i) & 1));
        cuzk_cs_pop(cs);
    }
    out->value = v;
}

void cuzk_u64_to_bits_be(const cuzk_u64 *x, cuzk_bool out[64])
{
    for (int i = 0; i < 64; i++) out[i] = x->bits[63 - i];
}

void cuzk_u64_to_bits_le(const cuzk_u64 *x, cuzk_bool out[64])
{
    for (int i = 0; i < 64; i++) out[i] = x->bits[i];
}

void cuzk_u64_from_bits_be(cuzk_u64 *out, const cuzk_bool bits[64])
{
    out->value = 0;
    for (int i = 0; i < 64; i++) {
        out->bits[63 - i] = bits[i];
        out->value = out->value << 1 | cuzk_bool_value(bits[i]);
    }
}

cuzk_var cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_u64 *x)
{
    return cuzk_multipack_pack_into_inputs(cs, x->bits, 64);
}
