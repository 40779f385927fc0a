/* neptune 11.0.0's legacy Poseidon circuit (circuit.rs poseidon_hash), allocation for
 * allocation and constraint for constraint.
 *
 * State elements are either allocated numbers or linear combinations (neptune's Elt::Allocated
 * and Elt::Num). The MDS mixing never allocates: it builds linear combinations, which become
 * the A side of the "S-box input" constraint when the next S-box needs the element allocated.
 * Constants enter those combinations as multiples of ONE, as neptune's Num keeps them.
 * Partial rounds only touch element 0, so elements 1..t-1 keep growing combinations through
 * all partial rounds; they are part of the R1CS that the official keys were made for.
 *
 * Namespaces follow neptune's, so TEST mode paths read like bellpepper's. */
#include <string.h>

#include "cuzk/gadgets/poseidon.h"
#include "cuzk/hash.h"

#define MAXT 12 /* width of arity 11 */

typedef struct {
    bool allocated;
    cuzk_num num;  /* allocated: the variable and its value */
    cuzk_lc lc;    /* otherwise: the combination ... */
    cuzk_fr value; /* ... and its value (cs->values) */
} elt;

typedef struct {
    cuzk_cs *cs;
    const cuzk_poseidon_constants *pc;
    unsigned t;
    size_t offset;  /* next compressed round constant */
    unsigned round; /* rounds mixed so far (neptune's current_round) */
    elt e[MAXT], scratch[MAXT];
} circuit;

/* e := c * ONE, a constant combination (neptune's Elt::num_from_fr). */
static void elt_set_constant(cuzk_cs *cs, elt *e, const cuzk_fr *c)
{
    e->allocated = false;
    cuzk_lc_clear(&e->lc);
    cuzk_lc_add(cs, &e->lc, CUZK_VAR_ONE, c);
    e->value = *c;
}

static void elt_set_allocated(elt *e, cuzk_num n)
{
    e->allocated = true;
    e->num = n;
}

/* dst (a combination) += coeff * src: neptune's acc.add(src.scale(coeff)). */
static void elt_accumulate(cuzk_cs *cs, elt *dst, const elt *src, const cuzk_fr *coeff)
{
    cuzk_fr tmp;
    if (src->allocated) {
        cuzk_lc_add(cs, &dst->lc, src->num.var, coeff);
        if (cs->values) cuzk_fr_mul(&tmp, &src->num.value, coeff);
    } else {
        cuzk_lc_add_lc(cs, &dst->lc, &src->lc, coeff);
        if (cs->values) cuzk_fr_mul(&tmp, &src->value, coeff);
    }
    if (cs->values) cuzk_fr_add(&dst->value, &dst->value, &tmp);
}

static void elt_set_zero(elt *e)
{
    e->allocated = false;
    cuzk_lc_clear(&e->lc);
    e->value = CUZK_FR_ZERO;
}

/* Elt::ensure_allocated with enforcement: a new variable v and lc * ONE = v. */
static cuzk_num ensure_allocated(cuzk_cs *cs, const elt *e)
{
    if (e->allocated) return e->num;
    cuzk_num v = cuzk_num_alloc(cs, cs->values ? &e->value : NULL);
    cuzk_lc_add_lc(cs, &cs->lc[0], &e->lc, NULL);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], v.var);
    cuzk_cs_enforce(cs, "enforce num allocation preserves lc");
    return v;
}

/* square_sum: res = (l + k)^2; (l + k ONE) * (l + k ONE) = res. */
static cuzk_num square_sum(cuzk_cs *cs, const cuzk_fr *k, cuzk_num l)
{
    cuzk_fr v;
    if (cs->values) {
        cuzk_fr_add(&v, &l.value, k);
        cuzk_fr_sqr(&v, &v);
    }
    cuzk_num res = cuzk_num_alloc(cs, cs->values ? &v : NULL);
    for (int m = 0; m < 2; m++) {
        cuzk_lc_add_one(cs, &cs->lc[m], l.var);
        cuzk_lc_add(cs, &cs->lc[m], CUZK_VAR_ONE, k);
    }
    cuzk_lc_add_one(cs, &cs->lc[2], res.var);
    cuzk_cs_enforce(cs, "squared sum constraint");
    return res;
}

/* mul_sum(a, b, pre, post): res = a (b + pre) + post;
 * A = b + pre ONE, B = a, C = res - post ONE (each constant only when given). */
