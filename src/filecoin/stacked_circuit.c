/* StackedCircuit::synthesize and Proof::synthesize (storage-proofs-porep stacked/circuit
 * proof.rs and params.rs), call for call: every allocation and constraint in upstream's order,
 * with upstream's namespace names so TEST mode points at the same place. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_circuit.h"
#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/poseidon.h"
#include "cuzk/gadgets/sha256.h"
#include "cuzk/gadgets/uint32.h"
#include "cuzk/gadgets/uint64.h"

typedef struct {
    cuzk_bool replica_id_bits[256];
    cuzk_num comm_d, comm_c, comm_r_last;
    const cuzk_c1 *c1;
    unsigned partition;
} stacked_ctx;

cuzk_status cuzk_porep_shape_for_proof(cuzk_porep_shape *out, cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(p);
    if (!info) return CUZK_EINVAL;
    out->nodes = info->nodes;
    out->layers = info->layers;
    out->challenges = info->challenges_per_partition;
    out->tree_d_depth = info->tree_d_depth;
    out->tree_rc.base_arity = info->base_arity;
    out->tree_rc.base_levels = info->base_path_len;
    out->tree_rc.sub_arity = info->sub_arity;
    out->tree_rc.top_arity = info->top_arity;
    return cuzk_tree_shape_check(&out->tree_rc);
}

static unsigned log2_exact(uint64_t x, unsigned base_bits)
{
    unsigned k = 0;
    while (x > 1) {
        if (x & ((1u << base_bits) - 1)) return 0;
        x >>= base_bits;
        k++;
    }
    return k;
}

cuzk_status cuzk_porep_shape_parse(cuzk_porep_shape *out, const char *tree_shape, uint64_t nodes, unsigned layers,
                                   unsigned challenges)
{
    uint64_t arity[3];
    if (cuzk_u64_list_parse(tree_shape, '-', arity, 3) || arity[0] > 8 || arity[1] > 64 || arity[2] > 64)
        return cuzk_fail(CUZK_EINVAL, "tree shape '%s' is not like 8-0-0", tree_shape);
    unsigned base = (unsigned)arity[0], sub = (unsigned)arity[1], top = (unsigned)arity[2];
    if (base != 2 && base != 4 && base != 8)
        return cuzk_fail(CUZK_EINVAL, "tree shape '%s': the base arity must be 2, 4 or 8", tree_shape);
    unsigned base_bits = base == 2 ? 1 : base == 4 ? 2 : 3;
    if (layers != 2 && layers != 11)
        return cuzk_fail(CUZK_EINVAL,
                         "%u layers: the column hash exists for 2 and 11 layers only (upstream panics too)", layers);
    if (challenges < 1 || challenges > 1024) return cuzk_fail(CUZK_EINVAL, "challenges must be from 1 to 1024");
    uint64_t per_base = nodes / ((sub ? sub : 1) * (top ? top : 1));
    if (nodes < 2 || (nodes & (nodes - 1)) || per_base * (sub ? sub : 1) * (top ? top : 1) != nodes || per_base < base)
        return cuzk_fail(CUZK_EINVAL, "%llu nodes do not fit tree shape %s", (unsigned long long)nodes, tree_shape);
    unsigned levels = log2_exact(per_base, base_bits);
    if (!levels)
        return cuzk_fail(CUZK_EINVAL, "%llu nodes: each base tree of shape %s needs a power of %u leaves",
                         (unsigned long long)nodes, tree_shape, base);
    out->nodes = nodes;
    out->layers = layers;
    out->challenges = challenges;
    out->tree_d_depth = log2_exact(nodes, 1);
    out->tree_rc = (cuzk_tree_shape){base, levels, sub, top};
    return cuzk_tree_shape_check(&out->tree_rc);
}

static cuzk_fr node_fr(const cuzk_node *n)
{
    cuzk_fr v;
    if (cuzk_fr_from_bytes_le(&v, n->b) != CUZK_OK) v = CUZK_FR_ZERO; /* the C1 parser rejects these */
    return v;
}

static cuzk_fr bytes_fr(const uint8_t b[32])
{
    cuzk_node n;
    memcpy(n.b, b, 32);
    return node_fr(&n);
}

