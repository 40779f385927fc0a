/* cuzk_snap_proofs, the object the engine proves a SnapDeals request from (a sector's vanilla
 * partition proofs and its public commitments), and the circuit adapter: partition k as a
 * circuit of parts, the "snap:SIZE" / "snap-test:SIZE" families, the synthetic variant. */
#include <stdlib.h>
#include <string.h>

#include "snap_internal.h"

/* ---------------------------------------------------------------- the object */
void snap_shape_tree_r(c1_tree_shape *out, const cuzk_snap_shape *s)
{
    memset(out, 0, sizeof *out);
    out->base_arity = s->tree_r.base_arity;
    out->sub_arity = s->tree_r.sub_arity;
    out->top_arity = s->tree_r.top_arity;
    out->nbase = s->tree_r.base_levels;
    out->nsub = s->tree_r.sub_arity ? 1 : 0;
    out->ntop = s->tree_r.top_arity ? 1 : 0;
    out->kind = out->ntop ? CUZK_MERKLE_TOP : out->nsub ? CUZK_MERKLE_SUB : CUZK_MERKLE_SINGLE;
}

void snap_shape_tree_d(c1_tree_shape *out, const cuzk_snap_shape *s)
{
    memset(out, 0, sizeof *out);
    out->kind = CUZK_MERKLE_SINGLE;
    out->nbase = s->challenge_bits;
    out->base_arity = 2;
}

cuzk_status snap_alloc_partition(cuzk_c1_arena *a, cuzk_snap_partition_proof *pp, const cuzk_snap_shape *s)
{
    c1_tree_shape tr, td;
    snap_shape_tree_r(&tr, s);
    snap_shape_tree_d(&td, s);
    pp->napex = s->apex_leaves;
    pp->nchallenges = s->challenges;
    pp->apex = c1_arena_alloc(a, sizeof(cuzk_node) * s->apex_leaves);
    pp->challenges = c1_arena_alloc(a, sizeof(cuzk_snap_challenge_proof) * s->challenges);
    if (!pp->apex || !pp->challenges) return cuzk_fail(CUZK_ENOMEM, "out of memory for a snap partition proof");
    for (unsigned i = 0; i < s->challenges; i++) {
        cuzk_snap_challenge_proof *cp = &pp->challenges[i];
        if (c1_alloc_merkle(a, &cp->r_old, &tr) || c1_alloc_merkle(a, &cp->d_new, &td) ||
            c1_alloc_merkle(a, &cp->r_new, &tr))
            return cuzk_fail(CUZK_ENOMEM, "out of memory for a snap partition proof");
    }
    return CUZK_OK;
}

cuzk_status snap_proofs_create(cuzk_snap_proofs **out, cuzk_update_proof p, unsigned nparts)
{
    *out = NULL;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    cuzk_snap_proofs *sp = calloc(1, sizeof *sp);
    if (!sp) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    sp->proof = p;
    sp->info = pi;
    sp->nparts = nparts;
    sp->arena = c1_arena_create();
    cuzk_status st = sp->arena ? cuzk_snap_shape_for_proof(&sp->shape, p) : cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st && nparts) {
        sp->parts = c1_arena_alloc(sp->arena, sizeof(cuzk_snap_partition_proof) * nparts);
        if (!sp->parts) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    if (st) {
        cuzk_snap_proofs_free(sp);
        return st;
    }
    *out = sp;
    return CUZK_OK;
}

void cuzk_snap_proofs_free(cuzk_snap_proofs *sp)
{
    if (!sp) return;
    if (sp->arena) c1_arena_destroy(sp->arena);
    free(sp);
}

unsigned cuzk_snap_partitions(const cuzk_snap_proofs *sp) { return sp->nparts; }
cuzk_update_proof cuzk_snap_proof_type(const cuzk_snap_proofs *sp) { return sp->proof; }
const cuzk_snap_partition_proof *cuzk_snap_partition(const cuzk_snap_proofs *sp, unsigned k)
{
    return k < sp->nparts ? &sp->parts[k] : NULL;
}

cuzk_status cuzk_snap_public_inputs(const cuzk_snap_proofs *sp, unsigned k, cuzk_fr *out, size_t cap)
{
    if (k >= sp->nparts) return cuzk_fail(CUZK_EINVAL, "snap public inputs: partition %u of %u", k, sp->nparts);
    return cuzk_snap_public_inputs_for(out, cap, sp->proof, k, sp->comm_r_old, sp->comm_d_new, sp->comm_r_new);
}

/* ---------------------------------------------------------------- the circuit */
typedef struct {
    cuzk_snap_shape shape;
    cuzk_update_proof proof;    /* CUZK_UPDATE_PROOF_COUNT for snap-test */
    const cuzk_snap_proofs *sp; /* borrowed (cuzk_snap_circuit_open) or NULL */
    unsigned k;
} snap_state;

