/* bincode 1.x of storage-proofs-update's PartitionProof (vanilla.rs), the blob a SnapDeals
 * prover receives per partition (rust-filecoin-proofs-api update.rs serializes it with
 * bincode::serialize): little-endian fixed-width integers, u64 sequence lengths, u32 enum
 * variant indices, a Domain as its 32 bytes.
 *
 *   PartitionProof  = comm_c, apex_leafs: Vec<Domain>, challenge_proofs: Vec<ChallengeProof>
 *   ChallengeProof  = proof_r_old, proof_d_new, proof_r_new         (MerkleProof each)
 *   MerkleProof     = u32 variant: 0 Single{root, leaf, path}
 *                                  1 Sub{base_proof, sub_proof, root, leaf}
 *                                  2 Top{base_proof, sub_proof, top_proof, root, leaf}
 *   InclusionPath   = Vec<PathElement{hashes: Vec<Domain>, index: u64}>
 *
 * The parser allocates the proof for the update proof's shape first and then only accepts a
 * blob of exactly that shape: every length and variant is compared with the expected one
 * before it is used, so a length field claiming 2^60 elements fails at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snap_internal.h"

typedef struct {
    const uint8_t *p;
    size_t len, off;
    unsigned blob;
    char field[160];
} reader;

static cuzk_status rfail(const reader *r, const char *fmt, const char *detail)
{
    return cuzk_fail(CUZK_EINVAL, "snap vanilla proof blob %u, %s at byte %zu: %s%s", r->blob, r->field, r->off, fmt,
                     detail ? detail : "");
}

static cuzk_status need(const reader *r, size_t n)
{
    if (r->len - r->off < n) {
        char d[64];
        snprintf(d, sizeof d, " (%zu bytes needed, %zu left)", n, r->len - r->off);
        return rfail(r, "truncated", d);
    }
    return CUZK_OK;
}

static cuzk_status read_u64(reader *r, uint64_t *v)
{
    cuzk_status st = need(r, 8);
    if (st) return st;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | r->p[r->off + i];
    r->off += 8;
    *v = x;
    return CUZK_OK;
}

static cuzk_status read_u32(reader *r, uint32_t *v)
{
    cuzk_status st = need(r, 4);
    if (st) return st;
    *v = (uint32_t)r->p[r->off] | (uint32_t)r->p[r->off + 1] << 8 | (uint32_t)r->p[r->off + 2] << 16 |
        (uint32_t)r->p[r->off + 3] << 24;
    r->off += 4;
    return CUZK_OK;
}

static cuzk_status read_node(reader *r, cuzk_node *n)
{
    cuzk_status st = need(r, 32);
    if (st) return st;
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, r->p + r->off) != CUZK_OK) return rfail(r, "not a canonical field element", NULL);
    memcpy(n->b, r->p + r->off, 32);
    r->off += 32;
    return CUZK_OK;
}

/* A length that must be exactly `want`, checked before anything depends on it. */
static cuzk_status read_len(reader *r, uint64_t want, const char *what)
{
    uint64_t n;
    cuzk_status st = read_u64(r, &n);
    if (st) return st;
    if (n != want) {
        r->off -= 8;
        char d[96];
        snprintf(d, sizeof d, "%s: expected %llu, got %llu", what, (unsigned long long)want, (unsigned long long)n);
        return rfail(r, "wrong length ", d);
    }
    return CUZK_OK;
}

#define TRY(x)                          \
    do {                                \
        cuzk_status st_ = (x);          \
        if (st_ != CUZK_OK) return st_; \
    } while (0)

/* The field path is kept in r->field; each level appends and later truncates. */
static size_t field_push(reader *r, const char *fmt, unsigned a)
{
    size_t n = strlen(r->field);
    snprintf(r->field + n, sizeof r->field - n, fmt, a);
    return n;
}

static cuzk_status read_path(reader *r, cuzk_path_elem *path, uint32_t levels, uint32_t arity, const char *name)
{
    size_t m = field_push(r, name, 0);
    TRY(read_len(r, levels, "path elements"));
    for (uint32_t l = 0; l < levels; l++) {
        size_t m2 = field_push(r, "[%u].hashes", l);
        TRY(read_len(r, arity - 1, "siblings"));
        for (uint32_t j = 0; j + 1 < arity; j++) TRY(read_node(r, &path[l].hashes[j]));
        r->field[m2] = 0;
        field_push(r, "[%u].index", l);
        uint64_t idx;
        TRY(read_u64(r, &idx));
        if (idx >= arity) {
            r->off -= 8;
            return rfail(r, "index outside the level's arity", NULL);
        }
        path[l].index = (uint32_t)idx;
        r->field[m2] = 0;
    }
    r->field[m] = 0;
    return CUZK_OK;
}

