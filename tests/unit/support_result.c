#include "support_result.h"

#include <stdlib.h>

#include "cuzk/engine.h"

cuzk_fr *result_inputs(const uint8_t *bytes, size_t n)
{
    cuzk_fr *fr = malloc(n * sizeof *fr + 1);
    for (size_t i = 0; fr && i < n; i++)
        if (cuzk_fr_from_bytes_le(&fr[i], bytes + i * CUZK_INPUT_BYTES)) {
            free(fr);
            return NULL;
        }
    return fr;
}
