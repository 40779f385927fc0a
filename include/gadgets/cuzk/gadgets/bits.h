/* Bit-vector helpers of storage-proofs-core (util.rs): allocating bytes as bits and
 * reverse_bit_numbering, the per-byte bit reversal between field-element bit order
 * (little-endian) and SHA-256 bit order (most significant bit of each byte first). */
#ifndef CUZK_GADGETS_BITS_H
#define CUZK_GADGETS_BITS_H

#include "cuzk/gadgets/boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

/* reverse_bit_numbering: in padded with constant false to a multiple of 8, then the bits of
 * each byte reversed. out holds the padded length, which is returned; out is not in. */
size_t cuzk_reverse_bit_numbering(const cuzk_bool *in, size_t n, cuzk_bool *out);

/* bytes_into_boolean_vec: 8 n allocated bits, each byte least significant bit first.
 * bytes may be NULL when !cs->values. Namespaces "bit i". */
void cuzk_bits_alloc_bytes_le(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bool *out);
/* bytes_into_boolean_vec_be: the same, most significant bit of each byte first. */
void cuzk_bits_alloc_bytes_be(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bool *out);

#ifdef __cplusplus
}
#endif
#endif
