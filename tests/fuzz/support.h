/* What the fuzz targets share: the invariant check that fails a run, and the small fixed
 * circuit whose key and proof the proof and key targets check against (the seed corpus is made
 * from the same fixture, tests/fuzz/corpus_gen.c). */
#ifndef CUZK_FUZZ_SUPPORT_H
#define CUZK_FUZZ_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "cuzk/groth16.h"

/* An invariant of a parser that did not hold: printed, then abort() (libFuzzer keeps the
 * input as a crash and `make fuzz` fails). */
#define FUZZ_CHECK(cond, ...)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "fuzz invariant failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fprintf(stderr, " (last error: %s)\n", cuzk_last_error());                          \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

/* The built-in circuit "cubic" (x^3 + x + 5 = 35: one public input): parameters from a seeded
 * setup, the proof for fixed r and s, that proof's (-A, -B, C) form (it verifies too), both
 * encoded, and the public input. Made once per process. */
typedef struct {
    cuzk_groth16_params params;
    cuzk_groth16_proof proof;
    uint8_t proof_bytes[CUZK_GROTH16_PROOF_BYTES], neg_bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_fr input;
} fuzz_fixture;
const fuzz_fixture *fuzz_fixture_get(void);

/* The version 2 checksum of a precompiled circuit file (include/cuzk/pce.h), written into its
 * header, so that mutated files reach the checks behind it. size >= 88. */
void fuzz_pce_reseal(uint8_t *data, size_t size);

#endif
