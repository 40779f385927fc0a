/* Sparse test sectors (see cuzk/filecoin_seal.h): the C1 of a zero-data sector of any size in
 * which only the challenged nodes carry SDR labels.
 *
 * The order of work follows what each value depends on: comm_d (zero data: the default tree
 * D root) -> replica_id -> the interactive challenges -> the challenged nodes' labels, layer by
 * layer and in node order within a layer (a node's DRG parents are below it on its own layer,
 * its expander parents on the layer before, so every label a challenged node reads is final
 * when it is read) -> trees C and R over the challenged leaves -> comm_r -> the proofs. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"

typedef struct {
    const cuzk_seal_proof_info *pi;
    cuzk_porep_graph graph;
    uint64_t *nodes; /* the challenged nodes, sorted, each once */
    size_t n;
    uint32_t (*drg)[CUZK_POREP_DRG_PARENTS], (*exp)[CUZK_POREP_EXP_PARENTS]; /* per node */
    cuzk_node *labels; /* labels[k * layers + layer - 1] of nodes[k] */
    cuzk_node zero;
    seal_sparse_tree td, tc, tr;
} sparse_sector;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The position of node v among the challenged nodes, or -1. */
static ptrdiff_t find_node(const sparse_sector *s, uint64_t v)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->nodes[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n && s->nodes[lo] == v ? (ptrdiff_t)lo : -1;
}

/* Node v's label on layer (1-based): computed for a challenged node, zero for any other. */
static const cuzk_node *label_of(const sparse_sector *s, unsigned layer, uint64_t v)
{
    ptrdiff_t k = find_node(s, v);
    return k < 0 ? &s->zero : &s->labels[(size_t)k * s->pi->layers + layer - 1];
}

/* The 14 parents' labels of challenged node k for `layer` (expander ones from layer - 1). */
static void parent_labels(const sparse_sector *s, size_t k, unsigned layer, cuzk_node p[CUZK_POREP_PARENTS])
{
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++) p[i] = *label_of(s, layer, s->drg[k][i]);
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++)
        p[CUZK_POREP_DRG_PARENTS + i] = layer > 1 ? *label_of(s, layer - 1, s->exp[k][i]) : s->zero;
}

static cuzk_status column_hash(const cuzk_node *rows, unsigned layers, cuzk_node *out)
{
    cuzk_fr f[CUZK_POREP_MAX_LAYERS], h;
    for (unsigned l = 0; l < layers; l++)
        if (cuzk_fr_from_bytes_le(&f[l], rows[l].b) != CUZK_OK)
            return cuzk_fail(CUZK_EINTERNAL, "sparse sector: column row %u is not a field element", l);
    cuzk_status st = cuzk_poseidon_hash(&h, layers, f);
    if (st != CUZK_OK) return st;
    cuzk_fr_to_bytes_le(out->b, &h);
    return CUZK_OK;
}

/* Labels of every challenged node on every layer, in layer then node order. */
static cuzk_status compute_labels(sparse_sector *s, const uint8_t replica_id[32])
{
    const unsigned layers = s->pi->layers;
    for (size_t k = 0; k < s->n; k++) {
        cuzk_porep_drg_parents(&s->graph, (uint32_t)s->nodes[k], s->drg[k]);
        cuzk_porep_exp_parents(&s->graph, (uint32_t)s->nodes[k], s->exp[k]);
        for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++)
            if (s->nodes[k] > 0 && s->drg[k][i] >= s->nodes[k])
                return cuzk_fail(CUZK_EINTERNAL, "sparse sector: DRG parent %u of node %llu is not below it",
                                 s->drg[k][i], (unsigned long long)s->nodes[k]);
    }
    for (unsigned layer = 1; layer <= layers; layer++)
        for (size_t k = 0; k < s->n; k++) {
            cuzk_node p[CUZK_POREP_PARENTS], lp[CUZK_POREP_LABEL_PARENTS];
            parent_labels(s, k, layer, p);
            seal_label_expand(lp, layer, p);
            seal_label_hash(&s->labels[k * layers + layer - 1], replica_id, layer, s->nodes[k], lp);
        }
    return CUZK_OK;
}