static cuzk_num mul_sum(cuzk_cs *cs, cuzk_num a, cuzk_num b, const cuzk_fr *pre, const cuzk_fr *post)
{
    cuzk_fr v;
    if (cs->values) {
        v = b.value;
        if (pre) cuzk_fr_add(&v, &v, pre);
        cuzk_fr_mul(&v, &v, &a.value);
        if (post) cuzk_fr_add(&v, &v, post);
    }
    cuzk_num res = cuzk_num_alloc(cs, cs->values ? &v : NULL);
    cuzk_lc_add_one(cs, &cs->lc[0], b.var);
    if (pre) cuzk_lc_add(cs, &cs->lc[0], CUZK_VAR_ONE, pre);
    cuzk_lc_add_one(cs, &cs->lc[1], a.var);
    cuzk_lc_add_one(cs, &cs->lc[2], res.var);
    if (post && cs->keep_lcs) {
        cuzk_fr neg;
        cuzk_fr_neg(&neg, post);
        cuzk_lc_add(cs, &cs->lc[2], CUZK_VAR_ONE, &neg);
    }
    cuzk_cs_enforce(cs,
                    pre ? (post ? "mul sum constraint pre-post-add" : "mul sum constraint pre-add")
                        : (post ? "mul sum constraint post-add" : "mul sum constraint"));
    return res;
}

/* quintic_s_box: l = ensure_allocated(e); l^2; l^4; l^4 * l + post. */
static cuzk_num sbox(cuzk_cs *cs, const elt *e, const cuzk_fr *post)
{
    cuzk_cs_push(cs, "S-box input");
    cuzk_num l = ensure_allocated(cs, e);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^2");
    cuzk_num l2 = cuzk_num_square(cs, l);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^4");
    cuzk_num l4 = cuzk_num_square(cs, l2);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "(l4 * l) + rk)");
    cuzk_num l5 = mul_sum(cs, l4, l, NULL, post);
    cuzk_cs_pop(cs);
    return l5;
}

/* quintic_s_box_pre_add (first round, preimage elements): (l + pre)^2; ^4; (l + pre) l^4 + post. */
static cuzk_num sbox_pre_add(cuzk_cs *cs, const elt *e, const cuzk_fr *pre, const cuzk_fr *post)
{
    cuzk_cs_push(cs, "S-box input");
    cuzk_num l = ensure_allocated(cs, e);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "(l+rk)^2");
    cuzk_num l2 = square_sum(cs, pre, l);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^4");
    cuzk_num l4 = cuzk_num_square(cs, l2);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l4 * (l + rk)");
    cuzk_num l5 = mul_sum(cs, l4, l, pre, post);
    cuzk_cs_pop(cs);
    return l5;
}

/* state := state * m (m row-major, state a row vector): element j = sum_i m[i][j] e_i. */
static void mix_dense(circuit *c, const cuzk_fr *m)
{
    const unsigned t = c->t;
    for (unsigned j = 0; j < t; j++) {
        elt_set_zero(&c->scratch[j]);
        for (unsigned i = 0; i < t; i++) elt_accumulate(c->cs, &c->scratch[j], &c->e[i], &m[i * t + j]);
    }
    for (unsigned j = 0; j < t; j++) {
        elt tmp = c->e[j];
        c->e[j] = c->scratch[j];
        c->scratch[j] = tmp;
    }
}

/* Sparse M'': element 0 = sum_i w_hat[i] e_i; element j = e_j + v_rest[j-1] e_0. Elements
 * j >= 1 are combinations already (the previous mixing made them), so they extend in place. */
static void mix_sparse(circuit *c, const cuzk_fr *w_hat, const cuzk_fr *v_rest)
{
    const unsigned t = c->t;
    elt *n0 = &c->scratch[0];
    elt_set_zero(n0);
    for (unsigned i = 0; i < t; i++) elt_accumulate(c->cs, n0, &c->e[i], &w_hat[i]);
    for (unsigned j = 1; j < t; j++) elt_accumulate(c->cs, &c->e[j], &c->e[0], &v_rest[j - 1]);
    elt tmp = c->e[0];
    c->e[0] = *n0;
    *n0 = tmp;
}

/* neptune's product_mds: the last initial full round mixes with pre_sparse, the partial
 * rounds with their sparse matrices, every other round with M. */
