/* Full verification of a C1's vanilla proofs (storage-proofs-porep stacked/vanilla/params.rs
 * Proof::verify and friends), plus the checks the circuit relies on but the vanilla verifier
 * leaves implicit: the labeling proofs' parents are exactly the parent columns' rows, and the
 * last label is the encoding key. Each challenge is checked on its own, in parallel; the
 * first failure in proof order is reported. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"

#define MSG 200

typedef struct {
    const cuzk_c1 *c1;
    const uint64_t *challenges;
    c1_tree_shape td, trc;
    cuzk_porep_graph graph;
    char (*msgs)[MSG]; /* one per challenge proof; "" = passed */
    atomic_size_t first_bad;
} verify_ctx;

/* Recomputes the root of a path from its leaf. */
static cuzk_status path_root(const cuzk_merkle_proof *mp, const c1_tree_shape *s, bool sha, cuzk_node *out)
{
    cuzk_node cur = mp->leaf, kids[8];
    uint32_t n = mp->nbase + mp->nsub + mp->ntop;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t a = c1_shape_arity(s, l), idx = mp->path[l].index, h = 0;
        for (uint32_t k = 0; k < a; k++) kids[k] = k == idx ? cur : mp->path[l].hashes[h++];
        cuzk_status st = seal_hash_children(sha, a, kids, &cur);
        if (st != CUZK_OK) return st;
    }
    *out = cur;
    return CUZK_OK;
}

static cuzk_status column_hash(const cuzk_column_proof *col, cuzk_node *out)
{
    cuzk_fr rows[CUZK_POREP_MAX_LAYERS], h;
    for (uint32_t l = 0; l < col->nrows; l++)
        if (cuzk_fr_from_bytes_le(&rows[l], col->rows[l].b) != CUZK_OK)
            return cuzk_fail(CUZK_EVERIFY, "column row %u is not a field element", l);
    cuzk_status st = cuzk_poseidon_hash(&h, col->nrows, rows);
    if (st != CUZK_OK) return st;
    cuzk_fr_to_bytes_le(out->b, &h);
    return CUZK_OK;
}

#define FAIL(...)                        \
    do {                                 \
        snprintf(msg, MSG, __VA_ARGS__); \
        return false;                    \
    } while (0)

static bool check_column(const verify_ctx *v, const cuzk_column_proof *col, const char *name, char *msg)
{
    cuzk_node h, root;
    if (column_hash(col, &h) != CUZK_OK) FAIL("%s: rows do not hash", name);
    if (memcmp(h.b, col->inclusion.leaf.b, 32) != 0) FAIL("%s: inclusion leaf is not the column hash", name);
    if (path_root(&col->inclusion, &v->trc, false, &root) != CUZK_OK) FAIL("%s: path does not hash", name);
    if (memcmp(root.b, col->inclusion.root.b, 32) != 0) FAIL("%s: tree C path does not lead to its root", name);
    return true;
}

static bool check_one(const verify_ctx *v, size_t n, char *msg)
{
    const cuzk_c1 *c1 = v->c1;
    const cuzk_seal_proof_info *pi = c1->info;
    const cuzk_challenge_proof *cp = &c1->proofs[n];
    uint64_t ch = v->challenges[n];
    if (cp->labeling[0].node != ch)
        FAIL("proves node %llu, the derived challenge is %llu", (unsigned long long)cp->labeling[0].node,
             (unsigned long long)ch);
    cuzk_node root;
    /* tree D: the data leaf under comm_d */
    if (path_root(&cp->comm_d_proof, &v->td, true, &root) != CUZK_OK || memcmp(root.b, c1->comm_d, 32) != 0)
        FAIL("comm_d_proofs: path does not lead to comm_d");
    /* tree R: the replica leaf under comm_r_last */
    if (path_root(&cp->comm_r_last_proof, &v->trc, false, &root) != CUZK_OK ||
        memcmp(root.b, cp->comm_r_last_proof.root.b, 32) != 0)
        FAIL("comm_r_last_proof: path does not lead to its root");
    /* columns: the challenge and its parents under comm_c */
    uint32_t drg[CUZK_POREP_DRG_PARENTS], exp[CUZK_POREP_EXP_PARENTS];
    cuzk_porep_drg_parents(&v->graph, (uint32_t)ch, drg);
    cuzk_porep_exp_parents(&v->graph, (uint32_t)ch, exp);
    if (!check_column(v, &cp->c_x, "c_x", msg)) return false;
    char name[48];
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++) {
        snprintf(name, sizeof name, "drg_parents[%d]", i);
        if (cp->drg_parents[i].index != drg[i])
            FAIL("%s: column %u, the graph's parent is %u", name, cp->drg_parents[i].index, drg[i]);
        if (!check_column(v, &cp->drg_parents[i], name, msg)) return false;
    }
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++) {
        snprintf(name, sizeof name, "exp_parents[%d]", i);
        if (cp->exp_parents[i].index != exp[i])
            FAIL("%s: column %u, the graph's parent is %u", name, cp->exp_parents[i].index, exp[i]);
        if (!check_column(v, &cp->exp_parents[i], name, msg)) return false;
    }
    /* labels: each layer's label (the c_x row) hashes from its parents, and those parents are
     * the parent columns' rows (what the circuit uses) */
    for (unsigned l = 1; l <= pi->layers; l++) {
        const cuzk_labeling_proof *lp = &cp->labeling[l - 1];
        cuzk_node want[CUZK_POREP_LABEL_PARENTS], label;
        for (int i = 0; i < CUZK_POREP_LABEL_PARENTS; i++) {
            int j = l == 1 ? i % CUZK_POREP_DRG_PARENTS : i % CUZK_POREP_PARENTS;
            want[i] = j < CUZK_POREP_DRG_PARENTS ? cp->drg_parents[j].rows[l - 1]
                                                 : cp->exp_parents[j - CUZK_POREP_DRG_PARENTS].rows[l - 2];
        }
        if (memcmp(want, lp->parents, sizeof want) != 0)
            FAIL("labeling_proofs[%u]: parents differ from the parent columns' rows", l - 1);
        seal_label_hash(&label, c1->replica_id, l, ch, lp->parents);
        if (memcmp(label.b, cp->c_x.rows[l - 1].b, 32) != 0)
            FAIL("labeling_proofs[%u]: the label does not match c_x row %u", l - 1, l - 1);
    }
    /* encoding: replica leaf = key + data leaf, key = the last label */
    cuzk_node key;
    seal_label_hash(&key, c1->replica_id, cp->encoding.layer_index, cp->encoding.node, cp->encoding.parents);
    cuzk_fr k, d;
    uint8_t enc[32];
    if (cuzk_fr_from_bytes_le(&k, key.b) != CUZK_OK || cuzk_fr_from_bytes_le(&d, cp->comm_d_proof.leaf.b) != CUZK_OK)
        FAIL("encoding_proof: key or data leaf is not a field element");
    cuzk_fr_add(&k, &k, &d);
    cuzk_fr_to_bytes_le(enc, &k);
    if (memcmp(enc, cp->comm_r_last_proof.leaf.b, 32) != 0)
        FAIL("encoding_proof: key + data leaf is not the replica leaf");
    if (memcmp(key.b, cp->c_x.rows[pi->layers - 1].b, 32) != 0) FAIL("encoding_proof: key is not the last label");
    return true;
}

