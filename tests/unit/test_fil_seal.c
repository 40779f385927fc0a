/* The test-data sealer. The anchor is a real 2 KiB devnet sector (lotus-miner log, 2021):
 * StackedDrg2KiBV1_1, miner t01002, sector 1, zero data; sealing its ticket must give the
 * CommD and CommR the chain recorded (decoded from their CIDs). That one check covers the
 * registry's porep id, SHA-256 tree D, the replica id, the DRG and expander graphs, SDR
 * labeling, the column hash, both octrees and comm_r. A second sector (2020, StackedDrg2KiBV1)
 * covers the older graph rules. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_seal.h"
#include "cuzk/hash.h"
#include "harness.h"
#include "support_sector.h"

static void hex(uint8_t *out, size_t n, const char *h)
{
    if (cuzk_hex_decode(out, n, h) != CUZK_OK) {
        fprintf(stderr, "bad hex %s\n", h);
        exit(1);
    }
}

static void test_devnet_2k(void)
{
    cuzk_seal_params p;
    test_sector_devnet(&p, CUZK_SEAL_2KIB_V1_1, NULL);
    uint8_t want_d[32], want_r[32];
    hex(want_d, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    hex(want_r, 32, "b70cfe76f30bdc2abb6b495b6c999f692061800dbc8ac916c66cb5ec3c6f6528");
    double t0 = cuzk_now();
    cuzk_sealed_sector *s = test_sector_seal(&p);
    if (!s) return;
    printf("seal 2 KiB precommit: %.1f ms\n", (cuzk_now() - t0) * 1e3);
    const cuzk_seal_commitments *c = cuzk_sealed_commitments(s);
    CHECK(memcmp(c->comm_d, want_d, 32) == 0);
    CHECK(memcmp(c->comm_r, want_r, 32) == 0);
    char h[65];
    cuzk_hex_encode(h, c->comm_d, 32);
    printf("comm_d %s\n", h);
    cuzk_hex_encode(h, c->comm_r, 32);
    printf("comm_r %s\n", h);
    cuzk_sealed_sector_free(s);
}

/* The same for the V1 (API 1.0) graph rules: a 2 KiB committed-capacity sector of miner t01000,
 * sector 415, sealed on a 2020 devnet with StackedDrg2KiBV1; its `lotus-miner sectors status`
 * output is quoted in lotus issue #3355. CommR decoded from its CID
 * bagboea4b5abca23yrlqpou6hcyjckytmjjpjynhyf24gbe77p3zjfmb67uvjkvqh. */
