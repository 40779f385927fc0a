/* The test-data sealer (see cuzk/filecoin_seal.h): PreCommit (trees D, C, R and the labels)
 * and Commit1 (vanilla proofs for the challenges of a seed), following
 * storage-proofs-porep stacked/vanilla/proof.rs. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"

/* Kept levels: tree D from level 10 (a proof recomputes 1023 SHA-256 nodes), octrees from
 * level 2 (a proof recomputes 64 leaves and 9 Poseidon-8 nodes). */
#define TREE_D_CACHE_FROM 10
#define OCTREE_CACHE_FROM 2

struct cuzk_sealed_sector {
    const cuzk_seal_proof_info *info;
    cuzk_porep_graph graph;
    cuzk_seal_params params; /* data borrowed */
    cuzk_seal_commitments comm;
    cuzk_node *labels; /* layers x nodes, owned (cuzk_big_alloc) */
    size_t labels_bytes;
    seal_tree tree_d, tree_c, tree_r;
};

/* ---------------------------------------------------------------- leaves */
static void leaf_d(void *ctx, uint64_t first, uint64_t n, cuzk_node *out)
{
    const cuzk_sealed_sector *s = ctx;
    if (s->params.data) memcpy(out, s->params.data + first * 32, n * 32);
    else memset(out, 0, n * 32);
}

/* Column hash: Poseidon over the node's labels on every layer (arity 2 or 11). */
static void leaf_c(void *ctx, uint64_t first, uint64_t n, cuzk_node *out)
{
    const cuzk_sealed_sector *s = ctx;
    const unsigned layers = s->info->layers;
    const uint64_t nodes = s->info->nodes;
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fr rows[CUZK_POREP_MAX_LAYERS], h;
        for (unsigned l = 0; l < layers; l++)
            if (cuzk_fr_from_bytes_le(&rows[l], s->labels[(size_t)l * nodes + first + i].b) != CUZK_OK)
                rows[l] = CUZK_FR_ZERO;
        if (cuzk_poseidon_hash(&h, layers, rows) != CUZK_OK) h = CUZK_FR_ZERO; /* arity 2 / 11 always exist */
        cuzk_fr_to_bytes_le(out[i].b, &h);
    }
}

/* Replica node: last layer label + data node, in the field (encode.rs). */
static void leaf_r(void *ctx, uint64_t first, uint64_t n, cuzk_node *out)
{
    const cuzk_sealed_sector *s = ctx;
    const cuzk_node *last = s->labels + (size_t)(s->info->layers - 1) * s->info->nodes;
    for (uint64_t i = 0; i < n; i++) {
        if (!s->params.data) {
            out[i] = last[first + i];
            continue;
        }
        cuzk_fr k, d;
        if (cuzk_fr_from_bytes_le(&k, last[first + i].b) != CUZK_OK ||
            cuzk_fr_from_bytes_le(&d, s->params.data + (first + i) * 32) != CUZK_OK) {
            memset(out[i].b, 0, 32); /* unreachable: labels and data are checked canonical */
            continue;
        }
        cuzk_fr_add(&k, &k, &d);
        cuzk_fr_to_bytes_le(out[i].b, &k);
    }
}

/* ---------------------------------------------------------------- precommit */
typedef struct {
    const uint8_t *data;
    _Atomic uint64_t first_bad;
} data_check;

static void check_data(void *vctx, size_t begin, size_t end, unsigned tid)
{
    data_check *c = vctx;
    for (size_t i = begin; i < end; i++) {
        const uint8_t *b = c->data + i * 32;
        /* fast path: Fr32 padding leaves the top two bits clear, which is always below r */
        if (b[31] < 0x40) continue;
        uint8_t mod[32];
        memcpy(mod, CUZK_FR_MODULUS_LE, 32);
        bool below = false;
        for (int j = 31; j >= 0; j--)
            if (b[j] != mod[j]) {
                below = b[j] < mod[j];
                break;
            }
        if (!below) {
            uint64_t cur = atomic_load(&c->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, i)) {}
        }
    }
}

void cuzk_sealed_sector_free(cuzk_sealed_sector *s)
{
    if (!s) return;
    seal_tree_free(&s->tree_d);
    seal_tree_free(&s->tree_c);
    seal_tree_free(&s->tree_r);
    if (s->labels) cuzk_big_free(s->labels, s->labels_bytes);
    free(s);
}

