/* The installed verification API (cuzk/verify.h) on proofs of our own prover: a .vk file written
 * from a setup, two proofs and their public inputs as bytes. They verify, alone and together; a
 * changed input, a proof of other inputs, and bad bytes are refused with the status the contract
 * names (CUZK_EVERIFY for a wrong proof, CUZK_EFORMAT for no valid point, CUZK_EINVAL for an
 * input above r, CUZK_EIO for no file, CUZK_EFORMAT for a truncated one). The pairing check
 * itself is checked against bellman's proofs in test_bellman_kat. */
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/verify.h"
#include "harness.h"
#include "support_job.h"

/* A proof of j's witness with its inputs as bytes (ni of them after ONE). */
static void proof_bytes(const job *j, const cuzk_groth16_params *p, uint8_t *proof, uint8_t *inputs, size_t ni)
{
    cuzk_groth16_proof pf;
    CHECK_OK(cuzk_groth16_prove(&pf, p, &j->w, NULL, NULL, NULL));
    cuzk_groth16_proof_encode(proof, &pf);
    for (size_t k = 0; k < ni; k++) cuzk_fr_to_bytes_le(inputs + k * CUZK_INPUT_BYTES, &j->input[1 + k]);
}

int main(void)
{
    job a, b;
    job_open(&a, "random:1000", 1);
    job_open(&b, "random:1000", 2); /* the same circuit, other inputs */
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    CHECK_OK(cuzk_groth16_setup(&p, a.m, &rng, NULL));
    char path[] = "/tmp/cuzk-verify-api-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK_OK(cuzk_groth16_vk_write(&p.vk, path));

    cuzk_verifier *v = NULL;
    CHECK_OK(cuzk_verifier_open(&v, path));
    size_t ni = v ? cuzk_verifier_num_inputs(v) : 0;
    CHECK(ni == p.vk.ic_len - 1 && ni > 0 && ni <= 16);
    uint8_t proofs[2 * CUZK_PROOF_BYTES], inputs[2 * 16 * CUZK_INPUT_BYTES];
    proof_bytes(&a, &p, proofs, inputs, ni);
    proof_bytes(&b, &p, proofs + CUZK_PROOF_BYTES, inputs + ni * CUZK_INPUT_BYTES, ni);
    if (v) {
        CHECK_OK(cuzk_verifier_check(v, proofs, 1, inputs));
        CHECK_OK(cuzk_verifier_check(v, proofs + CUZK_PROOF_BYTES, 1, inputs + ni * CUZK_INPUT_BYTES));
        CHECK_OK(cuzk_verifier_check(v, proofs, 2, inputs));
        /* a's proof with b's inputs, alone and in the batch */
        CHECK_FAILS(cuzk_verifier_check(v, proofs, 1, inputs + ni * CUZK_INPUT_BYTES), CUZK_EVERIFY);
        uint8_t swapped[2 * 16 * CUZK_INPUT_BYTES];
        memcpy(swapped, inputs + ni * CUZK_INPUT_BYTES, ni * CUZK_INPUT_BYTES);
        memcpy(swapped + ni * CUZK_INPUT_BYTES, inputs, ni * CUZK_INPUT_BYTES);
        CHECK_FAILS(cuzk_verifier_check(v, proofs, 2, swapped), CUZK_EVERIFY);
        /* an input above r, named */
        uint8_t bad[sizeof inputs];
        memcpy(bad, inputs, sizeof bad);
        memset(bad + ni * CUZK_INPUT_BYTES, 0xff, CUZK_INPUT_BYTES);
        CHECK_FAILS(cuzk_verifier_check(v, proofs, 2, bad), CUZK_EINVAL);
        CHECK(strstr(cuzk_last_error(), "proof 1, public input 0") != NULL);
        /* a proof whose bytes are no point, named */
        uint8_t pbad[sizeof proofs];
        memcpy(pbad, proofs, sizeof pbad);
        pbad[CUZK_PROOF_BYTES] ^= 0x40; /* proof 1's A: the infinity flag on a point's bytes */
        CHECK_FAILS(cuzk_verifier_check(v, pbad, 2, inputs), CUZK_EFORMAT);
        CHECK(strstr(cuzk_last_error(), "proof 1") != NULL);
        CHECK_FAILS(cuzk_verifier_check(v, proofs, 0, inputs), CUZK_EINVAL);
    }
    cuzk_verifier_close(v);
    cuzk_verifier_close(NULL);

    /* files: a truncated key, none at all */
    cuzk_verifier *w = NULL;
    CHECK(truncate(path, 100) == 0);
    CHECK_FAILS(cuzk_verifier_open(&w, path), CUZK_EFORMAT);
    CHECK(w == NULL);
    unlink(path);
    CHECK_FAILS(cuzk_verifier_open(&w, path), CUZK_EIO);
    CHECK(w == NULL);
    printf("verify API: %zu-input proofs verified alone and as a batch; wrong ones and bad bytes refused\n", ni);

    cuzk_groth16_params_free(&p);
    job_close(&a);
    job_close(&b);
    return harness_finish("test_verify_api");
}
