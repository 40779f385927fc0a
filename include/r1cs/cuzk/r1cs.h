/* cuzk constraint-system layer: a rank-1 constraint system as sparse matrices, its density
 * bitmaps and its evaluation against an assignment.
 *
 * Variables are numbered in one column space: [0, num_inputs) are the public inputs (0 is
 * the constant ONE), then [num_inputs, num_inputs + num_aux) the aux (private) variables,
 * each in allocation order. Rows are the circuit's constraints A·w * B·w = C·w in order; the
 * Groth16 prover and setup append the Input(i) * 0 = 0 rows themselves (bellperson does the
 * same), so they are not stored here. */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A density bitmap: bit i (word i/64, bit i%64) set when variable i appears with a nonzero
 * coefficient (bellperson's DensityTracker layout). */
typedef struct {
    uint64_t *words; /* owned */
    size_t bits;
    size_t popcount;
} cuzk_density;

static inline int cuzk_density_get(const cuzk_density *d, size_t i)
{
    return (int)((d->words[i / 64] >> (i % 64)) & 1);
}
cuzk_status cuzk_density_init(cuzk_density *d, size_t bits) CUZK_WARN_UNUSED; /* all clear */
void cuzk_density_set(cuzk_density *d, size_t i);
void cuzk_density_free(cuzk_density *d);

enum { CUZK_MAT_A = 0, CUZK_MAT_B = 1, CUZK_MAT_C = 2 };

/* Compressed sparse rows for A, B, C; columns within a row distinct, coefficients nonzero. */
typedef struct {
    size_t num_constraints, num_inputs, num_aux;
    uint32_t *row_ptr[3]; /* num_constraints + 1 offsets each; owned */
    uint32_t *col[3];     /* owned */
    cuzk_fr *val[3];      /* owned */
    size_t nnz[3];
} cuzk_r1cs;

void cuzk_r1cs_free(cuzk_r1cs *m);

/* Incremental construction, row by row (used by the built-in test circuits). */
typedef struct {
    cuzk_r1cs m;
    size_t cap_rows, cap_nnz[3];
    size_t row_start[3]; /* nnz when the current row began */
} cuzk_r1cs_builder;
cuzk_status cuzk_r1cs_builder_init(cuzk_r1cs_builder *b, size_t num_inputs) CUZK_WARN_UNUSED;
/* Adds a term to the open row of matrix `which` (a repeated column is merged). */
cuzk_status cuzk_r1cs_builder_term(cuzk_r1cs_builder *b, int which, size_t col, const cuzk_fr *coeff) CUZK_WARN_UNUSED;
/* Closes the open row (of all three matrices). */
cuzk_status cuzk_r1cs_builder_row(cuzk_r1cs_builder *b) CUZK_WARN_UNUSED;
/* Hands over the matrices (num_aux given, columns >= num_inputs are aux). */
cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, size_t num_aux, cuzk_r1cs *out) CUZK_WARN_UNUSED;
void cuzk_r1cs_builder_free(cuzk_r1cs_builder *b);

/* Bellperson's densities: A over aux only; B over inputs and over aux. Zero coefficients do
 * not count. Caller frees with cuzk_density_free. */
cuzk_status cuzk_r1cs_density(const cuzk_r1cs *m, cuzk_density *a_aux, cuzk_density *b_input,
                              cuzk_density *b_aux) CUZK_WARN_UNUSED;

/* a, b, c = A·w, B·w, C·w for w = input ‖ aux, followed by the appended input rows
 * (a = input[i], b = c = 0): each output has num_constraints + num_inputs entries. */
void cuzk_r1cs_evaluate(const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b,
                        cuzk_fr *c);
/* Index of the first unsatisfied row, or -1 when a*b = c holds for every row. */
long cuzk_r1cs_first_unsatisfied(const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux);

#ifdef __cplusplus
}
#endif
#endif