static void verify_task(void *vctx, size_t begin, size_t end, unsigned tid)
{
    verify_ctx *v = vctx;
    for (size_t n = begin; n < end; n++) {
        if (check_one(v, n, v->msgs[n])) continue;
        size_t cur = atomic_load(&v->first_bad);
        while (n < cur && !atomic_compare_exchange_weak(&v->first_bad, &cur, n)) {}
    }
}

cuzk_status cuzk_c1_verify(const cuzk_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id)
{
    const cuzk_seal_proof_info *pi = c1->info;
    if (!pi || !c1->proofs) return cuzk_fail(CUZK_EINVAL, "C1 is incomplete");
    uint8_t porep_id[32];
    cuzk_seal_proof_porep_id(porep_id, c1->proof);
    if (prover_id) {
        uint8_t rid[32];
        cuzk_porep_replica_id(rid, prover_id, sector_id, c1->ticket, c1->comm_d, porep_id);
        if (memcmp(rid, c1->replica_id, 32) != 0) {
            char have[65], want[65];
            cuzk_hex_encode(have, c1->replica_id, 32);
            cuzk_hex_encode(want, rid, 32);
            return cuzk_fail(CUZK_EVERIFY,
                             "replica_id: the C1's is %s, but the prover id, sector %llu, the C1's ticket, comm_d and "
                             "porep id give %s (the C1 was made for another sector or prover)",
                             have, (unsigned long long)sector_id, want);
        }
    }
    /* comm_r = Poseidon2(comm_c, comm_r_last), roots taken from the first challenge (the
     * parser checked that all challenges agree) */
    cuzk_node pair[2], r;
    pair[0] = c1->proofs[0].c_x.inclusion.root;
    pair[1] = c1->proofs[0].comm_r_last_proof.root;
    cuzk_status st = seal_hash_children(false, 2, pair, &r);
    if (st != CUZK_OK) return st;
    if (memcmp(r.b, c1->comm_r, 32) != 0)
        return cuzk_fail(CUZK_EVERIFY, "comm_r is not Poseidon2(comm_c, comm_r_last)");

    size_t total = (size_t)c1->partitions * c1->challenges_per_partition;
    verify_ctx v = {.c1 = c1};
    if ((st = cuzk_porep_graph_for_proof(&v.graph, c1->proof)) != CUZK_OK) return st;
    c1_shape_tree_d(&v.td, pi);
    c1_shape_tree_rc(&v.trc, pi);
    uint64_t *ch = cuzk_malloc(total * sizeof(uint64_t));
    v.msgs = cuzk_calloc(total, MSG);
    if (!ch || !v.msgs) {
        free(ch);
        free(v.msgs);
        return CUZK_ENOMEM;
    }
    for (uint32_t k = 0; k < c1->partitions && st == CUZK_OK; k++)
        st = cuzk_porep_challenges(ch + (size_t)k * c1->challenges_per_partition, c1->proof, c1->replica_id, c1->comm_r,
                                   c1->seed, k);
    if (st == CUZK_OK) {
        v.challenges = ch;
        atomic_init(&v.first_bad, SIZE_MAX);
        cuzk_parallel_tasks(total, verify_task, &v);
        size_t bad = atomic_load(&v.first_bad);
        if (bad != SIZE_MAX)
            st = cuzk_fail(CUZK_EVERIFY, "vanilla_proofs.%s[%zu][%zu]: %s", pi->vanilla_name,
                           bad / c1->challenges_per_partition, bad % c1->challenges_per_partition, v.msgs[bad]);
    }
    free(ch);
    free(v.msgs);
    return st;
}
