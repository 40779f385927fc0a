/* Test support: an engine job result's public inputs back as field elements, for the verifier. */
#ifndef CUZK_TEST_SUPPORT_RESULT_H
#define CUZK_TEST_SUPPORT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"

/* n public inputs of CUZK_INPUT_BYTES each as field elements: malloc'd, NULL when one is not
 * canonical (or out of memory). */
cuzk_fr *result_inputs(const uint8_t *bytes, size_t n);

#endif
