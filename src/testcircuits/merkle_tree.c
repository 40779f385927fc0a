/* Native Merkle trees: every level computed in place over a copy of the leaves. Base trees lie
 * side by side, and each holds a multiple of base_arity^levels leaves, so grouping the whole
 * row by the level's arity never mixes two base trees; the sub and top levels then group the
 * base roots and sub roots the same way. */
#include <stdlib.h>
#include <string.h>

#include "merkle_tree.h"
#include "cuzk/hash.h"

#define MAX_ARITY 8

cuzk_status cuzk_merkle_node(cuzk_fr *out, cuzk_hasher h, unsigned arity, const cuzk_fr *children)
{
    if (arity < 2 || arity > MAX_ARITY)
        return cuzk_fail(CUZK_EINVAL, "merkle node: arity %u is not 2..%u", arity, MAX_ARITY);
    if (h == CUZK_HASHER_POSEIDON) return cuzk_poseidon_hash(out, arity, children);
    uint8_t buf[MAX_ARITY * 32], digest[32];
    for (unsigned i = 0; i < arity; i++) cuzk_fr_to_bytes_le(&buf[32 * i], &children[i]);
    cuzk_sha256(digest, buf, (size_t)arity * 32);
    digest[31] &= 0x3f; /* trim_to_fr32: below 2^254 < r */
    return cuzk_fr_from_bytes_le(out, digest);
}

cuzk_status cuzk_merkle_tree_path(cuzk_hasher h, const cuzk_tree_shape *shape, const cuzk_fr *leaves, uint64_t index,
                                  cuzk_fr *root, cuzk_fr *siblings)
{
    cuzk_status st = cuzk_tree_shape_check(shape);
    if (st) return st;
    uint64_t n = cuzk_tree_shape_leaves(shape);
    if (index >= n)
        return cuzk_fail(CUZK_EINVAL, "merkle path: leaf %llu of %llu", (unsigned long long)index,
                         (unsigned long long)n);
    cuzk_fr *row = cuzk_malloc((size_t)n * sizeof *row);
    if (!row) return CUZK_ENOMEM;
    memcpy(row, leaves, (size_t)n * sizeof *row);
    size_t sib = 0;
    for (unsigned level = 0; level < cuzk_tree_shape_levels(shape) && !st; level++) {
        unsigned a = cuzk_tree_shape_level_arity(shape, level);
        uint64_t pos = index % a, group = index - pos;
        for (unsigned j = 0; j < a; j++)
            if (j != pos) siblings[sib++] = row[group + j];
        for (uint64_t g = 0; g < n / a && !st; g++) st = cuzk_merkle_node(&row[g], h, a, &row[g * a]);
        n /= a;
        index /= a;
    }
    if (!st) *root = row[0];
    free(row);
    return st;
}
