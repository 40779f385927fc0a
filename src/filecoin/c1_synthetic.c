/* Synthetic C1 data of a proof type's exact shape, for benchmarks: indices, roots and
 * counts agree and every node is a canonical field element, but the values are random, so
 * it is not a valid proof (cuzk_c1_verify rejects it and the circuit is not satisfied). */
#include <string.h>

#include "c1_internal.h"

static void random_node(cuzk_rng *rng, cuzk_node *n)
{
    cuzk_rng_bytes(rng, n->b, 32);
    n->b[31] &= 0x3f; /* below r */
}

static cuzk_status fill_merkle(cuzk_c1_arena *a, cuzk_rng *rng, cuzk_merkle_proof *mp, const c1_tree_shape *s,
                               uint64_t index, const cuzk_node *root)
{
    cuzk_status st = c1_alloc_merkle(a, mp, s);
    if (st) return st;
    uint32_t n = mp->nbase + mp->nsub + mp->ntop;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t arity = c1_shape_arity(s, l);
        mp->path[l].index = (uint32_t)(index % arity);
        index /= arity;
        for (uint32_t h = 0; h < mp->path[l].nhashes; h++) random_node(rng, &mp->path[l].hashes[h]);
    }
    mp->root = *root;
    random_node(rng, &mp->leaf);
    return CUZK_OK;
}

cuzk_status cuzk_c1_synthetic(cuzk_c1 **out, cuzk_seal_proof proof, unsigned partitions, uint64_t seed)
{
    *out = NULL;
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(proof);
    if (!pi) return CUZK_EINVAL;
    if (partitions == 0 || partitions > pi->partitions)
        return cuzk_fail(CUZK_EINVAL, "%s has %u partitions, not %u", pi->name, pi->partitions, partitions);
    cuzk_c1 *c1 = c1_create();
    if (!c1) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c1->proof = proof;
    c1->info = pi;
    cuzk_status st = c1_alloc_proofs(c1, partitions, pi->challenges_per_partition);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    c1_tree_shape td, trc;
    c1_shape_tree_d(&td, pi);
    c1_shape_tree_rc(&trc, pi);
    cuzk_node comm_d, comm_c, r_last;
    random_node(&rng, &comm_d);
    random_node(&rng, &comm_c);
    random_node(&rng, &r_last);
    memcpy(c1->comm_d, comm_d.b, 32);
    random_node(&rng, (cuzk_node *)c1->comm_r);
    random_node(&rng, (cuzk_node *)c1->replica_id);
    random_node(&rng, (cuzk_node *)c1->seed);
    random_node(&rng, (cuzk_node *)c1->ticket);
    for (size_t n = 0; !st && n < (size_t)partitions * pi->challenges_per_partition; n++) {
        cuzk_challenge_proof *cp = &c1->proofs[n];
        uint64_t ch = 1 + cuzk_rng_next(&rng) % (pi->nodes - 1);
        st = fill_merkle(c1->arena, &rng, &cp->comm_d_proof, &td, ch, &comm_d);
        if (!st) st = fill_merkle(c1->arena, &rng, &cp->comm_r_last_proof, &trc, ch, &r_last);
        for (int c = 0; c <= CUZK_POREP_PARENTS && !st; c++) {
            cuzk_column_proof *col = c == 0 ? &cp->c_x : c <= 6 ? &cp->drg_parents[c - 1] : &cp->exp_parents[c - 7];
            col->index = c == 0 ? (uint32_t)ch : (uint32_t)(cuzk_rng_next(&rng) % pi->nodes);
            col->nrows = pi->layers;
            col->rows = c1_arena_alloc(c1->arena, pi->layers * sizeof(cuzk_node));
            if (!col->rows) st = CUZK_ENOMEM;
            for (unsigned l = 0; !st && l < pi->layers; l++) random_node(&rng, &col->rows[l]);
            if (!st) st = fill_merkle(c1->arena, &rng, &col->inclusion, &trc, col->index, &comm_c);
        }
        cp->nlabeling = pi->layers;
        cp->labeling = st ? NULL : c1_arena_alloc(c1->arena, pi->layers * sizeof(cuzk_labeling_proof));
        if (!st && !cp->labeling) st = CUZK_ENOMEM;
        for (unsigned l = 0; !st && l <= pi->layers; l++) {
            cuzk_labeling_proof *lp = l < pi->layers ? &cp->labeling[l] : &cp->encoding;
            lp->layer_index = l < pi->layers ? l + 1 : pi->layers;
            lp->node = ch;
            lp->nparents = CUZK_POREP_LABEL_PARENTS;
            lp->parents = c1_arena_alloc(c1->arena, CUZK_POREP_LABEL_PARENTS * sizeof(cuzk_node));
            if (!lp->parents) st = CUZK_ENOMEM;
            for (int i = 0; !st && i < CUZK_POREP_LABEL_PARENTS; i++) random_node(&rng, &lp->parents[i]);
        }
    }
    if (st) {
        cuzk_c1_free(c1);
        return st;
    }
    *out = c1;
    return CUZK_OK;
}
