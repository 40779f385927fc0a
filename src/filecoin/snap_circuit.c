/* EmptySectorUpdateCircuit::synthesize (storage-proofs-update circuit.rs, gadgets.rs), the
 * SHA-256 TreeD variant, allocation for allocation and constraint for constraint.
 *
 * Upstream's loop over the challenges reads only what was made before it (the partition and
 * h_select bits, phi, root_r_old, root_r_new, the apex leaves and every challenge's generated
 * bits: gen_challenge_bits runs for all challenges before the loop) and allocates only its
 * own variables, so the challenges are independent parts after a header holding everything
 * up to and including gen_challenge_bits; the variable order is upstream's. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/gadgets/insertion.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/poseidon.h"
#include "cuzk/hash.h"
#include "snap_internal.h"

#define MAX_SIBLINGS 96 /* TreeR 8-8-2: 9 * 7 + 7 + 1; TreeD: 31 */
#define FR_BITS 255

typedef struct {
    cuzk_snap_shape s;
    cuzk_fr tag;      /* the custom Poseidon domain tag */
    cuzk_abit kh[16]; /* k_and_h_select bits: partition bits, then h_select bits */
    cuzk_num phi, root_r_old, root_r_new;
    cuzk_num *apex; /* apex leaves */
    cuzk_abit *gen; /* challenges x (challenge_bits - partition_bits) generated bits */
    const cuzk_snap_partition_proof *pp;
} snap_ctx;

cuzk_fr snap_node_fr(const cuzk_node *n)
{
    cuzk_fr v;
    if (cuzk_fr_from_bytes_le(&v, n->b) != CUZK_OK) v = CUZK_FR_ZERO;
    return v;
}

static cuzk_num alloc_node(cuzk_cs *cs, const cuzk_node *n, const char *fmt, unsigned a, unsigned b)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (cs->values && n) v = snap_node_fr(n);
    cuzk_cs_push(cs, fmt, a, b);
    cuzk_num r = cuzk_num_alloc(cs, cs->values ? &v : NULL);
    cuzk_cs_pop(cs);
    return r;
}

static cuzk_num alloc_fr(cuzk_cs *cs, const cuzk_fr *v, const char *name)
{
    cuzk_cs_push(cs, "%s", name);
    cuzk_num r = cuzk_num_alloc(cs, cs->values ? v : NULL);
    cuzk_cs_pop(cs);
    return r;
}

/* lc[0] = sum 2^i bits[i], lc[1] = ONE, lc[2] = x: the "binary decomp" rows of circuit.rs
 * and gadgets.rs (not bellpepper's to_bits_le, whose row is 0 * 0 = sum - x). */
static void enforce_decomp(cuzk_cs *cs, const cuzk_abit *bits, size_t n, cuzk_var x, const char *name)
{
    if (cs->keep_lcs)
        for (size_t i = 0; i < n; i++) cuzk_lc_add(cs, &cs->lc[0], bits[i].var, cuzk_fr_pow2((unsigned)i));
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], x);
    cuzk_cs_enforce(cs, name);
}

/* a * ONE = b */
static void enforce_equal(cuzk_cs *cs, cuzk_var a, cuzk_var b, const char *name)
{
    cuzk_lc_add_one(cs, &cs->lc[0], a);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], b);
    cuzk_cs_enforce(cs, name);
}

static bool fr_bit(const uint8_t le[32], unsigned i) { return (le[i / 8] >> (i % 8)) & 1; }

/* allocated_num_to_allocated_bits: field_into_allocated_bits_le (255 bits, least significant
 * first, "bit i") and the binary decomposition row. */
static void num_to_abits(cuzk_cs *cs, cuzk_num x, cuzk_abit out[FR_BITS])
{
    uint8_t le[32] = {0};
    if (cs->values) cuzk_fr_to_bytes_le(le, &x.value);
    for (unsigned i = 0; i < FR_BITS; i++) {
        cuzk_cs_push(cs, "bit %u", i);
        out[i] = cuzk_abit_alloc(cs, cs->values && fr_bit(le, i));
        cuzk_cs_pop(cs);
    }
    enforce_decomp(cs, out, FR_BITS, x.var, "binary decomp");
}

