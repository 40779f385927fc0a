/* Sparse Merkle trees for sparse test sectors (see seal_internal.h): every leaf not given
 * explicitly holds one default value, so every untouched subtree of a level hashes to that
 * level's default node. Only the explicit leaves and their ancestors are stored, sorted by
 * index per level; a node not stored is its level's default. A tree over 2^31 leaves with a
 * few hundred explicit ones costs a few hundred KiB and builds in milliseconds.
 *
 * Levels follow a c1_tree_shape: tree D is binary SHA-256, trees C and R are octrees, with one
 * sub level (arity 8) and one top level (arity 2) for the compound 32 / 64 GiB shapes; leaf
 * indices are linear (the base tree index is the high part), as c1_merkle_index reads them. */
#include <stdlib.h>
#include <string.h>

#include "seal_internal.h"

static int by_index(const void *a, const void *b)
{
    uint64_t x = ((const seal_sparse_node *)a)->index, y = ((const seal_sparse_node *)b)->index;
    return x < y ? -1 : x > y;
}

/* The stored node of `level` at index i, or NULL. */
static const seal_sparse_node *find(const seal_sparse_tree *t, unsigned level, uint64_t i)
{
    size_t lo = 0, hi = t->count[level];
    const seal_sparse_node *v = t->nodes[level];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].index < i) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->count[level] && v[lo].index == i ? &v[lo] : NULL;
}

static const cuzk_node *node_at(const seal_sparse_tree *t, unsigned level, uint64_t i)
{
    const seal_sparse_node *n = find(t, level, i);
    return n ? &n->value : &t->defaults[level];
}

cuzk_status seal_sparse_tree_build(seal_sparse_tree *t, const c1_tree_shape *shape, bool sha,
                                   const cuzk_node *default_leaf, const seal_sparse_node *leaves, size_t n)
{
    memset(t, 0, sizeof *t);
    t->shape = *shape;
    t->sha = sha;
    t->levels = shape->nbase + shape->nsub + shape->ntop;
    if (t->levels == 0 || t->levels > SEAL_SPARSE_MAX_LEVELS)
        return cuzk_fail(CUZK_EINTERNAL, "sparse tree of %u levels (1..%d supported)", t->levels,
                         SEAL_SPARSE_MAX_LEVELS);
    t->leaves = 1;
    for (unsigned l = 0; l < t->levels; l++) t->leaves *= c1_shape_arity(shape, l);

    /* the default node of every level */
    t->defaults[0] = *default_leaf;
    for (unsigned l = 0; l < t->levels; l++) {
        cuzk_node kids[8];
        unsigned a = c1_shape_arity(shape, l);
        for (unsigned k = 0; k < a; k++) kids[k] = t->defaults[l];
        cuzk_status st = seal_hash_children(sha, a, kids, &t->defaults[l + 1]);
        if (st != CUZK_OK) return st;
    }

    /* the explicit leaves, sorted; a leaf given twice must have one value */
    seal_sparse_node *lv = cuzk_malloc((n ? n : 1) * sizeof *lv);
    if (!lv) return CUZK_ENOMEM;
    if (n) memcpy(lv, leaves, n * sizeof *lv);
    qsort(lv, n, sizeof *lv, by_index);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned long long index = (unsigned long long)lv[i].index;
        if (index >= t->leaves) {
            free(lv);
            return cuzk_fail(CUZK_EINTERNAL, "sparse tree leaf %llu outside its %llu leaves", index,
                             (unsigned long long)t->leaves);
        }
        if (m && lv[m - 1].index == lv[i].index) {
            if (memcmp(lv[m - 1].value.b, lv[i].value.b, 32) != 0) {
                free(lv);
                return cuzk_fail(CUZK_EINTERNAL, "sparse tree leaf %llu given two different values", index);
            }
            continue;
        }
        lv[m++] = lv[i];
    }
    t->nodes[0] = lv;
    t->count[0] = m;

    /* each level from the one below: one parent per group of siblings holding a stored node */
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = c1_shape_arity(shape, l);
        const seal_sparse_node *below = t->nodes[l];
        size_t nb = t->count[l];
        seal_sparse_node *up = cuzk_malloc((nb ? nb : 1) * sizeof *up);
        if (!up) {
            seal_sparse_tree_free(t);
            return CUZK_ENOMEM;
        }
        size_t nu = 0;
        for (size_t i = 0; i < nb;) {
            uint64_t parent = below[i].index / a;
            cuzk_node kids[8];
            for (unsigned k = 0; k < a; k++) kids[k] = t->defaults[l];
            for (; i < nb && below[i].index / a == parent; i++) kids[below[i].index % a] = below[i].value;
            up[nu].index = parent;
            cuzk_status st = seal_hash_children(sha, a, kids, &up[nu].value);
            if (st != CUZK_OK) {
                free(up);
                seal_sparse_tree_free(t);
                return st;
            }
            nu++;
        }
        t->nodes[l + 1] = up;
        t->count[l + 1] = nu;
    }
    return CUZK_OK;
}

void seal_sparse_tree_free(seal_sparse_tree *t)
{
    for (unsigned l = 0; l <= SEAL_SPARSE_MAX_LEVELS; l++) {
        free(t->nodes[l]);
        t->nodes[l] = NULL;
        t->count[l] = 0;
    }
}

const cuzk_node *seal_sparse_tree_root(const seal_sparse_tree *t) { return node_at(t, t->levels, 0); }

const cuzk_node *seal_sparse_tree_leaf(const seal_sparse_tree *t, uint64_t i) { return node_at(t, 0, i); }

cuzk_status seal_sparse_tree_prove(const seal_sparse_tree *t, uint64_t i, cuzk_merkle_proof *mp)
{
    if (i >= t->leaves) return cuzk_fail(CUZK_EINVAL, "leaf %llu outside the tree", (unsigned long long)i);
    if (mp->nbase != t->shape.nbase || mp->nsub != t->shape.nsub || mp->ntop != t->shape.ntop)
        return cuzk_fail(CUZK_EINTERNAL, "proof shape does not match the sparse tree");
    mp->leaf = *node_at(t, 0, i);
    uint64_t j = i;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = c1_shape_arity(&t->shape, l);
        uint64_t first = j - j % a;
        cuzk_path_elem *e = &mp->path[l];
        e->index = (uint32_t)(j % a);
        uint32_t h = 0;
        for (uint64_t k = first; k < first + a; k++)
            if (k != j) e->hashes[h++] = *node_at(t, l, k);
        j /= a;
    }
    mp->root = *seal_sparse_tree_root(t);
    return CUZK_OK;
}
