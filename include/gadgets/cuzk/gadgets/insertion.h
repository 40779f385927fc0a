/* Insertion of a number into a Merkle path level, as storage-proofs-core's
 * gadgets/insertion.rs builds it: pick, and the hand-optimized insert_2, insert_4, insert_8
 * (the only sizes Filecoin trees use). */
#ifndef CUZK_GADGETS_INSERTION_H
#define CUZK_GADGETS_INSERTION_H

#include "cuzk/gadgets/num.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pick: c = cond ? a : b. Aux c; (b - a) * cond = b - c, where cond enters as a linear
 * combination (Is: v; Not: ONE - v; Constant(true): ONE; Constant(false): nothing). */
cuzk_num cuzk_pick(cuzk_cs *cs, cuzk_bool cond, cuzk_num a, cuzk_num b);

/* out[0..size) = elements[0..size-1) with element inserted at position n, where bits[0..k)
 * give n least-significant bit first and size = 2^k is 2, 4 or 8. insert_8 needs allocated
 * (Is) bits, as upstream. Another size, or negated / constant bits for size 8, fail the
 * system with CUZK_EINVAL. */
void cuzk_insert(cuzk_cs *cs, cuzk_num element, const cuzk_bool *bits, unsigned k, const cuzk_num *elements,
                 cuzk_num *out);

#ifdef __cplusplus
}
#endif
#endif