cuzk_status cuzk_seal_precommit(cuzk_sealed_sector **out, const cuzk_seal_params *params, cuzk_timeline *tl)
{
    return cuzk_seal_precommit_progress(out, params, tl, NULL);
}

/* A tree as a task of progress: its leaves hashed in. */
static cuzk_status tree(seal_tree *t, bool sha, uint64_t leaves, unsigned cache_from, seal_leaf_fn leaf,
                        cuzk_sealed_sector *s, const cuzk_progress_sink *progress, const char *what)
{
    cuzk_progress *p = cuzk_progress_start(progress, what, leaves);
    cuzk_status st = seal_tree_build_progress(t, sha, leaves, cache_from, leaf, s, p);
    cuzk_progress_finish(p);
    return st;
}

cuzk_status cuzk_seal_precommit_progress(cuzk_sealed_sector **out, const cuzk_seal_params *params, cuzk_timeline *tl,
                                         const cuzk_progress_sink *progress)
{
    *out = NULL;
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(params->proof);
    if (!pi) return CUZK_EUNSUPPORTED;
    if (pi->sub_arity || pi->top_arity)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "the test sealer handles single-tree sectors (2 KiB, 8 MiB, 512 MiB), not %s", pi->name);
    cuzk_sealed_sector *s = cuzk_calloc(1, sizeof *s);
    if (!s) return CUZK_ENOMEM;
    s->info = pi;
    s->params = *params;
    cuzk_status st = cuzk_porep_graph_for_proof(&s->graph, params->proof);
    if (st != CUZK_OK) goto fail;
    int span_all = cuzk_span_begin(tl, "seal precommit");

    if (params->data) {
        data_check dc = {.data = params->data};
        atomic_init(&dc.first_bad, UINT64_MAX);
        cuzk_parallel_for(pi->nodes, 4096, check_data, &dc);
        uint64_t bad = atomic_load(&dc.first_bad);
        if (bad != UINT64_MAX) {
            st = cuzk_fail(CUZK_EINVAL, "data node %llu (byte offset %llu) is not Fr32-padded: its value is >= r",
                           (unsigned long long)bad, (unsigned long long)bad * 32);
            goto fail;
        }
    }

    int span = cuzk_span_begin(tl, "tree D");
    st = tree(&s->tree_d, true, pi->nodes, TREE_D_CACHE_FROM, leaf_d, s, progress, "seal: tree D");
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) goto fail;
    memcpy(s->comm.comm_d, seal_tree_root(&s->tree_d)->b, 32);

    uint8_t porep_id[32];
    cuzk_seal_proof_porep_id(porep_id, params->proof);
    cuzk_porep_replica_id(s->comm.replica_id, params->prover_id, params->sector_id, params->ticket, s->comm.comm_d,
                          porep_id);

    s->labels_bytes = (size_t)pi->layers * pi->nodes * sizeof(cuzk_node);
    s->labels = cuzk_big_alloc(s->labels_bytes);
    if (!s->labels) {
        st = CUZK_ENOMEM;
        goto fail;
    }
    span = cuzk_span_begin(tl, "labels");
    char what[64];
    snprintf(what, sizeof what, "seal: labels (%u layers)", pi->layers);
    cuzk_progress *p = cuzk_progress_start(progress, what, (uint64_t)pi->layers * pi->nodes);
    st = seal_labels(s->labels, &s->graph, pi->layers, s->comm.replica_id, tl, p);
    cuzk_progress_finish(p);
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) goto fail;

    span = cuzk_span_begin(tl, "tree C");
    st = tree(&s->tree_c, false, pi->nodes, OCTREE_CACHE_FROM, leaf_c, s, progress, "seal: tree C");
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) goto fail;
    memcpy(s->comm.comm_c, seal_tree_root(&s->tree_c)->b, 32);

    span = cuzk_span_begin(tl, "tree R");
    st = tree(&s->tree_r, false, pi->nodes, OCTREE_CACHE_FROM, leaf_r, s, progress, "seal: tree R");
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) goto fail;
    memcpy(s->comm.comm_r_last, seal_tree_root(&s->tree_r)->b, 32);

    /* comm_r = Poseidon2(comm_c, comm_r_last) (PoseidonFunction::hash2) */
    cuzk_node pair[2], r;
    memcpy(pair[0].b, s->comm.comm_c, 32);
    memcpy(pair[1].b, s->comm.comm_r_last, 32);
    if ((st = seal_hash_children(false, 2, pair, &r)) != CUZK_OK) goto fail;
    memcpy(s->comm.comm_r, r.b, 32);
    cuzk_span_end(tl, span_all);
    *out = s;
    return CUZK_OK;
