/* Vanilla PoSt proofs of sealed test sectors, as a storage provider's prover makes them
 * (filecoin-proofs generate_fallback_sector_challenges + generate_single_vanilla_proof): tree R
 * rebuilt from the replica, checked against p_aux and comm_r, the challenged leaves opened, the
 * result written as the bincode blob the SNARK prover receives. Single-octree sizes only (the
 * test sealer's). Also the built-in witness of the named PoSt circuits. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_seal.h"
#include "post_internal.h"
#include "seal_internal.h"

#define TREE_R_CACHE_FROM 2 /* keep levels 2.. (1/64 of the leaves); a proof rebuilds 64 leaves */

typedef struct {
    const uint8_t *replica;
} replica_ctx;

static void replica_leaves(void *vctx, uint64_t first, uint64_t n, cuzk_node *out)
{
    const replica_ctx *c = vctx;
    memcpy(out, c->replica + first * 32, n * 32);
}

static cuzk_status vanilla_one(const cuzk_post_proof_info *pi, const uint8_t randomness[32], uint32_t k, size_t i,
                               const cuzk_post_replica *r, uint8_t **blob, size_t *len)
{
    unsigned long long id = (unsigned long long)r->sector_id;
    if (r->replica_len != pi->sector_size)
        return cuzk_fail(CUZK_EINVAL, "sector %llu: the replica is %zu bytes, a %s sector is %llu", id, r->replica_len,
                         pi->name, (unsigned long long)pi->sector_size);
    if (pi->tree.sub_arity)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "%s: vanilla proofs are made for single-octree sectors (2KiB, 8MiB, 512MiB)", pi->name);
    cuzk_post_sector_proof *sp;
    cuzk_status st = cuzk_post_sector_proof_alloc(&sp, pi->id);
    if (st) return st;
    sp->sector_id = r->sector_id;
    memcpy(sp->comm_r.b, r->comm_r, 32);
    memcpy(sp->comm_c.b, r->p_aux, 32);
    memcpy(sp->comm_r_last.b, r->p_aux + 32, 32);
    cuzk_node pair[2] = {sp->comm_c, sp->comm_r_last}, h;
    st = seal_hash_children(false, 2, pair, &h);
    if (st) st = cuzk_fail_context(st, "sector %llu: p_aux", id);
    else if (memcmp(h.b, r->comm_r, 32))
        st = cuzk_fail(CUZK_EVERIFY, "sector %llu: comm_r is not Poseidon2(comm_c, comm_r_last) of its p_aux", id);
    replica_ctx rc = {r->replica};
    seal_tree tree;
    memset(&tree, 0, sizeof tree);
    if (!st) {
        st = seal_tree_build(&tree, false, pi->nodes, TREE_R_CACHE_FROM, replica_leaves, &rc);
        if (st) st = cuzk_fail_context(st, "sector %llu: tree R over the replica", id);
    }
    if (!st && memcmp(seal_tree_root(&tree)->b, sp->comm_r_last.b, 32))
        st = cuzk_fail(CUZK_EVERIFY, "sector %llu: tree R of the replica does not have the p_aux's comm_r_last", id);
    for (uint32_t j = 0; j < sp->nproofs && !st; j++) {
        uint64_t leaf = cuzk_post_blob_challenge(pi->id, randomness, r->sector_id, k, (unsigned)i, j);
        st = seal_tree_prove(&tree, leaf, &sp->proofs[j]);
    }
    if (!st) st = cuzk_post_sector_proof_write(sp, pi->id, blob, len);
    seal_tree_free(&tree);
    cuzk_post_sector_proof_free(sp);
    return st;
}

cuzk_status cuzk_post_vanilla_prove(cuzk_post_proof p, const uint8_t randomness[32], uint32_t partition_index,
                                    const cuzk_post_replica *sectors, size_t nsectors, uint8_t **blobs, size_t *lens)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    /* the prover's own checks (public sector list included): no blobs it would refuse */
    cuzk_post_public_sector *pub = calloc(nsectors ? nsectors : 1, sizeof *pub);
    if (!pub) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nsectors; i++) {
        pub[i].sector_id = sectors[i].sector_id;
        memcpy(pub[i].comm_r, sectors[i].comm_r, 32);
    }
    cuzk_status st = cuzk_post_partition_check(p, randomness, partition_index, pub, nsectors);
    free(pub);
    if (st) return st;
    for (size_t i = 0; i < nsectors; i++) blobs[i] = NULL;
    for (size_t i = 0; i < nsectors && !st; i++)
        st = vanilla_one(pi, randomness, partition_index, i, &sectors[i], &blobs[i], &lens[i]);
    if (st)
        for (size_t i = 0; i < nsectors; i++) {
            free(blobs[i]);
            blobs[i] = NULL;
        }
    return st;
}

/* The V1_1 seal proof of a sector size (the sealer's). */
static cuzk_status seal_proof_of_size(cuzk_seal_proof *out, uint64_t bytes)
{
    for (int s = CUZK_SEAL_2KIB_V1_1; s <= CUZK_SEAL_64GIB_V1_1; s++) {
        const cuzk_seal_proof_info *si = cuzk_seal_proof_info_get((cuzk_seal_proof)s);
        if (si && si->sector_size == bytes) {
            *out = (cuzk_seal_proof)s;
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_EUNSUPPORTED, "no seal proof for sector size %llu", (unsigned long long)bytes);
}

cuzk_status post_builtin_partition(cuzk_post_partition **out, cuzk_post_proof p, uint64_t seed)
{
    *out = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (pi->tree.sub_arity)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "%s has no built-in witness (the test sealer makes 2KiB, 8MiB and 512MiB sectors): count it, "
                         "set it up, or time it with cuzk_post_synthetic_open",
                         pi->name);
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    cuzk_status st = seal_proof_of_size(&sp.proof, pi->sector_size);
    if (st) return st;
    cuzk_prover_id_from_actor(sp.prover_id, 1000 + seed % 1000);
    sp.sector_id = seed;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    uint8_t randomness[32];
    cuzk_rng_bytes(&rng, sp.ticket, 32);
    cuzk_rng_bytes(&rng, randomness, 32);
    sp.ticket[31] &= 0x3f;
    randomness[31] &= 0x3f;
    cuzk_sealed_sector *s;
    if ((st = cuzk_seal_precommit(&s, &sp, NULL))) return st;
    cuzk_post_replica r;
    memset(&r, 0, sizeof r);
    r.sector_id = sp.sector_id;
    memcpy(r.comm_r, cuzk_sealed_commitments(s)->comm_r, 32);
    cuzk_sealed_p_aux(s, r.p_aux);
    uint8_t *replica = cuzk_big_alloc(pi->sector_size);
    if (!replica) {
        cuzk_sealed_sector_free(s);
        return CUZK_ENOMEM;
    }
    cuzk_sealed_replica_nodes(s, 0, pi->nodes, replica);
    cuzk_sealed_sector_free(s);
    r.replica = replica;
    r.replica_len = pi->sector_size;
    uint8_t *blob = NULL;
    size_t len = 0;
    st = cuzk_post_vanilla_prove(p, randomness, 0, &r, 1, &blob, &len);
    cuzk_big_free(replica, pi->sector_size);
    if (st) return st;
    const uint8_t *blobs[1] = {blob};
    st = cuzk_post_partition_parse(out, p, randomness, 0, NULL, blobs, &len, 1);
    free(blob);
    return st;
}