typedef struct {
    void *header;
    cuzk_snap_proofs *owned; /* the built-in witness's proofs */
} snap_ctx_holder;

static const struct {
    const char *name;
    cuzk_update_proof proof;
} SIZES[] = {
    {"2KiB", CUZK_UPDATE_2KIB_V1},   {"8MiB", CUZK_UPDATE_8MIB_V1},   {"512MiB", CUZK_UPDATE_512MIB_V1},
    {"32GiB", CUZK_UPDATE_32GIB_V1}, {"64GiB", CUZK_UPDATE_64GIB_V1},
};

static const struct {
    const char *name;
    uint64_t nodes;
} TEST_SIZES[] = {
    {"1KiB", 1u << 5}, {"2KiB", 1u << 6}, {"4KiB", 1u << 7}, {"8KiB", 1u << 8}, {"16KiB", 1u << 9}, {"32KiB", 1u << 10},
};

static cuzk_status snap_open(cuzk_circuit *c, const char *args)
{
    snap_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (!strcmp(args, SIZES[i].name)) {
            st->proof = SIZES[i].proof;
            return cuzk_snap_shape_for_proof(&st->shape, st->proof);
        }
    return cuzk_fail(CUZK_EINVAL, "circuit '%s': SIZE must be 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", c->name);
}

static cuzk_status snap_test_open(cuzk_circuit *c, const char *args)
{
    snap_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    st->proof = CUZK_UPDATE_PROOF_COUNT;
    for (size_t i = 0; i < sizeof TEST_SIZES / sizeof TEST_SIZES[0]; i++)
        if (!strcmp(args, TEST_SIZES[i].name)) return cuzk_snap_shape_for_nodes(&st->shape, TEST_SIZES[i].nodes);
    return cuzk_fail(CUZK_EINVAL, "circuit '%s': SIZE must be 1KiB, 2KiB, 4KiB, 8KiB, 16KiB or 32KiB", c->name);
}

static size_t snap_nparts(const cuzk_circuit *c) { return ((const snap_state *)c->state)->shape.challenges; }

static void *snap_header(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const snap_state *st = c->state;
    snap_ctx_holder *x = calloc(1, sizeof *x);
    if (!x) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return NULL;
    }
    const cuzk_snap_proofs *sp = st->sp;
    unsigned k = st->k;
    if (cs->values && !sp) {
        cuzk_status rc;
        if (st->proof == CUZK_UPDATE_PROOF_COUNT)
            rc = cuzk_fail(CUZK_EUNSUPPORTED, "circuit '%s' has no built-in witness: use it for counts and setup",
                           c->name);
        else rc = snap_witness_for_seed(&x->owned, st->proof, seed);
        if (rc) {
            cuzk_cs_fail(cs, rc);
            return x;
        }
        sp = x->owned;
        k = 0;
    }
    cuzk_snap_witness w;
    memset(&w, 0, sizeof w);
    if (sp) {
        w.k = k;
        w.h = sp->info->h;
        memcpy(w.comm_r_old, sp->comm_r_old, 32);
        memcpy(w.comm_d_new, sp->comm_d_new, 32);
        memcpy(w.comm_r_new, sp->comm_r_new, 32);
        w.pp = &sp->parts[k];
    }
    x->header = cuzk_snap_header(cs, &st->shape, &w);
    return x;
}

static void snap_part(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *vctx, size_t i)
{
    (void)seed;
    const snap_ctx_holder *x = vctx;
    if (!x || cs->status) return;
    cuzk_snap_challenge(cs, &((const snap_state *)c->state)->shape, x->header, i);
}

static void snap_ctx_free(void *vctx)
{
    snap_ctx_holder *x = vctx;
    if (!x) return;
    cuzk_snap_ctx_free(x->header);
    cuzk_snap_proofs_free(x->owned);
    free(x);
}

const cuzk_circuit_def cuzk_circuit_snap = {
    .prefix = "snap:",
    .help = "snap:SIZE      one partition of the SnapDeals (EmptySectorUpdate) circuit (SIZE 2KiB, 8MiB, 512MiB, "
            "32GiB, 64GiB; witness from encoding data into a sealed test sector up to 512MiB); the daemon's id snap-2k "
            "... snap-64g names it too",
    .example = "snap:2KiB",
    .open = snap_open,
    .free_state = free,
    .nparts = snap_nparts,
    .header = snap_header,
    .part = snap_part,
    .free_ctx = snap_ctx_free,
};

