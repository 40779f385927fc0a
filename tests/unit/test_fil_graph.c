/* Filecoin graph and challenge primitives: BLAKE2b and ChaCha against published vectors,
 * DRG and expander parents against the properties upstream tests assert, replica ids and
 * challenges (including upstream's hard-coded synthetic challenge vector). The exact parent
 * values are checked end to end by the devnet comm_r in test_fil_seal. */
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/hash.h"
#include "harness.h"

static void hex(uint8_t *out, size_t n, const char *h)
{
    if (cuzk_hex_decode(out, n, h) != CUZK_OK) {
        fprintf(stderr, "bad hex %s\n", h);
        exit(1);
    }
}

static void test_blake2b(void)
{
    uint8_t out[64], want[64];
    cuzk_blake2b_512(out, "abc", 3);
    hex(want, 64,
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
        "18d38aa8dbf1925ab92386edd4009923");
    CHECK(memcmp(out, want, 64) == 0);
    /* keyed, 32-byte digests (hashlib.blake2b(key=..., digest_size=32)) */
    cuzk_blake2b s;
    uint8_t a[32], b[32];
    memset(a, 1, 32);
    memset(b, 2, 32);
    const char *key = "filecoin.io|PoRep|1|Synthetic|1|Generation";
    cuzk_blake2b_init(&s, 32, key, strlen(key));
    cuzk_blake2b_update(&s, a, 32);
    cuzk_blake2b_update(&s, b, 32);
    cuzk_blake2b_final(&s, out);
    hex(want, 32, "474f904cc0400e914b0294cba8d8dc04cd5fb14d129fc42291978788204fcdc4");
    CHECK(memcmp(out, want, 32) == 0);
    cuzk_blake2b_init(&s, 32, "k", 1);
    cuzk_blake2b_final(&s, out);
    hex(want, 32, "490b6c8300eb23464bd2f9ca37c036be5091da14ddbeafab424c4c0a1f9eaac5");
    CHECK(memcmp(out, want, 32) == 0);
    /* several blocks, 64-byte key, fed in odd pieces */
    uint8_t msg[200], k64[64];
    for (int i = 0; i < 200; i++) msg[i] = (uint8_t)i;
    for (int i = 0; i < 64; i++) k64[i] = (uint8_t)i;
    cuzk_blake2b_init(&s, 64, k64, 64);
    cuzk_blake2b_update(&s, msg, 7);
    cuzk_blake2b_update(&s, msg + 7, 121);
    cuzk_blake2b_update(&s, msg + 128, 72);
    cuzk_blake2b_final(&s, out);
    hex(want, 64,
        "3095a349d245708c7cf550118703d7302c27b60af5d4e67fc978f8a4e60953c7a04f92fcf41aee64321ccb707a895851"
        "552b1e37b00bc5e6b72fa5bcef9e3fff");
    CHECK(memcmp(out, want, 64) == 0);
}

