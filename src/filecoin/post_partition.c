/* The PoSt partition (include/cuzk/filecoin_post.h): the blobs of one partition parsed,
 * checked as FallbackPoSt::verify does (each blob is of its public sector, every path hashes to
 * comm_r_last, comm_r = Poseidon2(comm_c, comm_r_last), each proof opens the leaf the verifier
 * derives, the counts),
 * padded as single_partition_vanilla_proofs pads, and the public inputs generate_public_inputs
 * derives from the public data alone. */
#include <stdlib.h>
#include <string.h>

#include "post_internal.h"
#include "seal_internal.h"

static void *xcalloc(size_t n, size_t size, cuzk_status *st)
{
    void *p = *st ? NULL : calloc(n ? n : 1, size);
    if (!p && !*st) *st = cuzk_fail(CUZK_ENOMEM, "out of memory for a PoSt partition (%zu x %zu bytes)", n, size);
    return p;
}

cuzk_status post_partition_alloc(cuzk_post_partition **out, cuzk_post_proof p, const uint8_t randomness[32], uint32_t k,
                                 size_t nblobs)
{
    *out = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    cuzk_post_partition *pp = calloc(1, sizeof *pp);
    if (!pp) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    pp->proof = p;
    pp->info = pi;
    memcpy(pp->randomness, randomness, 32);
    pp->k = k;
    pp->nblobs = nblobs;
    pp->nsib = cuzk_tree_shape_siblings(&pi->tree);
    size_t np = nblobs * pi->proofs_per_blob;
    cuzk_status st = CUZK_OK;
    pp->sector_id = xcalloc(nblobs, sizeof(uint64_t), &st);
    pp->comm_r = xcalloc(nblobs, sizeof(cuzk_fr), &st);
    pp->comm_c = xcalloc(nblobs, sizeof(cuzk_fr), &st);
    pp->comm_r_last = xcalloc(nblobs, sizeof(cuzk_fr), &st);
    pp->leaf = xcalloc(np, sizeof(cuzk_fr), &st);
    pp->index = xcalloc(np, sizeof(uint64_t), &st);
    pp->siblings = xcalloc(np * pp->nsib, sizeof(cuzk_fr), &st);
    if (st) {
        cuzk_post_partition_free(pp);
        return st;
    }
    *out = pp;
    return CUZK_OK;
}

void cuzk_post_partition_free(cuzk_post_partition *pp)
{
    if (!pp) return;
    free(pp->sector_id);
    free(pp->comm_r);
    free(pp->comm_c);
    free(pp->comm_r_last);
    free(pp->leaf);
    free(pp->index);
    free(pp->siblings);
    free(pp);
}

static cuzk_fr fr_of(const cuzk_node *n)
{
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, n->b) != CUZK_OK) f = CUZK_FR_ZERO; /* the parser rejects these */
    return f;
}

/* The leaf index a path encodes: the base digits, then the sub digit, then the top digit. */
static uint64_t path_index(const cuzk_merkle_proof *mp, const cuzk_tree_shape *t)
{
    uint64_t idx = 0;
    unsigned shift = 0;
    for (uint32_t l = 0; l < mp->nbase + mp->nsub + mp->ntop; l++) {
        unsigned a = cuzk_tree_shape_level_arity(t, l), bits = a == 2 ? 1 : a == 4 ? 2 : 3;
        idx |= (uint64_t)mp->path[l].index << shift;
        shift += bits;
    }
    return idx;
}

void post_partition_set(cuzk_post_partition *pp, size_t b, const cuzk_post_sector_proof *sp)
{
    const cuzk_post_proof_info *pi = pp->info;
    pp->sector_id[b] = sp->sector_id;
    pp->comm_r[b] = fr_of(&sp->comm_r);
    pp->comm_c[b] = fr_of(&sp->comm_c);
    pp->comm_r_last[b] = fr_of(&sp->comm_r_last);
    for (uint32_t j = 0; j < pi->proofs_per_blob; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        size_t q = b * pi->proofs_per_blob + j;
        pp->leaf[q] = fr_of(&mp->leaf);
        pp->index[q] = path_index(mp, &pi->tree);
        cuzk_fr *sib = pp->siblings + q * pp->nsib;
        for (uint32_t l = 0; l < mp->nbase + mp->nsub + mp->ntop; l++)
            for (uint32_t h = 0; h < mp->path[l].nhashes; h++) *sib++ = fr_of(&mp->path[l].hashes[h]);
    }
}

/* InclusionPath::root for the proof's leaf (the node inserted at its position on each level). */
static cuzk_status path_root(const cuzk_merkle_proof *mp, const cuzk_tree_shape *t, cuzk_node *out)
{
    cuzk_node cur = mp->leaf, kids[8];
    for (uint32_t l = 0; l < mp->nbase + mp->nsub + mp->ntop; l++) {
        unsigned a = cuzk_tree_shape_level_arity(t, l);
        const cuzk_path_elem *e = &mp->path[l];
        for (unsigned c = 0, h = 0; c < a; c++) kids[c] = c == e->index ? cur : e->hashes[h++];
        cuzk_status st = seal_hash_children(false, a, kids, &cur);
        if (st) return st;
    }
    *out = cur;
    return CUZK_OK;
}

