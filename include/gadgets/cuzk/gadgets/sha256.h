/* SHA-256 in the circuit, exactly as bellperson 0.27 gadgets/sha256.rs builds it.
 *
 * Bits are Booleans in the standard SHA-256 order: each message byte most significant bit
 * first, and the digest as the eight state words big-endian (the digest bytes, MSB first).
 * Constant input bits fold: an all-constant message costs no constraints at all. */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

#include "cuzk/gadgets/uint32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The initial hash value as constant words. */
void cuzk_sha256_gadget_iv(cuzk_u32 out[8]);

/* sha256_compression_function: one 512-bit block into the state. The 48 schedule words, the
 * 64 rounds with their deferred additions, the eight final additions, then the flush of the
 * block's MultiEq. out may be state. */
void cuzk_sha256_compression_gadget(cuzk_cs *cs, const cuzk_bool input[512], const cuzk_u32 state[8], cuzk_u32 out[8]);

/* sha256_block_no_padding: the compression of one block from the IV, as 256 digest bits. */
void cuzk_sha256_block_no_padding_gadget(cuzk_cs *cs, const cuzk_bool input[512], cuzk_bool out[256]);

/* sha256: the full hash of nbits input bits (a multiple of 8, else the system fails with
 * CUZK_EINVAL), with the padding as constant bits; one namespace "block i" per block. */
void cuzk_sha256_gadget(cuzk_cs *cs, const cuzk_bool *input, size_t nbits, cuzk_bool out[256]);

#ifdef __cplusplus
}
#endif
#endif
