/* Test support: a, b, c poisoned at the GPU prover's notice (support_abc.h). */
#include "support_abc.h"

#include <stdlib.h>
#include <string.h>

void abc_owned_init(abc_owned *o, cuzk_groth16_witness *mine, const cuzk_groth16_witness *const *w, size_t nw)
{
    memset(o, 0, sizeof *o);
    if (nw > ABC_OWNED_MAX) abort(); /* a test's mistake */
    o->nw = nw;
    o->n = w[0]->n;
    o->in_order = true;
    for (size_t k = 0; k < nw; k++) {
        mine[k] = *w[k];
        const cuzk_fr *from[3] = {w[k]->a, w[k]->b, w[k]->c};
        for (int q = 0; q < 3; q++) {
            if (!(o->abc[k][q] = malloc(o->n * sizeof(cuzk_fr)))) abort();
            memcpy(o->abc[k][q], from[q], o->n * sizeof(cuzk_fr));
        }
        mine[k].a = o->abc[k][0];
        mine[k].b = o->abc[k][1];
        mine[k].c = o->abc[k][2];
    }
}

void abc_owned_poison(void *ctx, size_t k)
{
    abc_owned *o = ctx;
    o->in_order &= k == o->calls && k < o->nw;
    if (k < o->nw)
        for (int q = 0; q < 3; q++) memset(o->abc[k][q], 0xa5, o->n * sizeof(cuzk_fr));
    o->calls++;
}

void abc_owned_free(abc_owned *o)
{
    for (size_t k = 0; k < o->nw; k++)
        for (int q = 0; q < 3; q++) free(o->abc[k][q]);
}
