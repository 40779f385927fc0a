/* The value counts of `cuzk bench synth --values` (src/cli/witness_values.c) on a hand-made
 * witness whose every count is known: zeros, ones and the rest per section, and with a second
 * witness the bases zero in both and those in runs of VALUE_RUN_MIN or more, a run going on
 * across a density's unselected variables (they have no bases) and from the inputs into the aux,
 * as the bases of A and B do. */
#include <string.h>

#include "cli/witness_values.h"
#include "cuzk/ff.h"
#include "harness.h"

#define NI 2
#define NA 24

static void set(cuzk_fr *v, const char *pattern) /* '0', '1' or 'x' (another value) a variable */
{
    for (size_t i = 0; pattern[i]; i++) cuzk_fr_from_u64(&v[i], pattern[i] == '0' ? 0 : pattern[i] == '1' ? 1 : 7);
}

int main(void)
{
    cuzk_fr in[NI], aux[NA], in2[NI], aux2[NA];
    /*               aux: 0         1         2    */
    /*                    012345678901234567890123 */
    set(in, "10");
    set(aux, /*       */ "000000000x1010000000x100");
    set(in2, "00");
    set(aux2, /*      */ "0000000001001000000011x0");
    /* zero in both: aux 0-8 (a run of 9), 11, 13-19 (a run of 7), 23 */
    cuzk_pce p;
    memset(&p, 0, sizeof p);
    CHECK_OK(cuzk_density_init(&p.a_aux, NA));
    CHECK_OK(cuzk_density_init(&p.b_input, NI));
    CHECK_OK(cuzk_density_init(&p.b_aux, NA));
    for (size_t i = 0; i < NA; i++)
        if (i != 3 && i != 12) cuzk_density_set(&p.a_aux, i);
    cuzk_density_set(&p.b_input, 1);
    for (size_t i = 0; i < 8; i++) cuzk_density_set(&p.b_aux, i); /* B: input 1, then aux 0-7 */

    witness_values w;
    witness_values_count(&p, in, NI, aux, NA, NULL, NULL, &w);
    CHECK(w.l.bases == NA && w.l.zeros == 19 && w.l.ones == 3 && w.l.other == 2);
    CHECK(w.l.zeros_both == 0 && w.l.zeros_both_in_runs == 0); /* no second witness */
    CHECK(w.a.bases == NI + NA - 2 && w.a.zeros == 1 + 18 && w.a.ones == 1 + 2 && w.a.other == 2);
    CHECK(w.b.bases == 9 && w.b.zeros == 9 && w.b.ones == 0 && w.b.other == 0);

    witness_values_count(&p, in, NI, aux, NA, in2, aux2, &w);
    CHECK(w.l.bases == NA && w.l.zeros == 19); /* the first witness's split as before */
    CHECK(w.l.zeros_both == 18);
    CHECK(w.l.zeros_both_in_runs == 9); /* 0-8; 13-19 is 7 long */
    /* A (no aux 3 or 12): input 1 and aux 0-8 less 3 (a run of 9 bases); 11 and 13-19 (a run of
     * 8 across 12); 23 */
    CHECK(w.a.zeros_both == 1 + 8 + 1 + 7 + 1);
    CHECK(w.a.zeros_both_in_runs == 9 + 8);
    /* B: input 1, then aux 0-7: one run of 9 */
    CHECK(w.b.zeros_both == 9 && w.b.zeros_both_in_runs == 9);

    cuzk_density_free(&p.a_aux);
    cuzk_density_free(&p.b_input);
    cuzk_density_free(&p.b_aux);
    return harness_finish("witness_values");
}
