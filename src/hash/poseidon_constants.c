/* The Poseidon constant sets for arities 2, 4, 8 and 11 (neptune's PoseidonConstants::new():
 * Strength::Standard, HashType::MerkleTree), built once per arity on first use and kept for
 * the life of the process, plus neptune's compress_round_constants. */
#include <pthread.h>
#include <string.h>

#include "hash_internal.h"

/* ---------------------------------------------------------------- compressed constants */
/* The optimized-static hash adds the first round's constants up front and afterwards one
 * constant vector after each S-box layer, so every later round's constants are pulled back
 * through the preceding MDS (times M^-1). Across the partial rounds they are pulled back
 * through the whole partial section, leaving one scalar per partial round (for the single
 * S-box lane) and one vector that lands after the last initial full round. */
void cuzk_poseidon_compress_constants(cuzk_fr *out, const cuzk_fr *rc, const cuzk_fr *m_inv, unsigned t, unsigned r_f,
                                      unsigned r_p)
{
    const unsigned half = r_f / 2;
#define RK(r) (rc + (size_t)(r)*t)
    size_t o = 0;
    memcpy(out, RK(0), sizeof(cuzk_fr) * t);
    o += t;
    /* Initial full rounds 1 .. half-1: their keys, inverted, are added after the previous S-boxes.
     * The key of round `half` is folded into the partial-round accumulation instead. */
    for (unsigned r = 1; r < half; r++, o += t) cuzk_fr_row_times_matrix(&out[o], RK(r), m_inv, t);

    /* Walk back from the first terminal full round through the partial rounds. */
    cuzk_fr acc[CUZK_POSEIDON_MAX_WIDTH], inv[CUZK_POSEIDON_MAX_WIDTH];
    const unsigned final_round = half + r_p;
    memcpy(acc, RK(final_round), sizeof(cuzk_fr) * t);
    cuzk_fr *partial_keys = out + o + t; /* filled back to front: last produced is applied first */
    for (unsigned i = 0; i < r_p; i++) {
        cuzk_fr_row_times_matrix(inv, acc, m_inv, t);
        partial_keys[r_p - 1 - i] = inv[0];
        inv[0] = CUZK_FR_ZERO;
        const cuzk_fr *prev = RK(final_round - i - 1);
        for (unsigned j = 0; j < t; j++) cuzk_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    cuzk_fr_row_times_matrix(&out[o], acc, m_inv, t);
    o += t + r_p;

    /* Terminal full rounds: the keys of rounds 2 .. half of that group, inverted. */
    for (unsigned r = 1; r < half; r++, o += t) cuzk_fr_row_times_matrix(&out[o], RK(half + r_p + r), m_inv, t);
#undef RK
}

/* ---------------------------------------------------------------- the constant sets */
static const unsigned ARITIES[4] = {2, 4, 8, 11};

typedef struct {
    pthread_once_t once;
    cuzk_poseidon_constants c;
    cuzk_status st;
    char err[256];
} constant_slot;

static constant_slot SLOTS[4] = {
    {.once = PTHREAD_ONCE_INIT}, {.once = PTHREAD_ONCE_INIT}, {.once = PTHREAD_ONCE_INIT}, {.once = PTHREAD_ONCE_INIT}};

static cuzk_status build(cuzk_poseidon_constants *c, unsigned arity)
{
    const unsigned t = arity + 1;
    unsigned r_f, r_p;
    cuzk_poseidon_round_numbers(t, true, &r_f, &r_p);
    c->arity = arity;
    c->width = t;
    c->full_rounds = r_f;
    c->partial_rounds = r_p;
    cuzk_fr_from_u64(&c->domain_tag, (UINT64_C(1) << arity) - 1);
    if (r_f % 2 != 0 || r_f < 2 || r_p == 0)
        return cuzk_fail(CUZK_EINTERNAL, "poseidon: unexpected round numbers R_F=%u R_P=%u", r_f, r_p);

    size_t n_rc = (size_t)(r_f + r_p) * t;
    c->compressed_len = (size_t)r_f * t + r_p;
    size_t total = n_rc + 3 * (size_t)t * t + c->compressed_len + (size_t)r_p * t + (size_t)r_p * (t - 1);
    cuzk_fr *mem = cuzk_calloc(total, sizeof(cuzk_fr)); /* one block, never freed */
    if (!mem) return cuzk_fail_context(CUZK_ENOMEM, "poseidon constants for arity %u", arity);
    c->round_constants = mem;
    c->mds = c->round_constants + n_rc;
    c->mds_inv = c->mds + (size_t)t * t;
    c->pre_sparse = c->mds_inv + (size_t)t * t;
    c->compressed_constants = c->pre_sparse + (size_t)t * t;
    c->sparse_w_hat = c->compressed_constants + c->compressed_len;
    c->sparse_v_rest = c->sparse_w_hat + (size_t)r_p * t;

    cuzk_poseidon_grain_constants(c->round_constants, n_rc, t, r_f, r_p);
    cuzk_poseidon_cauchy_mds(c->mds, t);
    if (!cuzk_mat_invert(c->mds_inv, c->mds, t))
        return cuzk_fail(CUZK_EINTERNAL, "poseidon: MDS matrix for t=%u is singular", t);
    cuzk_poseidon_compress_constants(c->compressed_constants, c->round_constants, c->mds_inv, t, r_f, r_p);
    if (!cuzk_poseidon_factor_sparse(c->pre_sparse, c->sparse_w_hat, c->sparse_v_rest, c->mds, t, r_p))
        return cuzk_fail(CUZK_EINTERNAL, "poseidon: sparse factorisation for t=%u hit a singular minor", t);
    return CUZK_OK;
}

#define SLOT_INIT(k)                                                                                      \
    static void init_slot_##k(void)                                                                       \
    {                                                                                                     \
        SLOTS[k].st = build(&SLOTS[k].c, ARITIES[k]);                                                     \
        if (SLOTS[k].st != CUZK_OK) snprintf(SLOTS[k].err, sizeof SLOTS[k].err, "%s", cuzk_last_error()); \
    }
SLOT_INIT(0)
SLOT_INIT(1)
SLOT_INIT(2)
SLOT_INIT(3)
static void (*const INIT[4])(void) = {init_slot_0, init_slot_1, init_slot_2, init_slot_3};

cuzk_status cuzk_poseidon_constants_lookup(unsigned arity, const cuzk_poseidon_constants **out)
{
    *out = NULL;
    for (int k = 0; k < 4; k++) {
        if (ARITIES[k] != arity) continue;
        pthread_once(&SLOTS[k].once, INIT[k]);
        if (SLOTS[k].st != CUZK_OK) return cuzk_fail(SLOTS[k].st, "%s", SLOTS[k].err);
        *out = &SLOTS[k].c;
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_EINVAL, "poseidon: unsupported arity %u (supported: 2, 4, 8, 11)", arity);
}

const cuzk_poseidon_constants *cuzk_poseidon_constants_get(unsigned arity)
{
    const cuzk_poseidon_constants *c;
    return cuzk_poseidon_constants_lookup(arity, &c) == CUZK_OK ? c : NULL;
}
