/* The native checks of a SnapDeals request (EmptySectorUpdate::verify in vanilla.rs, plus what
 * the circuit assumes of its witness), so that a bad vanilla proof fails before any proving
 * with a reason naming the blob and the field. */
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"
#include "snap_internal.h"

#define MAX_ARITY 8

static cuzk_status bad(unsigned k, unsigned i, const char *what)
{
    return cuzk_fail(CUZK_EVERIFY, "snap vanilla proof blob %u, challenge_proofs[%u]: %s", k, i, what);
}

/* The node at path level `upto` (0 = the leaf) computed from the leaf along the path. */
static cuzk_status climb(const cuzk_merkle_proof *mp, const c1_tree_shape *ts, bool sha, uint32_t upto, cuzk_node *out)
{
    cuzk_node cur = mp->leaf, kids[MAX_ARITY];
    for (uint32_t l = 0; l < upto; l++) {
        const cuzk_path_elem *e = &mp->path[l];
        const uint32_t a = c1_shape_arity(ts, l);
        for (uint32_t j = 0, h = 0; j < a; j++) kids[j] = j == e->index ? cur : e->hashes[h++];
        cuzk_status st = seal_hash_children(sha, a, kids, &cur);
        if (st) return st;
    }
    *out = cur;
    return CUZK_OK;
}

static cuzk_status poseidon2(cuzk_node *out, const cuzk_node *a, const cuzk_node *b)
{
    cuzk_fr pre[2] = {snap_node_fr(a), snap_node_fr(b)}, h;
    cuzk_status st = cuzk_poseidon_hash(&h, 2, pre);
    if (!st) cuzk_fr_to_bytes_le(out->b, &h);
    return st;
}

