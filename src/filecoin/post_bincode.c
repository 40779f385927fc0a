/* The vanilla proof blob of one PoSt sector: bincode 1.x (bincode::serialize, its default
 * options: fixed-width little-endian integers, Vec lengths as u64, enum tags as u32, structs as
 * their fields in order, [u8; 32] as 32 bytes) of filecoin-proofs' FallbackPoStSectorProof:
 *
 *   sector_id u64, comm_r [32],
 *   vanilla_proof.sectors: Vec<SectorProof> (one, as generate_single_vanilla_proof makes it)
 *     inclusion_proofs: Vec<MerkleProof>, then comm_c [32], comm_r_last [32]
 *   MerkleProof (ProofData): tag 0 Single {root, leaf, path}
 *                            tag 1 Sub    {base_proof, sub_proof, root, leaf}
 *                            tag 2 Top    {base_proof, sub_proof, top_proof, root, leaf}
 *   InclusionPath: Vec<PathElement {hashes: Vec<Domain>, index: usize as u64}>
 *
 * Every count in a blob is fixed by the proof type, so the parser knows every length before it
 * reads it: a length that differs is an error at that field (nothing is sized from the blob). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_post.h"

/* path elements of base, sub and top for the tree shape */
static void part_levels(const cuzk_tree_shape *t, uint32_t lv[3])
{
    lv[0] = t->base_levels;
    lv[1] = t->sub_arity ? 1 : 0;
    lv[2] = t->top_arity ? 1 : 0;
}

static unsigned part_arity(const cuzk_tree_shape *t, int part)
{
    return part == 0 ? t->base_arity : part == 1 ? t->sub_arity : t->top_arity;
}

static cuzk_merkle_kind shape_kind(const cuzk_tree_shape *t)
{
    return t->top_arity ? CUZK_MERKLE_TOP : t->sub_arity ? CUZK_MERKLE_SUB : CUZK_MERKLE_SINGLE;
}

static size_t path_bytes(uint32_t levels, unsigned arity) { return 8 + (size_t)levels * (8 + (arity - 1) * 32 + 8); }

static size_t merkle_bytes(const cuzk_tree_shape *t)
{
    uint32_t lv[3];
    part_levels(t, lv);
    size_t n = 4 + 64;
    for (int part = 0; part < 3; part++)
        if (part == 0 || lv[part]) n += path_bytes(lv[part], part_arity(t, part));
    return n;
}

size_t cuzk_post_sector_proof_bytes(cuzk_post_proof p)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return 0;
    return 8 + 32 + 8 + 8 + (size_t)pi->proofs_per_blob * merkle_bytes(&pi->tree) + 64;
}

cuzk_status cuzk_post_sector_proof_alloc(cuzk_post_sector_proof **out, cuzk_post_proof p)
{
    *out = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    const cuzk_tree_shape *t = &pi->tree;
    uint32_t lv[3];
    part_levels(t, lv);
    uint32_t nlev = lv[0] + lv[1] + lv[2];
    size_t nsib = cuzk_tree_shape_siblings(t), np = pi->proofs_per_blob;
    /* one block: the struct, the proofs, their path elements, their siblings */
    size_t bytes = sizeof(cuzk_post_sector_proof) + np * sizeof(cuzk_merkle_proof) +
        np * nlev * sizeof(cuzk_path_elem) + np * nsib * sizeof(cuzk_node);
    uint8_t *mem = calloc(1, bytes);
    if (!mem) return cuzk_fail(CUZK_ENOMEM, "out of memory for a %s vanilla proof (%zu bytes)", pi->name, bytes);
    cuzk_post_sector_proof *sp = (cuzk_post_sector_proof *)mem;
    sp->nproofs = (uint32_t)np;
    sp->proofs = (cuzk_merkle_proof *)(mem + sizeof *sp);
    cuzk_path_elem *elems = (cuzk_path_elem *)(sp->proofs + np);
    cuzk_node *nodes = (cuzk_node *)(elems + np * nlev);
    for (size_t j = 0; j < np; j++) {
        cuzk_merkle_proof *mp = &sp->proofs[j];
        mp->kind = shape_kind(t);
        mp->nbase = lv[0];
        mp->nsub = lv[1];
        mp->ntop = lv[2];
        mp->path = elems + j * nlev;
        for (uint32_t l = 0; l < nlev; l++) {
            mp->path[l].nhashes = cuzk_tree_shape_level_arity(t, l) - 1;
            mp->path[l].hashes = nodes;
            nodes += mp->path[l].nhashes;
        }
    }
    *out = sp;
    return CUZK_OK;
}

void cuzk_post_sector_proof_free(cuzk_post_sector_proof *sp) { free(sp); }

/* ---------------------------------------------------------------- reading */
typedef struct {
    const uint8_t *b;
    size_t len, off, blob;
    const char *proof_name;
} reader;

