/* The Poseidon circuit (neptune 11 legacy circuit.rs): counts as neptune's tests assert them,
 * the digest equal to the native hash, the linear combinations neptune's MDS mixing builds,
 * and the same R1CS in every constraint-system mode. */
#include <string.h>

#include "cuzk/testcircuits.h"
#include "cuzk/gadgets/poseidon.h"
#include "gadget_modes.h"
#include "cuzk/hash.h"
#include "harness.h"

static const unsigned ARITIES[] = {2, 4, 8, 11};

/* neptune v11.0.0 src/circuit.rs test_poseidon_hash (Strength::Standard): U2 311, U4 377,
 * U8 505; storage-proofs-porep stacked/circuit/hash.rs tests: arity 11 = 598. */
static size_t expected_constraints(unsigned arity)
{
    switch (arity) {
    case 2: return 311;
    case 4: return 377;
    case 8: return 505;
    case 11: return 598;
    default: return 0;
    }
}

typedef struct {
    unsigned arity;
    cuzk_fr pre[11];
    cuzk_num out;
} hash_ctx;

static void synth_hash(cuzk_cs *cs, void *p)
{
    hash_ctx *h = p;
    cuzk_num pre[11];
    for (unsigned i = 0; i < h->arity; i++) pre[i] = cuzk_num_alloc(cs, cs->values ? &h->pre[i] : NULL);
    h->out = cuzk_poseidon_circuit(cs, h->arity, pre);
}

static bool fr_is_limbs(const cuzk_fr *a, const uint64_t limbs[4])
{
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, a);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            if (le[8 * i + j] != (uint8_t)(limbs[i] >> (8 * j))) return false;
    return true;
}

static void test_counts(void)
{
    for (size_t k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++) {
        unsigned a = ARITIES[k];
        const cuzk_poseidon_constants *pc = cuzk_poseidon_constants_get(a);
        hash_ctx h = {.arity = a};
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
        synth_hash(cs, &h);
        CHECK_OK(cuzk_cs_status(cs));
        size_t t = a + 1;
        CHECK(cs->num_constraints == expected_constraints(a));
        CHECK(cs->num_aux == a + expected_constraints(a)); /* one aux per constraint, plus the preimage */
        CHECK(cs->num_inputs == 1);
        /* 3(t-1) + 28t + 4 R_P + 1 */
        CHECK(cs->num_constraints == 3 * (t - 1) + 28 * t + 4 * pc->partial_rounds + 1);
        CHECK(cuzk_poseidon_circuit_size(a) == expected_constraints(a));
        cuzk_cs_destroy(cs);
    }
    CHECK(cuzk_poseidon_circuit_size(3) == 0);
    /* an unsupported arity fails the system, with a message */
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_num pre[3] = {{CUZK_VAR_AUX, CUZK_FR_ZERO}};
    (void)cuzk_poseidon_circuit(cs, 3, pre);
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_cs_destroy(cs);
}

/* Digest = native hash (optimized static and textbook), in PROVE and WITNESS modes, for
 * random preimages; the neptune hash_values vectors ([0, 1, ..., arity-1]). */
