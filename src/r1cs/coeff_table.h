/* A table of distinct field coefficients with O(1) lookup, for compressed matrices:
 * index 0 is +1 and index 1 is -1. Internal to src/r1cs. */
#ifndef CUZK_R1CS_COEFF_TABLE_H
#define CUZK_R1CS_COEFF_TABLE_H

#include "cuzk/ff.h"

typedef struct {
    cuzk_fr *values; /* owned until taken */
    size_t n, cap;
    uint32_t *slots; /* open addressing: value index + 1, 0 = empty */
    size_t mask;
} coeff_table;

cuzk_status coeff_table_init(coeff_table *t) CUZK_WARN_UNUSED;
/* The index of v, adding it when new. */
cuzk_status coeff_table_add(coeff_table *t, const cuzk_fr *v, uint32_t *idx) CUZK_WARN_UNUSED;
void coeff_table_free(coeff_table *t);

#endif
