/* Shared between the PCE and the RECORD backend. Internal to src/r1cs. */
#ifndef CUZK_R1CS_PCE_INTERNAL_H
#define CUZK_R1CS_PCE_INTERNAL_H

#include "cuzk/pce.h"
#include "coeff_table.h"

/* Takes the table's values as p's coefficients (t is freed) and computes the densities from
 * p's matrices. */
cuzk_status cuzk_pce_finish(cuzk_pce *p, coeff_table *t) CUZK_WARN_UNUSED;

#endif