static cuzk_num poseidon_custom(cuzk_cs *cs, const snap_ctx *x, cuzk_num a, cuzk_num b)
{
    cuzk_num pre[2] = {a, b};
    return cuzk_poseidon_circuit_tagged(cs, 2, &x->tag, pre);
}

/* apex_por: the apex tree over the leaves (SHA-256 hash2 per pair, row by row), then the
 * partition path from its root to comm_d_new. */
static void apex_por(cuzk_cs *cs, const snap_ctx *x, const cuzk_bool *partition_bits, const cuzk_num *partition_path,
                     cuzk_num comm_d)
{
    const cuzk_snap_shape *s = &x->s;
    cuzk_num row[128];
    memcpy(row, x->apex, sizeof(cuzk_num) * s->apex_leaves);
    for (unsigned r = 0, n = s->apex_leaves; r < s->apex_bits; r++, n /= 2)
        for (unsigned i = 0; i < n / 2; i++) {
            cuzk_cs_push(cs, "apex_tree generation hash (tree_row=%u, siblings=%u)", r, i);
            cuzk_num pair[2] = {row[2 * i], row[2 * i + 1]};
            row[i] = cuzk_merkle_hash_node(cs, CUZK_HASHER_SHA256, 2, pair);
            cuzk_cs_pop(cs);
        }
    cuzk_tree_shape ps = {2, s->partition_bits, 0, 0};
    cuzk_cs_push(cs, "partition-tree por");
    cuzk_por_no_challenge_input(cs, CUZK_HASHER_SHA256, &ps, partition_bits, s->partition_bits, row[0], partition_path,
                                comm_d);
    cuzk_cs_pop(cs);
}

/* gen_challenge_bits: per digest j, digest_index = k * digests + j (one row), digest =
 * Poseidon_custom(comm_r_new, digest_index), its 255 bits; challenges take consecutive chunks. */
static void gen_challenge_bits(cuzk_cs *cs, snap_ctx *x, cuzk_num comm_r_new, cuzk_num partition)
{
    const cuzk_snap_shape *s = &x->s;
    const unsigned rbits = s->challenge_bits - s->partition_bits;
    const unsigned per_digest = CUZK_MULTIPACK_CAPACITY / rbits;
    const unsigned digests = (s->challenges + per_digest - 1) / per_digest;
    unsigned made = 0;
    cuzk_abit bits[FR_BITS];
    for (unsigned j = 0; j < digests; j++) {
        cuzk_fr idx = CUZK_FR_ZERO, fd, fj;
        cuzk_fr_from_u64(&fd, digests);
        cuzk_fr_from_u64(&fj, j);
        if (cs->values) {
            cuzk_fr_mul(&idx, &partition.value, &fd);
            cuzk_fr_add(&idx, &idx, &fj);
        }
        cuzk_cs_push(cs, "digest_index_%u", j);
        cuzk_num di = cuzk_num_alloc(cs, cs->values ? &idx : NULL);
        cuzk_cs_pop(cs);
        cuzk_lc_add(cs, &cs->lc[0], partition.var, &fd);
        cuzk_lc_add(cs, &cs->lc[0], CUZK_VAR_ONE, &fj);
        cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
        cuzk_lc_add_one(cs, &cs->lc[2], di.var);
        cuzk_cs_enforce(cs, "digest_index_j == k * digests_per_partition + j");
        cuzk_cs_push(cs, "digest_%u", j);
        cuzk_num digest = poseidon_custom(cs, x, comm_r_new, di);
        cuzk_cs_pop(cs);
        cuzk_cs_push(cs, "digest_%u_bits", j);
        num_to_abits(cs, digest, bits);
        cuzk_cs_pop(cs);
        unsigned take = j + 1 == digests ? s->challenges - made : per_digest;
        for (unsigned c = 0; c < take; c++, made++)
            memcpy(&x->gen[(size_t)made * rbits], &bits[c * rbits], sizeof(cuzk_abit) * rbits);
    }
}