static void product_mds(circuit *c)
{
    const cuzk_poseidon_constants *pc = c->pc;
    const unsigned half = pc->full_rounds / 2;
    if (c->round == half - 1) {
        mix_dense(c, pc->pre_sparse);
    } else if (c->round > half - 1 && c->round < half + pc->partial_rounds) {
        size_t k = c->round - half;
        mix_sparse(c, &pc->sparse_w_hat[k * c->t], &pc->sparse_v_rest[k * (c->t - 1)]);
    } else {
        mix_dense(c, pc->mds);
    }
    c->round++;
}

static void full_round(circuit *c, bool first, bool last)
{
    cuzk_cs *cs = c->cs;
    const cuzk_fr *cc = c->pc->compressed_constants;
    const cuzk_fr *pre = NULL, *post = NULL;
    if (first) {
        pre = &cc[c->offset];
        c->offset += c->t;
    }
    if (first || !last) {
        post = &cc[c->offset];
        c->offset += c->t;
    }
    for (unsigned i = 0; i < c->t; i++) {
        if (first && i == 0) {
            /* The domain tag is a constant: its S-box is computed here, without a constraint. */
            cuzk_fr x = c->e[0].value, x4;
            cuzk_fr_add(&x, &x, &pre[0]);
            cuzk_fr_sqr(&x4, &x);
            cuzk_fr_sqr(&x4, &x4);
            cuzk_fr_mul(&x, &x, &x4);
            cuzk_fr_add(&x, &x, &post[0]);
            elt_set_constant(cs, &c->e[0], &x);
            continue;
        }
        cuzk_cs_push(cs, "quintic s-box %u", i);
        cuzk_num r = first ? sbox_pre_add(cs, &c->e[i], &pre[i], &post[i]) : sbox(cs, &c->e[i], post ? &post[i] : NULL);
        cuzk_cs_pop(cs);
        elt_set_allocated(&c->e[i], r);
    }
    product_mds(c);
}

static void partial_round(circuit *c)
{
    const cuzk_fr *k = &c->pc->compressed_constants[c->offset++];
    cuzk_cs_push(c->cs, "solitary quintic s-box");
    cuzk_num r = sbox(c->cs, &c->e[0], k);
    cuzk_cs_pop(c->cs);
    elt_set_allocated(&c->e[0], r);
    product_mds(c);
}

size_t cuzk_poseidon_circuit_size(unsigned arity)
{
    const cuzk_poseidon_constants *pc = cuzk_poseidon_constants_get(arity);
    if (!pc) return 0;
    size_t t = pc->width;
    /* round 0: 3 per preimage element; other full rounds: 4 per element; partial: 4; result: 1 */
    return 3 * (t - 1) + 4 * t * (pc->full_rounds - 1) + 4 * (size_t)pc->partial_rounds + 1;
}

/* ---------------------------------------------------------------- WITNESS mode
 * The same hash with no combinations at all: the state is plain values and every variable the
 * circuit above allocates is written, in its order, into one block of aux slots. What each
 * S-box allocates: in the first round (element 0, the constant tag, allocates nothing; the
 * preimage elements are allocated already) (x+pre)^2, ^4, ^4 (x+pre) + post; in every other
 * round the element's combination x first (ensure_allocated), then x^2, x^4, x^4 x (+ post
 * except in the terminal round); after the last round the result element 1. */

static void sbox_values(cuzk_fr **out, cuzk_fr *x, const cuzk_fr *post)
{
    cuzk_fr *o = *out;
    o[0] = *x;
    cuzk_fr_sqr(&o[1], x);
    cuzk_fr_sqr(&o[2], &o[1]);
    cuzk_fr_mul(&o[3], &o[2], x);
    if (post) cuzk_fr_add(&o[3], &o[3], post);
    *x = o[3];
    *out = o + 4;
}

/* s := s m (m row-major, s a row vector). */
static void mix_dense_values(cuzk_fr *s, unsigned t, const cuzk_fr *m)
{
    cuzk_fr n[MAXT];
    cuzk_fr_row_times_matrix(n, s, m, t);
    memcpy(s, n, t * sizeof *s);
}

