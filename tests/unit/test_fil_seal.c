/* The test-data sealer. The anchor is a real 2 KiB devnet sector (lotus-miner log, 2021):
 * StackedDrg2KiBV1_1, miner t01002, sector 1, zero data; sealing its ticket must give the
 * CommD and CommR the chain recorded (decoded from their CIDs). That one check covers the
 * registry's porep id, SHA-256 tree D, the replica id, the DRG and expander graphs, SDR
 * labeling, the column hash, both octrees and comm_r. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_seal.h"
#include "harness.h"

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
    memset(&p, 0, sizeof p);
    p.proof = CUZK_SEAL_2KIB_V1_1;
    cuzk_prover_id_from_actor(p.prover_id, 1002);
    p.sector_id = 1;
    hex(p.ticket, 32, "c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0");
    uint8_t want_d[32], want_r[32];
    hex(want_d, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    hex(want_r, 32, "b70cfe76f30bdc2abb6b495b6c999f692061800dbc8ac916c66cb5ec3c6f6528");
    cuzk_sealed_sector *s = NULL;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_seal_precommit(&s, &p, NULL));
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

int main(void)
{
    test_devnet_2k();
    return harness_finish("test_fil_seal");
}