/* Trees C and R over the challenged leaves (columns and replica nodes); the rest default. */
static cuzk_status build_trees(sparse_sector *s)
{
    const unsigned layers = s->pi->layers;
    c1_tree_shape trc;
    c1_shape_tree_rc(&trc, s->pi);
    cuzk_node zero_col[CUZK_POREP_MAX_LAYERS], default_c;
    memset(zero_col, 0, sizeof zero_col);
    cuzk_status st = column_hash(zero_col, layers, &default_c);
    seal_sparse_node *lc = cuzk_malloc((s->n ? s->n : 1) * sizeof *lc);
    seal_sparse_node *lr = cuzk_malloc((s->n ? s->n : 1) * sizeof *lr);
    if (!lc || !lr) st = CUZK_ENOMEM;
    for (size_t k = 0; k < s->n && st == CUZK_OK; k++) {
        lc[k].index = lr[k].index = s->nodes[k];
        st = column_hash(&s->labels[k * layers], layers, &lc[k].value);
        /* replica = data + key with zero data: the last label (canonical: top bits clear) */
        lr[k].value = s->labels[k * layers + layers - 1];
    }
    if (st == CUZK_OK) st = seal_sparse_tree_build(&s->tc, &trc, false, &default_c, lc, s->n);
    if (st == CUZK_OK) st = seal_sparse_tree_build(&s->tr, &trc, false, &s->zero, lr, s->n);
    free(lc);
    free(lr);
    return st;
}

static cuzk_status fill_column(const sparse_sector *s, cuzk_column_proof *col, uint64_t v)
{
    col->index = (uint32_t)v;
    for (unsigned l = 1; l <= s->pi->layers; l++) col->rows[l - 1] = *label_of(s, l, v);
    return seal_sparse_tree_prove(&s->tc, v, &col->inclusion);
}

static cuzk_status fill_challenge(const sparse_sector *s, cuzk_challenge_proof *cp, uint64_t ch)
{
    const unsigned layers = s->pi->layers;
    ptrdiff_t k = find_node(s, ch);
    if (k < 0)
        return cuzk_fail(CUZK_EINTERNAL, "sparse sector: challenge %llu was not labeled", (unsigned long long)ch);
    cuzk_status st;
    if ((st = seal_sparse_tree_prove(&s->td, ch, &cp->comm_d_proof)) != CUZK_OK) return st;
    if ((st = seal_sparse_tree_prove(&s->tr, ch, &cp->comm_r_last_proof)) != CUZK_OK) return st;
    if ((st = fill_column(s, &cp->c_x, ch)) != CUZK_OK) return st;
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++)
        if ((st = fill_column(s, &cp->drg_parents[i], s->drg[k][i])) != CUZK_OK) return st;
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++)
        if ((st = fill_column(s, &cp->exp_parents[i], s->exp[k][i])) != CUZK_OK) return st;
    for (unsigned l = 1; l <= layers; l++) {
        cuzk_labeling_proof *lp = &cp->labeling[l - 1];
        cuzk_node p[CUZK_POREP_PARENTS];
        lp->layer_index = l;
        lp->node = ch;
        parent_labels(s, (size_t)k, l, p);
        seal_label_expand(lp->parents, l, p);
    }
    cp->encoding.layer_index = layers;
    cp->encoding.node = ch;
    memcpy(cp->encoding.parents, cp->labeling[layers - 1].parents, CUZK_POREP_LABEL_PARENTS * sizeof(cuzk_node));
    return CUZK_OK;
}

static void sparse_free(sparse_sector *s)
{
    seal_sparse_tree_free(&s->td);
    seal_sparse_tree_free(&s->tc);
    seal_sparse_tree_free(&s->tr);
    free(s->nodes);
    free(s->drg);
    free(s->exp);
    free(s->labels);
}

static cuzk_status check_params(const cuzk_seal_params *params, const cuzk_seal_proof_info **pi)
{
    *pi = cuzk_seal_proof_info_get(params->proof);
    if (!*pi) return CUZK_EUNSUPPORTED;
    if ((*pi)->challenges != CUZK_CHALLENGES_INTERACTIVE)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "a sparse %s sector cannot be made: its challenges are derived from comm_r, which commits "
                         "to the challenged columns themselves (only interactive proof types, V1 and V1_1, can be "
                         "sealed sparsely)",
                         (*pi)->name);
    if (params->data)
        return cuzk_fail(CUZK_EINVAL,
                         "a sparse sector holds zero data (comm_d fixes the challenges, so no challenged data can "
                         "be chosen): pass no data");
    return CUZK_OK;
}

