/* .params files (bellperson's layout). Parsed with full point checks and with on-curve checks
 * only: what the full checks accept the light ones accept with the same points; an accepted
 * file encodes back to its own bytes, its key parses alone to the same length, and b_g1 and
 * b_g2 have one length. */
#include <string.h>

#include "support.h"

static size_t put_u32(uint8_t *o, size_t n)
{
    o[0] = (uint8_t)(n >> 24);
    o[1] = (uint8_t)(n >> 16);
    o[2] = (uint8_t)(n >> 8);
    o[3] = (uint8_t)n;
    return 4;
}

static uint8_t *encode(const cuzk_groth16_params *p, size_t *len)
{
    size_t vn = cuzk_groth16_vk_size(&p->vk);
    size_t n = vn + 20 + 96 * (p->h_len + p->l_len + p->a_len + p->b_g1_len) + 192 * p->b_g2_len;
    uint8_t *out = malloc(n), *o = out + vn;
    cuzk_groth16_vk_encode(out, &p->vk);
    const blst_p1_affine *g1[4] = {p->h, p->l, p->a, p->b_g1};
    size_t lens[4] = {p->h_len, p->l_len, p->a_len, p->b_g1_len};
    for (int k = 0; k < 4; k++) {
        o += put_u32(o, lens[k]);
        for (size_t i = 0; i < lens[k]; i++, o += 96) cuzk_g1_encode(o, &g1[k][i], false);
    }
    o += put_u32(o, p->b_g2_len);
    for (size_t i = 0; i < p->b_g2_len; i++, o += 192) cuzk_g2_encode(o, &p->b_g2[i], false);
    *len = n;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_groth16_params full, light;
    cuzk_status sf = cuzk_groth16_params_parse(&full, data, size, "fuzz.params", CUZK_PARAMS_CHECKED);
    cuzk_status sl = cuzk_groth16_params_parse(&light, data, size, "fuzz.params", CUZK_PARAMS_UNCHECKED);
    FUZZ_CHECK(sf != CUZK_OK || sl == CUZK_OK, "checked parse accepts what the unchecked one refuses");
    if (sl == CUZK_OK) {
        FUZZ_CHECK(light.b_g1_len == light.b_g2_len, "b_g1 %zu, b_g2 %zu", light.b_g1_len, light.b_g2_len);
        size_t n;
        uint8_t *back = encode(&light, &n);
        FUZZ_CHECK(n == size && !memcmp(back, data, size), "a parsed file encodes to other bytes (%zu of %zu)", n,
                   size);
        free(back);
        cuzk_groth16_vk vk;
        size_t used;
        FUZZ_CHECK(cuzk_groth16_vk_parse(&vk, data, size, &used) == CUZK_OK && used == cuzk_groth16_vk_size(&light.vk),
                   "the file's key does not parse alone");
        cuzk_groth16_vk_free(&vk);
    }
    if (sf == CUZK_OK) {
        FUZZ_CHECK(full.h_len == light.h_len && full.a_len == light.a_len && full.l_len == light.l_len &&
                       !memcmp(full.h, light.h, full.h_len * sizeof *full.h) &&
                       !memcmp(full.b_g2, light.b_g2, full.b_g2_len * sizeof *full.b_g2),
                   "checked and unchecked parses differ");
        cuzk_groth16_params_free(&full);
    }
    if (sl == CUZK_OK) cuzk_groth16_params_free(&light);
    return 0;
}