static cuzk_status check_sector(const cuzk_post_partition *pp, size_t b, const cuzk_post_sector_proof *sp)
{
    const cuzk_post_proof_info *pi = pp->info;
    unsigned long long id = (unsigned long long)sp->sector_id;
    cuzk_node pair[2] = {sp->comm_c, sp->comm_r_last}, h;
    cuzk_status st = seal_hash_children(false, 2, pair, &h);
    if (st) return st;
    if (memcmp(h.b, sp->comm_r.b, 32))
        return cuzk_fail(CUZK_EVERIFY,
                         "vanilla proof blob %zu (sector %llu): comm_r is not Poseidon2(vanilla_proof.sectors[0]."
                         "comm_c, comm_r_last): wrong comm_r, or the proof is of another sector",
                         b, id);
    for (uint32_t j = 0; j < sp->nproofs; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        if (memcmp(mp->root.b, sp->comm_r_last.b, 32))
            return cuzk_fail(CUZK_EVERIFY,
                             "vanilla proof blob %zu (sector %llu): vanilla_proof.sectors[0].inclusion_proofs[%u].root "
                             "is not the sector's comm_r_last",
                             b, id, j);
        uint64_t want = cuzk_post_blob_challenge(pp->proof, pp->randomness, sp->sector_id, pp->k, (unsigned)b, j);
        uint64_t got = path_index(mp, &pi->tree);
        if (got != want)
            return cuzk_fail(
                CUZK_EVERIFY,
                "vanilla proof blob %zu (sector %llu): vanilla_proof.sectors[0].inclusion_proofs[%u] opens "
                "leaf %llu, but the challenge for this randomness, sector and partition %u is leaf %llu",
                b, id, j, (unsigned long long)got, pp->k, (unsigned long long)want);
        cuzk_node root;
        if ((st = path_root(mp, &pi->tree, &root))) return st;
        if (memcmp(root.b, mp->root.b, 32))
            return cuzk_fail(CUZK_EVERIFY,
                             "vanilla proof blob %zu (sector %llu): vanilla_proof.sectors[0].inclusion_proofs[%u]: the "
                             "leaf and path hash to another root than comm_r_last (a path hash or the leaf is wrong)",
                             b, id, j);
    }
    return CUZK_OK;
}

cuzk_status cuzk_post_public_sectors_check(cuzk_post_proof p, const cuzk_post_public_sector *pub, size_t n)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (n == 0 || n > pi->max_blobs)
        return cuzk_fail(CUZK_EINVAL, "%s: %zu public sectors, but a partition has 1 to %u", pi->name, n,
                         pi->max_blobs);
    for (size_t i = 1; i < n; i++) {
        if (pub[i].sector_id > pub[i - 1].sector_id) continue;
        /* the ids before i ascend strictly, so at most one of them repeats pub[i]'s */
        for (size_t a = 0; a < i; a++)
            if (pub[a].sector_id == pub[i].sector_id)
                return cuzk_fail(CUZK_EINVAL, "public sectors[%zu] and sectors[%zu] both have sector_id %llu", a, i,
                                 (unsigned long long)pub[i].sector_id);
        return cuzk_fail(CUZK_EINVAL,
                         "public sectors[%zu].sector_id is %llu, after %llu in sectors[%zu]: a partition's public "
                         "sectors are listed in ascending sector id order",
                         i, (unsigned long long)pub[i].sector_id, (unsigned long long)pub[i - 1].sector_id, i - 1);
    }
    return CUZK_OK;
}

/* Blob b must be public sector b's proof: upstream's verifier takes each sector's id and comm_r
 * from its public inputs, never from the proof, so a proof of another sector, or one claiming
 * another comm_r, proves nothing about the public sector. */
static cuzk_status check_public(size_t b, const cuzk_post_sector_proof *sp, const cuzk_post_public_sector *ps)
{
    if (sp->sector_id != ps->sector_id)
        return cuzk_fail(CUZK_EVERIFY,
                         "vanilla proof blob %zu: sector_id is %llu, but public sectors[%zu].sector_id is %llu", b,
                         (unsigned long long)sp->sector_id, b, (unsigned long long)ps->sector_id);
    if (memcmp(sp->comm_r.b, ps->comm_r, 32)) {
        char got[65], want[65];
        cuzk_hex_encode(got, sp->comm_r.b, 32);
        cuzk_hex_encode(want, ps->comm_r, 32);
        return cuzk_fail(CUZK_EVERIFY,
                         "vanilla proof blob %zu (sector %llu): comm_r is %s, but public sectors[%zu].comm_r is %s", b,
                         (unsigned long long)sp->sector_id, got, b, want);
    }
    return CUZK_OK;
}

