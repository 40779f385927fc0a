/* Precompiled circuit files (include/cuzk/pce.h). The input is resealed (its checksum
 * recomputed) so mutations reach the checks behind the checksum; the raw input is parsed too.
 * An accepted file encodes back to its own bytes, its counts and indices are within their
 * bounds (no sum of counts wraps), its densities are the matrices', and evaluating it on a
 * witness touches only what its counts give (ASan sees any stray access). */
#include <string.h>

#include "cuzk/pce.h"
#include "support.h"

static void check(const cuzk_pce *p, const uint8_t *data, size_t size)
{
    uint8_t *enc;
    size_t n;
    FUZZ_CHECK(cuzk_pce_encode(p, &enc, &n) == CUZK_OK, "encode");
    FUZZ_CHECK(n == size && !memcmp(enc, data, size), "a parsed file encodes to other bytes");
    free(enc);
    size_t nv = p->num_inputs + p->num_aux;
    FUZZ_CHECK(p->num_inputs <= UINT32_MAX && p->num_aux <= UINT32_MAX && nv <= UINT32_MAX, "counts out of range");
    for (int k = 0; k < 3; k++) {
        FUZZ_CHECK(p->row_ptr[k][0] == 0 && p->row_ptr[k][p->num_constraints] == p->nnz[k], "row offsets");
        for (size_t j = 0; j < p->nnz[k]; j++)
            FUZZ_CHECK(p->col[k][j] < nv && p->coeff[k][j] < p->ncoeffs, "term %zu out of range", j);
    }
    const cuzk_density *d[3] = {&p->a_aux, &p->b_input, &p->b_aux};
    for (int k = 0; k < 3; k++) {
        size_t bits = d[k]->bits, pop = 0;
        for (size_t w = 0; w < (bits + 63) / 64; w++) pop += (size_t)__builtin_popcountll(d[k]->words[w]);
        FUZZ_CHECK(pop == d[k]->popcount, "density %d popcount", k);
        if (bits % 64) FUZZ_CHECK(!(d[k]->words[bits / 64] >> (bits % 64)), "density %d: a bit beyond %zu", k, bits);
    }
    size_t rows = p->num_constraints + p->num_inputs;
    if (rows + nv > (1u << 20)) return;
    cuzk_fr *in = calloc(p->num_inputs + 1, sizeof *in), *aux = calloc(p->num_aux + 1, sizeof *aux);
    cuzk_fr *a = malloc((rows + 1) * sizeof *a), *b = malloc((rows + 1) * sizeof *b),
            *c = malloc((rows + 1) * sizeof *c);
    for (size_t i = 0; i < p->num_inputs; i++) in[i] = CUZK_FR_ONE;
    for (size_t i = 0; i < p->num_aux; i++) cuzk_fr_from_u64(&aux[i], i);
    cuzk_pce_evaluate(p, in, aux, a, b, c);
    free(in);
    free(aux);
    free(a);
    free(b);
    free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_pce p;
    if (!cuzk_pce_parse(&p, data, size, "fuzz.pce")) {
        check(&p, data, size);
        cuzk_pce_free(&p);
    }
    if (size < 88) return 0;
    uint8_t *sealed = malloc(size);
    memcpy(sealed, data, size);
    fuzz_pce_reseal(sealed, size);
    if (!cuzk_pce_parse(&p, sealed, size, "fuzz.pce")) {
        check(&p, sealed, size);
        cuzk_pce_free(&p);
    }
    free(sealed);
    return 0;
}
