/* Merkle tree gadgets: the node hash of Filecoin's hashers and the proof-of-retrievability
 * (inclusion) circuit of storage-proofs-core (gadgets/por.rs PoRCircuit), over trees of shape
 * base-sub-top as rust-fil-proofs builds them.
 *
 * A tree of shape B-S-T with L leaves is S*T (or S, or 1) base trees of arity B side by side,
 * each over L / (S*T) leaves; a sub level of arity S joins S base roots, a top level of
 * arity T joins T sub roots. A path is the base levels leaf to root, then the sub level, then
 * the top level; each level lists the arity - 1 siblings of the node in position order. The
 * challenged leaf's index, least-significant bit first, gives the insertion position at each
 * level: log2(arity) bits per level. */
#ifndef CUZK_GADGETS_MERKLE_H
#define CUZK_GADGETS_MERKLE_H

#include "cuzk/gadgets/num.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CUZK_HASHER_POSEIDON, CUZK_HASHER_SHA256 } cuzk_hasher;

/* The in-circuit node hash of `arity` children (filecoin-hashers hash_multi_leaf_circuit):
 * Poseidon: neptune's legacy circuit of that arity (2, 4, 8).
 * SHA-256: each child to_bits_le (255 bits, non-strict), padded with a constant 0 bit and
 * reversed within each byte (the child's little-endian bytes, bits MSB first); SHA-256 of the
 * concatenation; the digest's bits reversed within each byte and the first 254 packed into one
 * number (the digest read little-endian with the top two bits cleared). */
cuzk_num cuzk_merkle_hash_node(cuzk_cs *cs, cuzk_hasher h, unsigned arity, const cuzk_num *children);

typedef struct {
    unsigned base_arity;  /* 2, 4 or 8 */
    unsigned base_levels; /* >= 1 */
    unsigned sub_arity;   /* 0 (none), 2, 4 or 8 */
    unsigned top_arity;   /* 0 (none), 2, 4 or 8; needs a sub level */
} cuzk_tree_shape;

/* Checks the arities and levels (CUZK_EINVAL with a message naming the defect). */
cuzk_status cuzk_tree_shape_check(const cuzk_tree_shape *s) CUZK_WARN_UNUSED;
/* Path levels (base_levels, plus one for sub and one for top), index bits, sibling count
 * (the sum of arity - 1 over the levels) and leaves of a checked shape. */
unsigned cuzk_tree_shape_levels(const cuzk_tree_shape *s);
unsigned cuzk_tree_shape_index_bits(const cuzk_tree_shape *s);
size_t cuzk_tree_shape_siblings(const cuzk_tree_shape *s);
uint64_t cuzk_tree_shape_leaves(const cuzk_tree_shape *s);
/* The arity of path level i (base levels first). */
unsigned cuzk_tree_shape_level_arity(const cuzk_tree_shape *s, unsigned level);

/* storage-proofs-core's Root: an existing number (Root::Var) or a value that the circuit
 * allocates where upstream does (Root::Val; the value is read only when cs->values). */
typedef struct {
    bool is_var;
    cuzk_num num;  /* is_var */
    cuzk_fr value; /* !is_var */
} cuzk_root;
static inline cuzk_root cuzk_root_var(cuzk_num n)
{
    cuzk_root r = {true, n, CUZK_FR_ZERO};
    return r;
}
static inline cuzk_root cuzk_root_val(const cuzk_fr *v)
{
    cuzk_root r = {false, {CUZK_VAR_AUX, CUZK_FR_ZERO}, v ? *v : CUZK_FR_ZERO};
    return r;
}

/* The authentication path (SubPath::synthesize for base, sub, top): per level, in namespace
 * base|sub|top / "merkle tree hash i": log2(arity) index bits (AllocatedBit, one booleanity
 * constraint each), arity - 1 sibling numbers, insert, node hash. Returns the computed root;
 * bits_out (cuzk_tree_shape_index_bits entries) gets the index bits in path order.
 * siblings (cuzk_tree_shape_siblings values, level by level) and index are read only when
 * cs->values. */
cuzk_num cuzk_por_auth_path(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, cuzk_num leaf,
                            const cuzk_fr *siblings, uint64_t index, cuzk_bool *bits_out);

/* PoRCircuit::synthesize: leaf ("value"), the path, the index bits packed into one public
 * input (multipack::pack_into_inputs, namespace "path"), the root ("root_value"), then
 * computed root * ONE = root; unless private_root, the root is then exposed (inputize).
 * Inputs added: 1 (private root) or 2. */
void cuzk_por_circuit(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, cuzk_root leaf, cuzk_root root,
                      bool private_root, const cuzk_fr *siblings, uint64_t index);

/* por_no_challenge_input: the path from leaf to a given root with the caller's index bits
 * (nbits = cuzk_tree_shape_index_bits, least significant first: log2(arity) per level) and
 * siblings (already allocated numbers, level by level, arity - 1 each); per level namespace
 * "merkle proof insert (height=l)" then "merkle proof hash (height=l)", and finally
 * computed * ONE = root. A shape with base_levels 0 and no sub/top is the empty path (nbits 0):
 * only the root check. */
void cuzk_por_no_challenge_input(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, const cuzk_bool *bits,
                                 size_t nbits, cuzk_num leaf, const cuzk_num *siblings, cuzk_num root);

#ifdef __cplusplus
}
#endif
#endif