const cuzk_circuit_def cuzk_circuit_snap_test = {
    .prefix = "snap-test:",
    .help = "snap-test:SIZE the SnapDeals circuit at upstream's test sizes with their TreeR shapes (1KiB 8-4-0, 2KiB "
            "8-0-0, 4KiB 8-2-0, 8KiB 8-4-0, 16KiB 8-8-0, 32KiB 8-8-2; counts and setup only)",
    .example = NULL,
    .open = snap_test_open,
    .free_state = free,
    .nparts = snap_nparts,
    .header = snap_header,
    .part = snap_part,
    .free_ctx = snap_ctx_free,
};

cuzk_status cuzk_snap_circuit_open(cuzk_circuit **out, const cuzk_snap_proofs *sp, unsigned k)
{
    *out = NULL;
    if (k >= sp->nparts) return cuzk_fail(CUZK_EINVAL, "snap circuit: partition %u of %u", k, sp->nparts);
    cuzk_circuit *c = calloc(1, sizeof *c);
    snap_state *st = calloc(1, sizeof *st);
    if (!c || !st) {
        free(c);
        free(st);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    snprintf(c->name, sizeof c->name, "update %s partition %u", sp->info->name, k);
    snprintf(c->shape_key, sizeof c->shape_key, "snap:%s", sp->info->name); /* one R1CS for all partitions */
    c->def = &cuzk_circuit_snap;
    c->state = st;
    st->proof = sp->proof;
    st->shape = sp->shape;
    st->sp = sp;
    st->k = k;
    *out = c;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- synthetic */
static void random_node(cuzk_rng *rng, cuzk_node *n)
{
    cuzk_rng_bytes(rng, n->b, 32);
    n->b[31] &= 0x3f; /* below 2^254 < r: canonical */
}

static void random_merkle(cuzk_rng *rng, cuzk_merkle_proof *mp, const c1_tree_shape *ts, uint32_t c,
                          const cuzk_node *root)
{
    random_node(rng, &mp->leaf);
    mp->root = *root;
    uint32_t n = mp->nbase + mp->nsub + mp->ntop;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t a = c1_shape_arity(ts, l);
        mp->path[l].index = c % a;
        c /= a;
        for (uint32_t j = 0; j < mp->path[l].nhashes; j++) random_node(rng, &mp->path[l].hashes[j]);
    }
}

cuzk_status cuzk_snap_synthetic_open(cuzk_circuit **out, cuzk_snap_proofs **sp_out, const char *name, uint64_t seed)
{
    *out = NULL;
    *sp_out = NULL;
    const char *size = !strncmp(name, "snap:", 5) ? name + 5 : NULL;
    cuzk_update_proof p = CUZK_UPDATE_PROOF_COUNT;
    for (size_t i = 0; size && i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (!strcmp(size, SIZES[i].name)) p = SIZES[i].proof;
    if (p == CUZK_UPDATE_PROOF_COUNT)
        return cuzk_fail(CUZK_EINVAL, "synthetic vanilla data exists for snap:SIZE circuits (2KiB ... 64GiB), not '%s'",
                         name);
    cuzk_snap_proofs *sp;
    cuzk_status st = snap_proofs_create(&sp, p, 1);
    if (st) return st;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    cuzk_node n;
    random_node(&rng, &n);
    memcpy(sp->comm_r_old, n.b, 32);
    random_node(&rng, &n);
    memcpy(sp->comm_d_new, n.b, 32);
    random_node(&rng, &n);
    memcpy(sp->comm_r_new, n.b, 32);
    cuzk_snap_partition_proof *pp = &sp->parts[0];
    st = snap_alloc_partition(sp->arena, pp, &sp->shape);
    if (!st) {
        c1_tree_shape tr, td;
        snap_shape_tree_r(&tr, &sp->shape);
        snap_shape_tree_d(&td, &sp->shape);
        cuzk_node root_old, root_new, comm_d;
        random_node(&rng, &pp->comm_c);
        random_node(&rng, &root_old);
        random_node(&rng, &root_new);
        memcpy(comm_d.b, sp->comm_d_new, 32);
        for (unsigned a = 0; a < pp->napex; a++) random_node(&rng, &pp->apex[a]);
        uint32_t *ch = calloc(sp->shape.challenges, sizeof *ch);
        st = ch ? cuzk_snap_challenges(ch, &sp->shape, sp->comm_r_new, 0) : cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (unsigned i = 0; !st && i < pp->nchallenges; i++) {
            random_merkle(&rng, &pp->challenges[i].r_old, &tr, ch[i], &root_old);
            random_merkle(&rng, &pp->challenges[i].d_new, &td, ch[i], &comm_d);
            random_merkle(&rng, &pp->challenges[i].r_new, &tr, ch[i], &root_new);
        }
        free(ch);
    }
    if (!st) st = cuzk_snap_circuit_open(out, sp, 0);
    if (st) {
        cuzk_snap_proofs_free(sp);
        return st;
    }
    *sp_out = sp;
    return CUZK_OK;
}