static cuzk_status rfail(const reader *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cuzk_status rfail(const reader *r, size_t off, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_fail(CUZK_EFORMAT, "vanilla proof blob %zu (%s): %s (byte offset %zu)", r->blob, r->proof_name, msg,
                     off);
}

static cuzk_status need(const reader *r, size_t n, const char *field)
{
    if (r->len - r->off < n)
        return rfail(r, r->off, "%s: truncated (needs %zu bytes, %zu left)", field, n, r->len - r->off);
    return CUZK_OK;
}

static cuzk_status rd_u64(reader *r, const char *field, uint64_t *v)
{
    cuzk_status st = need(r, 8, field);
    if (st) return st;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | r->b[r->off + i];
    r->off += 8;
    *v = x;
    return CUZK_OK;
}

/* a Vec length that must be `want` */
static cuzk_status rd_len(reader *r, const char *field, uint64_t want)
{
    size_t at = r->off;
    uint64_t n;
    cuzk_status st = rd_u64(r, field, &n);
    if (st) return st;
    if (n != want)
        return rfail(r, at, "%s: expected %llu element%s, got %llu", field, (unsigned long long)want,
                     want == 1 ? "" : "s", (unsigned long long)n);
    return CUZK_OK;
}

static cuzk_status rd_node(reader *r, const char *field, cuzk_node *out)
{
    cuzk_status st = need(r, 32, field);
    if (st) return st;
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, r->b + r->off) != CUZK_OK)
        return rfail(r, r->off, "%s: not a canonical field element (>= r)", field);
    memcpy(out->b, r->b + r->off, 32);
    r->off += 32;
    return CUZK_OK;
}

static const char *const PART_FIELD[3] = {"base_proof", "sub_proof", "top_proof"};

static cuzk_status rd_path(reader *r, const char *pfx, const char *part, cuzk_path_elem *el, uint32_t levels,
                           unsigned arity)
{
    char f[256];
    snprintf(f, sizeof f, "%s.%s.path", pfx, part);
    cuzk_status st = rd_len(r, f, levels);
    for (uint32_t l = 0; l < levels && !st; l++) {
        snprintf(f, sizeof f, "%s.%s.path[%u].hashes", pfx, part, l);
        st = rd_len(r, f, arity - 1);
        for (uint32_t h = 0; h < arity - 1 && !st; h++) {
            snprintf(f, sizeof f, "%s.%s.path[%u].hashes[%u]", pfx, part, l, h);
            st = rd_node(r, f, &el[l].hashes[h]);
        }
        if (st) break;
        snprintf(f, sizeof f, "%s.%s.path[%u].index", pfx, part, l);
        size_t at = r->off;
        uint64_t idx;
        if ((st = rd_u64(r, f, &idx))) break;
        if (idx >= arity)
            return rfail(r, at, "%s: %llu is not a position among %u children", f, (unsigned long long)idx, arity);
        el[l].index = (uint32_t)idx;
    }
    return st;
}

static cuzk_status rd_merkle(reader *r, const cuzk_tree_shape *t, uint32_t j, cuzk_merkle_proof *mp)
{
    char pfx[96], f[160];
    snprintf(pfx, sizeof pfx, "vanilla_proof.sectors[0].inclusion_proofs[%u]", j);
    static const char *const KIND[3] = {"Single", "Sub", "Top"};
    snprintf(f, sizeof f, "%s (MerkleProof variant)", pfx);
    cuzk_status st = need(r, 4, f);
    if (st) return st;
    uint32_t tag = (uint32_t)r->b[r->off] | (uint32_t)r->b[r->off + 1] << 8 | (uint32_t)r->b[r->off + 2] << 16 |
        (uint32_t)r->b[r->off + 3] << 24;
    if (tag != (uint32_t)mp->kind)
        return rfail(r, r->off, "%s: variant %u%s%s%s, expected %s for tree shape %u-%u-%u", f, tag,
                     tag < 3 ? " (" : "", tag < 3 ? KIND[tag] : "", tag < 3 ? ")" : "", KIND[mp->kind], t->base_arity,
                     t->sub_arity, t->top_arity);
    r->off += 4;
    uint32_t lv[3] = {mp->nbase, mp->nsub, mp->ntop};
    if (mp->kind == CUZK_MERKLE_SINGLE) {
        snprintf(f, sizeof f, "%s.Single.root", pfx);
        if ((st = rd_node(r, f, &mp->root))) return st;
        snprintf(f, sizeof f, "%s.Single.leaf", pfx);
        if ((st = rd_node(r, f, &mp->leaf))) return st;
        snprintf(f, sizeof f, "%s.Single", pfx);
        return rd_path(r, f, "path", mp->path, lv[0], t->base_arity);
    }
    snprintf(f, sizeof f, "%s.%s", pfx, KIND[mp->kind]);
    cuzk_path_elem *el = mp->path;
    for (int part = 0; part < 3; part++) {
        if (!lv[part]) continue;
        if ((st = rd_path(r, f, PART_FIELD[part], el, lv[part], part_arity(t, part)))) return st;
        el += lv[part];
    }
    char g[192];
    snprintf(g, sizeof g, "%s.root", f);
    if ((st = rd_node(r, g, &mp->root))) return st;
    snprintf(g, sizeof g, "%s.leaf", f);
    return rd_node(r, g, &mp->leaf);
}

