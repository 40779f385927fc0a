/* Key files told apart by their layout: a .vk, a .params, and anything else (cut short, a
 * byte too many, another file) unknown; from a path and from bytes, with the counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/testcircuits.h"
#include "harness.h"

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    *n = b && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
    fclose(f);
    return b;
}

static void spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && (n == 0 || fwrite(b, 1, n, f) == n)); /* fwrite's buffer must not be NULL, even for 0 bytes */
    if (f) fclose(f);
}

int main(void)
{
    cuzk_circuit *c;
    cuzk_r1cs m;
    cuzk_groth16_params p;
    CHECK_OK(cuzk_circuit_open(&c, "random:64"));
    CHECK_OK(cuzk_circuit_record(c, &m));
    CHECK_OK(cuzk_groth16_setup(&p, &m, NULL, NULL));
    char dir[] = "/tmp/cuzk-keykind-XXXXXX", pp[64], vp[64], xp[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(pp, sizeof pp, "%s/k.params", dir);
    snprintf(vp, sizeof vp, "%s/k.vk", dir);
    snprintf(xp, sizeof xp, "%s/x", dir);
    CHECK_OK(cuzk_groth16_params_write(&p, pp));
    CHECK_OK(cuzk_groth16_vk_write(&p.vk, vp));

    cuzk_key_layout l;
    CHECK(cuzk_groth16_key_kind_file(vp, &l) == CUZK_KEY_VK);
    CHECK(l.kind == CUZK_KEY_VK && l.ic_len == p.vk.ic_len && l.h_len == 0 && l.l_len == 0);
    CHECK(cuzk_groth16_key_kind_file(pp, &l) == CUZK_KEY_PARAMS);
    CHECK(l.ic_len == p.vk.ic_len && l.h_len == p.h_len && l.l_len == p.l_len && l.a_len == p.a_len &&
          l.b_g1_len == p.b_g1_len && l.b_g2_len == p.b_g2_len);
    CHECK(cuzk_groth16_key_kind_file(pp, NULL) == CUZK_KEY_PARAMS);
    CHECK(!strcmp(cuzk_groth16_key_kind_name(CUZK_KEY_VK), "a verifying key (.vk)"));
    CHECK(!strcmp(cuzk_groth16_key_kind_name(CUZK_KEY_PARAMS), "a parameter file (.params)"));

    size_t pn = 0, vn = 0;
    uint8_t *pb = slurp(pp, &pn), *vb = slurp(vp, &vn);
    CHECK(pb && vb && pn > vn && !memcmp(pb, vb, vn)); /* a .params starts with its .vk */
    CHECK(cuzk_groth16_key_kind(vb, vn, &l) == CUZK_KEY_VK && l.ic_len == p.vk.ic_len);
    CHECK(cuzk_groth16_key_kind(pb, pn, &l) == CUZK_KEY_PARAMS && l.b_g2_len == p.b_g2_len);
    /* cut short anywhere, or a byte too many: neither */
    size_t cuts[] = {0, 1, 863, 867, vn - 1, vn + 1, vn + 4, pn - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        CHECK(cuzk_groth16_key_kind(pb, cuts[i], &l) == CUZK_KEY_UNKNOWN);
        CHECK(l.kind == CUZK_KEY_UNKNOWN);
    }
    uint8_t *more = malloc(pn + 1);
    memcpy(more, pb, pn);
    more[pn] = 0;
    CHECK(cuzk_groth16_key_kind(more, pn + 1, NULL) == CUZK_KEY_UNKNOWN);
    spit(xp, more, pn + 1);
    CHECK(cuzk_groth16_key_kind_file(xp, NULL) == CUZK_KEY_UNKNOWN);
    /* a point written compressed or as the identity (flag bits set) is no key */
    memcpy(more, vb, vn);
    more[96] |= 0x80;
    CHECK(cuzk_groth16_key_kind(more, vn, NULL) == CUZK_KEY_UNKNOWN);
    /* other files: JSON, an empty file, a folder, a missing path */
    const char *json = "{\"registered_proof\": \"StackedDrg2KiBV1_1\"}\n";
    spit(xp, (const uint8_t *)json, strlen(json));
    CHECK(cuzk_groth16_key_kind_file(xp, NULL) == CUZK_KEY_UNKNOWN);
    spit(xp, NULL, 0);
    CHECK(cuzk_groth16_key_kind_file(xp, NULL) == CUZK_KEY_UNKNOWN);
    CHECK(cuzk_groth16_key_kind_file(dir, NULL) == CUZK_KEY_UNKNOWN);
    CHECK(cuzk_groth16_key_kind_file("/nonexistent/k.vk", NULL) == CUZK_KEY_UNKNOWN);

    unlink(pp);
    unlink(vp);
    unlink(xp);
    rmdir(dir);
    free(more);
    free(pb);
    free(vb);
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
    return harness_finish("test_key_kind");
}
