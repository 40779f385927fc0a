/* witness_values.h: one pass over a witness per section. */
#include "cli/witness_values.h"

#include <string.h>

#include "cuzk/ff.h"

static bool selected(const cuzk_density *d, size_t i) { return !d || (i < d->bits && cuzk_density_get(d, i)); }

/* adds values[i] for each i < n that d selects (NULL: all) to s */
static void split_add(value_split *s, const cuzk_fr *values, size_t n, const cuzk_density *d)
{
    for (size_t i = 0; i < n; i++) {
        if (!selected(d, i)) continue;
        s->bases++;
        if (cuzk_fr_is_zero(&values[i])) s->zeros++;
        else if (cuzk_fr_is_one(&values[i])) s->ones++;
        else s->other++;
    }
}

void witness_values_count(const cuzk_pce *p, const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                          witness_values *out)
{
    memset(out, 0, sizeof *out);
    split_add(&out->l, aux, na, NULL);
    split_add(&out->a, input, ni, NULL);
    split_add(&out->a, aux, na, &p->a_aux);
    split_add(&out->b, input, ni, &p->b_input);
    split_add(&out->b, aux, na, &p->b_aux);
}