fail:
    cuzk_sealed_sector_free(s);
    return st;
}

const cuzk_seal_commitments *cuzk_sealed_commitments(const cuzk_sealed_sector *s) { return &s->comm; }

void cuzk_sealed_replica_nodes(const cuzk_sealed_sector *s, uint64_t first, uint64_t n, uint8_t *out)
{
    leaf_r((void *)s, first, n, (cuzk_node *)out);
}

void cuzk_sealed_p_aux(const cuzk_sealed_sector *s, uint8_t out[CUZK_P_AUX_BYTES])
{
    memcpy(out, s->comm.comm_c, 32);
    memcpy(out + 32, s->comm.comm_r_last, 32);
}

const uint8_t *cuzk_sealed_label(const cuzk_sealed_sector *s, unsigned layer, uint64_t v)
{
    if (layer < 1 || layer > s->info->layers || v >= s->info->nodes) return NULL;
    return s->labels[(size_t)(layer - 1) * s->info->nodes + v].b;
}

/* ---------------------------------------------------------------- commit phase 1 */
/* Everything of one challenge proof is allocated first (the arena is not thread-safe), then
 * the proofs are filled in parallel. */
cuzk_status seal_alloc_challenge(cuzk_c1 *c1, cuzk_challenge_proof *cp, const c1_tree_shape *td,
                                 const c1_tree_shape *trc)
{
    const unsigned layers = c1->info->layers;
    cuzk_status st;
    if ((st = c1_alloc_merkle(c1->arena, &cp->comm_d_proof, td)) != CUZK_OK) return st;
    if ((st = c1_alloc_merkle(c1->arena, &cp->comm_r_last_proof, trc)) != CUZK_OK) return st;
    for (int c = 0; c < 1 + CUZK_POREP_PARENTS; c++) {
        cuzk_column_proof *col = c == 0   ? &cp->c_x
            : c <= CUZK_POREP_DRG_PARENTS ? &cp->drg_parents[c - 1]
                                          : &cp->exp_parents[c - 1 - CUZK_POREP_DRG_PARENTS];
        col->nrows = layers;
        col->rows = c1_arena_alloc(c1->arena, layers * sizeof(cuzk_node));
        if (!col->rows) return CUZK_ENOMEM;
        if ((st = c1_alloc_merkle(c1->arena, &col->inclusion, trc)) != CUZK_OK) return st;
    }
    cp->nlabeling = layers;
    cp->labeling = c1_arena_alloc(c1->arena, layers * sizeof(cuzk_labeling_proof));
    if (!cp->labeling) return CUZK_ENOMEM;
    for (unsigned l = 0; l <= layers; l++) {
        cuzk_labeling_proof *lp = l < layers ? &cp->labeling[l] : &cp->encoding;
        lp->nparents = CUZK_POREP_LABEL_PARENTS;
        lp->parents = c1_arena_alloc(c1->arena, CUZK_POREP_LABEL_PARENTS * sizeof(cuzk_node));
        if (!lp->parents) return CUZK_ENOMEM;
    }
    return CUZK_OK;
}

typedef struct {
    const cuzk_sealed_sector *s;
    cuzk_c1 *c1;
    const uint64_t *challenges;
    atomic_int failed;
} fill_ctx;

static cuzk_status fill_column(const cuzk_sealed_sector *s, cuzk_column_proof *col, uint32_t v)
{
    col->index = v;
    for (unsigned l = 0; l < s->info->layers; l++) col->rows[l] = s->labels[(size_t)l * s->info->nodes + v];
    return seal_tree_prove(&s->tree_c, v, &col->inclusion);
}