/* The siblings (level by level) and the leaf index a Merkle proof encodes. */
static void path_values(const cuzk_merkle_proof *mp, const cuzk_tree_shape *shape, cuzk_fr *siblings, uint64_t *index)
{
    uint32_t n = mp->nbase + mp->nsub + mp->ntop;
    uint64_t idx = 0;
    unsigned shift = 0;
    size_t o = 0;
    for (uint32_t l = 0; l < n; l++) {
        unsigned arity = cuzk_tree_shape_level_arity(shape, l), bits = 0;
        while ((1u << bits) < arity) bits++;
        idx |= (uint64_t)mp->path[l].index << shift;
        shift += bits;
        for (uint32_t h = 0; h < mp->path[l].nhashes; h++) siblings[o++] = node_fr(&mp->path[l].hashes[h]);
    }
    *index = idx;
}

/* enforce_inclusion (params.rs): PoRCircuit with leaf and root as existing numbers, root private. */
static void enforce_inclusion(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, const cuzk_merkle_proof *mp,
                              cuzk_num root, cuzk_num leaf)
{
    size_t nsib = cuzk_tree_shape_siblings(shape);
    cuzk_fr sib_stack[128], *sib = nsib <= 128 ? sib_stack : malloc(nsib * sizeof(cuzk_fr));
    uint64_t index = 0;
    if (!sib) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return;
    }
    if (cs->values && mp) path_values(mp, shape, sib, &index);
    cuzk_por_circuit(cs, h, shape, cuzk_root_var(leaf), cuzk_root_var(root), true, cs->values ? sib : NULL, index);
    if (sib != sib_stack) free(sib);
}

void *cuzk_stacked_header(cuzk_cs *cs, const cuzk_porep_shape *s, const cuzk_c1 *c1, unsigned partition)
{
    stacked_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return NULL;
    }
    x->c1 = c1;
    x->partition = partition;
    bool v = cs->values && c1;
    cuzk_fr replica_id = CUZK_FR_ZERO, comm_d = CUZK_FR_ZERO, comm_r = CUZK_FR_ZERO, comm_r_last = CUZK_FR_ZERO,
            comm_c = CUZK_FR_ZERO;
    if (v) {
        const cuzk_challenge_proof *p0 = cuzk_c1_challenge(c1, partition, 0);
        replica_id = bytes_fr(c1->replica_id);
        comm_d = bytes_fr(c1->comm_d);
        comm_r = bytes_fr(c1->comm_r);
        comm_r_last = node_fr(&p0->comm_r_last_proof.root);
        comm_c = node_fr(&p0->c_x.inclusion.root);
    }
    cuzk_cs_push(cs, "replica_id");
    cuzk_num rid = cuzk_num_alloc(cs, &replica_id);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "replica_id_input");
    cuzk_num_inputize(cs, rid);
    cuzk_cs_pop(cs);
    cuzk_bool bits[255];
    cuzk_cs_push(cs, "replica_id_bits");
    cuzk_num_to_bits_le(cs, rid, bits);
    cuzk_cs_pop(cs);
    cuzk_reverse_bit_numbering(bits, 255, x->replica_id_bits);

    cuzk_cs_push(cs, "comm_d");
    x->comm_d = cuzk_num_alloc(cs, &comm_d);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_d_input");
    cuzk_num_inputize(cs, x->comm_d);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r");
    cuzk_num cr = cuzk_num_alloc(cs, &comm_r);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_input");
    cuzk_num_inputize(cs, cr);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_last");
    x->comm_r_last = cuzk_num_alloc(cs, &comm_r_last);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_c");
    x->comm_c = cuzk_num_alloc(cs, &comm_c);
    cuzk_cs_pop(cs);

    /* comm_r = H(comm_c || comm_r_last): Poseidon arity 2, then equal(comm_r, hash) */
    cuzk_num pre[2] = {x->comm_c, x->comm_r_last};
    cuzk_cs_push(cs, "H_comm_c_comm_r_last");
    cuzk_num hash = cuzk_poseidon_circuit(cs, 2, pre);
    cuzk_cs_pop(cs);
    cuzk_lc_add_one(cs, &cs->lc[0], cr.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], hash.var);
    cuzk_cs_enforce(cs, "enforce comm_r = H(comm_c || comm_r_last)");
    return x;
}

