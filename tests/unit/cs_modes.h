/* Mode consistency of a gadget's synthesis, for the gadget tests: COUNT with and without
 * values gives PROVE's counts; RECORD's matrices evaluated on the WITNESS-mode assignment give
 * PROVE's a, b, c bit for bit (and its densities); WITNESS's assignment is PROVE's; TEST is
 * satisfied with the same number of constraints. */
#ifndef CUZK_TEST_CS_MODES_H
#define CUZK_TEST_CS_MODES_H

#include <string.h>

#include "cuzk/cs.h"
#include "harness.h"

typedef void (*cs_synth_fn)(cuzk_cs *cs, void *ctx);

static bool fr_arrays_equal(const cuzk_fr *a, const cuzk_fr *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof(cuzk_fr)) == 0;
}

static bool density_equal(const cuzk_density *x, const cuzk_density *y)
{
    if (x->popcount != y->popcount) return false;
    size_t n = x->bits < y->bits ? x->bits : y->bits;
    for (size_t i = 0; i < n; i++)
        if (cuzk_density_get(x, i) != cuzk_density_get(y, i)) return false;
    return true;
}

/* Runs every mode; returns the constraint count (0 on failure). */
static size_t check_cs_modes(const char *what, cs_synth_fn synth, void *ctx)
{
    cuzk_cs *cs;
    size_t nc = 0, ni = 0, na = 0;
    int before = harness_failures;

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    synth(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    nc = cs->num_constraints, ni = cs->num_inputs, na = cs->num_aux;
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, true));
    synth(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    CHECK(cs->num_constraints == nc && cs->num_inputs == ni && cs->num_aux == na);
    cuzk_cs_destroy(cs);

    cuzk_prove_result pr;
    memset(&pr, 0, sizeof pr);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    synth(cs, ctx);
    CHECK(cs->num_constraints == nc && cs->num_inputs == ni && cs->num_aux == na);
    CHECK_OK(cuzk_cs_finish_prove(cs, &pr));
    cuzk_cs_destroy(cs);
    CHECK(pr.n == nc + ni && pr.num_inputs == ni && pr.num_aux == na);

    cuzk_r1cs m;
    memset(&m, 0, sizeof m);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    synth(cs, ctx);
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    CHECK(m.num_constraints == nc && m.num_inputs == ni && m.num_aux == na);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    synth(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    CHECK(cs->num_constraints == nc && cs->num_inputs == ni && cs->num_aux == na);
    if (pr.input && cs->num_inputs == ni && cs->num_aux == na) {
        CHECK(fr_arrays_equal(cs->input_vals, pr.input, ni));
        CHECK(fr_arrays_equal(cs->aux_vals, pr.aux, na));
        size_t n = nc + ni;
        cuzk_fr *abc = malloc(3 * n * sizeof(cuzk_fr));
        CHECK(abc != NULL);
        if (abc && m.num_constraints == nc) {
            cuzk_r1cs_evaluate(&m, cs->input_vals, cs->aux_vals, abc, abc + n, abc + 2 * n);
            CHECK(fr_arrays_equal(abc, pr.a, n));
            CHECK(fr_arrays_equal(abc + n, pr.b, n));
            CHECK(fr_arrays_equal(abc + 2 * n, pr.c, n));
            CHECK(cuzk_r1cs_first_unsatisfied(&m, cs->input_vals, cs->aux_vals) == -1);
            cuzk_density da, dbi, dba;
            CHECK_OK(cuzk_r1cs_density(&m, &da, &dbi, &dba));
            CHECK(density_equal(&da, &pr.a_aux) && density_equal(&dbi, &pr.b_input) && density_equal(&dba, &pr.b_aux));
            cuzk_density_free(&da);
            cuzk_density_free(&dbi);
            cuzk_density_free(&dba);
        }
        free(abc);
    }
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    const char *path = NULL;
    long bad = cuzk_cs_which_unsatisfied(cs, &path);
    CHECK(bad == -1);
    if (bad != -1) fprintf(stderr, "    %s: constraint %ld (%s) unsatisfied\n", what, bad, path ? path : "?");
    CHECK(cuzk_cs_test_constraint_count(cs) == nc);
    cuzk_cs_destroy(cs);

    cuzk_r1cs_free(&m);
    cuzk_prove_result_free(&pr);
    if (harness_failures != before) fprintf(stderr, "    (mode consistency of %s)\n", what);
    return nc;
}

#endif
