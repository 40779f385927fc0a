/* Merkle trees with only their upper levels kept (see seal_internal.h).
 *
 * Conventions (filecoin-hashers sha256.rs / poseidon.rs, merkletree): leaves are used as they
 * are; a SHA-256 node is Sha256(left || right) with byte 31 &= 0x3f; a Poseidon node is the
 * Poseidon hash of its children in order, with the constants of that arity. A proof level lists
 * the siblings in child order without the node itself, plus the node's child position. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"

cuzk_status seal_hash_children(bool sha, unsigned arity, const cuzk_node *children, cuzk_node *out)
{
    if (sha) {
        cuzk_sha256(out->b, children, (size_t)arity * 32);
        out->b[31] &= 0x3f;
        return CUZK_OK;
    }
    cuzk_fr in[11], h;
    for (unsigned i = 0; i < arity; i++)
        if (cuzk_fr_from_bytes_le(&in[i], children[i].b) != CUZK_OK)
            return cuzk_fail(CUZK_EINTERNAL, "tree node is not a canonical field element");
    cuzk_status st = cuzk_poseidon_hash(&h, arity, in);
    if (st != CUZK_OK) return st;
    cuzk_fr_to_bytes_le(out->b, &h);
    return CUZK_OK;
}

/* Reduces `n` nodes (a multiple of arity) in place to n / arity parents. */
static cuzk_status reduce(const seal_tree *t, cuzk_node *nodes, uint64_t n)
{
    for (uint64_t j = 0; j < n / t->arity; j++) {
        cuzk_node parent;
        cuzk_status st = seal_hash_children(t->sha, t->arity, nodes + j * t->arity, &parent);
        if (st != CUZK_OK) return st;
        nodes[j] = parent;
    }
    return CUZK_OK;
}

typedef struct {
    seal_tree *t;
    unsigned level; /* level being written */
    atomic_int failed;
    cuzk_progress *progress; /* leaves done */
} build_ctx;

/* Blocks of arity^cache_from leaves -> one node of level cache_from each. */
static void build_blocks(void *vctx, size_t begin, size_t end, unsigned tid)
{
    build_ctx *c = vctx;
    seal_tree *t = c->t;
    uint64_t block = 1ULL << (t->log_arity * t->cache_from);
    cuzk_node *scratch = malloc(block * sizeof(cuzk_node));
    if (!scratch) {
        atomic_store(&c->failed, 1);
        return;
    }
    for (size_t b = begin; b < end && !atomic_load(&c->failed); b++) {
        t->leaf(t->ctx, b * block, block, scratch);
        cuzk_progress_add(c->progress, block);
        for (uint64_t n = block; n > 1; n /= t->arity) {
            if (reduce(t, scratch, n) != CUZK_OK) {
                atomic_store(&c->failed, 1);
                break;
            }
        }
        t->store[t->level_off[t->cache_from] + b] = scratch[0];
    }
    free(scratch);
}

/* One kept level from the kept level below. */
static void build_level(void *vctx, size_t begin, size_t end, unsigned tid)
{
    build_ctx *c = vctx;
    seal_tree *t = c->t;
    const cuzk_node *below = t->store + t->level_off[c->level - 1];
    cuzk_node *out = t->store + t->level_off[c->level];
    for (size_t j = begin; j < end; j++)
        if (seal_hash_children(t->sha, t->arity, below + j * t->arity, &out[j]) != CUZK_OK) atomic_store(&c->failed, 1);
}

cuzk_status seal_tree_build(seal_tree *t, bool sha, uint64_t leaves, unsigned cache_from, seal_leaf_fn leaf, void *ctx)
{
    return seal_tree_build_progress(t, sha, leaves, cache_from, leaf, ctx, NULL);
}

