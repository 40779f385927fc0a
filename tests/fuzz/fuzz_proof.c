/* Groth16 proofs: 192 bytes (A, B, C compressed). A proof that decodes encodes back to the same
 * bytes, and against the fixed circuit's key and input only the true proof or its (-A, -B, C)
 * form verifies (other valid proofs exist, by re-randomization, but cannot be reached by
 * mutating bytes), singly and in a batch alike. */
#include <string.h>

#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size != CUZK_GROTH16_PROOF_BYTES) return -1;
    const fuzz_fixture *f = fuzz_fixture_get();
    cuzk_groth16_proof p;
    if (cuzk_groth16_proof_decode(&p, data)) return 0;
    uint8_t back[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_encode(back, &p);
    FUZZ_CHECK(!memcmp(back, data, sizeof back), "a decoded proof encodes to other bytes");
    bool genuine = !memcmp(data, f->proof_bytes, sizeof back) || !memcmp(data, f->neg_bytes, sizeof back);
    cuzk_status st = cuzk_groth16_verify(&f->params.vk, &p, &f->input, 1);
    FUZZ_CHECK(st == (genuine ? CUZK_OK : CUZK_EVERIFY), "verify says %d for a %s proof", (int)st,
               genuine ? "true" : "false");
    cuzk_status bt = cuzk_groth16_verify_batch(&f->params.vk, &p, 1, &f->input, 1);
    FUZZ_CHECK(bt == st, "batch verify says %d, single %d", (int)bt, (int)st);
    /* no proof verifies for another input */
    cuzk_fr other;
    cuzk_fr_add(&other, &f->input, &CUZK_FR_ONE);
    FUZZ_CHECK(cuzk_groth16_verify(&f->params.vk, &p, &other, 1) == CUZK_EVERIFY, "verified for another input");
    return 0;
}