static cuzk_status fill_challenge(const cuzk_sealed_sector *s, cuzk_challenge_proof *cp, uint64_t ch)
{
    const unsigned layers = s->info->layers;
    cuzk_status st;
    if ((st = seal_tree_prove(&s->tree_d, ch, &cp->comm_d_proof)) != CUZK_OK) return st;
    if ((st = seal_tree_prove(&s->tree_r, ch, &cp->comm_r_last_proof)) != CUZK_OK) return st;
    uint32_t drg[CUZK_POREP_DRG_PARENTS], exp[CUZK_POREP_EXP_PARENTS];
    cuzk_porep_drg_parents(&s->graph, (uint32_t)ch, drg);
    cuzk_porep_exp_parents(&s->graph, (uint32_t)ch, exp);
    if ((st = fill_column(s, &cp->c_x, (uint32_t)ch)) != CUZK_OK) return st;
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++)
        if ((st = fill_column(s, &cp->drg_parents[i], drg[i])) != CUZK_OK) return st;
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++)
        if ((st = fill_column(s, &cp->exp_parents[i], exp[i])) != CUZK_OK) return st;
    for (unsigned l = 1; l <= layers; l++) {
        cuzk_labeling_proof *lp = &cp->labeling[l - 1];
        lp->layer_index = l;
        lp->node = ch;
        seal_label_parents(lp->parents, s->labels, s->info->nodes, l, drg, exp);
    }
    cp->encoding.layer_index = layers;
    cp->encoding.node = ch;
    memcpy(cp->encoding.parents, cp->labeling[layers - 1].parents, CUZK_POREP_LABEL_PARENTS * sizeof(cuzk_node));
    return CUZK_OK;
}

static void fill_task(void *vctx, size_t begin, size_t end, unsigned tid)
{
    fill_ctx *c = vctx;
    for (size_t i = begin; i < end; i++)
        if (fill_challenge(c->s, &c->c1->proofs[i], c->challenges[i]) != CUZK_OK) atomic_store(&c->failed, 1);
}

cuzk_status cuzk_seal_commit1(cuzk_c1 **out, const cuzk_sealed_sector *s, const uint8_t seed[32], cuzk_timeline *tl)
{
    *out = NULL;
    const cuzk_seal_proof_info *pi = s->info;
    cuzk_c1 *c1 = c1_create();
    if (!c1) return CUZK_ENOMEM;
    int span = cuzk_span_begin(tl, "seal commit1");
    c1->proof = pi->id;
    c1->info = pi;
    memcpy(c1->comm_r, s->comm.comm_r, 32);
    memcpy(c1->comm_d, s->comm.comm_d, 32);
    memcpy(c1->replica_id, s->comm.replica_id, 32);
    memcpy(c1->seed, seed, 32);
    memcpy(c1->ticket, s->params.ticket, 32);
    size_t total = (size_t)pi->partitions * pi->challenges_per_partition;
    uint64_t *challenges = cuzk_malloc(total * sizeof(uint64_t));
    cuzk_status st = challenges ? c1_alloc_proofs(c1, pi->partitions, pi->challenges_per_partition) : CUZK_ENOMEM;
    for (unsigned k = 0; k < pi->partitions && st == CUZK_OK; k++)
        st = cuzk_porep_challenges(challenges + (size_t)k * pi->challenges_per_partition, pi->id, s->comm.replica_id,
                                   s->comm.comm_r, seed, k);
    c1_tree_shape td, trc;
    c1_shape_tree_d(&td, pi);
    c1_shape_tree_rc(&trc, pi);
    for (size_t i = 0; i < total && st == CUZK_OK; i++) st = seal_alloc_challenge(c1, &c1->proofs[i], &td, &trc);
    if (st == CUZK_OK) {
        fill_ctx fc = {.s = s, .c1 = c1, .challenges = challenges};
        atomic_init(&fc.failed, 0);
        cuzk_parallel_tasks(total, fill_task, &fc);
        if (atomic_load(&fc.failed)) st = cuzk_fail(CUZK_ENOMEM, "generating vanilla proofs failed (out of memory)");
    }
    free(challenges);
    cuzk_span_end(tl, span);
    if (st != CUZK_OK) {
        cuzk_c1_free(c1);
        return st;
    }
    *out = c1;
    return CUZK_OK;
}
