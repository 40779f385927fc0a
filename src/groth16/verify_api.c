/* Proofs checked from their bytes against a verifying key file (cuzk/verify.h). */
#include <stdlib.h>

#include "cuzk/groth16.h"
#include "cuzk/verify.h"

_Static_assert(CUZK_PROOF_BYTES == CUZK_GROTH16_PROOF_BYTES, "one proof size");

struct cuzk_verifier {
    cuzk_groth16_vk vk;
};

cuzk_status cuzk_verifier_open(cuzk_verifier **out, const char *vk_path)
{
    *out = NULL;
    cuzk_verifier *v = calloc(1, sizeof *v);
    if (!v) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_status st = cuzk_groth16_vk_read(&v->vk, vk_path);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    return CUZK_OK;
}

size_t cuzk_verifier_num_inputs(const cuzk_verifier *v) { return v->vk.ic_len ? v->vk.ic_len - 1 : 0; }

cuzk_status cuzk_verifier_check(const cuzk_verifier *v, const uint8_t *proofs, size_t nproofs, const uint8_t *inputs)
{
    if (!nproofs) return cuzk_fail(CUZK_EINVAL, "no proofs to check");
    size_t ni = cuzk_verifier_num_inputs(v);
    if (ni && nproofs > SIZE_MAX / ni / sizeof(cuzk_fr)) return cuzk_fail(CUZK_EINVAL, "%zu proofs: too many", nproofs);
    cuzk_groth16_proof *p = malloc(nproofs * sizeof *p);
    cuzk_fr *in = malloc(nproofs * ni * sizeof *in + 1);
    cuzk_status st = p && in ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t k = 0; !st && k < nproofs; k++)
        if ((st = cuzk_groth16_proof_decode(&p[k], proofs + k * CUZK_PROOF_BYTES)))
            st = cuzk_fail_context(CUZK_EFORMAT, "proof %zu", k);
    for (size_t i = 0; !st && i < nproofs * ni; i++)
        if ((st = cuzk_fr_from_bytes_le(&in[i], inputs + i * CUZK_INPUT_BYTES)))
            st = cuzk_fail_context(CUZK_EINVAL, "proof %zu, public input %zu", i / ni, i % ni);
    if (!st) st = cuzk_groth16_verify_batch(&v->vk, p, nproofs, in, ni);
    free(p);
    free(in);
    return st;
}

void cuzk_verifier_close(cuzk_verifier *v)
{
    if (!v) return;
    cuzk_groth16_vk_free(&v->vk);
    free(v);
}
