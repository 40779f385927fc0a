/* SnapDeals encoding and the vanilla partition proofs (storage-proofs-update vanilla.rs
 * encode_into and prove_inner, filecoin-proofs api/update.rs), for the sector sizes whose
 * TreeR is one octree (2 KiB, 8 MiB, 512 MiB).
 *
 *   TreeDNew over the new data (binary SHA-256) -> comm_d_new;
 *   comm_r_old = Poseidon2(comm_c, comm_r_last_old); phi = H_custom(comm_d_new, comm_r_old);
 *   new replica node i = old node i + data node i * rho(i >> (log2(nodes) - h));
 *   TreeRNew over the new replica -> comm_r_new = Poseidon2(comm_c, root_r_new);
 *   partition k: the apex leaves (TreeDNew's row apex_leaves * partitions wide, the k-th
 *   chunk) and per challenge the TreeROld, TreeDNew and TreeRNew proofs. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"
#include "snap_internal.h"

struct cuzk_snap_encoded {
    cuzk_snap_proofs *sp;
    uint8_t *replica;
    uint8_t comm_c[32], comm_r_last_old[32], comm_r_last_new[32];
};

typedef struct {
    const uint8_t *bytes;
} leaf_src;

static void leaf_copy(void *vctx, uint64_t first, uint64_t n, cuzk_node *out)
{
    const leaf_src *s = vctx;
    memcpy(out, s->bytes + first * 32, n * 32);
}

/* Every node must be a canonical field element (Fr32 padding for data; a replica always is). */
typedef struct {
    const uint8_t *bytes;
    _Atomic uint64_t first_bad; /* UINT64_MAX: none */
} canon_ctx;

static void canon_range(void *vctx, size_t begin, size_t end, unsigned tid)
{
    (void)tid;
    canon_ctx *c = vctx;
    cuzk_fr f;
    for (size_t i = begin; i < end; i++)
        if (cuzk_fr_from_bytes_le(&f, c->bytes + i * 32) != CUZK_OK) {
            uint64_t cur = c->first_bad;
            while (i < cur &&
                   !__atomic_compare_exchange_n((uint64_t *)&c->first_bad, &cur, i, false, __ATOMIC_SEQ_CST,
                                                __ATOMIC_SEQ_CST)) {}
            return;
        }
}

static cuzk_status check_canonical(const uint8_t *bytes, uint64_t nodes, const char *what)
{
    canon_ctx c = {bytes, UINT64_MAX};
    cuzk_parallel_for(nodes, 4096, canon_range, &c);
    if (c.first_bad != UINT64_MAX)
        return cuzk_fail(CUZK_EINVAL, "%s: node %llu (byte %llu) is not a canonical field element (not Fr32-padded)",
                         what, (unsigned long long)c.first_bad, (unsigned long long)c.first_bad * 32);
    return CUZK_OK;
}

typedef struct {
    const uint8_t *old, *data;
    uint8_t *out;
    const cuzk_fr *rhos;
    unsigned shift;
} enc_ctx;

static void encode_range(void *vctx, size_t begin, size_t end, unsigned tid)
{
    (void)tid;
    const enc_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        cuzk_fr o, d, r;
        /* both checked canonical before */
        if (cuzk_fr_from_bytes_le(&o, c->old + i * 32) || cuzk_fr_from_bytes_le(&d, c->data + i * 32)) continue;
        cuzk_fr_mul(&r, &d, &c->rhos[i >> c->shift]);
        cuzk_fr_add(&r, &r, &o);
        cuzk_fr_to_bytes_le(c->out + i * 32, &r);
    }
}

static cuzk_status hash2(uint8_t out[32], const uint8_t a[32], const uint8_t b[32])
{
    cuzk_fr pre[2], h;
    if (cuzk_fr_from_bytes_le(&pre[0], a) || cuzk_fr_from_bytes_le(&pre[1], b))
        return cuzk_fail(CUZK_EINVAL, "comm_c / tree root is not a canonical field element");
    cuzk_status st = cuzk_poseidon_hash(&h, 2, pre);
    if (!st) cuzk_fr_to_bytes_le(out, &h);
    return st;
}

