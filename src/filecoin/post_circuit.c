/* FallbackPoStCircuit (storage-proofs-post fallback/circuit.rs) as a circuit of parts: one part
 * per sector slot (upstream synthesizes sector chunks in parallel and merges them in order, so
 * the sectors are independent), no header. Per slot, call for call as Sector::synthesize:
 *   comm_r_last, comm_c, comm_r allocated in that order; comm_r inputized;
 *   comm_r * ONE = Poseidon2(comm_c, comm_r_last);
 *   per challenge: PoRCircuit (leaf allocated inside, root = comm_r_last, private root), whose
 *   packed index bits are the challenge's public input.
 *
 * Families: window-post:SIZE (Window V1_1), winning-post:SIZE (Winning V1), whose witness comes
 * from a sealed CC test sector (2 KiB to 512 MiB), and post-test:SHAPE:LEAVES:SECTORS:CHALLENGES,
 * upstream's test circuits (counts and setup only). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_circuit.h"
#include "cuzk/gadgets/poseidon.h"
#include "cuzk/hash.h"
#include "post_internal.h"

typedef struct {
    cuzk_post_proof proof; /* CUZK_POST_PROOF_COUNT for post-test */
    cuzk_tree_shape tree;
    unsigned sector_count, challenge_count;
    const cuzk_post_partition *pp; /* given vanilla proofs (cuzk_post_circuit_open), borrowed */
} post_state;

typedef struct {
    const cuzk_post_partition *pp; /* NULL without values */
    cuzk_post_partition *owned;    /* the built-in witness */
} post_ctx;

static const struct {
    const char *name;
    uint64_t bytes;
} SIZES[] = {
    {"2KiB", 2048ULL}, {"8MiB", 8ULL << 20}, {"512MiB", 512ULL << 20}, {"32GiB", 32ULL << 30}, {"64GiB", 64ULL << 30},
};

static cuzk_status state_for_proof(post_state *st, cuzk_post_proof p)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    st->proof = p;
    st->tree = pi->tree;
    st->sector_count = pi->sector_count;
    st->challenge_count = pi->challenge_count;
    return cuzk_tree_shape_check(&st->tree);
}

static cuzk_status size_proof(cuzk_post_proof *out, cuzk_post_kind kind, const char *size, const char *cname)
{
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (!strcmp(size, SIZES[i].name))
            return cuzk_post_proof_lookup(out, kind, SIZES[i].bytes, kind == CUZK_POST_WINDOW);
    return cuzk_fail(CUZK_EINVAL, "circuit '%s': SIZE must be 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", cname);
}

static cuzk_status open_kind(cuzk_circuit *c, const char *args, cuzk_post_kind kind)
{
    post_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    cuzk_post_proof p;
    cuzk_status rc = size_proof(&p, kind, args, c->name);
    return rc ? rc : state_for_proof(st, p);
}

static cuzk_status window_open(cuzk_circuit *c, const char *args) { return open_kind(c, args, CUZK_POST_WINDOW); }
static cuzk_status winning_open(cuzk_circuit *c, const char *args) { return open_kind(c, args, CUZK_POST_WINNING); }

static cuzk_status test_open(cuzk_circuit *c, const char *args)
{
    post_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    st->proof = CUZK_POST_PROOF_COUNT;
    char shape[32];
    const char *colon = strchr(args, ':');
    uint64_t v[3]; /* leaves, sectors, challenges: exact, never clamped */
    if (!colon || colon == args || (size_t)(colon - args) >= sizeof shape || cuzk_u64_list_parse(colon + 1, ':', v, 3))
        return cuzk_fail(
            CUZK_EINVAL,
            "circuit '%s': expected post-test:SHAPE:LEAVES:SECTORS:CHALLENGES, e.g. post-test:8-0-0:64:3:5", c->name);
    memcpy(shape, args, (size_t)(colon - args));
    shape[colon - args] = 0;
    uint64_t leaves = v[0];
    if (v[1] < 1 || v[1] > 100000 || v[2] < 1 || v[2] > 1000)
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': SECTORS must be 1..100000 and CHALLENGES 1..1000", c->name);
    unsigned sectors = (unsigned)v[1], challenges = (unsigned)v[2];
    /* the tree shape rules are PoRep's (tree R has the same shapes) */
    cuzk_porep_shape ps;
    cuzk_status rc = cuzk_porep_shape_parse(&ps, shape, leaves, 2, 1);
    if (rc) return cuzk_fail_context(rc, "circuit '%s'", c->name);
    st->tree = ps.tree_rc;
    st->sector_count = sectors;
    st->challenge_count = challenges;
    return CUZK_OK;
}

