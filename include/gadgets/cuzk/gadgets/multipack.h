/* Packing bits into field elements, as bellperson 0.27 gadgets/multipack.rs does: bits are
 * read little-endian (bit i has weight 2^i) in chunks of CAPACITY = 254. */
#ifndef CUZK_GADGETS_MULTIPACK_H
#define CUZK_GADGETS_MULTIPACK_H

#include "cuzk/gadgets/num.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_MULTIPACK_CAPACITY 254

/* pack_into_inputs: per chunk of 254 bits, a public input x and the row
 * (sum 2^i b_i) * ONE = x. The inputs are consecutive; returns the first one
 * (CUZK_VAR_ONE when n is 0 and nothing is allocated). */
cuzk_var cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bool *bits, size_t n);
/* The number of inputs pack_into_inputs allocates for n bits. */
static inline size_t cuzk_multipack_num_inputs(size_t n)
{
    return (n + CUZK_MULTIPACK_CAPACITY - 1) / CUZK_MULTIPACK_CAPACITY;
}

/* pack_bits: the first min(n, 254) bits as one aux x with (sum 2^i b_i) * ONE = x. */
cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bool *bits, size_t n);

/* compute_multipacking: the values pack_into_inputs exposes for these bits; writes
 * cuzk_multipack_num_inputs(n) elements. */
void cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr *out);

#ifdef __cplusplus
}
#endif
#endif
