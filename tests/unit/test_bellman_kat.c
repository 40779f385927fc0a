/* Our verifier against Groth16 proofs made by Rust bellman (ZCash encodings): the vectors of
 * tests/vectors/bellman-kat.json (or $CUZK_SHARED_VECTORS), 6 that verify and 5 that must
 * fail. Without the file the test reports itself skipped, saying where it looked. */
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
    cuzk_status st = cuzk_g1_decode(&vk->alpha_g1, d, 48, 0);
    if (!st) st = cuzk_g2_decode(&vk->beta_g2, d + 48, 96, 0);
    if (!st) st = cuzk_g2_decode(&vk->gamma_g2, d + 144, 96, 0);
    if (!st) st = cuzk_g2_decode(&vk->delta_g2, d + 240, 96, 0);
    vk->ic_len = (n - 336) / 48;
    vk->ic = cuzk_big_alloc(vk->ic_len * sizeof *vk->ic); /* freed by cuzk_groth16_vk_free */
    if (!vk->ic) return CUZK_ENOMEM;
    for (size_t i = 0; i < vk->ic_len && !st; i++) st = cuzk_g1_decode(&vk->ic[i], d + 336 + 48 * i, 48, 0);
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
    size_t i, ok = 0, fail = 0;
    json_t *v;
    json_array_foreach(vecs, i, v)
    {
        const char *name = json_string_value(json_object_get(v, "name"));
        int expect_ok = !strcmp(json_string_value(json_object_get(v, "expect")), "OK");
        uint8_t vkb[8192], pb[256], inb[4096];
        size_t vkn = b64(json_string_value(json_object_get(v, "vk")), vkb, sizeof vkb);
        size_t pn = b64(json_string_value(json_object_get(v, "proof")), pb, sizeof pb);
        const char *ins = json_string_value(json_object_get(v, "inputs"));
        size_t inn = ins && *ins ? b64(ins, inb, sizeof inb) : 0;
        cuzk_groth16_vk vk;
        cuzk_groth16_proof proof;
        cuzk_status st = parse_vk(vkb, vkn, &vk);
        if (!st && pn != 192) st = cuzk_fail(CUZK_EFORMAT, "proof length %zu", pn);
        if (!st) st = cuzk_groth16_proof_decode(&proof, pb);
        cuzk_fr inputs[64];
        size_t nin = inn / 32;
        for (size_t k = 0; k < nin && !st && k < 64; k++) st = cuzk_fr_from_bytes_be(&inputs[k], inb + 32 * k);
        if (!st) st = cuzk_groth16_verify(&vk, &proof, inputs, nin);
        int verified = st == CUZK_OK;
        CHECK(verified == expect_ok);
        if (verified != expect_ok) fprintf(stderr, "  vector '%s': %s\n", name, cuzk_last_error());
        verified ? ok++ : fail++;
        cuzk_groth16_vk_free(&vk);
    }
    printf("bellman vectors: %zu verified, %zu rejected\n", ok, fail);
    CHECK(ok + fail >= 11);
    json_decref(top);
    return harness_finish("test_bellman_kat");
}
