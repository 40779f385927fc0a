/* Test support: a built-in test circuit served to an engine by name, and parameters written to
 * a fresh temporary file, as several engine and GPU tests need them. */
#ifndef CUZK_TEST_SUPPORT_NAMED_H
#define CUZK_TEST_SUPPORT_NAMED_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"

/* The engine's open callback (cuzk_engine_circuit.open) for a circuit whose ctx is a test
 * circuit's name (cuzk_circuit_open's): every partition is that circuit, its witness from the
 * engine's seed. */
cuzk_status named_circuit_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                               cuzk_circuit **out);
/* p written to a new file made from path_template (mkstemp's template, "...XXXXXX", changed in
 * place to the file's path); a failure is a failed check. */
void params_to_tempfile(const cuzk_groth16_params *p, char *path_template);

#endif