static void mix_values(const cuzk_poseidon_constants *pc, cuzk_fr *s, unsigned round)
{
    const unsigned t = pc->width, half = pc->full_rounds / 2;
    if (round == half - 1) {
        mix_dense_values(s, t, pc->pre_sparse);
    } else if (round > half - 1 && round < half + pc->partial_rounds) {
        const cuzk_fr *w = &pc->sparse_w_hat[(round - half) * t], *v = &pc->sparse_v_rest[(round - half) * (t - 1)];
        cuzk_fr n0, p;
        cuzk_fr_mul(&n0, &s[0], &w[0]);
        for (unsigned i = 1; i < t; i++) {
            cuzk_fr_mul(&p, &s[i], &w[i]);
            cuzk_fr_add(&n0, &n0, &p);
            cuzk_fr_mul(&p, &s[0], &v[i - 1]);
            cuzk_fr_add(&s[i], &s[i], &p);
        }
        s[0] = n0;
    } else {
        mix_dense_values(s, t, pc->mds);
    }
}

/* The system's recent hashes: the same inputs give the same variables' values, so a hash met
 * again copies its block from where it was written instead of computing it again. Real
 * Merkle paths meet them: every challenge of a sector ends in the hash of the same top-level
 * nodes (a 32 GiB WindowPoSt sector's ten challenges: 9 of their 100 tree hashes), and
 * challenges in one base tree share its top. A ring of recent entries, a hit renewed so that a
 * sector's shared hash stays while its challenges' other hashes pass through. */
#define MEMO_SLOTS 64
typedef struct {
    unsigned arity; /* 0: empty */
    size_t aux;     /* where its variables start in this system */
    cuzk_fr in[MAXT];
} memo_entry;

typedef struct {
    unsigned next;
    memo_entry e[MEMO_SLOTS];
} poseidon_memo;

/* The entry for these inputs, or NULL. */
static memo_entry *memo_find(poseidon_memo *m, unsigned arity, const cuzk_fr *in, unsigned t)
{
    for (unsigned k = 0; k < MEMO_SLOTS; k++) {
        memo_entry *e = &m->e[k];
        if (e->arity == arity && e->in[1].l[0] == in[1].l[0] && !memcmp(e->in, in, t * sizeof *in)) return e;
    }
    return NULL;
}

/* The next slot of the ring, for a new entry or a renewed one (moved there). */
static memo_entry *memo_next(poseidon_memo *m) { return &m->e[m->next++ % MEMO_SLOTS]; }

static cuzk_num poseidon_witness(cuzk_cs *cs, const cuzk_poseidon_constants *pc, const cuzk_fr *tag,
                                 const cuzk_num *preimage)
{
    cuzk_num out = {CUZK_VAR_AUX, CUZK_FR_ZERO};
    const unsigned t = pc->width, half = pc->full_rounds / 2;
    const size_t n = cuzk_poseidon_circuit_size(pc->arity);
    poseidon_memo *memo = cuzk_cs_memo(cs, sizeof *memo);
    cuzk_var first;
    cuzk_fr *o = memo ? cuzk_cs_witness_block(cs, n, n, &first) : NULL, *o0 = o;
    if (!o) return out;
    cuzk_fr s[MAXT], x4;
    s[0] = *tag;
    for (unsigned i = 1; i < t; i++) s[i] = preimage[i - 1].value;
    memo_entry *seen = memo_find(memo, pc->arity, s, t);
    if (seen) {
        memcpy(o, cs->aux_vals + seen->aux, n * sizeof *o);
        out.var = first + (cuzk_var)(n - 1);
        out.value = o[n - 1];
        memo_entry renewed = *seen;
        seen->arity = 0;
        *memo_next(memo) = renewed;
        return out;
    }
    memo_entry *slot = memo_next(memo);
    slot->arity = pc->arity;
    slot->aux = cuzk_var_index(first);
    memcpy(slot->in, s, t * sizeof *s);
    const cuzk_fr *cc = pc->compressed_constants;

    /* first round: pre-add and post-add constants */
    const cuzk_fr *pre = cc, *post = cc + t;
    for (unsigned i = 0; i < t; i++) {
        cuzk_fr x;
        cuzk_fr_add(&x, &s[i], &pre[i]);
        if (i == 0) { /* the constant tag: no variables */
            cuzk_fr_sqr(&x4, &x);
            cuzk_fr_sqr(&x4, &x4);
            cuzk_fr_mul(&s[0], &x, &x4);
            cuzk_fr_add(&s[0], &s[0], &post[0]);
            continue;
        }
        cuzk_fr_sqr(&o[0], &x);
        cuzk_fr_sqr(&o[1], &o[0]);
        cuzk_fr_mul(&o[2], &o[1], &x);
        cuzk_fr_add(&o[2], &o[2], &post[i]);
        s[i] = o[2];
        o += 3;
    }
    size_t offset = 2 * (size_t)t;
    unsigned round = 0;
    mix_values(pc, s, round++);
    for (unsigned r = 1; r < half; r++, offset += t) {
        for (unsigned i = 0; i < t; i++) sbox_values(&o, &s[i], &cc[offset + i]);
        mix_values(pc, s, round++);
    }
    for (unsigned r = 0; r < pc->partial_rounds; r++) {
        sbox_values(&o, &s[0], &cc[offset++]);
        mix_values(pc, s, round++);
    }
    for (unsigned r = 0; r + 1 < half; r++, offset += t) {
        for (unsigned i = 0; i < t; i++) sbox_values(&o, &s[i], &cc[offset + i]);
        mix_values(pc, s, round++);
    }
    for (unsigned i = 0; i < t; i++) sbox_values(&o, &s[i], NULL); /* terminal round: no constants */
    mix_values(pc, s, round++);
    *o++ = s[1]; /* the hash result, allocated */
    if ((size_t)(o - o0) != n || offset != pc->compressed_len) {
        cuzk_cs_fail(cs,
                     cuzk_fail(CUZK_EINTERNAL,
                               "poseidon witness wrote %zu of %zu variables, used %zu of %zu "
                               "compressed constants",
                               (size_t)(o - o0), n, offset, pc->compressed_len));
        return out;
    }
    out.var = first + (cuzk_var)(n - 1);
    out.value = s[1];
    return out;
}