static const char *const VARIANT[3] = {"Single", "Sub", "Top"};

/* Sub and Top: the paths first, then root and leaf. */
static cuzk_status read_merkle(reader *r, cuzk_merkle_proof *mp, const c1_tree_shape *ts, const char *name)
{
    size_t m = field_push(r, name, 0);
    uint32_t v;
    TRY(read_u32(r, &v));
    if (v != (uint32_t)ts->kind) {
        r->off -= 4;
        char d[64];
        snprintf(d, sizeof d, "expected %s (%u), got %u", VARIANT[ts->kind], (unsigned)ts->kind, v);
        return rfail(r, "wrong MerkleProof variant: ", d);
    }
    strncat(r->field, v == 1 ? ".Sub" : ".Top", sizeof r->field - strlen(r->field) - 1);
    TRY(read_path(r, mp->path, ts->nbase, ts->base_arity, ".base_proof"));
    if (v >= 1) TRY(read_path(r, mp->path + ts->nbase, 1, ts->sub_arity, ".sub_proof"));
    if (v == 2) TRY(read_path(r, mp->path + ts->nbase + 1, 1, ts->top_arity, ".top_proof"));
    size_t m2 = field_push(r, ".root", 0);
    TRY(read_node(r, &mp->root));
    r->field[m2] = 0;
    field_push(r, ".leaf", 0);
    TRY(read_node(r, &mp->leaf));
    r->field[m] = 0;
    return CUZK_OK;
}

/* Single's field order differs (root, leaf, path), so it gets its own reader. */
static cuzk_status read_merkle_any(reader *r, cuzk_merkle_proof *mp, const c1_tree_shape *ts, const char *name)
{
    if (ts->kind != CUZK_MERKLE_SINGLE) return read_merkle(r, mp, ts, name);
    size_t m = field_push(r, name, 0);
    uint32_t v;
    TRY(read_u32(r, &v));
    if (v != 0) {
        r->off -= 4;
        char d[48];
        snprintf(d, sizeof d, "expected Single (0), got %u", v);
        return rfail(r, "wrong MerkleProof variant: ", d);
    }
    size_t m2 = field_push(r, ".Single.root", 0);
    TRY(read_node(r, &mp->root));
    r->field[m2] = 0;
    m2 = field_push(r, ".Single.leaf", 0);
    TRY(read_node(r, &mp->leaf));
    r->field[m2] = 0;
    field_push(r, ".Single", 0);
    TRY(read_path(r, mp->path, ts->nbase, ts->base_arity, ".path"));
    r->field[m] = 0;
    return CUZK_OK;
}

static cuzk_status parse_partition(reader *r, cuzk_snap_partition_proof *pp, const cuzk_snap_shape *s)
{
    c1_tree_shape tr, td;
    snap_shape_tree_r(&tr, s);
    snap_shape_tree_d(&td, s);
    strcpy(r->field, "comm_c");
    TRY(read_node(r, &pp->comm_c));
    strcpy(r->field, "apex_leafs");
    TRY(read_len(r, s->apex_leaves, "apex leaves"));
    for (unsigned i = 0; i < s->apex_leaves; i++) {
        snprintf(r->field, sizeof r->field, "apex_leafs[%u]", i);
        TRY(read_node(r, &pp->apex[i]));
    }
    strcpy(r->field, "challenge_proofs");
    TRY(read_len(r, s->challenges, "challenge proofs"));
    for (unsigned i = 0; i < s->challenges; i++) {
        cuzk_snap_challenge_proof *cp = &pp->challenges[i];
        snprintf(r->field, sizeof r->field, "challenge_proofs[%u]", i);
        TRY(read_merkle_any(r, &cp->r_old, &tr, ".proof_r_old"));
        TRY(read_merkle_any(r, &cp->d_new, &td, ".proof_d_new"));
        TRY(read_merkle_any(r, &cp->r_new, &tr, ".proof_r_new"));
    }
    strcpy(r->field, "end of PartitionProof");
    if (r->off != r->len) {
        char d[48];
        snprintf(d, sizeof d, "%zu trailing bytes", r->len - r->off);
        return rfail(r, "", d);
    }
    return CUZK_OK;
}

