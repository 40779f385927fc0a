/* Verifying keys (.vk, and the first bytes of a .params file). A key that parses encodes back
 * to the bytes it was read from; none of its fixed elements is the point at infinity and
 * delta_g2 is not +-gamma_g2; and the proof one can make from the key alone,
 * A = alpha, B = beta + delta, C = alpha, does not verify (it does for every input when
 * gamma_g2 is at infinity). */
#include <string.h>

#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_groth16_vk vk;
    size_t used = 0;
    if (cuzk_groth16_vk_parse(&vk, data, size, &used)) return 0;
    FUZZ_CHECK(used <= size && used == cuzk_groth16_vk_size(&vk), "consumed %zu of %zu, the key takes %zu", used, size,
               cuzk_groth16_vk_size(&vk));
    uint8_t *back = malloc(used);
    cuzk_groth16_vk_encode(back, &vk);
    FUZZ_CHECK(!memcmp(back, data, used), "a parsed key encodes to other bytes");
    free(back);
    FUZZ_CHECK(vk.ic_len >= 1, "no IC points");
    FUZZ_CHECK(!blst_p1_affine_is_inf(&vk.alpha_g1) && !blst_p1_affine_is_inf(&vk.beta_g1) &&
                   !blst_p1_affine_is_inf(&vk.delta_g1) && !blst_p2_affine_is_inf(&vk.beta_g2) &&
                   !blst_p2_affine_is_inf(&vk.gamma_g2) && !blst_p2_affine_is_inf(&vk.delta_g2),
               "a key element at infinity");
    for (size_t i = 0; i < vk.ic_len; i++) FUZZ_CHECK(!blst_p1_affine_is_inf(&vk.ic[i]), "ic[%zu] at infinity", i);
    blst_p2 bd;
    blst_p2_from_affine(&bd, &vk.beta_g2);
    blst_p2_add_or_double_affine(&bd, &bd, &vk.delta_g2);
    cuzk_groth16_proof forged;
    forged.a = forged.c = vk.alpha_g1;
    blst_p2_to_affine(&forged.b, &bd);
    cuzk_fr *zeros = calloc(vk.ic_len, sizeof *zeros);
    FUZZ_CHECK(cuzk_groth16_verify(&vk, &forged, zeros, vk.ic_len - 1) == CUZK_EVERIFY,
               "the key accepts a proof made from the key alone");
    free(zeros);
    cuzk_groth16_vk_free(&vk);
    return 0;
}
