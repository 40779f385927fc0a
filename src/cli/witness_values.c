/* witness_values.h: one pass over a witness per section. */
#include "cli/witness_values.h"

#include <string.h>

#include "cuzk/ff.h"

static bool selected(const cuzk_density *d, size_t i) { return !d || (i < d->bits && cuzk_density_get(d, i)); }

/* a run of `run` selected bases zero in both witnesses ended */
static void run_end(value_split *s, uint64_t *run)
{
    if (*run >= VALUE_RUN_MIN) s->zeros_both_in_runs += *run;
    *run = 0;
}

/* adds values[i] for each i < n that d selects (NULL: all) to s; values2 (NULL: none) the
 * second witness's; run: the selected bases zero in both just before values[0] (a run goes on
 * from the inputs into the aux, as the bases of A and B do) */
static void split_add(value_split *s, const cuzk_fr *values, const cuzk_fr *values2, size_t n, const cuzk_density *d,
                      uint64_t *run)
{
    for (size_t i = 0; i < n; i++) {
        if (!selected(d, i)) continue;
        s->bases++;
        const bool zero = cuzk_fr_is_zero(&values[i]);
        if (zero) s->zeros++;
        else if (cuzk_fr_is_one(&values[i])) s->ones++;
        else s->other++;
        if (!values2) continue;
        if (zero && cuzk_fr_is_zero(&values2[i])) {
            s->zeros_both++;
            ++*run;
        } else run_end(s, run);
    }
}

void witness_values_count(const cuzk_pce *p, const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                          const cuzk_fr *input2, const cuzk_fr *aux2, witness_values *out)
{
    memset(out, 0, sizeof *out);
    const bool pair = input2 && aux2;
    uint64_t run = 0;
    split_add(&out->l, aux, pair ? aux2 : NULL, na, NULL, &run);
    run_end(&out->l, &run);
    split_add(&out->a, input, pair ? input2 : NULL, ni, NULL, &run);
    split_add(&out->a, aux, pair ? aux2 : NULL, na, &p->a_aux, &run);
    run_end(&out->a, &run);
    split_add(&out->b, input, pair ? input2 : NULL, ni, &p->b_input, &run);
    split_add(&out->b, aux, pair ? aux2 : NULL, na, &p->b_aux, &run);
    run_end(&out->b, &run);
}
