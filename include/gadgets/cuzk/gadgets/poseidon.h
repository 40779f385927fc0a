/* The Poseidon hash circuit exactly as neptune 11.0.0's legacy circuit (circuit.rs
 * poseidon_hash) builds it, for the arities Filecoin uses (2, 4, 8, 11), Strength::Standard,
 * HashType::MerkleTree, with the optimized-static constants of cuzk_poseidon_constants_get.
 *
 * The official proving keys fix this R1CS: the order of every allocation and constraint, and
 * the linear combinations that carry the (free) MDS mixing between S-boxes. It costs
 * 3(t-1) + 28t + 4 R_P + 1 constraints and as many aux variables (t = arity + 1):
 * 311, 377, 505 and 598 for arities 2, 4, 8 and 11. */
#ifndef CUZK_GADGETS_POSEIDON_H
#define CUZK_GADGETS_POSEIDON_H

#include "cuzk/gadgets/num.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Poseidon(preimage[0..arity)) as an allocated number (its value when cs->values).
 * An unsupported arity fails the constraint system with CUZK_EINVAL. */
cuzk_num cuzk_poseidon_circuit(cuzk_cs *cs, unsigned arity, const cuzk_num *preimage);
/* The same circuit with another domain tag as the constant first state element (a custom
 * HashType, e.g. cuzk_poseidon_custom_tag): same constraints, another constant. */
cuzk_num cuzk_poseidon_circuit_tagged(cuzk_cs *cs, unsigned arity, const cuzk_fr *domain_tag, const cuzk_num *preimage);

/* The constraint (and aux) count of one cuzk_poseidon_circuit; 0 for an unsupported arity. */
size_t cuzk_poseidon_circuit_size(unsigned arity);

#ifdef __cplusplus
}
#endif
#endif
