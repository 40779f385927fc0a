/* Test support: witnesses with a, b, c and an assignment of their own, which the GPU prover's
 * abc_read and witness_read notices (cuzk_groth16_prove_opts) poison, so that a prover that
 * still read them after its notice would prove something else (test_gpu_emu, test_gpu). */
#ifndef CUZK_TEST_SUPPORT_ABC_H
#define CUZK_TEST_SUPPORT_ABC_H

#include <stdbool.h>

#include "cuzk/groth16.h"

enum { ABC_OWNED_MAX = 4 };
typedef struct {
    cuzk_fr *abc[ABC_OWNED_MAX][3];
    cuzk_fr *in[ABC_OWNED_MAX], *aux[ABC_OWNED_MAX];
    size_t n, ni, na, nw;
    size_t calls, wcalls; /* abc_read and witness_read notices */
    bool in_order;        /* every notice named the next proof of the batch */
} abc_owned;

/* mine[k] = *w[k] with a, b, c, input and aux copied into o's own memory (nw <= ABC_OWNED_MAX) */
void abc_owned_init(abc_owned *o, cuzk_groth16_witness *mine, const cuzk_groth16_witness *const *w, size_t nw);
/* the notice (ctx: the abc_owned): checks the order, overwrites proof k's a, b, c */
void abc_owned_poison(void *ctx, size_t k);
/* the witness_read notice: checks the order, overwrites proof k's input and aux */
void abc_owned_poison_witness(void *ctx, size_t k);
void abc_owned_free(abc_owned *o);

#endif
