/* Shared by the C1 parser, writer, verifier and the sealer: the arena that owns a C1's
 * memory, and the shape a proof type gives its Merkle proofs. Internal to src/filecoin. */
#ifndef CUZK_C1_INTERNAL_H
#define CUZK_C1_INTERNAL_H

#include "cuzk/filecoin_c1.h"

/* Bump allocator: chunks of at least 1 MiB, freed all at once. A 32 GiB C1 holds ~1.8 million
 * 32-byte nodes; one malloc per array would cost more in headers than in data. */
cuzk_c1_arena *c1_arena_create(void);
void c1_arena_destroy(cuzk_c1_arena *a);
/* Zeroed, 16-byte aligned; NULL with the error set when out of memory. */
void *c1_arena_alloc(cuzk_c1_arena *a, size_t bytes);
size_t c1_arena_bytes(const cuzk_c1_arena *a);

/* An empty C1 with its arena (proofs not yet allocated). */
cuzk_c1 *c1_create(void);
/* Allocates c1->proofs (zeroed) for partitions x challenges. */
cuzk_status c1_alloc_proofs(cuzk_c1 *c1, uint32_t partitions, uint32_t cpp);

/* Tree shapes. Tree D is binary with depth log2(nodes); tree R / tree C follow the proof's
 * base-sub-top arities. */
typedef struct {
    cuzk_merkle_kind kind;
    uint32_t nbase, nsub, ntop;
    uint32_t base_arity, sub_arity, top_arity;
} c1_tree_shape;
void c1_shape_tree_d(c1_tree_shape *s, const cuzk_seal_proof_info *pi);
void c1_shape_tree_rc(c1_tree_shape *s, const cuzk_seal_proof_info *pi);
static inline uint32_t c1_shape_arity(const c1_tree_shape *s, uint32_t level)
{
    return level < s->nbase ? s->base_arity : level < s->nbase + s->nsub ? s->sub_arity : s->top_arity;
}
/* Allocates a Merkle proof's path and sibling arrays in the arena for the given shape. */
cuzk_status c1_alloc_merkle(cuzk_c1_arena *a, cuzk_merkle_proof *mp, const c1_tree_shape *s);
/* The leaf index a path proves: base digits, then the sub digit, then the top digit. */
uint64_t c1_merkle_index(const cuzk_merkle_proof *mp, const c1_tree_shape *s);

#endif
