/* The arena and shape helpers behind cuzk_c1 (see c1_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "c1_internal.h"

typedef struct chunk {
    struct chunk *next;
    size_t cap, used;
    _Alignas(16) uint8_t data[];
} chunk;

struct cuzk_c1_arena {
    chunk *head;
    size_t total;
};

/* Chunks of 64 KiB: a 32 GiB C1 (tens of MB parsed) takes a few hundred, a 2 KiB one (about
 * 40 KB) one, so a parsed C1 held by a queued job costs about what it uses. An allocation
 * larger than a quarter chunk gets a chunk of its own behind the current one, so the current
 * chunk's free tail is not abandoned (what a chunk wastes is below a quarter of it). */
#define CHUNK_SIZE (64u << 10)
#define CHUNK_OWN (CHUNK_SIZE / 4)

/* A chunk of cap bytes, counted in the arena's total (not yet linked). */
static chunk *chunk_new(cuzk_c1_arena *a, size_t cap)
{
    chunk *c = cuzk_calloc(1, sizeof(chunk) + cap);
    if (!c) return NULL;
    c->cap = cap;
    a->total += sizeof(chunk) + cap;
    return c;
}

cuzk_c1_arena *c1_arena_create(void) { return cuzk_calloc(1, sizeof(cuzk_c1_arena)); }

void c1_arena_destroy(cuzk_c1_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

void *c1_arena_alloc(cuzk_c1_arena *a, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    chunk *c = a->head;
    if (bytes > CHUNK_OWN) {
        if (!(c = chunk_new(a, bytes))) return NULL;
        /* behind the head (or the head of an empty arena): the head keeps taking small ones */
        if (a->head) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            a->head = c;
        }
    } else if (!c || c->cap - c->used < bytes) {
        if (!(c = chunk_new(a, CHUNK_SIZE))) return NULL;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += bytes;
    return p;
}

size_t c1_arena_bytes(const cuzk_c1_arena *a) { return a ? a->total : 0; }

size_t cuzk_c1_bytes(const cuzk_c1 *c1)
{
    return c1 ? sizeof *c1 + sizeof(cuzk_c1_arena) + c1_arena_bytes(c1->arena) : 0;
}

cuzk_c1 *c1_create(void)
{
    cuzk_c1 *c1 = cuzk_calloc(1, sizeof *c1);
    if (!c1) return NULL;
    c1->arena = c1_arena_create();
    if (!c1->arena) {
        free(c1);
        return NULL;
    }
    return c1;
}

cuzk_status c1_alloc_proofs(cuzk_c1 *c1, uint32_t partitions, uint32_t cpp)
{
    c1->partitions = partitions;
    c1->challenges_per_partition = cpp;
    c1->proofs = c1_arena_alloc(c1->arena, (size_t)partitions * cpp * sizeof(cuzk_challenge_proof));
    return c1->proofs || (size_t)partitions * cpp == 0 ? CUZK_OK : CUZK_ENOMEM;
}

void cuzk_c1_free(cuzk_c1 *c1)
{
    if (!c1) return;
    c1_arena_destroy(c1->arena);
    free(c1);
}

void c1_shape_tree_d(c1_tree_shape *s, const cuzk_seal_proof_info *pi)
{
    memset(s, 0, sizeof *s);
    s->kind = CUZK_MERKLE_SINGLE;
    s->nbase = pi->tree_d_depth;
    s->base_arity = 2;
}

void c1_shape_tree_rc(c1_tree_shape *s, const cuzk_seal_proof_info *pi)
{
    memset(s, 0, sizeof *s);
    s->base_arity = pi->base_arity;
    s->sub_arity = pi->sub_arity;
    s->top_arity = pi->top_arity;
    s->nbase = pi->base_path_len;
    s->nsub = pi->sub_arity ? 1 : 0;
    s->ntop = pi->top_arity ? 1 : 0;
    s->kind = s->ntop ? CUZK_MERKLE_TOP : s->nsub ? CUZK_MERKLE_SUB : CUZK_MERKLE_SINGLE;
}

cuzk_status c1_alloc_merkle(cuzk_c1_arena *a, cuzk_merkle_proof *mp, const c1_tree_shape *s)
{
    uint32_t n = s->nbase + s->nsub + s->ntop;
    mp->kind = s->kind;
    mp->nbase = s->nbase;
    mp->nsub = s->nsub;
    mp->ntop = s->ntop;
    size_t hashes = 0;
    for (uint32_t l = 0; l < n; l++) hashes += c1_shape_arity(s, l) - 1;
    /* one block: the path elements, then all sibling hashes */
    uint8_t *blk = c1_arena_alloc(a, n * sizeof(cuzk_path_elem) + hashes * sizeof(cuzk_node));
    if (!blk) return CUZK_ENOMEM;
    mp->path = (cuzk_path_elem *)blk;
    cuzk_node *h = (cuzk_node *)(blk + n * sizeof(cuzk_path_elem)); /* cuzk_node is byte-aligned */
    for (uint32_t l = 0; l < n; l++) {
        mp->path[l].hashes = h;
        mp->path[l].nhashes = c1_shape_arity(s, l) - 1;
        h += mp->path[l].nhashes;
    }
    return CUZK_OK;
}

uint64_t c1_merkle_index(const cuzk_merkle_proof *mp, const c1_tree_shape *s)
{
    uint64_t idx = 0, scale = 1;
    uint32_t n = mp->nbase + mp->nsub + mp->ntop;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t ar = c1_shape_arity(s, l);
        idx += mp->path[l].index * scale;
        scale *= ar;
    }
    return idx;
}