/* The vanilla proof of partition k (prove_inner). */
static cuzk_status prove_partition(cuzk_snap_proofs *sp, unsigned k, const uint8_t comm_c[32], const seal_tree *tr_old,
                                   const seal_tree *td, const seal_tree *tr_new)
{
    const cuzk_snap_shape *s = &sp->shape;
    cuzk_snap_partition_proof *pp = &sp->parts[k];
    cuzk_status st = snap_alloc_partition(sp->arena, pp, s);
    if (st) return st;
    memcpy(pp->comm_c.b, comm_c, 32);
    const unsigned apex_level = s->challenge_bits - s->partition_bits - s->apex_bits;
    const cuzk_node *row = td->store + td->level_off[apex_level];
    memcpy(pp->apex, row + (size_t)k * s->apex_leaves, sizeof(cuzk_node) * s->apex_leaves);
    uint32_t ch[128];
    if ((st = cuzk_snap_challenges(ch, s, sp->comm_r_new, k)) != CUZK_OK) return st;
    for (unsigned i = 0; i < s->challenges && !st; i++) {
        cuzk_snap_challenge_proof *cp = &pp->challenges[i];
        st = seal_tree_prove(tr_old, ch[i], &cp->r_old);
        if (!st) st = seal_tree_prove(td, ch[i], &cp->d_new);
        if (!st) st = seal_tree_prove(tr_new, ch[i], &cp->r_new);
    }
    return st ? cuzk_fail_context(st, "snap partition %u proof", k) : CUZK_OK;
}

cuzk_status cuzk_snap_encode(cuzk_snap_encoded **out, cuzk_update_proof p, const uint8_t *sealed, const uint8_t *data,
                             const uint8_t p_aux[64], cuzk_timeline *tl)
{
    *out = NULL;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (pi->tree_r.sub_arity)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "snap encode: %s has a compound TreeR; the encoder makes 2KiB, 8MiB and "
                         "512MiB sectors",
                         pi->name);
    cuzk_snap_encoded *e = calloc(1, sizeof *e);
    if (!e) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    seal_tree td = {0}, tr_old = {0}, tr_new = {0};
    cuzk_fr *rhos = NULL;
    /* the trees read their leaves again when proving: the sources live as long as the trees */
    leaf_src src_old = {sealed}, src_d = {data}, src_new = {NULL};
    cuzk_status st = snap_proofs_create(&e->sp, p, pi->partitions);
    cuzk_snap_proofs *sp = e->sp;
    const uint64_t nodes = pi->nodes;
    int span = cuzk_span_begin(tl, "snap encode");
    if (!st) st = check_canonical(data, nodes, "new data");
    if (!st) st = check_canonical(sealed, nodes, "sealed replica");
    memcpy(e->comm_c, p_aux, 32);
    memcpy(e->comm_r_last_old, p_aux + 32, 32);
    if (!st) {
        int sp1 = cuzk_span_begin(tl, "tree r old");
        st = seal_tree_build(&tr_old, false, nodes, 1, leaf_copy, &src_old);
        cuzk_span_end(tl, sp1);
        if (!st && memcmp(seal_tree_root(&tr_old)->b, e->comm_r_last_old, 32))
            st =
                cuzk_fail(CUZK_EINVAL, "snap encode: the sealed replica's TreeR root does not match p_aux comm_r_last");
    }
    if (!st) {
        int sp1 = cuzk_span_begin(tl, "tree d new");
        st = seal_tree_build(&td, true, nodes, 3, leaf_copy, &src_d);
        cuzk_span_end(tl, sp1);
    }
    if (!st) {
        memcpy(sp->comm_d_new, seal_tree_root(&td)->b, 32);
        st = hash2(sp->comm_r_old, e->comm_c, e->comm_r_last_old);
    }
    cuzk_fr phi;
    if (!st) st = cuzk_snap_phi(&phi, sp->comm_d_new, sp->comm_r_old);
    if (!st) {
        const unsigned nrho = 1u << pi->h;
        rhos = calloc(nrho, sizeof *rhos);
        if (!rhos) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (unsigned j = 0; !st && j < nrho; j++) st = cuzk_snap_rho(&rhos[j], &phi, j);
    }
    if (!st) {
        e->replica = cuzk_malloc(nodes * 32);
        if (!e->replica) st = cuzk_fail(CUZK_ENOMEM, "out of memory for the new replica");
    }
    if (!st) {
        enc_ctx c = {sealed, data, e->replica, rhos, pi->tree_d_depth - pi->h};
        int sp1 = cuzk_span_begin(tl, "encode");
        cuzk_parallel_for(nodes, 4096, encode_range, &c);
        cuzk_span_end(tl, sp1);
        src_new.bytes = e->replica;
        sp1 = cuzk_span_begin(tl, "tree r new");
        st = seal_tree_build(&tr_new, false, nodes, 1, leaf_copy, &src_new);
        cuzk_span_end(tl, sp1);
    }
    if (!st) {
        memcpy(e->comm_r_last_new, seal_tree_root(&tr_new)->b, 32);
        st = hash2(sp->comm_r_new, e->comm_c, e->comm_r_last_new);
    }
    int sp2 = cuzk_span_begin(tl, "vanilla proofs");
    for (unsigned k = 0; !st && k < pi->partitions; k++) st = prove_partition(sp, k, e->comm_c, &tr_old, &td, &tr_new);
    cuzk_span_end(tl, sp2);
    cuzk_span_end(tl, span);
    free(rhos);
    seal_tree_free(&td);
    seal_tree_free(&tr_old);
    seal_tree_free(&tr_new);
    if (st) {
        cuzk_snap_encoded_free(e);
        return st;
    }
    *out = e;
    return CUZK_OK;
}