void cuzk_stacked_ctx_free(void *ctx) { free(ctx); }

/* Column::alloc (namespace ".._num/column/column_num_row_i") then hash_single_column and
 * enforce_inclusion into tree C. rows get the allocated numbers. */
static void parent_column(cuzk_cs *cs, const cuzk_porep_shape *s, const stacked_ctx *x, const cuzk_column_proof *cp,
                          const char *kind, int i, cuzk_num *rows)
{
    cuzk_cs_push(cs, "%s_parent_%d_num", kind, i);
    cuzk_cs_push(cs, "column");
    for (unsigned r = 0; r < s->layers; r++) {
        cuzk_fr val = cs->values && cp ? node_fr(&cp->rows[r]) : CUZK_FR_ZERO;
        cuzk_cs_push(cs, "column_num_row_%u", r);
        rows[r] = cuzk_num_alloc(cs, &val);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "%s_parent_%d_constraint", kind, i);
    cuzk_num hash = cuzk_poseidon_circuit(cs, s->layers, rows);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "%s_parent_%d_inclusion", kind, i);
    enforce_inclusion(cs, CUZK_HASHER_POSEIDON, &s->tree_rc, cp ? &cp->inclusion : NULL, x->comm_c, hash);
    cuzk_cs_pop(cs);
}

/* reverse_bit_numbering(num.to_bits_le()) into 256 bits, under namespace name. */
static void num_bits(cuzk_cs *cs, cuzk_num n, const char *kind, size_t idx, cuzk_bool out[256])
{
    cuzk_bool bits[255];
    cuzk_cs_push(cs, "%s_parent_%zu_bits", kind, idx);
    cuzk_num_to_bits_le(cs, n, bits);
    cuzk_cs_pop(cs);
    cuzk_reverse_bit_numbering(bits, 255, out);
}

/* create_label_circuit (create_label.rs): SHA-256 of replica_id || layer (u32 BE) || node
 * (u64 BE) || zero padding to 512 bits || 37 parents of 256 bits; the digest's bits reversed
 * per byte and the first 254 packed. */
enum { LABEL_PRE_BITS = (2 + CUZK_POREP_LABEL_PARENTS) * 256 };

/* pre: LABEL_PRE_BITS bits of scratch */
static cuzk_num create_label(cuzk_cs *cs, const stacked_ctx *x, cuzk_bool (*parents)[256], const int *expanded,
                             unsigned layer, const cuzk_u64 *node, cuzk_bool *pre)
{
    enum { BITS = LABEL_PRE_BITS };
    cuzk_num out = {CUZK_VAR_AUX, CUZK_FR_ZERO};
    memcpy(pre, x->replica_id_bits, 256 * sizeof *pre);
    cuzk_u32 lay;
    cuzk_u32_constant(&lay, layer);
    cuzk_u32_into_bits_be(&lay, pre + 256);
    cuzk_u64_to_bits_be(node, pre + 288);
    for (size_t i = 352; i < 512; i++) pre[i] = cuzk_bool_constant(false);
    for (int p = 0; p < CUZK_POREP_LABEL_PARENTS; p++)
        memcpy(pre + 512 + 256 * p, parents[expanded[p]], 256 * sizeof *pre);
    cuzk_bool digest[256], rev[256];
    cuzk_cs_push(cs, "hash");
    cuzk_sha256_gadget(cs, pre, BITS, digest);
    cuzk_cs_pop(cs);
    cuzk_reverse_bit_numbering(digest, 256, rev);
    cuzk_cs_push(cs, "result_num");
    out = cuzk_multipack_pack_bits(cs, rev, 254);
    cuzk_cs_pop(cs);
    return out;
}