static void test_values(void)
{
    static const struct {
        unsigned arity;
        uint64_t limbs[4];
    } kat[] = {
        /* neptune v11.0.0 src/poseidon.rs hash_values */
        {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
        {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
        {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
        {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
    };
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        hash_ctx h = {.arity = kat[k].arity};
        for (unsigned i = 0; i < h.arity; i++) cuzk_fr_from_u64(&h.pre[i], i);
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        synth_hash(cs, &h);
        CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
        CHECK(fr_is_limbs(&h.out.value, kat[k].limbs));
        CHECK(fr_is_limbs(cuzk_cs_value(cs, h.out.var), kat[k].limbs));
        cuzk_cs_destroy(cs);
    }

    cuzk_rng rng;
    cuzk_rng_seed(&rng, 11);
    for (size_t k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++)
        for (int trial = 0; trial < 4; trial++) {
            hash_ctx h = {.arity = ARITIES[k]};
            for (unsigned i = 0; i < h.arity; i++) cuzk_fr_random(&h.pre[i], &rng);
            cuzk_fr want, want2;
            CHECK_OK(cuzk_poseidon_hash(&want, h.arity, h.pre));
            CHECK_OK(cuzk_poseidon_hash_correct(&want2, h.arity, h.pre));
            CHECK(cuzk_fr_eq(&want, &want2));
            cuzk_cs_mode modes[] = {CUZK_CS_PROVE, CUZK_CS_WITNESS, CUZK_CS_TEST};
            for (int m = 0; m < 3; m++) {
                cuzk_cs *cs;
                CHECK_OK(cuzk_cs_create(&cs, modes[m], true));
                synth_hash(cs, &h);
                CHECK_OK(cuzk_cs_status(cs));
                CHECK(cuzk_fr_eq(&h.out.value, &want));
                CHECK(cuzk_fr_eq(cuzk_cs_value(cs, h.out.var), &want));
                cuzk_cs_destroy(cs);
            }
        }
}

/* WITNESS mode computes the hash natively into one block of variables (no combinations): every
 * aux value, the counts and the output variable equal TEST mode's, which builds the R1CS and
 * is checked satisfied; with the default tag and another tag, after other variables, and
 * inside a WITNESS child whose reserved range the block must respect. */
static void test_witness_block(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 12);
    for (size_t k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++)
        for (int tagged = 0; tagged < 2; tagged++) {
            unsigned a = ARITIES[k];
            cuzk_fr pre_v[11], tag, lead;
            for (unsigned i = 0; i < a; i++) cuzk_fr_random(&pre_v[i], &rng);
            cuzk_fr_random(&tag, &rng);
            cuzk_fr_random(&lead, &rng);
            cuzk_cs *cs[2];
            cuzk_num out[2];
            cuzk_cs_mode modes[2] = {CUZK_CS_TEST, CUZK_CS_WITNESS};
            for (int m = 0; m < 2; m++) {
                CHECK_OK(cuzk_cs_create(&cs[m], modes[m], true));
                (void)cuzk_num_alloc(cs[m], &lead); /* the hash's variables start past aux 0 */
                cuzk_num pre[11];
                for (unsigned i = 0; i < a; i++) pre[i] = cuzk_num_alloc(cs[m], &pre_v[i]);
                /* the same hash three times (the memo's copies), with the other tag and a changed
                 * last input between: each must still be computed, not copied */
                for (int rep = 0; rep < 3; rep++) {
                    out[m] = tagged ? cuzk_poseidon_circuit_tagged(cs[m], a, &tag, pre)
                                    : cuzk_poseidon_circuit(cs[m], a, pre);
                    cuzk_num other[11];
                    memcpy(other, pre, sizeof other);
                    (void)(tagged ? cuzk_poseidon_circuit(cs[m], a, pre)
                                  : cuzk_poseidon_circuit_tagged(cs[m], a, &tag, pre));
                    cuzk_fr changed;
                    cuzk_fr_add(&changed, &pre_v[a - 1], &CUZK_FR_ONE);
                    other[a - 1] = cuzk_num_alloc(cs[m], &changed);
                    (void)cuzk_poseidon_circuit(cs[m], a, other);
                }
                CHECK_OK(cuzk_cs_status(cs[m]));
            }
            CHECK(cuzk_cs_which_unsatisfied(cs[0], NULL) == -1);
            CHECK(cs[0]->num_aux == cs[1]->num_aux && cs[0]->num_constraints == cs[1]->num_constraints);
            CHECK(cs[1]->num_aux == 1 + a + 3 + 9 * cuzk_poseidon_circuit_size(a));
            CHECK(out[0].var == out[1].var && cuzk_fr_eq(&out[0].value, &out[1].value));
            size_t same = 0;
            for (size_t i = 0; i < cs[0]->num_aux; i++) same += cuzk_fr_eq(&cs[0]->aux_vals[i], &cs[1]->aux_vals[i]);
            CHECK(same == cs[0]->num_aux);
            for (int m = 0; m < 2; m++) cuzk_cs_destroy(cs[m]);
        }

    /* a child with room for exactly one hash: fits; one variable less: fails, writing nothing past */
    const size_t n = cuzk_poseidon_circuit_size(8);
    for (int short_by = 0; short_by < 2; short_by++) {
        cuzk_cs *parent, *child;
        CHECK_OK(cuzk_cs_create(&parent, CUZK_CS_WITNESS, true));
        CHECK_OK(cuzk_cs_reserve(parent, 1, 8 + n + 1, 0));
        for (size_t i = 0; i < 8 + n + 1; i++) (void)cuzk_cs_alloc(parent, &CUZK_FR_ONE);
        CHECK_OK(cuzk_cs_status(parent));
        cuzk_fr guard = parent->aux_vals[8 + n];
        parent->aux_cap = 8 + n - (size_t)short_by; /* the child's range ends here */
        CHECK_OK(cuzk_cs_witness_child(parent, 1, 0, &child));
        cuzk_num pre[8];
        for (unsigned i = 0; i < 8; i++) pre[i] = cuzk_num_alloc(child, &CUZK_FR_ONE);
        (void)cuzk_poseidon_circuit(child, 8, pre);
        CHECK(short_by ? cuzk_cs_status(child) == CUZK_EINTERNAL : cuzk_cs_status(child) == CUZK_OK);
        CHECK(cuzk_fr_eq(&parent->aux_vals[8 + n], &guard));
        cuzk_cs_destroy(child);
        parent->aux_cap = 8 + n + 1;
        cuzk_cs_destroy(parent);
    }
}

/* A wrong aux value is caught, and TEST mode names where. */
static void test_unsatisfied(void)
{
    hash_ctx h = {.arity = 2};
    cuzk_fr_from_u64(&h.pre[0], 5);
    cuzk_fr_from_u64(&h.pre[1], 7);
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    cuzk_cs_push(cs, "poseidon");
    synth_hash(cs, &h);
    cuzk_cs_pop(cs);
    /* corrupt the l^4 of the first preimage element (aux 2 + 1) */
    cuzk_fr_add(&cs->aux_vals[3], &cs->aux_vals[3], &CUZK_FR_ONE);
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 1);
    CHECK(path && strstr(path, "/poseidon/first round/quintic s-box 1/l^4/") == path);
    cuzk_cs_destroy(cs);
}

/* ---------------------------------------------------------------- the matrices */

/* The terms of row r of matrix k as (column, coefficient) pairs. */
static uint32_t row_len(const cuzk_r1cs *m, int k, size_t r) { return m->row_ptr[k][r + 1] - m->row_ptr[k][r]; }

static bool row_coeff(const cuzk_r1cs *m, int k, size_t r, uint32_t col, cuzk_fr *out)
{
    for (uint32_t j = m->row_ptr[k][r]; j < m->row_ptr[k][r + 1]; j++)
        if (m->col[k][j] == col) {
            *out = m->val[k][j];
            return true;
        }
    return false;
}

static bool row_has(const cuzk_r1cs *m, int k, size_t r, uint32_t col, const cuzk_fr *want)
{
    cuzk_fr v;
    return row_coeff(m, k, r, col, &v) && cuzk_fr_eq(&v, want);
}

/* Expectations derived from neptune's circuit.rs independently of the gadget's code:
 * which rows carry which linear combinations, how many terms the MDS mixing leaves in them
 * (constants only after round 0; the partial rounds' combinations grow by one l^5 per round),
 * and the coefficients where they are short enough to write down. */
static void test_matrices(void)
{
    for (size_t ak = 0; ak < sizeof ARITIES / sizeof ARITIES[0]; ak++) {
        const unsigned arity = ARITIES[ak], t = arity + 1;
        const cuzk_poseidon_constants *pc = cuzk_poseidon_constants_get(arity);
        const unsigned rp = pc->partial_rounds;
        const cuzk_fr *cc = pc->compressed_constants, *M = pc->mds;
        hash_ctx h = {.arity = arity};
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
        synth_hash(cs, &h);
        cuzk_r1cs m;
        CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
        cuzk_cs_destroy(cs);
        const uint32_t P = arity; /* preimage aux */
        /* column of aux index i; row r allocates aux P + r (every step is one aux, one row) */
#define AUX(i) ((uint32_t)(1 + (i)))
        const size_t r1 = 3 * (t - 1);      /* first row of initial full round 1 */
        const size_t rpart = r1 + 12 * t;   /* first row of the partial rounds */
        const size_t rfin = rpart + 4 * rp; /* first row of the final full rounds */
        const size_t rres = rfin + 16 * t;  /* the hash result row */
        CHECK(m.num_constraints == rres + 1);
        int bad = 0;

        /* round 0, element i >= 1: (l + pre)^2, ^4, (l + pre) l^4 = l5 - post */
        for (unsigned i = 1; i < t; i++) {
            size_t r = 3 * (i - 1);
            cuzk_fr neg_post;
            cuzk_fr_neg(&neg_post, &cc[t + i]);
            bad |= !(row_len(&m, 0, r) == 2 && row_has(&m, 0, r, 0, &cc[i]) &&
                     row_has(&m, 0, r, AUX(i - 1), &CUZK_FR_ONE));
            bad |= !(row_len(&m, 1, r) == 2 && row_len(&m, 2, r) == 1 && row_has(&m, 2, r, AUX(P + r), &CUZK_FR_ONE));
            bad |= !(row_len(&m, 0, r + 1) == 1 && row_has(&m, 0, r + 1, AUX(P + r), &CUZK_FR_ONE));
            bad |= !(row_len(&m, 0, r + 2) == 2 && row_has(&m, 0, r + 2, AUX(i - 1), &CUZK_FR_ONE) &&
                     row_has(&m, 0, r + 2, 0, &cc[i]));
            bad |= !(row_len(&m, 1, r + 2) == 1 && row_has(&m, 1, r + 2, AUX(P + r + 1), &CUZK_FR_ONE));
            bad |= !(row_len(&m, 2, r + 2) == 2 && row_has(&m, 2, r + 2, AUX(P + r + 2), &CUZK_FR_ONE) &&
                     row_has(&m, 2, r + 2, 0, &neg_post));
        }
        CHECK(!bad);

        /* round 1 S-box inputs: element j = tag5 * M[0][j] ONE + sum_i M[i][j] l5_i, where
         * tag5 = (tag + pre_0)^5 + post_0 is the constant S-box of round 0 */
        cuzk_fr tag5 = pc->domain_tag, x4;
        cuzk_fr_add(&tag5, &tag5, &cc[0]);
        cuzk_fr_sqr(&x4, &tag5);
        cuzk_fr_sqr(&x4, &x4);
        cuzk_fr_mul(&tag5, &tag5, &x4);
        cuzk_fr_add(&tag5, &tag5, &cc[t]);
        bad = 0;
        for (unsigned j = 0; j < t; j++) {
            size_t r = r1 + 4 * j;
            cuzk_fr c0;
            cuzk_fr_mul(&c0, &tag5, &M[j]);
            bad |= !(row_len(&m, 0, r) == t && row_has(&m, 0, r, 0, &c0));
            for (unsigned i = 1; i < t; i++) bad |= !row_has(&m, 0, r, AUX(P + 3 * (i - 1) + 2), &M[i * t + j]);
            bad |= !(row_len(&m, 1, r) == 1 && row_has(&m, 1, r, 0, &CUZK_FR_ONE));
            bad |= !(row_len(&m, 2, r) == 1 && row_has(&m, 2, r, AUX(P + r), &CUZK_FR_ONE));
        }
        CHECK(!bad);

        /* rounds 2, 3: t allocated terms, no constant */
        bad = 0;
        for (size_t r = r1 + 4 * t; r < rpart; r += 4) {
            cuzk_fr unused;
            bad |= row_len(&m, 0, r) != t || row_coeff(&m, 0, r, 0, &unused);
        }
        CHECK(!bad);

        /* partial round 0: element 0 = sum_i pre_sparse[i][0] l5_i over round 3's l5 */
        const size_t l5r3 = P + r1 + 8 * t + 3; /* aux of round 3 element 0's l5; element i at + 4i */
        bad = !(row_len(&m, 0, rpart) == t);
        for (unsigned i = 0; i < t; i++) bad |= !row_has(&m, 0, rpart, AUX(l5r3 + 4 * i), &pc->pre_sparse[i * t]);
        CHECK(!bad);
        /* partial round 1: element 0 = w_hat . (l5_p0, e_1 .. e_{t-1}), where e_j is still
         * round 3's sum_i pre_sparse[i][j] l5_i: the sparse mixing reads the old e_j before
         * adding v_rest[j-1] l5_p0 to them */
        {
            const cuzk_fr *w = pc->sparse_w_hat;
            const size_t l5p0 = P + rpart + 3;
            cuzk_fr c = w[0], tmp;
            bad = !(row_len(&m, 0, rpart + 4) == t + 1 && row_has(&m, 0, rpart + 4, AUX(l5p0), &c));
            for (unsigned i = 0; i < t; i++) {
                cuzk_fr ci = CUZK_FR_ZERO;
                for (unsigned j = 1; j < t; j++) {
                    cuzk_fr_mul(&tmp, &w[j], &pc->pre_sparse[i * t + j]);
                    cuzk_fr_add(&ci, &ci, &tmp);
                }
                bad |= !row_has(&m, 0, rpart + 4, AUX(l5r3 + 4 * i), &ci);
            }
            CHECK(!bad);
            /* partial round 2: l5_p0 reaches element 0 only through e_j += v_rest[j-1] l5_p0, so
             * its coefficient is sum_j w_hat'[j] v_rest[j-1] (w_hat' of sparse matrix 1) */
            const cuzk_fr *w1 = &pc->sparse_w_hat[t], *v0 = pc->sparse_v_rest;
            c = CUZK_FR_ZERO;
            for (unsigned j = 1; j < t; j++) {
                cuzk_fr_mul(&tmp, &w1[j], &v0[j - 1]);
                cuzk_fr_add(&c, &c, &tmp);
            }
            CHECK(row_has(&m, 0, rpart + 8, AUX(l5p0), &c) && row_has(&m, 0, rpart + 8, AUX(l5p0 + 4), &w1[0]));
        }
        /* partial round k: t + k terms; each solitary S-box adds its l5 after the post key */
        bad = 0;
        for (unsigned k = 0; k < rp; k++) {
            size_t r = rpart + 4 * k;
            cuzk_fr neg_post;
            cuzk_fr_neg(&neg_post, &cc[5 * t + k]); /* after the 2t + 3t keys of rounds 0..3 */
            bad |= row_len(&m, 0, r) != t + k;
            bad |= !(row_len(&m, 2, r + 3) == 2 && row_has(&m, 2, r + 3, 0, &neg_post));
        }
        CHECK(!bad);
        /* final full round 0: every element carries the t + R_P terms of the partial rounds */
        bad = 0;
        for (unsigned j = 0; j < t; j++) bad |= row_len(&m, 0, rfin + 4 * j) != t + rp;
        for (size_t r = rfin + 4 * t; r < rres; r += 4) bad |= row_len(&m, 0, r) != t;
        /* terminal round: no post key, C = l5 alone */
        for (unsigned j = 0; j < t; j++) bad |= row_len(&m, 2, rfin + 12 * t + 4 * j + 3) != 1;
        CHECK(!bad);
        /* hash result: sum_i M[i][1] l5_i of the terminal round, * ONE = result */
        bad = !(row_len(&m, 0, rres) == t && row_len(&m, 1, rres) == 1 &&
                row_has(&m, 2, rres, AUX(P + rres), &CUZK_FR_ONE));
        for (unsigned i = 0; i < t; i++)
            bad |= !row_has(&m, 0, rres, AUX(P + rfin + 12 * t + 4 * i + 3), &M[i * t + 1]);
        CHECK(!bad);
#undef AUX
        cuzk_r1cs_free(&m);
    }
}

static void test_modes(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 5);
    for (size_t k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++) {
        hash_ctx h = {.arity = ARITIES[k]};
        for (unsigned i = 0; i < h.arity; i++) cuzk_fr_random(&h.pre[i], &rng);
        gm_counts n = gm_check_all_modes(synth_hash, &h);
        CHECK(n.constraints == expected_constraints(h.arity) && n.inputs == 1 && n.aux == h.arity + n.constraints);
    }
}