cuzk_status seal_tree_build_progress(seal_tree *t, bool sha, uint64_t leaves, unsigned cache_from, seal_leaf_fn leaf,
                                     void *ctx, cuzk_progress *progress)
{
    memset(t, 0, sizeof *t);
    t->sha = sha;
    t->arity = sha ? 2 : 8;
    t->log_arity = sha ? 1 : 3;
    t->leaves = leaves;
    t->leaf = leaf;
    t->ctx = ctx;
    while ((1ULL << (t->log_arity * t->height)) < leaves) t->height++;
    if ((1ULL << (t->log_arity * t->height)) != leaves || t->height == 0 || t->height >= 40)
        return cuzk_fail(CUZK_EINVAL, "%llu leaves do not make a full %u-ary tree", (unsigned long long)leaves,
                         t->arity);
    t->cache_from = cache_from < 1 ? 1 : cache_from > t->height ? t->height : cache_from;
    for (unsigned l = t->cache_from; l <= t->height; l++) {
        t->level_off[l] = t->store_nodes;
        t->store_nodes += leaves >> (t->log_arity * l);
    }
    t->store = cuzk_malloc(t->store_nodes * sizeof(cuzk_node));
    if (!t->store) return CUZK_ENOMEM;

    build_ctx c = {.t = t, .level = t->cache_from, .progress = progress};
    atomic_init(&c.failed, 0);
    cuzk_parallel_for(leaves >> (t->log_arity * t->cache_from), 1, build_blocks, &c);
    for (unsigned l = t->cache_from + 1; l <= t->height && !atomic_load(&c.failed); l++) {
        c.level = l;
        cuzk_parallel_for(leaves >> (t->log_arity * l), 64, build_level, &c);
    }
    if (atomic_load(&c.failed)) {
        seal_tree_free(t);
        return cuzk_fail(CUZK_EINTERNAL, "building a %s tree failed (out of memory or a non-canonical node)",
                         sha ? "SHA-256" : "Poseidon");
    }
    return CUZK_OK;
}

void seal_tree_free(seal_tree *t)
{
    free(t->store);
    t->store = NULL;
}

const cuzk_node *seal_tree_root(const seal_tree *t) { return &t->store[t->level_off[t->height]]; }

cuzk_status seal_tree_prove(const seal_tree *t, uint64_t i, cuzk_merkle_proof *mp)
{
    if (i >= t->leaves) return cuzk_fail(CUZK_EINVAL, "leaf %llu outside the tree", (unsigned long long)i);
    if (mp->nbase != t->height || mp->nsub || mp->ntop)
        return cuzk_fail(CUZK_EINTERNAL, "proof shape does not match the tree");
    const unsigned a = t->arity, la = t->log_arity;
    /* the levels below cache_from, recomputed for the one block that holds leaf i */
    uint64_t block = 1ULL << (la * t->cache_from), b = i >> (la * t->cache_from);
    size_t sub_nodes = 0;
    for (uint64_t n = block; n > 1; n /= a) sub_nodes += n;
    cuzk_node *sub = cuzk_malloc((sub_nodes + 1) * sizeof(cuzk_node));
    if (!sub) return CUZK_ENOMEM;
    t->leaf(t->ctx, b * block, block, sub);
    cuzk_status st = CUZK_OK;
    size_t off = 0;
    for (uint64_t n = block; n > 1 && st == CUZK_OK; n /= a) {
        /* level with n nodes at sub[off..], parents written after it */
        for (uint64_t j = 0; j < n / a && st == CUZK_OK; j++)
            st = seal_hash_children(t->sha, a, sub + off + j * a, sub + off + n + j);
        off += n;
    }
    if (st != CUZK_OK) {
        free(sub);
        return st;
    }
    mp->leaf = sub[i - b * block];
    off = 0;
    for (unsigned l = 0; l < t->height; l++) {
        uint64_t j = i >> (la * l);              /* the node's index on level l */
        uint64_t first = j & ~(uint64_t)(a - 1); /* its first sibling */
        const cuzk_node *row;
        uint64_t base = 0; /* global index of row[0] */
        if (l < t->cache_from) {
            row = sub + off;
            base = (b * block) >> (la * l);
            off += block >> (la * l);
        } else {
            row = t->store + t->level_off[l];
        }
        cuzk_path_elem *e = &mp->path[l];
        e->index = (uint32_t)(j & (a - 1));
        uint32_t h = 0;
        for (uint64_t k = first; k < first + a; k++)
            if (k != j) e->hashes[h++] = row[k - base];
    }
    mp->root = *seal_tree_root(t);
    free(sub);
    return CUZK_OK;
}