void cuzk_stacked_challenge(cuzk_cs *cs, const cuzk_porep_shape *s, const void *vctx, const cuzk_challenge_proof *p,
                            size_t ci)
{
    const stacked_ctx *x = vctx;
    if (!x) return;
    if (!cs->values) p = NULL;
    unsigned L = s->layers;
    cuzk_cs_push(cs, "challenge_%zu", ci);

    /* data leaf and its inclusion in tree D */
    cuzk_fr leaf = p ? node_fr(&p->comm_d_proof.leaf) : CUZK_FR_ZERO;
    cuzk_cs_push(cs, "data_leaf");
    cuzk_num data_leaf = cuzk_num_alloc(cs, &leaf);
    cuzk_cs_pop(cs);
    cuzk_tree_shape shape_d = {2, s->tree_d_depth, 0, 0};
    cuzk_cs_push(cs, "comm_d_inclusion");
    enforce_inclusion(cs, CUZK_HASHER_SHA256, &shape_d, p ? &p->comm_d_proof : NULL, x->comm_d, data_leaf);
    cuzk_cs_pop(cs);

    /* the 6 DRG and 8 expander parent columns, hashed and included in tree C */
    cuzk_num cols[CUZK_POREP_PARENTS][CUZK_POREP_MAX_LAYERS];
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++)
        parent_column(cs, s, x, p ? &p->drg_parents[i] : NULL, "drg", i, cols[i]);
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++)
        parent_column(cs, s, x, p ? &p->exp_parents[i] : NULL, "exp", i, cols[CUZK_POREP_DRG_PARENTS + i]);

    /* the challenge as a UInt64, exposed as one public input */
    cuzk_u64 challenge;
    cuzk_cs_push(cs, "challenge");
    cuzk_u64_alloc(cs, &challenge, p ? p->labeling[0].node : 0);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "challenge input");
    cuzk_u64_pack_into_input(cs, &challenge);
    cuzk_cs_pop(cs);

    /* the labels of the challenged column, layer by layer */
    cuzk_num labels[CUZK_POREP_MAX_LAYERS];
    /* the parents' bits and a label's preimage: the system's scratch, reused by every
     * challenge (about half a megabyte, too much for the stack) */
    const size_t parents_bytes = CUZK_POREP_PARENTS * sizeof(cuzk_bool[256]);
    uint8_t *scratch = cuzk_cs_scratch(cs, parents_bytes + LABEL_PRE_BITS * sizeof(cuzk_bool));
    if (!scratch) {
        cuzk_cs_pop(cs);
        return;
    }
    cuzk_bool(*parents)[256] = (cuzk_bool(*)[256])scratch;
    cuzk_bool *pre = (cuzk_bool *)(scratch + parents_bytes);
    for (unsigned layer = 1; layer <= L; layer++) {
        cuzk_cs_push(cs, "labeling_%u", layer);
        size_t np = 0;
        for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++, np++) num_bits(cs, cols[i][layer - 1], "drg", np, parents[np]);
        if (layer > 1)
            for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++, np++)
                num_bits(cs, cols[CUZK_POREP_DRG_PARENTS + i][layer - 2], "exp", np, parents[np]);
        /* expanded parents: layer 1 = P x 6 + P[0]; later layers = P, P, P[0..9] */
        int expanded[CUZK_POREP_LABEL_PARENTS];
        for (int k = 0; k < CUZK_POREP_LABEL_PARENTS; k++)
            expanded[k] = layer == 1 ? (k < 36 ? k % 6 : 0) : (k < 28 ? k % 14 : k - 28);
        cuzk_cs_push(cs, "create_label");
        labels[layer - 1] = create_label(cs, x, parents, expanded, layer, &challenge, pre);
        cuzk_cs_pop(cs);
        cuzk_cs_pop(cs);
    }

    /* encoding: key (last label) + data leaf, included in tree R */
    cuzk_cs_push(cs, "encode_node");
    cuzk_cs_push(cs, "encode_add");
    cuzk_fr enc = CUZK_FR_ZERO;
    if (cs->values) cuzk_fr_add(&enc, &labels[L - 1].value, &data_leaf.value);
    cuzk_cs_push(cs, "add_num");
    cuzk_num encoded = cuzk_num_alloc(cs, &enc);
    cuzk_cs_pop(cs);
    cuzk_lc_add_one(cs, &cs->lc[0], labels[L - 1].var);
    cuzk_lc_add_one(cs, &cs->lc[0], data_leaf.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], encoded.var);
    cuzk_cs_enforce(cs, "sum constraint");
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_last_data_inclusion");
    enforce_inclusion(cs, CUZK_HASHER_POSEIDON, &s->tree_rc, p ? &p->comm_r_last_proof : NULL, x->comm_r_last, encoded);
    cuzk_cs_pop(cs);

    /* the column of labels, hashed and included in tree C */
    cuzk_cs_push(cs, "c_x_column_hash");
    cuzk_num column_hash = cuzk_poseidon_circuit(cs, L, labels);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "c_x_inclusion");
    enforce_inclusion(cs, CUZK_HASHER_POSEIDON, &s->tree_rc, p ? &p->c_x.inclusion : NULL, x->comm_c, column_hash);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
}

