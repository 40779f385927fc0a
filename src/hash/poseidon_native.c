/* Native Poseidon hashing: neptune's HashMode::OptimizedStatic (the mode it hashes with) and
 * the textbook permutation (neptune's hash_correct) that it must equal.
 *
 * State: [domain tag, preimage...], width t = arity + 1; the digest is state[1]. Mixing is
 * state <- state * M (row vector). No allocation per hash; state lives on the stack. */
#include <string.h>

#include "hash_internal.h"

static inline void sbox(cuzk_fr *x)
{
    cuzk_fr x4;
    cuzk_fr_sqr(&x4, x);
    cuzk_fr_sqr(&x4, &x4);
    cuzk_fr_mul(x, x, &x4);
}

/* s <- s * m (dense t x t). */
static inline void mix_dense(cuzk_fr *s, const cuzk_fr *m, unsigned t)
{
    cuzk_fr out[CUZK_POSEIDON_MAX_WIDTH];
    cuzk_fr_row_times_matrix(out, s, m, t);
    memcpy(s, out, sizeof(cuzk_fr) * t);
}

/* s <- s * M'' with M'' = [w_hat (first column) | first row (w_hat[0], v_rest) | identity]. */
static inline void mix_sparse(cuzk_fr *s, const cuzk_fr *w_hat, const cuzk_fr *v_rest, unsigned t)
{
    cuzk_fr s0 = CUZK_FR_ZERO, tmp;
    for (unsigned i = 0; i < t; i++) {
        cuzk_fr_mul(&tmp, &w_hat[i], &s[i]);
        cuzk_fr_add(&s0, &s0, &tmp);
    }
    for (unsigned j = 1; j < t; j++) {
        cuzk_fr_mul(&tmp, &v_rest[j - 1], &s[0]);
        cuzk_fr_add(&s[j], &s[j], &tmp);
    }
    s[0] = s0;
}

/* Looks up the constants for `arity` and loads the initial state [tag, preimage...]. */
static cuzk_status load_state(cuzk_fr *s, const cuzk_poseidon_constants **pc, unsigned arity, const cuzk_fr *tag,
                              const cuzk_fr *preimage)
{
    cuzk_status st = cuzk_poseidon_constants_lookup(arity, pc);
    if (st != CUZK_OK) return cuzk_fail_context(st, "poseidon hash");
    s[0] = tag ? *tag : (*pc)->domain_tag;
    memcpy(&s[1], preimage, sizeof(cuzk_fr) * arity);
    return CUZK_OK;
}

/* Optimized static: constants of round 0 added up front; each S-box layer is followed by one
 * compressed constant (vector in full rounds, scalar in partial rounds), none after the last.
 * Rounds before the last initial full round mix with M, that round with pre_sparse, the
 * partial rounds with their sparse matrices, the terminal full rounds with M. */
static cuzk_status hash_static(cuzk_fr *out, unsigned arity, const cuzk_fr *tag, const cuzk_fr *preimage)
{
    cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH];
    const cuzk_poseidon_constants *c = NULL;
    cuzk_status st = load_state(s, &c, arity, tag, preimage);
    if (st != CUZK_OK) return st;
    const unsigned t = c->width, half = c->full_rounds / 2, r_p = c->partial_rounds;
    const cuzk_fr *k = c->compressed_constants;

    for (unsigned i = 0; i < t; i++) cuzk_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < half; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            cuzk_fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        mix_dense(s, r + 1 == half ? c->pre_sparse : c->mds, t);
    }
    for (unsigned r = 0; r < r_p; r++) {
        sbox(&s[0]);
        cuzk_fr_add(&s[0], &s[0], k++);
        mix_sparse(s, &c->sparse_w_hat[(size_t)r * t], &c->sparse_v_rest[(size_t)r * (t - 1)], t);
    }
    for (unsigned r = 0; r < half; r++) {
        bool last = r + 1 == half;
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            if (!last) cuzk_fr_add(&s[i], &s[i], &k[i]);
        }
        if (!last) k += t;
        mix_dense(s, c->mds, t);
    }
    if ((size_t)(k - c->compressed_constants) != c->compressed_len)
        return cuzk_fail(CUZK_EINTERNAL, "poseidon: used %zu compressed constants, have %zu",
                         (size_t)(k - c->compressed_constants), c->compressed_len);
    *out = s[1];
    return CUZK_OK;
}

/* Textbook Poseidon: per round, add the round constants, S-box (all lanes in full rounds,
 * lane 0 in partial rounds), multiply by M. */
static cuzk_status hash_textbook(cuzk_fr *out, unsigned arity, const cuzk_fr *tag, const cuzk_fr *preimage)
{
    cuzk_fr s[CUZK_POSEIDON_MAX_WIDTH];
    const cuzk_poseidon_constants *c = NULL;
    cuzk_status st = load_state(s, &c, arity, tag, preimage);
    if (st != CUZK_OK) return st;
    const unsigned t = c->width, half = c->full_rounds / 2;
    const unsigned rounds = c->full_rounds + c->partial_rounds;
    for (unsigned r = 0; r < rounds; r++) {
        const cuzk_fr *rk = &c->round_constants[(size_t)r * t];
        bool full = r < half || r >= half + c->partial_rounds;
        for (unsigned i = 0; i < t; i++) cuzk_fr_add(&s[i], &s[i], &rk[i]);
        for (unsigned i = 0; i < (full ? t : 1); i++) sbox(&s[i]);
        mix_dense(s, c->mds, t);
    }
    *out = s[1];
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_hash(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage)
{
    return hash_static(out, arity, NULL, preimage);
}

cuzk_status cuzk_poseidon_hash_correct(cuzk_fr *out, unsigned arity, const cuzk_fr *preimage)
{
    return hash_textbook(out, arity, NULL, preimage);
}

/* Only the first state element depends on the hash type (neptune keeps the round constants and
 * matrices of the width), so a custom type is the same permutation with another tag. */
cuzk_status cuzk_poseidon_hash_tagged(cuzk_fr *out, unsigned arity, const cuzk_fr *domain_tag, const cuzk_fr *preimage)
{
    return hash_static(out, arity, domain_tag, preimage);
}

cuzk_status cuzk_poseidon_hash_tagged_correct(cuzk_fr *out, unsigned arity, const cuzk_fr *domain_tag,
                                              const cuzk_fr *preimage)
{
    return hash_textbook(out, arity, domain_tag, preimage);
}

cuzk_status cuzk_poseidon_custom_tag(cuzk_fr *out, uint64_t id)
{
    if (id < 1 || id > 256)
        return cuzk_fail(CUZK_EINVAL, "poseidon: custom domain tag id %llu is not 1..256", (unsigned long long)id);
    cuzk_fr_from_u64(out, id << 40);
    return CUZK_OK;
}