static void test_devnet_2k_v1(void)
{
    cuzk_seal_params p;
    memset(&p, 0, sizeof p);
    p.proof = CUZK_SEAL_2KIB_V1;
    cuzk_prover_id_from_actor(p.prover_id, 1000);
    p.sector_id = 415;
    hex(p.ticket, 32, "e38bbf35272cf9bcb603340c207631bc18ac3fd1c80517ab7da6c7ed0880ef36");
    uint8_t want_d[32], want_r[32];
    hex(want_d, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    hex(want_r, 32, "6b788ae0f753c7161225626c4a5e9c34f82eb86093ff7ef292b03efd2a955607");
    cuzk_sealed_sector *s = NULL;
    CHECK_OK(cuzk_seal_precommit(&s, &p, NULL));
    if (!s) return;
    CHECK(memcmp(cuzk_sealed_commitments(s)->comm_d, want_d, 32) == 0);
    CHECK(memcmp(cuzk_sealed_commitments(s)->comm_r, want_r, 32) == 0);
    cuzk_sealed_sector_free(s);
    /* the V1_1 rules on the same inputs give another sector */
    p.proof = CUZK_SEAL_2KIB_V1_1;
    CHECK_OK(cuzk_seal_precommit(&s, &p, NULL));
    if (s) CHECK(memcmp(cuzk_sealed_commitments(s)->comm_r, want_r, 32) != 0);
    cuzk_sealed_sector_free(s);
}

/* Node 0 of each layer hashes no parents: Sha256(replica_id || layer BE || 0 || zeros). */
static void test_label_zero(void)
{
    cuzk_seal_params p;
    test_sector_params(&p, CUZK_SEAL_2KIB_V1, 77);
    cuzk_sealed_sector *s = test_sector_seal(&p);
    if (!s) return;
    for (unsigned layer = 1; layer <= 2; layer++) {
        uint8_t buf[64] = {0}, want[32];
        memcpy(buf, cuzk_sealed_commitments(s)->replica_id, 32);
        buf[35] = (uint8_t)layer;
        cuzk_sha256(want, buf, 64);
        want[31] &= 0x3f;
        CHECK(memcmp(cuzk_sealed_label(s, layer, 0), want, 32) == 0);
    }
    CHECK(cuzk_sealed_label(s, 3, 0) == NULL && cuzk_sealed_label(s, 1, 64) == NULL);
    cuzk_sealed_sector_free(s);
}

static void test_data_and_errors(void)
{
    cuzk_seal_params p;
    test_sector_params(&p, CUZK_SEAL_2KIB_V1_1, 3);
    uint8_t data[2048];
    test_sector_data(data, sizeof data, 3);
    p.data = data;
    cuzk_c1 *c1 = NULL;
    uint8_t seed[32];
    test_sector_seed(seed, 9);
    cuzk_sealed_sector *s = test_sector_seal(&p);
    if (s) {
        /* comm_d is no longer the zero-piece commitment, and the C1 verifies */
        uint8_t zero_d[32];
        hex(zero_d, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
        CHECK(memcmp(cuzk_sealed_commitments(s)->comm_d, zero_d, 32) != 0);
        CHECK_OK(cuzk_seal_commit1(&c1, s, seed, NULL));
        if (c1) CHECK_OK(cuzk_c1_verify(c1, p.prover_id, p.sector_id));
        cuzk_c1_free(c1);
        cuzk_sealed_sector_free(s);
    }
    data[32 * 17 + 31] = 0x80; /* node 17 >= r */
    CHECK_FAILS(cuzk_seal_precommit(&s, &p, NULL), CUZK_EINVAL);
    CHECK(s == NULL && strstr(cuzk_last_error(), "data node 17 ") != NULL);
    p.data = NULL;
    p.proof = CUZK_SEAL_32GIB_V1_1;
    CHECK_FAILS(cuzk_seal_precommit(&s, &p, NULL), CUZK_EUNSUPPORTED);
    p.proof = (cuzk_seal_proof)99;
    CHECK_FAILS(cuzk_seal_precommit(&s, &p, NULL), CUZK_EUNSUPPORTED);
}

/* 8 MiB (2^18 nodes): a CC sector end to end. CUZK_TEST_SEAL_512M=1 also seals 512 MiB. */
static void test_bigger(cuzk_seal_proof proof)
{
    cuzk_seal_params p;
    test_sector_params(&p, proof, 5);
    uint8_t seed[32];
    test_sector_seed(seed, 5);
    cuzk_timeline *tl = cuzk_timeline_create("seal");
    cuzk_sealed_sector *s = NULL;
    cuzk_c1 *c1 = NULL;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_seal_precommit(&s, &p, tl));
    double t1 = cuzk_now();
    if (s) CHECK_OK(cuzk_seal_commit1(&c1, s, seed, tl));
    double t2 = cuzk_now();
    if (c1) {
        CHECK_OK(cuzk_c1_verify(c1, p.prover_id, p.sector_id));
        uint8_t *json = NULL;
        size_t len = 0;
        CHECK_OK(cuzk_c1_write(c1, &json, &len));
        printf("%s: precommit %.2f s, commit1 %.3f s, verify %.3f s, C1 %zu bytes (%u threads)\n",
               cuzk_seal_proof_info_get(proof)->name, t1 - t0, t2 - t1, cuzk_now() - t2, len, cuzk_threads());
        free(json);
    }
    cuzk_timeline_print(tl, stdout);
    cuzk_timeline_destroy(tl);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
}

int main(void)
{
    test_devnet_2k();
    test_devnet_2k_v1();
    test_label_zero();
    test_data_and_errors();
    test_bigger(CUZK_SEAL_8MIB_V1_1);
    const char *big = getenv("CUZK_TEST_SEAL_512M");
    if (big && *big == '1') test_bigger(CUZK_SEAL_512MIB_V1_1);
    return harness_finish("test_fil_seal");
}
