/* Constraint-system backends: one synthesis function run in every mode gives the same
 * counts; RECORD equals the hand-built matrices; PROVE equals evaluating them; WITNESS
 * equals PROVE's assignment; TEST names the failing constraint; LCs merge like bellpepper. */
#include <string.h>

#include "cuzk/testcircuits.h"
#include "cuzk/cs.h"
#include "harness.h"

/* x^3 + x + 5 = y, the same variables and constraints as the built-in "cubic". */
static void synth_cubic(cuzk_cs *cs, uint64_t xval, int break_it)
{
    cuzk_fr x, x2, x3, t, y, five;
    cuzk_fr_from_u64(&five, 5);
    if (cs->values) {
        cuzk_fr_from_u64(&x, xval);
        cuzk_fr_mul(&x2, &x, &x);
        cuzk_fr_mul(&x3, &x2, &x);
        cuzk_fr_add(&t, &x3, &x);
        cuzk_fr_add(&y, &t, &five);
        if (break_it) cuzk_fr_add(&x3, &x3, &CUZK_FR_ONE);
    }
    cuzk_var vy = cuzk_cs_alloc_input(cs, &y);
    cuzk_var vx = cuzk_cs_alloc(cs, &x);
    cuzk_var vx2 = cuzk_cs_alloc(cs, &x2);
    cuzk_var vx3 = cuzk_cs_alloc(cs, &x3);
    cuzk_var vt = cuzk_cs_alloc(cs, &t);
    cuzk_cs_push(cs, "cubic");
    cuzk_lc_add_one(cs, &cs->lc[0], vx);
    cuzk_lc_add_one(cs, &cs->lc[1], vx);
    cuzk_lc_add_one(cs, &cs->lc[2], vx2);
    cuzk_cs_enforce(cs, "x2");
    cuzk_lc_add_one(cs, &cs->lc[0], vx2);
    cuzk_lc_add_one(cs, &cs->lc[1], vx);
    cuzk_lc_add_one(cs, &cs->lc[2], vx3);
    cuzk_cs_enforce(cs, "x3");
    cuzk_lc_add_one(cs, &cs->lc[0], vx3);
    cuzk_lc_add_one(cs, &cs->lc[0], vx);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], vt);
    cuzk_cs_enforce(cs, "t");
    cuzk_lc_add_one(cs, &cs->lc[0], vt);
    cuzk_lc_add(cs, &cs->lc[0], CUZK_VAR_ONE, &five);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], vy);
    cuzk_cs_enforce(cs, "y");
    cuzk_cs_pop(cs);
}

