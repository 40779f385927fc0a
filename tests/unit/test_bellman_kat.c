/* Our verifier against Groth16 proofs made by Rust bellman (ZCash encodings): the vectors of
 * tests/vectors/bellman-kat.json (or $CUZK_SHARED_VECTORS), 6 that verify and 5 that must
 * fail. Each must parse (valid points, right lengths); then the 6 verify and the pairing check
 * rejects the 5, so a failing vector that does not parse is a failure naming it. Without the
 * file the test reports itself skipped, saying where it looked. */
#include <jansson.h>
#include <openssl/evp.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "harness.h"

static size_t b64(const char *in, uint8_t *out, size_t cap)
{
    size_t n = strlen(in);
    if (n % 4 || n / 4 * 3 > cap) return 0;
    int len = EVP_DecodeBlock(out, (const unsigned char *)in, (int)n);
    if (len < 0) return 0;
    while (n > 0 && in[n - 1] == '=') n--, len--;
    return (size_t)len;
}

/* bellman's vk: alpha_g1, beta_g2, gamma_g2, delta_g2 (compressed), then IC points. */
static cuzk_status parse_vk(const uint8_t *d, size_t n, cuzk_groth16_vk *vk)
{
    memset(vk, 0, sizeof *vk);
    if (n < 48 + 3 * 96 || (n - 48 - 3 * 96) % 48) return cuzk_fail(CUZK_EFORMAT, "vk length %zu", n);
    cuzk_status st = cuzk_g1_decode(&vk->alpha_g1, d, 48, CUZK_POINT_CHECKED);
    if (!st) st = cuzk_g2_decode(&vk->beta_g2, d + 48, 96, CUZK_POINT_CHECKED);
    if (!st) st = cuzk_g2_decode(&vk->gamma_g2, d + 144, 96, CUZK_POINT_CHECKED);
    if (!st) st = cuzk_g2_decode(&vk->delta_g2, d + 240, 96, CUZK_POINT_CHECKED);
    vk->ic_len = (n - 336) / 48;
    vk->ic = cuzk_big_alloc(vk->ic_len * sizeof *vk->ic); /* freed by cuzk_groth16_vk_free */
    if (!vk->ic) return CUZK_ENOMEM;
    for (size_t i = 0; i < vk->ic_len && !st; i++)
        st = cuzk_g1_decode(&vk->ic[i], d + 336 + 48 * i, 48, CUZK_POINT_CHECKED);
    return st;
}

/* One vector's vk, proof and inputs decoded: the proof 192 bytes, every point valid (on the
 * curve, in the subgroup), as many 32-byte inputs as the vk has IC points less one, each below
 * r. CUZK_EFORMAT naming what is wrong otherwise. */
static cuzk_status parse_vector(json_t *v, cuzk_groth16_vk *vk, cuzk_groth16_proof *proof, cuzk_fr *inputs, size_t *nin)
{
    static uint8_t vkb[8192], pb[256], inb[4096];
    const char *vks = json_string_value(json_object_get(v, "vk"));
    const char *ps = json_string_value(json_object_get(v, "proof"));
    const char *ins = json_string_value(json_object_get(v, "inputs"));
    memset(vk, 0, sizeof *vk);
    if (!vks || !ps || !ins) return cuzk_fail(CUZK_EFORMAT, "vk, proof or inputs is not a string");
    size_t vkn = b64(vks, vkb, sizeof vkb), pn = b64(ps, pb, sizeof pb), inn = *ins ? b64(ins, inb, sizeof inb) : 0;
    cuzk_status st = parse_vk(vkb, vkn, vk);
    if (st) return st;
    if (pn != CUZK_GROTH16_PROOF_BYTES) return cuzk_fail(CUZK_EFORMAT, "proof of %zu bytes", pn);
    st = cuzk_groth16_proof_decode(proof, pb);
    if (st) return st;
    if (inn % 32 || inn / 32 + 1 != vk->ic_len || inn / 32 > 64)
        return cuzk_fail(CUZK_EFORMAT, "%zu bytes of inputs for a vk of %zu IC points", inn, vk->ic_len);
    *nin = inn / 32;
    for (size_t k = 0; k < *nin && !st; k++) st = cuzk_fr_from_bytes_be(&inputs[k], inb + 32 * k);
    return st;
}

int main(void)
{
    char path[4096];
    const char *env = getenv("CUZK_SHARED_VECTORS");
    if (env) snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s/tests/vectors/bellman-kat.json",
                 getenv("CUZK_SOURCE_DIR") ? getenv("CUZK_SOURCE_DIR") : "..");
    json_error_t err;
    json_t *top = json_load_file(path, 0, &err);
    if (!top)
        TEST_SKIP("bellman test vectors not found (tests/vectors/bellman-kat.json under CUZK_SOURCE_DIR, or "
                  "CUZK_SHARED_VECTORS)");
    json_t *vecs = json_object_get(top, "vectors");
    size_t i, verified = 0, rejected = 0;
    json_t *v;
    json_array_foreach(vecs, i, v)
    {
        const char *name = json_string_value(json_object_get(v, "name"));
        int expect_ok = !strcmp(json_string_value(json_object_get(v, "expect")), "OK");
        cuzk_groth16_vk vk;
        cuzk_groth16_proof proof;
        cuzk_fr inputs[64];
        size_t nin = 0;
        /* every vector, the failing ones too, must parse: a FAIL vector tests the pairing check,
         * and one refused earlier (a bad point, a wrong length) would pass without reaching it */
        cuzk_status st = parse_vector(v, &vk, &proof, inputs, &nin);
        CHECK(st == CUZK_OK);
        if (st) fprintf(stderr, "  vector '%s' does not parse: %s\n", name, cuzk_last_error());
        else {
            /* OK: it verifies; FAIL: the pairing check says no (CUZK_EVERIFY, not another error) */
            cuzk_status want = expect_ok ? CUZK_OK : CUZK_EVERIFY;
            st = cuzk_groth16_verify(&vk, &proof, inputs, nin);
            CHECK(st == want);
            if (st != want)
                fprintf(stderr, "  vector '%s' (expect %s): status %d: %s\n", name, expect_ok ? "OK" : "FAIL", (int)st,
                        cuzk_last_error());
            else if (expect_ok) verified++;
            else rejected++;
        }
        cuzk_groth16_vk_free(&vk);
    }
    printf("bellman vectors: %zu verified, %zu parsed and rejected by the pairing check\n", verified, rejected);
    CHECK(json_array_size(vecs) >= 11);
    json_decref(top);
    return harness_finish("test_bellman_kat");
}