cuzk_status cuzk_seal_sparse_commit1(cuzk_c1 **out, cuzk_seal_commitments *comm, const cuzk_seal_params *params,
                                     const uint8_t seed[32], cuzk_timeline *tl)
{
    *out = NULL;
    memset(comm, 0, sizeof *comm);
    sparse_sector s;
    memset(&s, 0, sizeof s);
    cuzk_status st = check_params(params, &s.pi);
    if (st != CUZK_OK) return st;
    const cuzk_seal_proof_info *pi = s.pi;
    if ((st = cuzk_porep_graph_for_proof(&s.graph, params->proof)) != CUZK_OK) return st;
    int span = cuzk_span_begin(tl, "sparse seal");

    /* comm_d of zero data, the replica id, the challenges */
    c1_tree_shape td, trc;
    c1_shape_tree_d(&td, pi);
    c1_shape_tree_rc(&trc, pi);
    st = seal_sparse_tree_build(&s.td, &td, true, &s.zero, NULL, 0);
    if (st == CUZK_OK) {
        memcpy(comm->comm_d, seal_sparse_tree_root(&s.td)->b, 32);
        uint8_t porep_id[32];
        cuzk_seal_proof_porep_id(porep_id, params->proof);
        cuzk_porep_replica_id(comm->replica_id, params->prover_id, params->sector_id, params->ticket, comm->comm_d,
                              porep_id);
    }
    const size_t total = (size_t)pi->partitions * pi->challenges_per_partition;
    uint64_t *challenges = cuzk_malloc(total * sizeof(uint64_t));
    if (!challenges && st == CUZK_OK) st = CUZK_ENOMEM;
    for (unsigned k = 0; k < pi->partitions && st == CUZK_OK; k++)
        st = cuzk_porep_challenges(challenges + (size_t)k * pi->challenges_per_partition, pi->id, comm->replica_id,
                                   NULL, seed, k);

    /* the challenged nodes, each once, and their labels */
    if (st == CUZK_OK) {
        s.nodes = cuzk_malloc(total * sizeof(uint64_t));
        s.drg = cuzk_malloc(total * sizeof *s.drg);
        s.exp = cuzk_malloc(total * sizeof *s.exp);
        s.labels = cuzk_calloc(total * pi->layers, sizeof(cuzk_node));
        if (!s.nodes || !s.drg || !s.exp || !s.labels) st = CUZK_ENOMEM;
    }
    if (st == CUZK_OK) {
        memcpy(s.nodes, challenges, total * sizeof(uint64_t));
        qsort(s.nodes, total, sizeof(uint64_t), cmp_u64);
        for (size_t i = 0; i < total; i++)
            if (s.n == 0 || s.nodes[s.n - 1] != s.nodes[i]) s.nodes[s.n++] = s.nodes[i];
        st = compute_labels(&s, comm->replica_id);
    }
    if (st == CUZK_OK) st = build_trees(&s);
    if (st == CUZK_OK) {
        memcpy(comm->comm_c, seal_sparse_tree_root(&s.tc)->b, 32);
        memcpy(comm->comm_r_last, seal_sparse_tree_root(&s.tr)->b, 32);
        cuzk_node pair[2], r;
        memcpy(pair[0].b, comm->comm_c, 32);
        memcpy(pair[1].b, comm->comm_r_last, 32);
        if ((st = seal_hash_children(false, 2, pair, &r)) == CUZK_OK) memcpy(comm->comm_r, r.b, 32);
    }

    /* the C1 */
    cuzk_c1 *c1 = st == CUZK_OK ? c1_create() : NULL;
    if (st == CUZK_OK && !c1) st = CUZK_ENOMEM;
    if (st == CUZK_OK) {
        c1->proof = pi->id;
        c1->info = pi;
        memcpy(c1->comm_r, comm->comm_r, 32);
        memcpy(c1->comm_d, comm->comm_d, 32);
        memcpy(c1->replica_id, comm->replica_id, 32);
        memcpy(c1->seed, seed, 32);
        memcpy(c1->ticket, params->ticket, 32);
        st = c1_alloc_proofs(c1, pi->partitions, pi->challenges_per_partition);
    }
    for (size_t i = 0; i < total && st == CUZK_OK; i++) {
        if ((st = seal_alloc_challenge(c1, &c1->proofs[i], &td, &trc)) == CUZK_OK)
            st = fill_challenge(&s, &c1->proofs[i], challenges[i]);
    }
    free(challenges);
    sparse_free(&s);
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) {
        cuzk_c1_free(c1);
        memset(comm, 0, sizeof *comm);
        return st;
    }
    *out = c1;
    return CUZK_OK;
}
