/* 64-bit words as storage-proofs-core gadgets/uint64.rs has them: 64 Booleans, least
 * significant first. The PoRep circuit allocates the challenge node this way, hashes its
 * big-endian bits into the label and exposes it with pack_into_input. */
#ifndef CUZK_GADGETS_UINT64_H
#define CUZK_GADGETS_UINT64_H

#include "cuzk/gadgets/boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_bool bits[64]; /* least significant first */
    uint64_t value;     /* meaningful when cs->values, and always for constants */
} cuzk_u64;

void cuzk_u64_constant(cuzk_u64 *out, uint64_t v);
/* UInt64::alloc: 64 allocated bits, least significant first ("allocated bit i"). */
void cuzk_u64_alloc(cuzk_cs *cs, cuzk_u64 *out, uint64_t v);
/* to_bits_be / to_bits_le / from_bits_be */
void cuzk_u64_to_bits_be(const cuzk_u64 *x, cuzk_bool out[64]);
void cuzk_u64_to_bits_le(const cuzk_u64 *x, cuzk_bool out[64]);
void cuzk_u64_from_bits_be(cuzk_u64 *out, const cuzk_bool bits[64]);
/* pack_into_input: multipack::pack_into_inputs of the 64 bits, one public input holding the
 * value; returns that input. */
cuzk_var cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_u64 *x);

#ifdef __cplusplus
}
#endif
#endif
