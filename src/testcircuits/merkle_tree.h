/* Native Merkle trees for the PoR circuits' witnesses, and the por / por-private families'
 * shared parsing and synthesis. */
#ifndef CUZK_TESTCIRCUITS_MERKLE_TREE_H
#define CUZK_TESTCIRCUITS_MERKLE_TREE_H

#include "cuzk/gadgets/merkle.h"
#include "builtin.h"

/* A node from its children, as the vanilla hashers compute it: Poseidon of that arity, or
 * SHA-256 of the children's 32-byte little-endian encodings with the top two bits of the
 * digest's last byte cleared (trim_to_fr32). */
cuzk_status cuzk_merkle_node(cuzk_fr *out, cuzk_hasher h, unsigned arity, const cuzk_fr *children) CUZK_WARN_UNUSED;

/* The root of the tree of `shape` over leaves[0..cuzk_tree_shape_leaves(shape)), and the
 * path of leaf `index`: cuzk_tree_shape_siblings(shape) siblings, level by level, each level's
 * in position order without the node itself. */
cuzk_status cuzk_merkle_tree_path(cuzk_hasher h, const cuzk_tree_shape *shape, const cuzk_fr *leaves, uint64_t index,
                                  cuzk_fr *root, cuzk_fr *siblings) CUZK_WARN_UNUSED;

/* "HASHER:SHAPE:LEAVES" for the por and por-private families. */
cuzk_status por_family_open(cuzk_circuit *c, const char *args, bool private_root);
void por_family_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed);

#endif