cuzk_status cuzk_post_sector_proof_parse(cuzk_post_sector_proof **out, cuzk_post_proof p, size_t blob_index,
                                         const uint8_t *blob, size_t len)
{
    *out = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    reader r = {blob, blob ? len : 0, 0, blob_index, pi->name};
    cuzk_post_sector_proof *sp;
    cuzk_status st = cuzk_post_sector_proof_alloc(&sp, p);
    if (st) return st;
    if (!(st = rd_u64(&r, "sector_id", &sp->sector_id)) && !(st = rd_node(&r, "comm_r", &sp->comm_r)) &&
        !(st = rd_len(&r, "vanilla_proof.sectors", 1)))
        st = rd_len(&r, "vanilla_proof.sectors[0].inclusion_proofs", pi->proofs_per_blob);
    for (uint32_t j = 0; j < sp->nproofs && !st; j++) st = rd_merkle(&r, &pi->tree, j, &sp->proofs[j]);
    if (!st) st = rd_node(&r, "vanilla_proof.sectors[0].comm_c", &sp->comm_c);
    if (!st) st = rd_node(&r, "vanilla_proof.sectors[0].comm_r_last", &sp->comm_r_last);
    if (!st && r.off != r.len)
        st = rfail(&r, r.off, "%zu trailing bytes after the proof (a %s blob is %zu bytes)", r.len - r.off, pi->name,
                   cuzk_post_sector_proof_bytes(p));
    if (st) {
        free(sp);
        return st;
    }
    *out = sp;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- writing */
typedef struct {
    uint8_t *b;
    size_t off, cap;
} writer;

static void wr(writer *w, const void *d, size_t n)
{
    if (w->off + n <= w->cap) memcpy(w->b + w->off, d, n);
    w->off += n;
}

static void wr_u64(writer *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    wr(w, b, 8);
}

static void wr_path(writer *w, const cuzk_path_elem *el, uint32_t levels)
{
    wr_u64(w, levels);
    for (uint32_t l = 0; l < levels; l++) {
        wr_u64(w, el[l].nhashes);
        wr(w, el[l].hashes, (size_t)el[l].nhashes * 32);
        wr_u64(w, el[l].index);
    }
}

cuzk_status cuzk_post_sector_proof_write(const cuzk_post_sector_proof *sp, cuzk_post_proof p, uint8_t **out,
                                         size_t *len)
{
    *out = NULL;
    *len = 0;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (sp->nproofs != pi->proofs_per_blob)
        return cuzk_fail(CUZK_EINVAL, "a %s vanilla proof holds %u inclusion proofs, not %u", pi->name,
                         pi->proofs_per_blob, sp->nproofs);
    cuzk_merkle_kind kind = shape_kind(&pi->tree);
    for (uint32_t j = 0; j < sp->nproofs; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        uint32_t lv[3];
        part_levels(&pi->tree, lv);
        if (mp->kind != kind || mp->nbase != lv[0] || mp->nsub != lv[1] || mp->ntop != lv[2])
            return cuzk_fail(CUZK_EINVAL, "inclusion proof %u does not have the %s tree shape", j, pi->name);
        for (uint32_t l = 0; l < lv[0] + lv[1] + lv[2]; l++)
            if (mp->path[l].nhashes != cuzk_tree_shape_level_arity(&pi->tree, l) - 1)
                return cuzk_fail(CUZK_EINVAL, "inclusion proof %u, path level %u: %u siblings for arity %u", j, l,
                                 mp->path[l].nhashes, cuzk_tree_shape_level_arity(&pi->tree, l));
    }
    size_t n = cuzk_post_sector_proof_bytes(p);
    writer w = {malloc(n), 0, n};
    if (!w.b) return cuzk_fail(CUZK_ENOMEM, "out of memory for a %zu-byte vanilla proof", n);
    wr_u64(&w, sp->sector_id);
    wr(&w, sp->comm_r.b, 32);
    wr_u64(&w, 1);
    wr_u64(&w, sp->nproofs);
    for (uint32_t j = 0; j < sp->nproofs; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        uint8_t tag[4] = {(uint8_t)mp->kind, 0, 0, 0};
        wr(&w, tag, 4);
        if (mp->kind == CUZK_MERKLE_SINGLE) {
            wr(&w, mp->root.b, 32);
            wr(&w, mp->leaf.b, 32);
            wr_path(&w, mp->path, mp->nbase);
            continue;
        }
        wr_path(&w, mp->path, mp->nbase);
        wr_path(&w, mp->path + mp->nbase, mp->nsub);
        if (mp->kind == CUZK_MERKLE_TOP) wr_path(&w, mp->path + mp->nbase + mp->nsub, mp->ntop);
        wr(&w, mp->root.b, 32);
        wr(&w, mp->leaf.b, 32);
    }
    wr(&w, sp->comm_c.b, 32);
    wr(&w, sp->comm_r_last.b, 32);
    if (w.off != n) {
        free(w.b);
        return cuzk_fail(CUZK_EINTERNAL, "vanilla proof writer: wrote %zu bytes, the shape says %zu", w.off, n);
    }
    *out = w.b;
    *len = n;
    return CUZK_OK;
}