void cuzk_snap_encoded_get(const cuzk_snap_encoded *e, cuzk_snap_encoded_view *v)
{
    memset(v, 0, sizeof *v);
    v->proof = e->sp->proof;
    memcpy(v->comm_c, e->comm_c, 32);
    memcpy(v->comm_r_last_old, e->comm_r_last_old, 32);
    memcpy(v->comm_r_old, e->sp->comm_r_old, 32);
    memcpy(v->comm_d_new, e->sp->comm_d_new, 32);
    memcpy(v->comm_r_last_new, e->comm_r_last_new, 32);
    memcpy(v->comm_r_new, e->sp->comm_r_new, 32);
    v->partitions = e->sp->nparts;
    v->proofs = e->sp->parts;
    v->replica = e->replica;
}

void cuzk_snap_encoded_free(cuzk_snap_encoded *e)
{
    if (!e) return;
    cuzk_snap_proofs_free(e->sp);
    free(e->replica);
    free(e);
}

/* ---------------------------------------------------------------- the built-in witness */
cuzk_status snap_witness_for_seed(cuzk_snap_proofs **out, cuzk_update_proof p, uint64_t seed)
{
    *out = NULL;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (pi->tree_r.sub_arity)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "snap:%s has no built-in witness (the test sealer makes 2KiB, 8MiB and "
                         "512MiB sectors): use it for counts and setup, or the synthetic variant",
                         pi->name);
    cuzk_seal_params prm;
    memset(&prm, 0, sizeof prm);
    prm.proof = pi->seal_proof;
    cuzk_prover_id_from_actor(prm.prover_id, 1000 + seed % 1000);
    prm.sector_id = seed;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed ^ 0x536e6170ULL);
    cuzk_rng_bytes(&rng, prm.ticket, 32);
    prm.ticket[31] &= 0x3f;
    cuzk_sealed_sector *s = NULL;
    uint8_t *sealed = cuzk_malloc(pi->sector_size), *data = cuzk_malloc(pi->sector_size);
    cuzk_status st = sealed && data ? cuzk_seal_precommit(&s, &prm, NULL) : cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_snap_encoded *e = NULL;
    if (!st) {
        uint8_t p_aux[CUZK_P_AUX_BYTES];
        cuzk_sealed_replica_nodes(s, 0, pi->nodes, sealed);
        cuzk_sealed_p_aux(s, p_aux);
        cuzk_rng_bytes(&rng, data, pi->sector_size);
        for (uint64_t i = 0; i < pi->nodes; i++) data[i * 32 + 31] &= 0x3f;
        st = cuzk_snap_encode(&e, p, sealed, data, p_aux, NULL);
    }
    if (!st) {
        *out = e->sp;
        e->sp = NULL;
    }
    cuzk_snap_encoded_free(e);
    cuzk_sealed_sector_free(s);
    free(sealed);
    free(data);
    return st;
}