void *cuzk_snap_header(cuzk_cs *cs, const cuzk_snap_shape *s, const cuzk_snap_witness *w)
{
    snap_ctx *x = calloc(1, sizeof *x);
    if (x) {
        x->apex = calloc(s->apex_leaves, sizeof *x->apex);
        x->gen = calloc((size_t)s->challenges * (s->challenge_bits - s->partition_bits), sizeof *x->gen);
    }
    if (!x || !x->apex || !x->gen || s->apex_leaves > 128 || s->partition_bits + CUZK_SNAP_HS > 16) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "snap circuit header: out of memory or bad shape"));
        cuzk_snap_ctx_free(x);
        return NULL;
    }
    x->s = *s;
    x->pp = cs->values ? w->pp : NULL;
    cuzk_status st = cuzk_poseidon_custom_tag(&x->tag, CUZK_SNAP_POSEIDON_CUSTOM_ID);
    uint64_t khs = 0;
    if (!st && cs->values) st = cuzk_snap_k_and_h_select(&khs, s, w->k, w->h);
    if (!st && cs->values && !w->pp) st = cuzk_fail(CUZK_EINVAL, "snap circuit: no vanilla proof for the witness");
    if (st) {
        cuzk_cs_fail(cs, st);
        return x;
    }
    const cuzk_snap_partition_proof *pp = x->pp;

    /* k_and_h_select: one public input, its bits, their packing into the partition index */
    cuzk_fr v;
    cuzk_fr_from_u64(&v, khs);
    cuzk_num kh = alloc_fr(cs, &v, "k_and_h_select");
    cuzk_cs_push(cs, "k_and_h_select (public input)");
    cuzk_num_inputize(cs, kh);
    cuzk_cs_pop(cs);
    const unsigned nkh = s->partition_bits + CUZK_SNAP_HS;
    for (unsigned i = 0; i < nkh; i++) {
        cuzk_cs_push(cs, "k_and_h_select_bit_%u", i);
        x->kh[i] = cuzk_abit_alloc(cs, cs->values && ((khs >> i) & 1));
        cuzk_cs_pop(cs);
    }
    enforce_decomp(cs, x->kh, nkh, kh.var, "k_and_h_select binary decomp");
    cuzk_bool pbits[16];
    for (unsigned i = 0; i < s->partition_bits; i++) pbits[i] = cuzk_bool_is(x->kh[i]);
    cuzk_cs_push(cs, "pack partition bits");
    cuzk_num partition = cuzk_multipack_pack_bits(cs, pbits, s->partition_bits);
    cuzk_cs_pop(cs);

    /* the public commitments */
    cuzk_fr f_old = CUZK_FR_ZERO, f_d = CUZK_FR_ZERO, f_new = CUZK_FR_ZERO;
    if (cs->values) {
        f_old = snap_node_fr((const cuzk_node *)w->comm_r_old);
        f_d = snap_node_fr((const cuzk_node *)w->comm_d_new);
        f_new = snap_node_fr((const cuzk_node *)w->comm_r_new);
    }
    cuzk_num comm_r_old = alloc_fr(cs, &f_old, "comm_r_old");
    cuzk_cs_push(cs, "comm_r_old_input");
    cuzk_num_inputize(cs, comm_r_old);
    cuzk_cs_pop(cs);
    cuzk_num comm_d_new = alloc_fr(cs, &f_d, "comm_d_new");
    cuzk_cs_push(cs, "comm_d_new_input");
    cuzk_num_inputize(cs, comm_d_new);
    cuzk_cs_pop(cs);
    cuzk_num comm_r_new = alloc_fr(cs, &f_new, "comm_r_new");
    cuzk_cs_push(cs, "comm_r_new_input");
    cuzk_num_inputize(cs, comm_r_new);
    cuzk_cs_pop(cs);

    cuzk_cs_push(cs, "phi");
    x->phi = poseidon_custom(cs, x, comm_d_new, comm_r_old);
    cuzk_cs_pop(cs);

    /* private inputs: comm_c, the two TreeR roots, the apex leaves, the partition path (the
     * top partition_bits levels of the first challenge's TreeD path) */
    cuzk_num comm_c = alloc_node(cs, pp ? &pp->comm_c : NULL, "comm_c", 0, 0);
    x->root_r_old = alloc_node(cs, pp ? &pp->challenges[0].r_old.root : NULL, "root_r_old", 0, 0);
    x->root_r_new = alloc_node(cs, pp ? &pp->challenges[0].r_new.root : NULL, "root_r_new", 0, 0);
    for (unsigned i = 0; i < s->apex_leaves; i++)
        x->apex[i] = alloc_node(cs, pp ? &pp->apex[i] : NULL, "apex_leaf_%u", i, 0);
    cuzk_num ppath[32];
    for (unsigned i = 0; i < s->partition_bits; i++) {
        const unsigned level = s->challenge_bits - s->partition_bits + i;
        ppath[i] = alloc_node(cs, pp ? &pp->challenges[0].d_new.path[level].hashes[0] : NULL,
                              "partition_path_sibling_%u", i, 0);
    }

    /* comm_r = H(comm_c, root_r) for the old and the new replica (Poseidon-2, MerkleTree) */
    cuzk_num pre[2] = {comm_c, x->root_r_old};
    cuzk_cs_push(cs, "comm_r_old_calc");
    cuzk_num calc = cuzk_poseidon_circuit(cs, 2, pre);
    cuzk_cs_pop(cs);
    enforce_equal(cs, calc.var, comm_r_old.var, "enforce comm_r_old_calc == comm_r_old");
    pre[1] = x->root_r_new;
    cuzk_cs_push(cs, "comm_r_new_calc");
    calc = cuzk_poseidon_circuit(cs, 2, pre);
    cuzk_cs_pop(cs);
    enforce_equal(cs, calc.var, comm_r_new.var, "enforce comm_r_new_calc == comm_r_new");

    cuzk_cs_push(cs, "apex_gadget");
    apex_por(cs, x, pbits, ppath, comm_d_new);
    cuzk_cs_pop(cs);

    cuzk_cs_push(cs, "gen_challenge_bits");
    gen_challenge_bits(cs, x, comm_r_new, partition);
    cuzk_cs_pop(cs);
    return x;
}

