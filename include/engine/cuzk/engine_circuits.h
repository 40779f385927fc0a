/* cuzk engine: circuits of the library's own circuit code proved by id (jobs of kind
 * CUZK_KIND_CIRCUIT): the test circuits, benchmarks' synthetic shapes, `cuzk prove --circuit`.
 * Not an installed header: a circuit is made with the circuit and gadget layers, which are not
 * part of the installed API. */
#ifndef CUZK_ENGINE_CIRCUITS_H
#define CUZK_ENGINE_CIRCUITS_H

#include "cuzk/circuits.h"
#include "cuzk/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A circuit the engine proves by id (kind CIRCUIT): open gives partition k of a job (its seed
 * and input bytes are the job's); parameters from params_path (vk_path: the key proofs are
 * verified with, NULL: the parameters' own) or, with synthetic, generated on each GPU to the
 * circuit's shape (benchmarks: such proofs cannot verify, and results say so). The precompiled
 * circuit is recorded from partition 0 on first load (kept in pce_path when given). */
typedef struct {
    const char *id;
    cuzk_status (*open)(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                        cuzk_circuit **out);
    void *ctx;
    const char *params_path, *vk_path, *pce_path;
    bool synthetic;
    bool check_params; /* subgroup-check every parameter point when reading (slower) */
} cuzk_engine_circuit;
/* Copies the strings; CUZK_EINVAL when the id is taken (by a registration or a built-in id). */
cuzk_status cuzk_engine_register_circuit(cuzk_engine *e, const cuzk_engine_circuit *c) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
