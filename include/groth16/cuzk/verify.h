/* cuzk verify: checks Groth16 proofs over BLS12-381 (bellperson's, Filecoin's) against a
 * verifying key file, in the byte forms the engine and the daemon give them: 192-byte proofs and
 * public inputs of CUZK_INPUT_BYTES each. No engine, no GPU: what a client runs to check
 * a proof it was given.
 *
 * Contracts are in the form of cuzk/status.h (docs/API.md); pointer arguments are not NULL
 * unless a contract says so, and a failing call leaves its reason in cuzk_last_error(). */
#ifndef CUZK_VERIFY_H
#define CUZK_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_PROOF_BYTES 192 /* a proof: A (G1), B (G2), C (G1) compressed, as bellperson */
#define CUZK_INPUT_BYTES 32  /* a public input: an Fr element, canonical little-endian */

typedef struct cuzk_verifier cuzk_verifier;

/* Reads a verifying key (a bellperson .vk file, every point checked on the curve and in its
 * subgroup). In: vk_path. Out: *out, the verifier (close it with cuzk_verifier_close); NULL on
 * failure. Errors: CUZK_EIO when the file cannot be read; CUZK_EFORMAT naming what is wrong in
 * it (a truncated file, a point off the curve); CUZK_ENOMEM. Thread: any. */
cuzk_status cuzk_verifier_open(cuzk_verifier **out, const char *vk_path) CUZK_WARN_UNUSED;

/* Returns: the public inputs each proof has under this key (the leading ONE not counted).
 * Thread: any. */
size_t cuzk_verifier_num_inputs(const cuzk_verifier *v);

/* Checks nproofs proofs at once (a random linear combination, one final exponentiation).
 * In: proofs, nproofs x CUZK_PROOF_BYTES; inputs, nproofs x cuzk_verifier_num_inputs(v)
 * x CUZK_INPUT_BYTES, proof by proof (NULL when there are none); nproofs >= 1.
 * Returns: CUZK_OK when every proof verifies. Errors: CUZK_EVERIFY when they do not (the batch,
 * not which proof); CUZK_EFORMAT naming the proof whose bytes are no valid points;
 * CUZK_EINVAL naming an input that is not a canonical field element, or nproofs 0;
 * CUZK_ENOMEM. Thread: any; calls on one verifier may run at once. */
cuzk_status cuzk_verifier_check(const cuzk_verifier *v, const uint8_t *proofs, size_t nproofs,
                                const uint8_t *inputs) CUZK_WARN_UNUSED;

/* Frees the verifier. In: v (NULL: nothing is done). Thread: any, once no call on v runs. */
void cuzk_verifier_close(cuzk_verifier *v);

#ifdef __cplusplus
}
#endif
#endif