/* Parses blob `index` into sp->parts[index] (allocated here for the shape). */
cuzk_status snap_parse_into(cuzk_snap_proofs *sp, unsigned index, const uint8_t *blob, size_t len)
{
    cuzk_snap_partition_proof *pp = &sp->parts[index];
    cuzk_status st = snap_alloc_partition(sp->arena, pp, &sp->shape);
    if (st) return st;
    reader r = {blob, len, 0, index, ""};
    if (!blob && len) return cuzk_fail(CUZK_EINVAL, "snap vanilla proof blob %u: NULL data", index);
    return parse_partition(&r, pp, &sp->shape);
}

cuzk_status cuzk_snap_parse_blob(cuzk_snap_proofs **owner, cuzk_update_proof p, const uint8_t *blob, size_t len,
                                 unsigned blob_index)
{
    *owner = NULL;
    cuzk_snap_proofs *sp;
    cuzk_status st = snap_proofs_create(&sp, p, 1);
    if (st) return st;
    reader r = {blob, len, 0, blob_index, ""};
    st = snap_alloc_partition(sp->arena, &sp->parts[0], &sp->shape);
    if (!st)
        st = blob || !len ? parse_partition(&r, &sp->parts[0], &sp->shape)
                          : cuzk_fail(CUZK_EINVAL, "snap vanilla proof blob %u: NULL data", blob_index);
    if (st) {
        cuzk_snap_proofs_free(sp);
        return st;
    }
    *owner = sp;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- writer */
typedef struct {
    uint8_t *p;
    size_t off;
} writer;

static void w_u64(writer *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) w->p[w->off++] = (uint8_t)(v >> (8 * i));
}
static void w_u32(writer *w, uint32_t v)
{
    for (int i = 0; i < 4; i++) w->p[w->off++] = (uint8_t)(v >> (8 * i));
}
static void w_node(writer *w, const cuzk_node *n)
{
    memcpy(w->p + w->off, n->b, 32);
    w->off += 32;
}
static void w_path(writer *w, const cuzk_path_elem *path, uint32_t n)
{
    w_u64(w, n);
    for (uint32_t l = 0; l < n; l++) {
        w_u64(w, path[l].nhashes);
        for (uint32_t j = 0; j < path[l].nhashes; j++) w_node(w, &path[l].hashes[j]);
        w_u64(w, path[l].index);
    }
}
static void w_merkle(writer *w, const cuzk_merkle_proof *mp)
{
    w_u32(w, (uint32_t)mp->kind);
    if (mp->kind == CUZK_MERKLE_SINGLE) {
        w_node(w, &mp->root);
        w_node(w, &mp->leaf);
        w_path(w, mp->path, mp->nbase);
        return;
    }
    w_path(w, mp->path, mp->nbase);
    w_path(w, mp->path + mp->nbase, mp->nsub);
    if (mp->kind == CUZK_MERKLE_TOP) w_path(w, mp->path + mp->nbase + mp->nsub, mp->ntop);
    w_node(w, &mp->root);
    w_node(w, &mp->leaf);
}
static size_t merkle_size(const cuzk_merkle_proof *mp)
{
    size_t n = 4 + 64;
    uint32_t parts = mp->kind == CUZK_MERKLE_SINGLE ? 1 : mp->kind == CUZK_MERKLE_SUB ? 2 : 3;
    n += 8 * parts;
    for (uint32_t l = 0; l < mp->nbase + mp->nsub + mp->ntop; l++) n += 16 + 32 * (size_t)mp->path[l].nhashes;
    return n;
}

cuzk_status cuzk_snap_partition_write(const cuzk_snap_partition_proof *pp, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t n = 32 + 8 + 32 * (size_t)pp->napex + 8;
    for (uint32_t i = 0; i < pp->nchallenges; i++)
        n += merkle_size(&pp->challenges[i].r_old) + merkle_size(&pp->challenges[i].d_new) +
            merkle_size(&pp->challenges[i].r_new);
    writer w = {cuzk_malloc(n), 0};
    if (!w.p) return cuzk_fail(CUZK_ENOMEM, "out of memory for a %zu-byte partition proof", n);
    w_node(&w, &pp->comm_c);
    w_u64(&w, pp->napex);
    for (uint32_t i = 0; i < pp->napex; i++) w_node(&w, &pp->apex[i]);
    w_u64(&w, pp->nchallenges);
    for (uint32_t i = 0; i < pp->nchallenges; i++) {
        w_merkle(&w, &pp->challenges[i].r_old);
        w_merkle(&w, &pp->challenges[i].d_new);
        w_merkle(&w, &pp->challenges[i].r_new);
    }
    if (w.off != n) {
        free(w.p);
        return cuzk_fail(CUZK_EINTERNAL, "partition proof writer: %zu bytes written, %zu computed", w.off, n);
    }
    *out = w.p;
    *len = n;
    return CUZK_OK;
}
