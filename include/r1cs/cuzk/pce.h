/* The precompiled circuit (PCE): a circuit's R1CS recorded once, compressed, saved and loaded,
 * and evaluated against a witness to give the prover's a, b, c without running gadgets'
 * linear-combination code.
 *
 * Compression: every coefficient is an index into a small table of distinct values; index 0
 * is +1 and index 1 is -1 (most terms), so evaluation adds or subtracts without multiplying.
 * Columns are unified (inputs, then aux). The densities and the sub-circuit marks of the
 * recording travel with it.
 *
 * File: "CUZKPCE1", format version 2, counts, an xxHash64 of the header (but the checksum
 * itself) and the body, section lengths, then the sections. On load the checksum is checked
 * first; then every count on its own bound (none of their sums wraps), every length against
 * the file size, every index against its bound, the densities against the matrices and the
 * marks against the counts, so a truncated, corrupted or inconsistent file is rejected with a
 * clear error. Version 1 files (header outside the checksum) are refused with
 * CUZK_EUNSUPPORTED; cuzk_pce_load_or_record records them again. */
#ifndef CUZK_PCE_H
#define CUZK_PCE_H

#include "cuzk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CUZK_PCE_ONE = 0, CUZK_PCE_MINUS_ONE = 1 };

struct cuzk_pce {
    size_t num_constraints, num_inputs, num_aux; /* constraints exclude the appended input rows */
    uint32_t *row_ptr[3];                        /* num_constraints + 1 each */
    uint32_t *col[3];
    uint32_t *coeff[3]; /* index into coeffs */
    size_t nnz[3];
    cuzk_fr *coeffs; /* distinct values; [0] = 1, [1] = -1 */
    size_t ncoeffs;
    cuzk_density a_aux, b_input, b_aux;
    cuzk_cs_mark_t *marks;
    size_t nmarks;
};

/* Compresses recorded matrices (moved from m, which is left empty) and takes the marks. */
cuzk_status cuzk_pce_from_r1cs(cuzk_pce *out, cuzk_r1cs *m, cuzk_cs_mark_t *marks, size_t nmarks) CUZK_WARN_UNUSED;
void cuzk_pce_free(cuzk_pce *p);
cuzk_status cuzk_pce_save(const cuzk_pce *p, const char *path) CUZK_WARN_UNUSED;
cuzk_status cuzk_pce_load(cuzk_pce *p, const char *path) CUZK_WARN_UNUSED;
/* The same from a file's bytes in memory (name is what messages call it). */
cuzk_status cuzk_pce_parse(cuzk_pce *p, const uint8_t *data, size_t size, const char *name) CUZK_WARN_UNUSED;
/* The bytes cuzk_pce_save writes, into *out (malloc'd, *len bytes). */
cuzk_status cuzk_pce_encode(const cuzk_pce *p, uint8_t **out, size_t *len) CUZK_WARN_UNUSED;
/* Back to plain matrices (for setup). */
cuzk_status cuzk_pce_to_r1cs(const cuzk_pce *p, cuzk_r1cs *out) CUZK_WARN_UNUSED;

/* a, b, c (num_constraints + num_inputs entries each: the appended Input(i) * 0 = 0 rows
 * included) for the assignment, multithreaded; bit-identical to the PROVE backend. */
void cuzk_pce_evaluate(const cuzk_pce *p, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c);

#ifdef __cplusplus
}
#endif
#endif