static void test_modes(void)
{
    cuzk_cs *cs;
    /* COUNT */
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    synth_cubic(cs, 3, 0);
    CHECK(cs->num_constraints == 4 && cs->num_inputs == 2 && cs->num_aux == 4);
    cuzk_cs_destroy(cs);

    /* RECORD equals the hand-built cubic */
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, "cubic"));
    cuzk_r1cs refm;
    CHECK_OK(cuzk_circuit_record(c, &refm));
    const cuzk_r1cs *ref = &refm;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    synth_cubic(cs, 0, 0);
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    CHECK(m.num_constraints == 4 && m.num_inputs == 2 && m.num_aux == 4);
    for (int k = 0; k < 3; k++) {
        CHECK(m.nnz[k] == ref->nnz[k]);
        CHECK(!memcmp(m.row_ptr[k], ref->row_ptr[k], 5 * sizeof(uint32_t)));
        /* same terms per row (order within a row may differ) */
        for (size_t r = 0; r < 4; r++)
            for (uint32_t j = m.row_ptr[k][r]; j < m.row_ptr[k][r + 1]; j++) {
                int found = 0;
                for (uint32_t i = ref->row_ptr[k][r]; i < ref->row_ptr[k][r + 1]; i++)
                    found |= ref->col[k][i] == m.col[k][j] && cuzk_fr_eq(&ref->val[k][i], &m.val[k][j]);
                CHECK(found);
            }
    }

    /* PROVE equals evaluating the matrices; WITNESS equals PROVE's assignment */
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    synth_cubic(cs, 3, 0);
    cuzk_prove_result pr;
    CHECK_OK(cuzk_cs_finish_prove(cs, &pr));
    cuzk_cs_destroy(cs);
    CHECK(pr.n == 6 && pr.num_inputs == 2 && pr.num_aux == 4);
    cuzk_fr a[6], b[6], cc[6];
    cuzk_r1cs_evaluate(&m, pr.input, pr.aux, a, b, cc);
    CHECK(!memcmp(a, pr.a, sizeof a) && !memcmp(b, pr.b, sizeof b) && !memcmp(cc, pr.c, sizeof cc));
    cuzk_density da, dbi, dba;
    CHECK_OK(cuzk_r1cs_density(&m, &da, &dbi, &dba));
    CHECK(da.popcount == pr.a_aux.popcount && da.words[0] == pr.a_aux.words[0]);
    CHECK(dbi.words[0] == pr.b_input.words[0] && dba.words[0] == pr.b_aux.words[0]);
    CHECK(pr.b_input.popcount == 1 && pr.a_aux.popcount == 4 && pr.b_aux.popcount == 1);
    cuzk_density_free(&da);
    cuzk_density_free(&dbi);
    cuzk_density_free(&dba);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    synth_cubic(cs, 3, 0);
    CHECK(cs->num_constraints == 4);
    CHECK(!memcmp(cs->input_vals, pr.input, 2 * sizeof(cuzk_fr)) && !memcmp(cs->aux_vals, pr.aux, 4 * sizeof(cuzk_fr)));
    cuzk_cs_destroy(cs);

    /* WITNESS children at offsets fill the same arrays */
    cuzk_cs *parent, *child;
    CHECK_OK(cuzk_cs_create(&parent, CUZK_CS_WITNESS, true));
    CHECK_OK(cuzk_cs_reserve(parent, 2, 4, 4));
    CHECK_OK(cuzk_cs_witness_child(parent, 1, 0, &child));
    synth_cubic(child, 3, 0);
    CHECK(child->num_aux == 4 && child->num_inputs == 2);
    CHECK(!memcmp(parent->aux_vals, pr.aux, 4 * sizeof(cuzk_fr)));
    cuzk_cs_destroy(child);
    CHECK_OK(cuzk_cs_witness_child(parent, 1, 1, &child));
    synth_cubic(child, 3, 0); /* one aux too many for the reservation */
    CHECK(cuzk_cs_status(child) == CUZK_EINTERNAL);
    cuzk_cs_destroy(child);
    cuzk_cs_destroy(parent);
    cuzk_prove_result_free(&pr);

    /* TEST: satisfied, then a wrong value pinpointed by path */
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth_cubic(cs, 3, 0);
    CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth_cubic(cs, 3, 1);
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 1);
    CHECK(path && strcmp(path, "/cubic/x3") == 0);
    cuzk_cs_destroy(cs);

    cuzk_r1cs_free(&m);
    cuzk_r1cs_free(&refm);
    cuzk_circuit_free(c);
}

static void test_lc_merge(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    cuzk_fr v;
    cuzk_fr_from_u64(&v, 9);
    cuzk_var x = cuzk_cs_alloc(cs, &v), y = cuzk_cs_alloc(cs, &v), z = cuzk_cs_alloc(cs, &v);
    cuzk_lc lc;
    cuzk_lc_init(&lc);
    cuzk_lc_add_one(cs, &lc, z);
    cuzk_lc_add_one(cs, &lc, x); /* out of order: inserted before z */
    cuzk_lc_add_one(cs, &lc, CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &lc, x); /* merged: 2x */
    cuzk_lc_sub_one(cs, &lc, y);
    cuzk_lc_add_one(cs, &lc, y); /* cancels to a zero term, which stays */
    CHECK(lc.n == 4);
    CHECK(lc.t[0].var == CUZK_VAR_ONE && lc.t[1].var == x && lc.t[2].var == y && lc.t[3].var == z);
    cuzk_fr two;
    cuzk_fr_from_u64(&two, 2);
    CHECK(cuzk_fr_eq(&lc.t[1].coeff, &two) && cuzk_fr_is_zero(&lc.t[2].coeff));
    /* a zero coefficient does not count for density: y is in A only with coefficient 0 */
    cuzk_lc_add_lc(cs, &cs->lc[0], &lc, NULL);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_fr out;
    cuzk_lc_eval(cs, &lc, &out);
    cuzk_var r = cuzk_cs_alloc(cs, &out);
    cuzk_lc_add_one(cs, &cs->lc[2], r);
    cuzk_cs_enforce(cs, "sum");
    cuzk_prove_result pr;
    CHECK_OK(cuzk_cs_finish_prove(cs, &pr));
    CHECK(cuzk_density_get(&pr.a_aux, 0) && !cuzk_density_get(&pr.a_aux, 1) && cuzk_density_get(&pr.a_aux, 2));
    cuzk_fr want;
    cuzk_fr_from_u64(&want, 28); /* 1 + 2*9 + 9 */
    CHECK(cuzk_fr_eq(&pr.a[0], &want));
    cuzk_prove_result_free(&pr);
    cuzk_lc_free(&lc);
    cuzk_cs_destroy(cs);
}

int main(void)
{
    test_modes();
    test_lc_merge();
    return harness_finish("test_cs");
}