void cuzk_stacked_synthesize(cuzk_cs *cs, const cuzk_porep_shape *s, const cuzk_c1 *c1, unsigned partition)
{
    void *ctx = cuzk_stacked_header(cs, s, c1, partition);
    for (unsigned i = 0; i < s->challenges && !cs->status; i++) {
        cuzk_cs_mark(cs, "part");
        cuzk_stacked_challenge(cs, s, ctx, c1 ? cuzk_c1_challenge(c1, partition, i) : NULL, i);
    }
    cuzk_stacked_ctx_free(ctx);
}

static cuzk_status check_path(const cuzk_merkle_proof *mp, const cuzk_tree_shape *shape, const char *what, unsigned k,
                              unsigned i)
{
    unsigned levels = cuzk_tree_shape_levels(shape);
    if (mp->nbase + mp->nsub + mp->ntop != levels)
        return cuzk_fail(CUZK_EINVAL, "partition %u challenge %u: %s has %u path levels, the circuit needs %u", k, i,
                         what, mp->nbase + mp->nsub + mp->ntop, levels);
    for (unsigned l = 0; l < levels; l++) {
        unsigned arity = cuzk_tree_shape_level_arity(shape, l);
        if (mp->path[l].nhashes != arity - 1 || mp->path[l].index >= arity)
            return cuzk_fail(CUZK_EINVAL, "partition %u challenge %u: %s level %u does not fit arity %u", k, i, what, l,
                             arity);
    }
    return CUZK_OK;
}

cuzk_status cuzk_stacked_check_c1(const cuzk_porep_shape *s, const cuzk_c1 *c1, unsigned partition)
{
    if (partition >= c1->partitions)
        return cuzk_fail(CUZK_EINVAL, "partition %u of a C1 with %u partitions", partition, c1->partitions);
    if (c1->challenges_per_partition != s->challenges)
        return cuzk_fail(CUZK_EINVAL, "the C1 has %u challenges per partition, the circuit %u",
                         c1->challenges_per_partition, s->challenges);
    cuzk_tree_shape shape_d = {2, s->tree_d_depth, 0, 0};
    for (unsigned i = 0; i < s->challenges; i++) {
        const cuzk_challenge_proof *p = cuzk_c1_challenge(c1, partition, i);
        cuzk_status st = check_path(&p->comm_d_proof, &shape_d, "comm_d_proofs", partition, i);
        if (!st) st = check_path(&p->comm_r_last_proof, &s->tree_rc, "comm_r_last_proof", partition, i);
        if (!st) st = check_path(&p->c_x.inclusion, &s->tree_rc, "c_x", partition, i);
        for (int j = 0; j < CUZK_POREP_PARENTS && !st; j++) {
            const cuzk_column_proof *cp = j < 6 ? &p->drg_parents[j] : &p->exp_parents[j - 6];
            st = check_path(&cp->inclusion, &s->tree_rc, j < 6 ? "drg parent" : "exp parent", partition, i);
            if (!st && cp->nrows != s->layers)
                st = cuzk_fail(CUZK_EINVAL,
                               "partition %u challenge %u: a parent column has %u rows, the circuit %u layers",
                               partition, i, cp->nrows, s->layers);
        }
        if (!st && p->nlabeling != s->layers)
            st = cuzk_fail(CUZK_EINVAL, "partition %u challenge %u: %u labeling proofs for %u layers", partition, i,
                           p->nlabeling, s->layers);
        if (st) return st;
    }
    return CUZK_OK;
}