cuzk_status snap_check_partition(const cuzk_snap_proofs *sp, unsigned k)
{
    const cuzk_snap_shape *s = &sp->shape;
    const cuzk_snap_partition_proof *pp = &sp->parts[k];
    c1_tree_shape tr, td;
    snap_shape_tree_r(&tr, s);
    snap_shape_tree_d(&td, s);
    const uint32_t levels_r = tr.nbase + tr.nsub + tr.ntop;
    const cuzk_node *root_old = &pp->challenges[0].r_old.root, *root_new = &pp->challenges[0].r_new.root;
    cuzk_node calc;
    cuzk_status st = poseidon2(&calc, &pp->comm_c, root_old);
    if (st) return st;
    if (memcmp(calc.b, sp->comm_r_old, 32))
        return cuzk_fail(CUZK_EVERIFY, "snap vanilla proof blob %u: comm_r_old != H(comm_c, root of proof_r_old)", k);
    if ((st = poseidon2(&calc, &pp->comm_c, root_new)) != CUZK_OK) return st;
    if (memcmp(calc.b, sp->comm_r_new, 32))
        return cuzk_fail(CUZK_EVERIFY, "snap vanilla proof blob %u: comm_r_new != H(comm_c, root of proof_r_new)", k);

    /* the apex tree, and its root up the partition path (challenge 0's top levels) to comm_d_new */
    cuzk_node row[128];
    memcpy(row, pp->apex, sizeof(cuzk_node) * s->apex_leaves);
    for (unsigned n = s->apex_leaves; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++)
            if ((st = seal_hash_children(true, 2, &row[2 * i], &row[i])) != CUZK_OK) return st;
    const unsigned to_apex = s->challenge_bits - s->partition_bits - s->apex_bits;
    const unsigned part_level = s->challenge_bits - s->partition_bits;
    cuzk_node cur = row[0], kids[2];
    for (unsigned l = 0; l < s->partition_bits; l++) {
        const cuzk_path_elem *e = &pp->challenges[0].d_new.path[part_level + l];
        if (e->index != ((k >> l) & 1))
            return bad(k, 0, "proof_d_new: the partition path does not lead to partition k");
        kids[e->index] = cur;
        kids[1 - e->index] = e->hashes[0];
        if ((st = seal_hash_children(true, 2, kids, &cur)) != CUZK_OK) return st;
    }
    if (memcmp(cur.b, sp->comm_d_new, 32))
        return cuzk_fail(CUZK_EVERIFY, "snap vanilla proof blob %u: apex_leafs do not hash to comm_d_new", k);

    uint32_t ch[128];
    if ((st = cuzk_snap_challenges(ch, s, sp->comm_r_new, k)) != CUZK_OK) return st;
    cuzk_fr phi;
    if ((st = cuzk_snap_phi(&phi, sp->comm_d_new, sp->comm_r_old)) != CUZK_OK) return st;
    const unsigned shr = s->challenge_bits - sp->info->h;
    for (unsigned i = 0; i < s->challenges; i++) {
        const cuzk_snap_challenge_proof *cp = &pp->challenges[i];
        if (c1_merkle_index(&cp->r_old, &tr) != ch[i]) return bad(k, i, "proof_r_old: path index is not the challenge");
        if (c1_merkle_index(&cp->d_new, &td) != ch[i]) return bad(k, i, "proof_d_new: path index is not the challenge");
        if (c1_merkle_index(&cp->r_new, &tr) != ch[i]) return bad(k, i, "proof_r_new: path index is not the challenge");
        if (memcmp(cp->r_old.root.b, root_old->b, 32)) return bad(k, i, "proof_r_old: root differs from challenge 0's");
        if (memcmp(cp->r_new.root.b, root_new->b, 32)) return bad(k, i, "proof_r_new: root differs from challenge 0's");
        if (memcmp(cp->d_new.root.b, sp->comm_d_new, 32)) return bad(k, i, "proof_d_new: root is not comm_d_new");
        if ((st = climb(&cp->r_old, &tr, false, levels_r, &calc)) != CUZK_OK) return st;
        if (memcmp(calc.b, cp->r_old.root.b, 32)) return bad(k, i, "proof_r_old: path does not hash to its root");
        if ((st = climb(&cp->r_new, &tr, false, levels_r, &calc)) != CUZK_OK) return st;
        if (memcmp(calc.b, cp->r_new.root.b, 32)) return bad(k, i, "proof_r_new: path does not hash to its root");
        if ((st = climb(&cp->d_new, &td, true, to_apex, &calc)) != CUZK_OK) return st;
        if (memcmp(calc.b, pp->apex[(ch[i] >> to_apex) & (s->apex_leaves - 1)].b, 32))
            return bad(k, i, "proof_d_new: path does not reach the partition's apex leaf");
        if ((st = climb(&cp->d_new, &td, true, s->challenge_bits, &calc)) != CUZK_OK) return st;
        if (memcmp(calc.b, cp->d_new.root.b, 32)) return bad(k, i, "proof_d_new: path does not hash to its root");
        for (unsigned l = part_level; l < s->challenge_bits; l++)
            if (memcmp(cp->d_new.path[l].hashes[0].b, pp->challenges[0].d_new.path[l].hashes[0].b, 32))
                return bad(k, i, "proof_d_new: partition path differs from challenge 0's");
        cuzk_fr rho, lo = snap_node_fr(&cp->r_old.leaf), ld = snap_node_fr(&cp->d_new.leaf), ln;
        if ((st = cuzk_snap_rho(&rho, &phi, ch[i] >> shr)) != CUZK_OK) return st;
        cuzk_fr_mul(&ln, &ld, &rho);
        cuzk_fr_add(&ln, &ln, &lo);
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &ln);
        if (memcmp(b, cp->r_new.leaf.b, 32)) return bad(k, i, "leaf_r_new != leaf_r_old + leaf_d_new * rho");
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_parse(cuzk_snap_proofs **out, cuzk_update_proof p, const uint8_t comm_r_old[32],
                            const uint8_t comm_r_new[32], const uint8_t comm_d_new[32], const uint8_t *const *blobs,
                            const size_t *lens, size_t nblobs)
{
    *out = NULL;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (nblobs != pi->partitions)
        return cuzk_fail(CUZK_EINVAL,
                         "snap: %zu vanilla proof blobs for %s, which has %u partitions (one blob per partition, all "
                         "in one request)",
                         nblobs, pi->name, pi->partitions);
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, comm_r_old)) return cuzk_fail(CUZK_EINVAL, "snap: comm_r_old is not canonical");
    if (cuzk_fr_from_bytes_le(&f, comm_r_new)) return cuzk_fail(CUZK_EINVAL, "snap: comm_r_new is not canonical");
    if (cuzk_fr_from_bytes_le(&f, comm_d_new)) return cuzk_fail(CUZK_EINVAL, "snap: comm_d_new is not canonical");
    cuzk_snap_proofs *sp;
    cuzk_status st = snap_proofs_create(&sp, p, pi->partitions);
    if (st) return st;
    memcpy(sp->comm_r_old, comm_r_old, 32);
    memcpy(sp->comm_r_new, comm_r_new, 32);
    memcpy(sp->comm_d_new, comm_d_new, 32);
    for (unsigned k = 0; k < pi->partitions && !st; k++) {
        st = snap_parse_into(sp, k, blobs[k], lens[k]);
        if (!st) st = snap_check_partition(sp, k);
    }
    if (st) {
        cuzk_snap_proofs_free(sp);
        return st;
    }
    *out = sp;
    return CUZK_OK;
}