/* get_challenge_high_bits: for each h of hs, the h high bits of c packed and scaled by its
 * h_select bit; their sum (exactly one is nonzero) is c_high. */
static cuzk_num challenge_high_bits(cuzk_cs *cs, const snap_ctx *x, const cuzk_bool *c_bits)
{
    const cuzk_snap_shape *s = &x->s;
    const unsigned n = s->challenge_bits;
    cuzk_num scaled[CUZK_SNAP_HS];
    cuzk_fr sum = CUZK_FR_ZERO;
    for (unsigned k = 0; k < CUZK_SNAP_HS; k++) {
        const unsigned h = s->hs[k];
        const cuzk_abit sel = x->kh[s->partition_bits + k];
        cuzk_cs_push(cs, "c_high (h=%u, k=%u)", h, k);
        cuzk_num high = cuzk_multipack_pack_bits(cs, &c_bits[n - h], h);
        cuzk_cs_pop(cs);
        cuzk_fr v = CUZK_FR_ZERO;
        if (cs->values && sel.value) v = high.value;
        cuzk_cs_push(cs, "c_high_or_zero (h=%u, k=%u)", h, k);
        scaled[k] = cuzk_num_alloc(cs, cs->values ? &v : NULL);
        cuzk_cs_pop(cs);
        cuzk_lc_add_one(cs, &cs->lc[0], high.var);
        cuzk_lc_add_one(cs, &cs->lc[1], sel.var);
        cuzk_lc_add_one(cs, &cs->lc[2], scaled[k].var);
        cuzk_cs_enforce(cs, "c_high_or_zero == c_high * h_select_bit");
        if (cs->values) cuzk_fr_add(&sum, &sum, &v);
    }
    cuzk_num selected = alloc_fr(cs, &sum, "c_high_selected");
    for (unsigned k = 0; k < CUZK_SNAP_HS; k++) cuzk_lc_add_one(cs, &cs->lc[0], scaled[k].var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], selected.var);
    cuzk_cs_enforce(cs, "c_high_selected == dot(c_highs, h_select_bits)");
    return selected;
}

