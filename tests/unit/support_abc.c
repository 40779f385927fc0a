/* Test support: a, b, c poisoned at the GPU prover's notice (support_abc.h). */
#include "support_abc.h"

#include <stdlib.h>
#include <string.h>

static cuzk_fr *copy_of(const cuzk_fr *from, size_t n)
{
    cuzk_fr *p = malloc((n ? n : 1) * sizeof(cuzk_fr));
    if (!p) abort();
    memcpy(p, from, n * sizeof(cuzk_fr));
    return p;
}

void abc_owned_init(abc_owned *o, cuzk_groth16_witness *mine, const cuzk_groth16_witness *const *w, size_t nw)
{
    memset(o, 0, sizeof *o);
    if (nw > ABC_OWNED_MAX) abort(); /* a test's mistake */
    o->nw = nw;
    o->n = w[0]->n;
    o->ni = w[0]->num_inputs;
    o->na = w[0]->num_aux;
    o->in_order = true;
    for (size_t k = 0; k < nw; k++) {
        mine[k] = *w[k];
        const cuzk_fr *from[3] = {w[k]->a, w[k]->b, w[k]->c};
        for (int q = 0; q < 3; q++) o->abc[k][q] = copy_of(from[q], o->n);
        o->in[k] = copy_of(w[k]->input, o->ni);
        o->aux[k] = copy_of(w[k]->aux, o->na);
        mine[k].a = o->abc[k][0];
        mine[k].b = o->abc[k][1];
        mine[k].c = o->abc[k][2];
        mine[k].input = o->in[k];
        mine[k].aux = o->aux[k];
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

void abc_owned_poison_witness(void *ctx, size_t k)
{
    abc_owned *o = ctx;
    o->in_order &= k == o->wcalls && k < o->nw;
    if (k < o->nw) {
        memset(o->in[k], 0xa5, o->ni * sizeof(cuzk_fr));
        memset(o->aux[k], 0xa5, o->na * sizeof(cuzk_fr));
    }
    o->wcalls++;
}

void abc_owned_free(abc_owned *o)
{
    for (size_t k = 0; k < o->nw; k++) {
        for (int q = 0; q < 3; q++) free(o->abc[k][q]);
        free(o->in[k]);
        free(o->aux[k]);
    }
}