cuzk_status cuzk_post_partition_check(cuzk_post_proof p, const uint8_t randomness[32], uint32_t partition_index,
                                      const cuzk_post_public_sector *pub, size_t nsectors)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return cuzk_fail(CUZK_EINVAL, "registered PoSt proof %d is not one this prover knows", (int)p);
    cuzk_status st = cuzk_post_check_randomness(randomness);
    if (st) return st;
    if (nsectors == 0) return cuzk_fail(CUZK_EINVAL, "%s: no sectors (a partition needs at least one)", pi->name);
    if (nsectors > pi->max_blobs)
        return cuzk_fail(CUZK_EINVAL, "%s: %zu sectors, but a partition holds at most %u sector%s%s", pi->name,
                         nsectors, pi->max_blobs, pi->max_blobs == 1 ? "" : "s",
                         pi->kind == CUZK_POST_WINNING ? " (WinningPoSt proves one challenged sector)" : "");
    if (pi->kind == CUZK_POST_WINNING && partition_index != 0)
        return cuzk_fail(CUZK_EINVAL, "%s: partition %u: WinningPoSt has only partition 0", pi->name, partition_index);
    /* the challenges number a partition's first sector slot partition_index * sector_count,
     * which must fit in 32 bits */
    if ((uint64_t)partition_index * pi->sector_count > UINT32_MAX)
        return cuzk_fail(CUZK_EINVAL,
                         "%s: partition index %u is out of range: its first sector slot, %u x %u sectors a "
                         "partition, must fit in 32 bits (partition at most %u)",
                         pi->name, partition_index, partition_index, pi->sector_count,
                         (unsigned)(UINT32_MAX / pi->sector_count));
    return pub ? cuzk_post_public_sectors_check(p, pub, nsectors) : CUZK_OK;
}

cuzk_status cuzk_post_partition_parse(cuzk_post_partition **out, cuzk_post_proof p, const uint8_t randomness[32],
                                      uint32_t partition_index, const cuzk_post_public_sector *pub,
                                      const uint8_t *const *blobs, const size_t *lens, size_t nblobs)
{
    *out = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    cuzk_status st = cuzk_post_partition_check(p, randomness, partition_index, pub, nblobs);
    if (st) return st;
    cuzk_post_partition *pp;
    if ((st = post_partition_alloc(&pp, p, randomness, partition_index, nblobs))) return st;
    for (size_t b = 0; b < nblobs && !st; b++) {
        cuzk_post_sector_proof *sp;
        st = cuzk_post_sector_proof_parse(&sp, p, b, blobs[b], lens[b]);
        if (st) break;
        for (size_t a = 0; a < b && !st; a++)
            if (pp->sector_id[a] == sp->sector_id)
                st = cuzk_fail(CUZK_EINVAL, "vanilla proof blobs %zu and %zu are both of sector %llu", a, b,
                               (unsigned long long)sp->sector_id);
        if (!st && pub) st = check_public(b, sp, &pub[b]);
        if (!st) st = check_sector(pp, b, sp);
        if (!st) post_partition_set(pp, b, sp);
        cuzk_post_sector_proof_free(sp);
    }
    if (st) {
        cuzk_post_partition_free(pp);
        return st;
    }
    *out = pp;
    return CUZK_OK;
}

size_t cuzk_post_partition_num_inputs(const cuzk_post_partition *pp) { return cuzk_post_proof_num_inputs(pp->proof); }

cuzk_status cuzk_post_partition_public_inputs(const cuzk_post_partition *pp, cuzk_fr *out, size_t cap)
{
    const cuzk_post_proof_info *pi = pp->info;
    size_t need = cuzk_post_partition_num_inputs(pp), o = 0;
    if (cap < need) return cuzk_fail(CUZK_EINVAL, "%s public inputs: room for %zu, %zu needed", pi->name, cap, need);
    /* Slot s with its sector (padding repeats the last sector's inputs, its own challenges). */
    for (size_t s = 0; s < pi->sector_count; s++) {
        size_t b, j;
        post_slot(pp, s, 0, &b, &j);
        out[o++] = pp->comm_r[b];
        for (unsigned n = 0; n < pi->challenge_count; n++) {
            post_slot(pp, s, n, &b, &j);
            uint64_t leaf =
                cuzk_post_blob_challenge(pp->proof, pp->randomness, pp->sector_id[b], pp->k, (unsigned)b, (unsigned)j);
            cuzk_fr_from_u64(&out[o++], leaf);
        }
    }
    return CUZK_OK;
}

cuzk_post_proof cuzk_post_partition_proof(const cuzk_post_partition *pp) { return pp->proof; }
uint32_t cuzk_post_partition_index(const cuzk_post_partition *pp) { return pp->k; }
size_t cuzk_post_partition_sectors(const cuzk_post_partition *pp) { return pp->nblobs; }