/* insertion.rs select: the leaf at the index given by bits (least significant first), picked
 * most significant bit first, halving the table each time. */
static cuzk_num select_leaf(cuzk_cs *cs, const cuzk_num *from, unsigned n, const cuzk_bool *bits, unsigned nbits)
{
    cuzk_num state[128];
    memcpy(state, from, sizeof(cuzk_num) * n);
    unsigned half = n / 2;
    for (unsigned i = 0; i < nbits; i++, half /= 2) {
        const cuzk_bool bit = bits[nbits - 1 - i];
        for (unsigned j = 0; j < half; j++) {
            cuzk_cs_push(cs, "pick %u, %u", i, j);
            state[j] = cuzk_pick(cs, bit, state[half + j], state[j]);
            cuzk_cs_pop(cs);
        }
    }
    return state[0];
}

/* The siblings of a Merkle proof, allocated level by level (path_r_old / path_r_new). */
static void alloc_path(cuzk_cs *cs, const cuzk_merkle_proof *mp, const cuzk_tree_shape *shape, const char *what,
                       size_t c, cuzk_num *out)
{
    const unsigned levels = cuzk_tree_shape_levels(shape);
    size_t o = 0;
    for (unsigned l = 0; l < levels; l++) {
        const unsigned a = cuzk_tree_shape_level_arity(shape, l);
        for (unsigned j = 0; j + 1 < a; j++, o++) {
            cuzk_fr v = CUZK_FR_ZERO;
            if (cs->values && mp) v = snap_node_fr(&mp->path[l].hashes[j]);
            cuzk_cs_push(cs, "%s sibling (c_index=%zu, tree_row=%u, sibling_index=%u)", what, c, l, j);
            out[o] = cuzk_num_alloc(cs, cs->values ? &v : NULL);
            cuzk_cs_pop(cs);
        }
    }
}