static cuzk_num poseidon_circuit(cuzk_cs *cs, unsigned arity, const cuzk_fr *tag, const cuzk_num *preimage)
{
    cuzk_num out = {CUZK_VAR_AUX, CUZK_FR_ZERO};
    if (cs->status) return out;
    const cuzk_poseidon_constants *pc = cuzk_poseidon_constants_get(arity);
    if (!pc || pc->width > MAXT) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "poseidon circuit: unsupported arity %u (2, 4, 8, 11)", arity));
        return out;
    }
    if (cs->mode == CUZK_CS_WITNESS) return poseidon_witness(cs, pc, tag ? tag : &pc->domain_tag, preimage);
    circuit c;
    memset(&c, 0, sizeof c);
    c.cs = cs;
    c.pc = pc;
    c.t = pc->width;
    for (unsigned i = 0; i < c.t; i++) {
        cuzk_lc_init(&c.e[i].lc);
        cuzk_lc_init(&c.scratch[i].lc);
    }
    elt_set_constant(cs, &c.e[0], tag ? tag : &pc->domain_tag);
    for (unsigned i = 0; i < arity; i++) elt_set_allocated(&c.e[i + 1], preimage[i]);

    const unsigned half = pc->full_rounds / 2;
    cuzk_cs_push(cs, "first round");
    full_round(&c, true, false);
    cuzk_cs_pop(cs);
    for (unsigned r = 1; r < half; r++) {
        cuzk_cs_push(cs, "initial full round %u", r);
        full_round(&c, false, false);
        cuzk_cs_pop(cs);
    }
    for (unsigned r = 0; r < pc->partial_rounds; r++) {
        cuzk_cs_push(cs, "partial round %u", r);
        partial_round(&c);
        cuzk_cs_pop(cs);
    }
    for (unsigned r = 0; r + 1 < half; r++) {
        cuzk_cs_push(cs, "final full round %u", r);
        full_round(&c, false, false);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_push(cs, "terminal full round");
    full_round(&c, false, true);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "hash result");
    out = ensure_allocated(cs, &c.e[1]);
    cuzk_cs_pop(cs);

    if (c.offset != pc->compressed_len && !cs->status)
        cuzk_cs_fail(cs,
                     cuzk_fail(CUZK_EINTERNAL, "poseidon circuit used %zu of %zu compressed constants", c.offset,
                               pc->compressed_len));
    for (unsigned i = 0; i < c.t; i++) {
        cuzk_lc_free(&c.e[i].lc);
        cuzk_lc_free(&c.scratch[i].lc);
    }
    return out;
}

cuzk_num cuzk_poseidon_circuit(cuzk_cs *cs, unsigned arity, const cuzk_num *preimage)
{
    return poseidon_circuit(cs, arity, NULL, preimage);
}

cuzk_num cuzk_poseidon_circuit_tagged(cuzk_cs *cs, unsigned arity, const cuzk_fr *domain_tag, const cuzk_num *preimage)
{
    return poseidon_circuit(cs, arity, domain_tag, preimage);
}
