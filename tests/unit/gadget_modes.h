/* Shared by the gadget tests: runs one synthesis function in every constraint-system mode
 * and checks that they agree. COUNT (with and without values), TEST, RECORD, PROVE and
 * WITNESS give the same counts; TEST is satisfied; WITNESS gives PROVE's assignment; the
 * RECORD matrices evaluated on the WITNESS assignment give PROVE's a, b, c bit for bit and
 * PROVE's densities. */
#ifndef CUZK_TEST_GADGET_MODES_H
#define CUZK_TEST_GADGET_MODES_H

#include <string.h>

#include "cuzk/cs.h"
#include "harness.h"

typedef void (*gm_synth_fn)(cuzk_cs *cs, void *ctx);

typedef struct {
    size_t constraints, inputs, aux;
} gm_counts;

static bool gm_same_density(const cuzk_density *x, const cuzk_density *y)
{
    if (x->bits != y->bits || x->popcount != y->popcount) return false;
    for (size_t i = 0; i < x->bits; i++)
        if (cuzk_density_get(x, i) != cuzk_density_get(y, i)) return false;
    return true;
}

static gm_counts gm_counts_of(const cuzk_cs *cs)
{
    gm_counts c = {cs->num_constraints, cs->num_inputs, cs->num_aux};
    return c;
}

static bool gm_counts_eq(gm_counts a, gm_counts b)
{
    return a.constraints == b.constraints && a.inputs == b.inputs && a.aux == b.aux;
}

/* Returns the counts (of the COUNT run). Every disagreement is a failed check. */
static gm_counts gm_check_all_modes(gm_synth_fn f, void *ctx)
{
    cuzk_cs *cs;
    gm_counts ref = {0, 0, 0};

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    f(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    ref = gm_counts_of(cs);
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, true));
    f(cs, ctx);
    CHECK(gm_counts_eq(gm_counts_of(cs), ref));
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    f(cs, ctx);
    CHECK_OK(cuzk_cs_status(cs));
    CHECK(gm_counts_eq(gm_counts_of(cs), ref));
    CHECK(cuzk_cs_test_constraint_count(cs) == ref.constraints);
    const char *path = NULL;
    long bad = cuzk_cs_which_unsatisfied(cs, &path);
    CHECK(bad == -1);
    if (bad != -1) fprintf(stderr, "    unsatisfied constraint %ld: %s\n", bad, path ? path : "?");
    cuzk_cs_destroy(cs);

    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    f(cs, ctx);
    CHECK(gm_counts_eq(gm_counts_of(cs), ref));
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);

    cuzk_prove_result pr;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    f(cs, ctx);
    CHECK(gm_counts_eq(gm_counts_of(cs), ref));
    CHECK_OK(cuzk_cs_finish_prove(cs, &pr));
    cuzk_cs_destroy(cs);

    cuzk_cs *w;
    CHECK_OK(cuzk_cs_create(&w, CUZK_CS_WITNESS, true));
    f(w, ctx);
    CHECK(gm_counts_eq(gm_counts_of(w), ref));
    CHECK(pr.num_inputs == ref.inputs && pr.num_aux == ref.aux && pr.n == ref.constraints + ref.inputs);
    CHECK(!memcmp(w->input_vals, pr.input, ref.inputs * sizeof(cuzk_fr)));
    CHECK(ref.aux == 0 || !memcmp(w->aux_vals, pr.aux, ref.aux * sizeof(cuzk_fr)));

    size_t n = ref.constraints + ref.inputs;
    cuzk_fr *abc = calloc(3 * n + 1, sizeof(cuzk_fr));
    CHECK(abc != NULL);
    if (abc) {
        cuzk_r1cs_evaluate(&m, w->input_vals, w->aux_vals, abc, abc + n, abc + 2 * n);
        CHECK(!memcmp(abc, pr.a, n * sizeof(cuzk_fr)));
        CHECK(!memcmp(abc + n, pr.b, n * sizeof(cuzk_fr)));
        CHECK(!memcmp(abc + 2 * n, pr.c, n * sizeof(cuzk_fr)));
        CHECK(cuzk_r1cs_first_unsatisfied(&m, w->input_vals, w->aux_vals) == -1);
        free(abc);
    }
    cuzk_density da, dbi, dba;
    CHECK_OK(cuzk_r1cs_density(&m, &da, &dbi, &dba));
    CHECK(gm_same_density(&da, &pr.a_aux));
    CHECK(gm_same_density(&dbi, &pr.b_input));
    CHECK(gm_same_density(&dba, &pr.b_aux));
    cuzk_density_free(&da);
    cuzk_density_free(&dbi);
    cuzk_density_free(&dba);

    cuzk_cs_destroy(w);
    cuzk_prove_result_free(&pr);
    cuzk_r1cs_free(&m);
    return ref;
}

#endif