/* The built-in poseidon:ARITY circuits: the digest inputized (one more input and constraint). */
static void test_builtin(void)
{
    for (size_t k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++) {
        char name[32];
        snprintf(name, sizeof name, "poseidon:%u", ARITIES[k]);
        cuzk_circuit *c;
        CHECK_OK(cuzk_circuit_open(&c, name));
        if (!c) continue;
        cuzk_circuit_counts n;
        CHECK_OK(cuzk_circuit_count(c, &n));
        CHECK(n.constraints == expected_constraints(ARITIES[k]) + 1 && n.inputs == 2 &&
              n.aux == ARITIES[k] + expected_constraints(ARITIES[k]));
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        CHECK_OK(cuzk_circuit_synthesize(c, cs, 42));
        CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
        /* the input is the digest of the preimage, the first `arity` aux */
        cuzk_fr want;
        CHECK_OK(cuzk_poseidon_hash(&want, ARITIES[k], cs->aux_vals));
        CHECK(cuzk_fr_eq(&cs->input_vals[1], &want));
        cuzk_cs_destroy(cs);
        cuzk_circuit_free(c);
    }
    const char *bad[] = {"poseidon:3", "poseidon:", "poseidon:2x", "poseidon:16"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_circuit *c = NULL;
        CHECK_FAILS(cuzk_circuit_open(&c, bad[i]), CUZK_EINVAL);
        CHECK(c == NULL && strstr(cuzk_last_error(), "arity") != NULL);
    }
}

int main(void)
{
    test_counts();
    test_values();
    test_witness_block();
    test_unsatisfied();
    test_matrices();
    test_modes();
    test_builtin();
    return harness_finish("test_gadgets_poseidon");
}