static size_t post_nparts(const cuzk_circuit *c) { return ((const post_state *)c->state)->sector_count; }

static void *post_header(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const post_state *st = c->state;
    post_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return NULL;
    }
    x->pp = st->pp;
    if (cs->values && !x->pp) {
        cuzk_status rc = st->proof == CUZK_POST_PROOF_COUNT
            ? cuzk_fail(CUZK_EUNSUPPORTED,
                        "circuit '%s' has no built-in witness (the test sealer makes the published sector sizes): use "
                        "it for counts and setup",
                        c->name)
            : post_builtin_partition(&x->owned, st->proof, seed);
        if (rc) {
            cuzk_cs_fail(cs, rc);
            return x;
        }
        x->pp = x->owned;
    }
    return x;
}

static void post_part(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *vctx, size_t s)
{
    const post_state *st = c->state;
    const post_ctx *x = vctx;
    if (!x || cs->status) return;
    const cuzk_post_partition *pp = cs->values ? x->pp : NULL;
    cuzk_fr comm_r = CUZK_FR_ZERO, comm_c = CUZK_FR_ZERO, comm_r_last = CUZK_FR_ZERO;
    size_t b = 0, j = 0;
    if (pp) {
        post_slot(pp, s, 0, &b, &j);
        comm_r = pp->comm_r[b];
        comm_c = pp->comm_c[b];
        comm_r_last = pp->comm_r_last[b];
    }
    cuzk_cs_push(cs, "sector_%zu", s);
    cuzk_cs_push(cs, "comm_r_last");
    cuzk_num crl = cuzk_num_alloc(cs, &comm_r_last);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_c");
    cuzk_num cc = cuzk_num_alloc(cs, &comm_c);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r");
    cuzk_num cr = cuzk_num_alloc(cs, &comm_r);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_input");
    cuzk_num_inputize(cs, cr);
    cuzk_cs_pop(cs);

    cuzk_num pre[2] = {cc, crl};
    cuzk_cs_push(cs, "H_comm_c_comm_r_last");
    cuzk_num hash = cuzk_poseidon_circuit(cs, 2, pre);
    cuzk_cs_pop(cs);
    /* constraint::equal(comm_r, hash): comm_r * ONE = hash */
    cuzk_lc_add_one(cs, &cs->lc[0], cr.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], hash.var);
    cuzk_cs_enforce(cs, "enforce_comm_c_comm_r_last_hash_comm_r");

    for (unsigned n = 0; n < st->challenge_count && !cs->status; n++) {
        const cuzk_fr *sib = NULL;
        cuzk_fr leaf = CUZK_FR_ZERO;
        uint64_t index = 0;
        if (pp) {
            post_slot(pp, s, n, &b, &j);
            size_t q = b * pp->info->proofs_per_blob + j;
            leaf = pp->leaf[q];
            index = pp->index[q];
            sib = pp->siblings + q * pp->nsib;
        }
        cuzk_cs_push(cs, "challenge_inclusion_%u", n);
        cuzk_por_circuit(cs, CUZK_HASHER_POSEIDON, &st->tree, cuzk_root_val(&leaf), cuzk_root_var(crl), true, sib,
                         index);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_pop(cs);
}

static void post_ctx_free(void *vctx)
{
    post_ctx *x = vctx;
    if (!x) return;
    cuzk_post_partition_free(x->owned);
    free(x);
}

const cuzk_circuit_def cuzk_circuit_window_post = {
    .prefix = "window-post:",
    .help = "window-post:SIZE  one WindowPoSt partition (V1_1; SIZE 2KiB, 8MiB, 512MiB, 32GiB, 64GiB; witness from "
            "a sealed test sector up to 512MiB); the daemon's id wpost-2k ... wpost-64g names it too",
    .example = "window-post:2KiB",
    .open = window_open,
    .free_state = free,
    .nparts = post_nparts,
    .header = post_header,
    .part = post_part,
    .free_ctx = post_ctx_free,
};

