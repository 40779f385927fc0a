/* The test-data sealer's internals: Merkle trees that keep only their upper levels, and SDR
 * labeling. Internal to src/filecoin. */
#ifndef CUZK_SEAL_INTERNAL_H
#define CUZK_SEAL_INTERNAL_H

#include "c1_internal.h"
#include "cuzk/filecoin_seal.h"

/* ---------------------------------------------------------------- trees */
/* Writes leaves [first, first + n) into out. Called from pool threads. */
typedef void (*seal_leaf_fn)(void *ctx, uint64_t first, uint64_t n, cuzk_node *out);

/* A Merkle tree of Filecoin's conventions: binary SHA-256 (tree D: node = Sha256(l || r) with
 * the top two bits cleared) or Poseidon octree (trees R and C: node = Poseidon-8 of the 8
 * children). Leaves are computed on demand by `leaf`; only levels cache_from..height are kept
 * (like merkletree's level-cache trees), and a proof recomputes the one subtree below its
 * lowest kept ancestor. That bounds memory at (leaves / arity^cache_from) * 8/7 nodes. */
typedef struct {
    unsigned arity, log_arity;
    bool sha;
    uint64_t leaves;
    unsigned height;     /* levels above the leaves */
    unsigned cache_from; /* lowest level kept, 1..height */
    cuzk_node *store;    /* levels cache_from..height, lowest first; owned */
    size_t store_nodes;
    uint64_t level_off[40];
    seal_leaf_fn leaf;
    void *ctx;
} seal_tree;

/* Builds the tree over the pool. cache_from is capped at height. */
cuzk_status seal_tree_build(seal_tree *t, bool sha, uint64_t leaves, unsigned cache_from, seal_leaf_fn leaf,
                            void *ctx) CUZK_WARN_UNUSED;
/* The same, adding the leaves hashed in to progress (NULL: none). */
cuzk_status seal_tree_build_progress(seal_tree *t, bool sha, uint64_t leaves, unsigned cache_from, seal_leaf_fn leaf,
                                     void *ctx, cuzk_progress *progress) CUZK_WARN_UNUSED;
void seal_tree_free(seal_tree *t);
const cuzk_node *seal_tree_root(const seal_tree *t);
/* Fills a proof allocated for this tree's shape (Single kind) for leaf i: leaf, root, path. */
cuzk_status seal_tree_prove(const seal_tree *t, uint64_t i, cuzk_merkle_proof *mp) CUZK_WARN_UNUSED;
/* One node hash of `arity` children (tree rules above). */
cuzk_status seal_hash_children(bool sha, unsigned arity, const cuzk_node *children, cuzk_node *out) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- sparse trees */
/* A tree of the same conventions whose leaves all hold one default value except a few given
 * ones (seal_sparse_tree.c): every untouched subtree is its level's default hash, so memory and
 * time follow the given leaves, not the tree's size. Levels follow a c1_tree_shape (tree D:
 * binary; trees C and R: base octree levels, then the sub and top levels of 32 / 64 GiB). */
#define SEAL_SPARSE_MAX_LEVELS 40
typedef struct {
    uint64_t index;
    cuzk_node value;
} seal_sparse_node;

typedef struct {
    c1_tree_shape shape;
    bool sha;
    unsigned levels; /* above the leaves */
    uint64_t leaves;
    cuzk_node defaults[SEAL_SPARSE_MAX_LEVELS + 1];      /* the default node of each level */
    seal_sparse_node *nodes[SEAL_SPARSE_MAX_LEVELS + 1]; /* stored nodes per level, by index; owned */
    size_t count[SEAL_SPARSE_MAX_LEVELS + 1];
} seal_sparse_tree;

/* Builds the tree over `n` given leaves (any order; an index given twice must have one value). */
cuzk_status seal_sparse_tree_build(seal_sparse_tree *t, const c1_tree_shape *shape, bool sha,
                                   const cuzk_node *default_leaf, const seal_sparse_node *leaves,
                                   size_t n) CUZK_WARN_UNUSED;
void seal_sparse_tree_free(seal_sparse_tree *t);
const cuzk_node *seal_sparse_tree_root(const seal_sparse_tree *t);
const cuzk_node *seal_sparse_tree_leaf(const seal_sparse_tree *t, uint64_t i);
/* Fills a proof allocated for the tree's shape for leaf i: leaf, root, path. */
cuzk_status seal_sparse_tree_prove(const seal_sparse_tree *t, uint64_t i, cuzk_merkle_proof *mp) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- commit phase 1 */
/* Allocates one challenge proof of the C1's proof type in its arena: both paths, the 15
 * columns with their rows and paths, the labeling proofs and the encoding proof. */
cuzk_status seal_alloc_challenge(cuzk_c1 *c1, cuzk_challenge_proof *cp, const c1_tree_shape *td,
                                 const c1_tree_shape *trc) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- labeling */
/* Computes all layers of SDR labels: labels[(layer - 1) * nodes + v] for layer 1..layers
 * (nodes labelled added to progress, NULL: none). */
cuzk_status seal_labels(cuzk_node *labels, const cuzk_porep_graph *g, unsigned layers, const uint8_t replica_id[32],
                        cuzk_timeline *tl, cuzk_progress *progress) CUZK_WARN_UNUSED;
/* The 37 label parents of node v on `layer` (1-based), as the labeling proof lists them:
 * layer 1: the 6 DRG parents' layer-1 labels, six times, then the first again; layer > 1: the
 * 6 DRG parents on this layer and the 8 expander parents on the previous one, twice, then the
 * first 9. */
void seal_label_parents(cuzk_node out[CUZK_POREP_LABEL_PARENTS], const cuzk_node *labels, uint64_t nodes,
                        unsigned layer, const uint32_t drg[CUZK_POREP_DRG_PARENTS],
                        const uint32_t exp[CUZK_POREP_EXP_PARENTS]);
/* The same from the 14 parents' labels p (the 6 DRG parents' on `layer`, then the 8 expander
 * parents' on the previous one; layer 1 uses only the first 6). */
void seal_label_expand(cuzk_node out[CUZK_POREP_LABEL_PARENTS], unsigned layer, const cuzk_node p[CUZK_POREP_PARENTS]);
/* The label of node v on `layer` from its 37 parents (v > 0), or without parents for v = 0. */
void seal_label_hash(cuzk_node *out, const uint8_t replica_id[32], unsigned layer, uint64_t v,
                     const cuzk_node parents[CUZK_POREP_LABEL_PARENTS]);

#endif
