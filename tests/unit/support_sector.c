#include "support_sector.h"

#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/testcircuits.h"
#include "harness.h"

static void hex32(uint8_t out[32], const char *h)
{
    if (cuzk_hex_decode(out, 32, h) != CUZK_OK) {
        fprintf(stderr, "support_sector: bad hex %s\n", h);
        exit(1);
    }
}

void test_sector_params(cuzk_seal_params *sp, cuzk_seal_proof p, uint64_t id)
{
    memset(sp, 0, sizeof *sp);
    sp->proof = p;
    cuzk_prover_id_from_actor(sp->prover_id, 1002);
    sp->sector_id = id;
    for (int i = 0; i < 32; i++) sp->ticket[i] = (uint8_t)(7 * i + id);
    sp->ticket[31] &= 0x3f;
}

void test_sector_devnet(cuzk_seal_params *sp, cuzk_seal_proof p, uint8_t seed[32])
{
    test_sector_params(sp, p, 1);
    hex32(sp->ticket, "c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0");
    if (seed) hex32(seed, "62a9ec8794bdb9cf9899e3e1fde9dd3c84ecb285bfeeace7fdbf4924b25eba85");
}

void test_sector_seed(uint8_t seed[32], unsigned n)
{
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)(11 * i + n);
    seed[31] &= 0x3f;
    seed[0] ^= (uint8_t)(n >> 8);
}

void test_sector_data(uint8_t *data, size_t bytes, uint64_t seed)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    cuzk_rng_bytes(&rng, data, bytes);
    for (size_t n = 31; n < bytes; n += 32) data[n] &= 0x3f;
}

cuzk_sealed_sector *test_sector_seal(const cuzk_seal_params *sp)
{
    cuzk_sealed_sector *s = NULL;
    CHECK_OK(cuzk_seal_precommit(&s, sp, NULL));
    return s;
}

cuzk_c1 *test_sector_c1(const cuzk_seal_params *sp, const uint8_t seed[32])
{
    cuzk_sealed_sector *s = test_sector_seal(sp);
    cuzk_c1 *c1 = NULL;
    if (s) CHECK_OK(cuzk_seal_commit1(&c1, s, seed, NULL));
    cuzk_sealed_sector_free(s);
    return c1;
}

void test_params_write(test_params *out, const char *dir, const char *circuit, uint64_t seed)
{
    char name[128];
    snprintf(name, sizeof name, "%s", circuit);
    for (char *p = name; *p; p++)
        if (*p == ':') *p = '-';
    snprintf(out->params, sizeof out->params, "%s/cuzk-test-%s.params", dir, name);
    snprintf(out->vk, sizeof out->vk, "%s/cuzk-test-%s.vk", dir, name);
    cuzk_circuit *c = NULL;
    cuzk_r1cs m;
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    if (cuzk_circuit_open(&c, circuit) || cuzk_circuit_record(c, &m) || cuzk_groth16_setup(&p, &m, &rng, NULL) ||
        cuzk_groth16_params_write(&p, out->params) || cuzk_groth16_vk_write(&p.vk, out->vk)) {
        fprintf(stderr, "cannot make the parameters of %s in %s: %s\n", circuit, dir, cuzk_last_error());
        exit(1);
    }
    out->num_inputs = m.num_inputs - 1;
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}