static void test_chacha(void)
{
    /* RFC 8439 §2.3.2 block function test vector */
    uint8_t kb[32];
    for (int i = 0; i < 32; i++) kb[i] = (uint8_t)i;
    uint32_t key[8], out[16];
    cuzk_chacha_key(key, kb);
    uint32_t w[4] = {1, 0x09000000, 0x4a000000, 0};
    cuzk_chacha_block(out, key, w, 20);
    static const uint32_t want[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033,
                                      0x9aaa2204, 0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                      0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    CHECK(memcmp(out, want, sizeof want) == 0);
    /* rand_chacha's ChaCha20Rng::from_seed([0; 32]) starts 0xade0b876, 0x903df1a0 (the zero-key
     * keystream); the 8-round variant differs only in the round count */
    uint32_t zero_key[8] = {0}, zw[4] = {0};
    cuzk_chacha_block(out, zero_key, zw, 20);
    CHECK(out[0] == 0xade0b876 && out[1] == 0x903df1a0);
    /* u64 draws combine word pairs low word first, across blocks */
    cuzk_chacha8_rng rng;
    uint8_t seed[32] = {0};
    cuzk_chacha8_rng_init(&rng, seed);
    uint32_t blk0[16], blk1[16];
    cuzk_chacha_block(blk0, zero_key, zw, 8);
    uint32_t w1[4] = {1, 0, 0, 0};
    cuzk_chacha_block(blk1, zero_key, w1, 8);
    uint64_t v[9];
    for (int i = 0; i < 9; i++) v[i] = cuzk_chacha8_rng_u64(&rng);
    CHECK(v[0] == ((uint64_t)blk0[1] << 32 | blk0[0]));
    CHECK(v[7] == ((uint64_t)blk0[15] << 32 | blk0[14]));
    CHECK(v[8] == ((uint64_t)blk1[1] << 32 | blk1[0]));
    /* IETF keystream at an offset (Python cryptography's ChaCha20, counter 0) */
    uint8_t ks[40] = {0}, kwant[40];
    const uint8_t nonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
    cuzk_chacha20_keystream(ks, 40, kb, nonce, 197);
    hex(kwant, 40, "2c2d80c1c333eb3c56616029b2bcfc6ea79c10fcf6675ee4723d85b6723dd3617e922d958544455a");
    CHECK(memcmp(ks, kwant, 40) == 0);
}

static void test_drg(void)
{
    /* drgraph.rs graph_bucket: no self references, the predecessor first (V1_1+) or last
     * (V1_0), nodes 0 and 1 all zero, parents always earlier nodes */
    for (int api = 0; api < 3; api++) {
        uint8_t porep_id[32] = {0};
        porep_id[0] = api == 0 ? 0 : 5;
        cuzk_porep_graph g;
        for (uint64_t size = 4; size <= 2048; size *= 8) {
            CHECK_OK(cuzk_porep_graph_init(&g, size, porep_id, (cuzk_api_version)api));
            uint32_t p[6];
            for (uint32_t i = 0; i < size; i++) {
                cuzk_porep_drg_parents(&g, i, p);
                if (i < 2) {
                    for (int j = 0; j < 6; j++) CHECK(p[j] == 0);
                    continue;
                }
                CHECK(p[api == 0 ? 5 : 0] == i - 1);
                for (int j = 0; j < 6; j++) CHECK(p[j] < i);
                uint32_t q[6];
                cuzk_porep_drg_parents(&g, i, q);
                CHECK(memcmp(p, q, sizeof p) == 0);
            }
        }
    }
    cuzk_porep_graph g;
    uint8_t id[32] = {0};
    CHECK_FAILS(cuzk_porep_graph_init(&g, 100, id, CUZK_API_V1_1_0), CUZK_EINVAL);
    CHECK_FAILS(cuzk_porep_graph_init(&g, 1ULL << 32, id, CUZK_API_V1_1_0), CUZK_EINVAL);
    CHECK_FAILS(cuzk_porep_graph_init(&g, 64, id, (cuzk_api_version)7), CUZK_EINVAL);
    /* V1_0 and V1_1 differ by the porep id (the seed) and by the predecessor slot */
    cuzk_porep_graph a, b;
    CHECK_OK(cuzk_porep_graph_init(&a, 1 << 10, id, CUZK_API_V1_0_0));
    CHECK_OK(cuzk_porep_graph_init(&b, 1 << 10, id, CUZK_API_V1_1_0));
    uint32_t pa[6], pb[6];
    cuzk_porep_drg_parents(&a, 500, pa);
    cuzk_porep_drg_parents(&b, 500, pb);
    CHECK(memcmp(pa, pb + 1, 5 * sizeof(uint32_t)) == 0 && pa[5] == 499 && pb[0] == 499);
}

static void test_expander(void)
{
    /* graph.rs test_shuffle: over a power-of-4 domain the Feistel network is a permutation, so
     * every (node, i) maps to a distinct slot; the parent is that slot / 8 */
    uint8_t id[32] = {0};
    id[0] = 5;
    cuzk_porep_graph g;
    CHECK_OK(cuzk_porep_graph_init(&g, 1 << 7, id, CUZK_API_V1_1_0)); /* 1024 slots = 4^5 */
    static uint8_t hits[1 << 7];
    memset(hits, 0, sizeof hits);
    for (uint32_t v = 0; v < (1 << 7); v++) {
        uint32_t p[8];
        cuzk_porep_exp_parents(&g, v, p);
        for (int i = 0; i < 8; i++) {
            CHECK(p[i] < (1 << 7));
            if (p[i] < (1 << 7)) hits[p[i]]++;
        }
    }
    /* a permutation of the 1024 slots hits every node exactly 8 times */
    int ok = 1;
    for (int i = 0; i < (1 << 7); i++) ok &= hits[i] == 8;
    CHECK(ok);
    /* a non-power-of-4 domain (2^6 * 8 = 512 slots in a 1024 domain) cycle-walks into range */
    CHECK_OK(cuzk_porep_graph_init(&g, 1 << 6, id, CUZK_API_V1_1_0));
    CHECK(g.feistel_half_bits == 5);
    memset(hits, 0, sizeof hits);
    for (uint32_t v = 0; v < (1 << 6); v++) {
        uint32_t p[8];
        cuzk_porep_exp_parents(&g, v, p);
        for (int i = 0; i < 8; i++)
            if (p[i] < (1 << 6)) hits[p[i]]++;
    }
    ok = 1;
    for (int i = 0; i < (1 << 6); i++) ok &= hits[i] == 8;
    CHECK(ok);
}

static void test_replica_id_and_challenges(void)
{
    uint8_t prover[32], want[32];
    cuzk_prover_id_from_actor(prover, 1002);
    memset(want, 0, 32);
    want[0] = 0xea;
    want[1] = 0x07;
    CHECK(memcmp(prover, want, 32) == 0);
    cuzk_prover_id_from_actor(prover, 0);
    memset(want, 0, 32);
    CHECK(memcmp(prover, want, 32) == 0);
    cuzk_prover_id_from_actor(prover, UINT64_MAX); /* 10 LEB128 bytes */
    CHECK(prover[8] == 0xff && prover[9] == 0x01 && prover[10] == 0);

    /* replica id: the plain SHA-256 of the concatenation with the top two bits cleared */
    uint8_t ticket[32], comm_d[32], porep_id[32], rid[32], buf[136];
    for (int i = 0; i < 32; i++) {
        prover[i] = (uint8_t)i;
        ticket[i] = (uint8_t)(100 + i);
        comm_d[i] = (uint8_t)(200 + i);
    }
    cuzk_seal_proof_porep_id(porep_id, CUZK_SEAL_32GIB_V1_1);
    cuzk_porep_replica_id(rid, prover, 0x0102030405060708ULL, ticket, comm_d, porep_id);
    memcpy(buf, prover, 32);
    for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(i + 1);
    memcpy(buf + 40, ticket, 32);
    memcpy(buf + 72, comm_d, 32);
    memcpy(buf + 104, porep_id, 32);
    cuzk_sha256(want, buf, 136);
    want[31] &= 0x3f;
    CHECK(memcmp(rid, want, 32) == 0);

    /* interactive challenges: digest as a little-endian integer mod (nodes - 1), plus 1 */
    uint8_t seed[32];
    memset(seed, 7, 32);
    uint64_t ch[18];
    CHECK_OK(cuzk_porep_challenges(ch, CUZK_SEAL_32GIB_V1_1, rid, NULL, seed, 3));
    uint8_t pre[68], h[32];
    memcpy(pre, rid, 32);
    memcpy(pre + 32, seed, 32);
    uint32_t j = 18 * 3 + 5;
    for (int i = 0; i < 4; i++) pre[64 + i] = (uint8_t)(j >> (8 * i));
    cuzk_sha256(h, pre, 68);
    /* 2^30 - 1 divides 2^240 - 1, so x mod (2^30 - 1) is the sum of its 30-bit digits mod 2^30 - 1 */
    unsigned __int128 acc = 0;
    for (int bit = 0; bit < 256; bit += 30) {
        uint64_t d = 0;
        for (int t = 0; t < 30 && bit + t < 256; t++) d |= (uint64_t)((h[(bit + t) / 8] >> ((bit + t) % 8)) & 1) << t;
        acc += d;
    }
    uint64_t m = (1ULL << 30) - 1;
    CHECK(ch[5] == (uint64_t)(acc % m) + 1);
    for (int i = 0; i < 18; i++) CHECK(ch[i] >= 1 && ch[i] < (1ULL << 30));
    /* partition k continues the same sequence (challenge_partition_equivalence) */
    uint64_t all[36], part[18];
    cuzk_porep_interactive_challenges(all, 36, 1ULL << 30, rid, seed, 0);
    cuzk_porep_interactive_challenges(part, 18, 1ULL << 30, rid, seed, 1);
    CHECK(memcmp(all + 18, part, sizeof part) == 0);
    CHECK_FAILS(cuzk_porep_challenges(ch, CUZK_SEAL_32GIB_V1_1, rid, NULL, seed, 10), CUZK_EINVAL);
    CHECK_FAILS(cuzk_porep_challenges(ch, CUZK_SEAL_32GIB_V1_1, rid, NULL, NULL, 0), CUZK_EINVAL);
    CHECK_FAILS(cuzk_porep_challenges(ch, CUZK_SEAL_32GIB_V1_2_NI, rid, NULL, seed, 0), CUZK_EINVAL);
    CHECK_OK(cuzk_porep_challenges(ch, CUZK_SEAL_32GIB_V1_2_NI, rid, comm_d, NULL, 125));

    /* NI: Sha256(tag || replica_id || comm_r || j) */
    uint8_t ni_pre[36 + 68];
    const char *tag = "filecoin.io|PoRep|1|NonInteractive|1";
    memcpy(ni_pre, tag, 36);
    memcpy(ni_pre + 36, rid, 32);
    memcpy(ni_pre + 68, comm_d, 32);
    j = 18 * 125 + 17;
    for (int i = 0; i < 4; i++) ni_pre[100 + i] = (uint8_t)(j >> (8 * i));
    cuzk_sha256(h, ni_pre, 104);
    acc = 0;
    for (int bit = 0; bit < 256; bit += 30) {
        uint64_t d = 0;
        for (int t = 0; t < 30 && bit + t < 256; t++) d |= (uint64_t)((h[(bit + t) / 8] >> ((bit + t) % 8)) & 1) << t;
        acc += d;
    }
    CHECK(ch[17] == (uint64_t)(acc % m) + 1);
}

static void test_synthetic_hardcoded(void)
{
    /* challenges.rs test_synth_challenges_against_hardcoded: nodes 2^10, replica_id = 55,
     * comm_r = 101, 21 synthetic challenges, porep randomness [1; 32], 10 porep challenges */
    static const uint64_t SYNTH[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t POREP[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32] = {55}, comm_r[32] = {101}, rand[32];
    memset(rand, 1, 32);
    int ok = 1;
    for (uint64_t i = 0; i < 21; i++) ok &= cuzk_porep_synth_challenge_at(1 << 10, rid, comm_r, i) == SYNTH[i];
    CHECK(ok);
    uint64_t got[10];
    cuzk_porep_synth_challenges(got, 10, 1 << 10, 21, rid, comm_r, rand, 0);
    CHECK(memcmp(got, POREP, sizeof got) == 0);
    /* partition k is the k-th run of count indices (the partition split of the same list) */
    uint64_t p1[5];
    cuzk_porep_synth_challenges(p1, 5, 1 << 10, 21, rid, comm_r, rand, 1);
    CHECK(memcmp(p1, POREP + 5, sizeof p1) == 0);
}

int main(void)
{
    test_blake2b();
    test_chacha();
    test_drg();
    test_expander();
    test_replica_id_and_challenges();
    test_synthetic_hardcoded();
    return harness_finish("test_fil_graph");
}