const cuzk_circuit_def cuzk_circuit_winning_post = {
    .prefix = "winning-post:",
    .help = "winning-post:SIZE  the WinningPoSt circuit (66 challenges of one sector; SIZE as window-post); the "
            "daemon's id winning-2k ... winning-64g names it too",
    .example = "winning-post:2KiB",
    .open = winning_open,
    .free_state = free,
    .nparts = post_nparts,
    .header = post_header,
    .part = post_part,
    .free_ctx = post_ctx_free,
};

const cuzk_circuit_def cuzk_circuit_post_test = {
    .prefix = "post-test:",
    .help = "post-test:SHAPE:LEAVES:SECTORS:CHALLENGES  the fallback PoSt circuit of upstream's tests (counts and "
            "setup only), e.g. post-test:8-0-0:64:3:5",
    .example = NULL,
    .open = test_open,
    .free_state = free,
    .nparts = post_nparts,
    .header = post_header,
    .part = post_part,
    .free_ctx = post_ctx_free,
};

cuzk_status cuzk_post_circuit_open(cuzk_circuit **out, const cuzk_post_partition *pp)
{
    *out = NULL;
    cuzk_circuit *c = calloc(1, sizeof *c);
    post_state *st = calloc(1, sizeof *st);
    if (!c || !st) {
        free(c);
        free(st);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    snprintf(c->name, sizeof c->name, "%s partition %u", pp->info->name, pp->k);
    snprintf(c->shape_key, sizeof c->shape_key, "post:%s", pp->info->name);
    c->def = pp->info->kind == CUZK_POST_WINNING ? &cuzk_circuit_winning_post : &cuzk_circuit_window_post;
    c->state = st;
    st->pp = pp;
    cuzk_status rc = state_for_proof(st, pp->proof);
    if (rc) {
        cuzk_circuit_free(c);
        return rc;
    }
    *out = c;
    return CUZK_OK;
}

/* Synthetic vanilla data of the exact shape, laid out as a real sector's are: each sector's
 * tree is one tree, so its challenges' paths agree wherever they meet (at the top at least:
 * every challenge ends in the hash of the same top-level nodes) and lead to one comm_r_last,
 * and comm_r = H(comm_c, comm_r_last). A node off every path has a value fixed by (seed,
 * sector, level, index), so two challenges under one parent see the same siblings; the leaves
 * likewise. Indices are random leaves, not the challenges the randomness derives (timing
 * data: the proofs made from it verify against these public inputs, not a real sector's). */
typedef struct {
    cuzk_post_partition *pp;
    const cuzk_post_proof_info *pi;
    uint64_t seed;
    cuzk_status *status; /* per sector */
} synthetic_trees;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The value of node `node` of level `level` (0: leaves) of sector b's tree, off the paths. */
static void off_path_value(cuzk_fr *out, uint64_t seed, size_t b, unsigned level, uint64_t node)
{
    cuzk_rng r;
    cuzk_rng_seed(&r, mix64(mix64(mix64(seed ^ 0x5eed) ^ b) ^ level) ^ node);
    cuzk_fr_random(out, &r);
}

#define SYNTH_MAX_PROOFS 66 /* WinningPoSt's challenges of its one sector */

static void synthetic_sector(void *vctx, size_t b, size_t end, unsigned tid)
{
    (void)end;
    (void)tid;
    synthetic_trees *x = vctx;
    cuzk_post_partition *pp = x->pp;
    const cuzk_tree_shape *shape = &x->pi->tree;
    const size_t np = x->pi->proofs_per_blob;
    cuzk_fr cur[SYNTH_MAX_PROOFS], next[SYNTH_MAX_PROOFS], kids[8];
    uint64_t node[SYNTH_MAX_PROOFS];
    cuzk_status st = np <= SYNTH_MAX_PROOFS ? CUZK_OK : cuzk_fail(CUZK_EINTERNAL, "synthetic PoSt: too many proofs");
    for (size_t j = 0; j < np && !st; j++) {
        size_t q = b * np + j;
        node[j] = pp->index[q];
        off_path_value(&cur[j], x->seed, b, 0, node[j]);
        pp->leaf[q] = cur[j];
    }
    size_t sib = 0;
    for (unsigned l = 0; l < cuzk_tree_shape_levels(shape) && !st; l++) {
        const unsigned a = cuzk_tree_shape_level_arity(shape, l), kbits = a == 2 ? 1 : a == 4 ? 2 : 3;
        for (size_t j = 0; j < np && !st; j++) {
            const uint64_t group = node[j] >> kbits;
            cuzk_fr *out = pp->siblings + (b * np + j) * pp->nsib + sib;
            for (unsigned c = 0, h = 0; c < a; c++) {
                const uint64_t child = group << kbits | c;
                size_t on = np; /* a challenge whose path passes through this child */
                for (size_t j2 = 0; j2 < np && on == np; j2++)
                    if (node[j2] == child) on = j2;
                if (on < np) kids[c] = cur[on];
                else off_path_value(&kids[c], x->seed, b, l, child);
                if (child != node[j]) out[h++] = kids[c];
            }
            st = cuzk_poseidon_hash(&next[j], a, kids);
        }
        for (size_t j = 0; j < np; j++) {
            cur[j] = next[j];
            node[j] >>= kbits;
        }
        sib += a - 1;
    }
    for (size_t j = 1; j < np && !st; j++)
        if (!cuzk_fr_eq(&cur[j], &cur[0]))
            st = cuzk_fail(CUZK_EINTERNAL, "synthetic PoSt: sector %zu's paths lead to different roots", b);
    if (!st) {
        pp->comm_r_last[b] = cur[0];
        cuzk_fr pre[2] = {pp->comm_c[b], pp->comm_r_last[b]};
        st = cuzk_poseidon_hash(&pp->comm_r[b], 2, pre);
    }
    x->status[b] = st;
}

static cuzk_status synthetic_partition(cuzk_post_partition **out, cuzk_post_proof p, uint64_t seed)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    uint8_t rnd[32];
    cuzk_rng_bytes(&rng, rnd, 32);
    rnd[31] &= 0x3f;
    cuzk_post_partition *pp;
    cuzk_status st = post_partition_alloc(&pp, p, rnd, 0, pi->max_blobs);
    if (st) return st;
    size_t np = pp->nblobs * pi->proofs_per_blob;
    for (size_t b = 0; b < pp->nblobs; b++) {
        pp->sector_id[b] = cuzk_rng_next(&rng);
        cuzk_fr_random(&pp->comm_c[b], &rng);
    }
    for (size_t q = 0; q < np; q++) pp->index[q] = cuzk_rng_next(&rng) % pi->nodes;
    synthetic_trees x = {pp, pi, seed, calloc(pp->nblobs, sizeof(cuzk_status))};
    if (!x.status) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    else cuzk_parallel_tasks(pp->nblobs, synthetic_sector, &x);
    for (size_t b = 0; b < pp->nblobs && !st; b++) st = x.status[b];
    free(x.status);
    if (st) {
        cuzk_post_partition_free(pp);
        return st;
    }
    *out = pp;
    return CUZK_OK;
}

cuzk_status cuzk_post_synthetic_open(cuzk_circuit **out, cuzk_post_partition **pp_out, const char *name, uint64_t seed)
{
    *out = NULL;
    *pp_out = NULL;
    cuzk_post_kind kind;
    const char *size;
    if (!strncmp(name, "window-post:", 12)) kind = CUZK_POST_WINDOW, size = name + 12;
    else if (!strncmp(name, "winning-post:", 13)) kind = CUZK_POST_WINNING, size = name + 13;
    else
        return cuzk_fail(CUZK_EINVAL,
                         "synthetic vanilla data exists for window-post:SIZE and winning-post:SIZE, not '%s'", name);
    cuzk_post_proof p;
    cuzk_status st = size_proof(&p, kind, size, name);
    if (!st) st = synthetic_partition(pp_out, p, seed);
    if (!st) st = cuzk_post_circuit_open(out, *pp_out);
    if (st) {
        cuzk_post_partition_free(*pp_out);
        *pp_out = NULL;
    }
    return st;
}