void cuzk_snap_challenge(cuzk_cs *cs, const cuzk_snap_shape *s, const void *vctx, size_t i)
{
    const snap_ctx *x = vctx;
    if (!x || cs->status) return;
    if (i >= s->challenges || cuzk_tree_shape_siblings(&s->tree_r) > MAX_SIBLINGS) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "snap circuit: challenge %zu of %u", i, s->challenges));
        return;
    }
    const cuzk_snap_challenge_proof *cp = x->pp ? &x->pp->challenges[i] : NULL;
    const unsigned n = s->challenge_bits, rbits = n - s->partition_bits;
    cuzk_bool c_bits[64];
    for (unsigned b = 0; b < rbits; b++) c_bits[b] = cuzk_bool_is(x->gen[i * rbits + b]);
    for (unsigned b = 0; b < s->partition_bits; b++) c_bits[rbits + b] = cuzk_bool_is(x->kh[b]);

    cuzk_cs_push(cs, "get_challenge_high_bits (c_index=%zu)", i);
    cuzk_num c_high = challenge_high_bits(cs, x, c_bits);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "rho (c_index=%zu)", i);
    cuzk_num rho = poseidon_custom(cs, x, x->phi, c_high);
    cuzk_cs_pop(cs);

    cuzk_fr lo = CUZK_FR_ZERO, ld = CUZK_FR_ZERO;
    if (cs->values && cp) {
        lo = snap_node_fr(&cp->r_old.leaf);
        ld = snap_node_fr(&cp->d_new.leaf);
    }
    cuzk_cs_push(cs, "leaf_r_old (c_index=%zu)", i);
    cuzk_num leaf_r_old = cuzk_num_alloc(cs, cs->values ? &lo : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "leaf_d_new (c_index=%zu)", i);
    cuzk_num leaf_d_new = cuzk_num_alloc(cs, cs->values ? &ld : NULL);
    cuzk_cs_pop(cs);

    /* label_r_new: leaf_r_new = leaf_r_old + leaf_d_new * rho */
    cuzk_cs_push(cs, "leaf_r_new (c_index=%zu)", i);
    cuzk_cs_push(cs, "label_d_new * rho");
    cuzk_num prod = cuzk_num_mul(cs, leaf_d_new, rho);
    cuzk_cs_pop(cs);
    cuzk_fr lr = CUZK_FR_ZERO;
    if (cs->values) cuzk_fr_add(&lr, &leaf_r_old.value, &prod.value);
    cuzk_num leaf_r_new = alloc_fr(cs, &lr, "label_r_new");
    cuzk_lc_add_one(cs, &cs->lc[0], leaf_r_old.var);
    cuzk_lc_add_one(cs, &cs->lc[0], prod.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], leaf_r_new.var);
    cuzk_cs_enforce(cs, "label_r_new == label_r_old + label_d_new * rho");
    cuzk_cs_pop(cs);

    cuzk_num sib[MAX_SIBLINGS];
    alloc_path(cs, cp ? &cp->r_old : NULL, &s->tree_r, "path_r_old", i, sib);
    cuzk_cs_push(cs, "por tree_r_old (c_index=%zu)", i);
    cuzk_por_no_challenge_input(cs, CUZK_HASHER_POSEIDON, &s->tree_r, c_bits, n, leaf_r_old, sib, x->root_r_old);
    cuzk_cs_pop(cs);
    alloc_path(cs, cp ? &cp->r_new : NULL, &s->tree_r, "path_r_new", i, sib);
    cuzk_cs_push(cs, "por tree_r_new (c_index=%zu)", i);
    cuzk_por_no_challenge_input(cs, CUZK_HASHER_POSEIDON, &s->tree_r, c_bits, n, leaf_r_new, sib, x->root_r_new);
    cuzk_cs_pop(cs);

    const unsigned to_apex = n - s->partition_bits - s->apex_bits;
    cuzk_cs_push(cs, "select_apex_leaf (c_index=%zu)", i);
    cuzk_num apex_leaf = select_leaf(cs, x->apex, s->apex_leaves, &c_bits[to_apex], s->apex_bits);
    cuzk_cs_pop(cs);
    for (unsigned l = 0; l < to_apex; l++) {
        cuzk_fr v = CUZK_FR_ZERO;
        if (cs->values && cp) v = snap_node_fr(&cp->d_new.path[l].hashes[0]);
        cuzk_cs_push(cs, "path_to_apex_leaf sibling (c_index=%zu, tree_row=%u)", i, l);
        sib[l] = cuzk_num_alloc(cs, cs->values ? &v : NULL);
        cuzk_cs_pop(cs);
    }
    cuzk_tree_shape ds = {2, to_apex, 0, 0};
    cuzk_cs_push(cs, "por to_apex_leaf (c_index=%zu)", i);
    cuzk_por_no_challenge_input(cs, CUZK_HASHER_SHA256, &ds, c_bits, to_apex, leaf_d_new, sib, apex_leaf);
    cuzk_cs_pop(cs);
}

void cuzk_snap_ctx_free(void *vctx)
{
    snap_ctx *x = vctx;
    if (!x) return;
    free(x->apex);
    free(x->gen);
    free(x);
}
