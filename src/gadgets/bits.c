/* Bit-vector helpers (see include/cuzk/gadgets/bits.h). */
#include "cuzk/gadgets/bits.h"

size_t cuzk_reverse_bit_numbering(const cuzk_bool *in, size_t n, cuzk_bool *out)
{
    size_t padded = (n + 7) / 8 * 8;
    for (size_t byte = 0; byte < padded; byte += 8)
        for (size_t j = 0; j < 8; j++) {
            size_t src = byte + 7 - j;
            out[byte + j] = src < n ? in[src] : cuzk_bool_constant(false);
        }
    return padded;
}

static void alloc_bytes(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bool *out, bool msb_first)
{
    for (size_t i = 0; i < 8 * n; i++) {
        unsigned shift = msb_first ? 7 - (unsigned)(i % 8) : (unsigned)(i % 8);
        bool v = cs->values && bytes ? (bytes[i / 8] >> shift) & 1 : false;
        cuzk_cs_push(cs, "bit %zu", i);
        out[i] = cuzk_bool_is(cuzk_abit_alloc(cs, v));
        cuzk_cs_pop(cs);
    }
}

void cuzk_bits_alloc_bytes_le(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bool *out)
{
    alloc_bytes(cs, bytes, n, out, false);
}

void cuzk_bits_alloc_bytes_be(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bool *out)
{
    alloc_bytes(cs, bytes, n, out, true);
}
