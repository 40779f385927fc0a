/* Groth16 verification: e(A, B) = e(alpha, beta) e(sum x_i IC_i, gamma) e(C, delta), checked
 * as a product of Miller loops with one final exponentiation; batches fold all proofs into
 * one check with random 128-bit weights. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

static void to_affine_neg(blst_p1_affine *out, const blst_p1 *p)
{
    blst_p1 t = *p;
    blst_p1_cneg(&t, 1);
    blst_p1_to_affine(out, &t);
}

/* acc = sum_i coeffs[i] * IC[i] with coeffs[0] applied to IC[0]. */
static cuzk_status ic_combination(blst_p1 *acc, const cuzk_groth16_vk *vk, const cuzk_fr *coeffs)
{
    return cuzk_g1_msm(acc, vk->ic, coeffs, vk->ic_len);
}

static void ml_mul(blst_fp12 *acc, const blst_p2_affine *q, const blst_p1_affine *p)
{
    blst_fp12 t;
    if (blst_p1_affine_is_inf(p) || blst_p2_affine_is_inf(q)) return; /* e(O, Q) = 1 */
    blst_miller_loop(&t, q, p);
    blst_fp12_mul(acc, acc, &t);
}

static cuzk_status check_counts(const cuzk_groth16_vk *vk, size_t num_inputs)
{
    if (vk->ic_len == 0) return cuzk_fail(CUZK_EINVAL, "verifying key has no IC points");
    if (num_inputs != vk->ic_len - 1)
        return cuzk_fail(CUZK_EINVAL, "wrong number of public inputs: got %zu, the verifying key expects %zu",
                         num_inputs, vk->ic_len - 1);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof, const cuzk_fr *inputs,
                                size_t num_inputs)
{
    return cuzk_groth16_verify_batch(vk, proof, 1, inputs, num_inputs);
}

cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proofs, size_t nproofs,
                                      const cuzk_fr *inputs, size_t num_inputs)
{
    cuzk_status st = check_counts(vk, num_inputs);
    if (st) return st;
    if (nproofs == 0) return cuzk_fail(CUZK_EINVAL, "no proofs to verify");
    size_t ni = vk->ic_len;
    cuzk_fr *coeffs = cuzk_calloc(ni, sizeof(cuzk_fr));
    if (!coeffs) return CUZK_ENOMEM;
    blst_fp12 acc = *blst_fp12_one();
    blst_p1 c_sum, t;
    memset(&c_sum, 0, sizeof c_sum);
    cuzk_fr z_sum = CUZK_FR_ZERO;
    for (size_t j = 0; j < nproofs && !st; j++) {
        /* weight z_j: 1 for a single proof, else a random nonzero 128-bit value */
        cuzk_fr z = CUZK_FR_ONE;
        if (nproofs > 1) {
            uint8_t le[32] = {0};
            do {
                st = cuzk_os_random(le, 16);
            } while (!st && !memcmp(le, (uint8_t[16]){0}, 16));
            if (st) break;
            if ((st = cuzk_fr_from_bytes_le(&z, le))) break;
        }
        cuzk_fr_add(&z_sum, &z_sum, &z);
        /* coefficients of IC: z_j * (1, x_j...) */
        cuzk_fr_add(&coeffs[0], &coeffs[0], &z);
        for (size_t i = 0; i < num_inputs; i++) {
            cuzk_fr zx;
            cuzk_fr_mul(&zx, &z, &inputs[j * num_inputs + i]);
            cuzk_fr_add(&coeffs[i + 1], &coeffs[i + 1], &zx);
        }
        blst_scalar zs;
        cuzk_fr_to_scalar(&zs, &z);
        blst_p1_affine za;
        blst_p1_from_affine(&t, &proofs[j].a);
        blst_p1_mult(&t, &t, zs.b, 128);
        blst_p1_to_affine(&za, &t);
        ml_mul(&acc, &proofs[j].b, &za);
        blst_p1_from_affine(&t, &proofs[j].c);
        blst_p1_mult(&t, &t, zs.b, 128);
        blst_p1_add_or_double(&c_sum, &c_sum, &t);
    }
    if (!st) {
        blst_p1 ic_acc, alpha;
        st = ic_combination(&ic_acc, vk, coeffs);
        if (!st) {
            blst_p1_affine neg;
            blst_scalar zs;
            cuzk_fr_to_scalar(&zs, &z_sum);
            blst_p1_from_affine(&alpha, &vk->alpha_g1);
            blst_p1_mult(&alpha, &alpha, zs.b, 255);
            to_affine_neg(&neg, &alpha);
            ml_mul(&acc, &vk->beta_g2, &neg);
            to_affine_neg(&neg, &ic_acc);
            ml_mul(&acc, &vk->gamma_g2, &neg);
            to_affine_neg(&neg, &c_sum);
            ml_mul(&acc, &vk->delta_g2, &neg);
            blst_fp12 f;
            blst_final_exp(&f, &acc);
            if (!blst_fp12_is_one(&f))
                st = cuzk_fail(CUZK_EVERIFY,
                               nproofs > 1 ? "the batch of %zu proofs does not verify" : "proof does not verify",
                               nproofs);
        }
    }
    free(coeffs);
    return st;
}
