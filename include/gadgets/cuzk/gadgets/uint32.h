/* 32-bit words and packed equalities, exactly as bellperson 0.27 builds them
 * (gadgets/uint32.rs, gadgets/multieq.rs): the SHA-256 building blocks.
 *
 * A word is 32 Booleans, least significant first, with its value. rotr and shr only move
 * bits (shr fills with constant false); xor, ch and maj work bit by bit through the Boolean
 * case analysis; addmany allocates the sum's bits and enforces the sum through a MultiEq,
 * which packs several equalities into one constraint until 254 bits (the field's capacity)
 * would be exceeded. The pending packed constraint is emitted only by a flush, which
 * upstream does when the MultiEq is dropped: at the end of each SHA-256 compression. */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

#include "cuzk/gadgets/boolean.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_bool bits[32]; /* least significant first */
    uint32_t value;     /* meaningful when cs->values, and always when every bit is constant */
} cuzk_u32;

/* MultiEq: the pending packed equality lhs = rhs and the bits it uses. Its LC storage is
 * reused across flushes; in WITNESS mode nothing is ever built or allocated. */
typedef struct {
    cuzk_lc lhs, rhs;
    unsigned bits_used, ops;
} cuzk_multieq;

#define CUZK_MULTIEQ_CAPACITY 254 /* Fr::CAPACITY */

void cuzk_multieq_init(cuzk_multieq *me);
void cuzk_multieq_free(cuzk_multieq *me);
/* What dropping a MultiEq does: emits lhs * ONE = rhs when anything is pending, and resets. */
void cuzk_multieq_flush(cuzk_cs *cs, cuzk_multieq *me);
/* Makes room for an nbits-wide equality (emitting the pending one first when
 * bits_used + nbits would reach the capacity) and returns the shift k at which it is to be
 * added: the caller adds 2^k * its sides to me->lhs and me->rhs. */
unsigned cuzk_multieq_reserve(cuzk_cs *cs, cuzk_multieq *me, unsigned nbits);
/* MultiEq::enforce_equal: lhs = rhs for values below 2^nbits. */
void cuzk_multieq_enforce_equal(cuzk_cs *cs, cuzk_multieq *me, unsigned nbits, const cuzk_lc *lhs, const cuzk_lc *rhs);

void cuzk_u32_constant(cuzk_u32 *out, uint32_t v);
/* UInt32::alloc: 32 allocated bits, least significant first. */
void cuzk_u32_alloc(cuzk_cs *cs, cuzk_u32 *out, uint32_t v);
bool cuzk_u32_is_constant(const cuzk_u32 *x);
/* from_bits_be / into_bits_be: most significant bit first. */
void cuzk_u32_from_bits_be(cuzk_u32 *out, const cuzk_bool bits[32]);
void cuzk_u32_into_bits_be(const cuzk_u32 *x, cuzk_bool out[32]);
/* out may be x. */
void cuzk_u32_rotr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by);
void cuzk_u32_shr(cuzk_u32 *out, const cuzk_u32 *x, unsigned by);
/* Bitwise through the Boolean arms; out may be any operand. */
void cuzk_u32_xor(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b);
void cuzk_u32_sha256_ch(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c);
void cuzk_u32_sha256_maj(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c);
/* UInt32::addmany of 2..10 operands modulo 2^32. All bits constant: a constant, no
 * constraints. Otherwise bitlen(n (2^32 - 1)) result bits are allocated (33 for 2 operands,
 * 34 for 3-4, 35 for 5-8, 36 for 9-10) and the sum is enforced through me; out may be an operand. */
void cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *me, cuzk_u32 *out, const cuzk_u32 *const *ops, size_t n);

#ifdef __cplusplus
}
#endif
#endif
