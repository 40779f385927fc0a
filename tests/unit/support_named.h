/* Test support: a built-in test circuit served to an engine by name, parameters written to a
 * fresh temporary file, a circuit's placement, and the skip without a GPU, as several engine and
 * GPU tests need them. */
#ifndef CUZK_TEST_SUPPORT_NAMED_H
#define CUZK_TEST_SUPPORT_NAMED_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"

/* The engine's open callback (cuzk_engine_circuit.open) for a circuit whose ctx is a test
 * circuit's name (cuzk_circuit_open's): every partition is that circuit, its witness from the
 * engine's seed. */
cuzk_status named_circuit_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                               cuzk_circuit **out);
/* p written to a new file made from path_template (mkstemp's template, "...XXXXXX", changed in
 * place to the file's path); a failure is a failed check. */
void params_to_tempfile(const cuzk_groth16_params *p, char *path_template);
/* The engine's placement of circuit id, as its status says it ("" when it has none), into out. */
void circuit_placement(cuzk_engine *e, const char *id, char *out, size_t n);
/* Ends the test program as skipped (exit 77, the reason printed) where no CUDA device is. */
void skip_without_gpu(void);

#endif
