/* SnapDeals: the update proof registry and parameter names; the circuit's counts equal every
 * figure upstream asserts (storage-proofs-update tests/circuit.rs, 1 KiB .. 32 KiB and 32 GiB);
 * encoded 2 KiB and 8 MiB test sectors give vanilla proofs that pass the native checks,
 * satisfy the circuit of every partition and produce the public inputs recomputed from the
 * commitments; the bincode round-trips; bad blobs fail with a clean status (and a fuzz loop
 * over truncations, bit flips and length fields never crashes). */
#include <string.h>

#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/hash.h"
#include "cuzk/testcircuits.h"
#include "harness.h"
#include "support_sector.h"

static void test_registry(void)
{
    static const char *const names[] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                        "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
    static const unsigned parts[] = {1, 4, 16, 16, 16}, chal[] = {10, 10, 86, 86, 86}, h[] = {1, 10, 10, 10, 10};
    for (unsigned i = 0; i < CUZK_UPDATE_PROOF_COUNT; i++) {
        const cuzk_update_proof_info *pi = cuzk_update_proof_info_get((cuzk_update_proof)i);
        CHECK(pi && pi->id == (cuzk_update_proof)i && !strcmp(pi->name, names[i]));
        if (!pi) continue;
        CHECK(pi->partitions == parts[i] && pi->challenges_per_partition == chal[i] && pi->h == h[i]);
        CHECK(pi->nodes * 32 == pi->sector_size && (1ULL << pi->tree_d_depth) == pi->nodes);
        CHECK(cuzk_tree_shape_leaves(&pi->tree_r) == pi->nodes);
        cuzk_update_proof p;
        CHECK_OK(cuzk_update_proof_from_name(&p, names[i], strlen(names[i])));
        CHECK(p == (cuzk_update_proof)i);
        CHECK_OK(cuzk_update_proof_for_sector_size(&p, pi->sector_size));
        CHECK(p == (cuzk_update_proof)i);
        CHECK(cuzk_update_proof_num_inputs(p) == 4);
        /* the registry agrees with the shape derived from the node count */
        cuzk_snap_shape s;
        CHECK_OK(cuzk_snap_shape_for_proof(&s, p));
        CHECK(s.partitions == pi->partitions && s.challenges == pi->challenges_per_partition &&
              s.apex_leaves == pi->apex_leaves && s.hs[CUZK_SNAP_H_INDEX] == pi->h &&
              !memcmp(&s.tree_r, &pi->tree_r, sizeof s.tree_r));
        char stem[CUZK_PARAM_STEM_MAX];
        cuzk_update_proof_param_stem(stem, p);
        printf("%-20s %s\n", names[i], stem);
    }
    CHECK(cuzk_update_proof_info_get(CUZK_UPDATE_PROOF_COUNT) == NULL);
    cuzk_update_proof p;
    CHECK_FAILS(cuzk_update_proof_from_name(&p, "StackedDrg2KiBV1_1", 18), CUZK_EUNSUPPORTED);
    char id[128];
    cuzk_update_proof_param_identifier(id, sizeof id, CUZK_UPDATE_32GIB_V1);
    CHECK(!strcmp(id, "empty_sector_update::PublicParams{ sector_nodes: 1073741824 }"));
    /* the reference's hash prefixes and suffixes of the official 32 and 64 GiB files */
    char stem[CUZK_PARAM_STEM_MAX];
    cuzk_update_proof_param_stem(stem, CUZK_UPDATE_32GIB_V1);
    const char *pre32 = "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9";
    CHECK(!strncmp(stem, pre32, strlen(pre32)) && strlen(stem) == strlen(pre32) - 8 + 64 &&
          !strcmp(stem + strlen(stem) - 4, "9d18"));
    cuzk_update_proof_param_stem(stem, CUZK_UPDATE_64GIB_V1);
    const char *pre64 = "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444";
    CHECK(!strncmp(stem, pre64, strlen(pre64)) && !strcmp(stem + strlen(stem) - 4, "83a7"));
    char *pp = NULL, *vp = NULL;
    CHECK_FAILS(cuzk_update_proof_find_params("/nonexistent-dir", CUZK_UPDATE_2KIB_V1, &pp, &vp), CUZK_EIO);
    CHECK(pp == NULL && vp == NULL && strstr(cuzk_last_error(), "/nonexistent-dir") != NULL);
    /* k_and_h_select = k | h_select << partition_bits */
    cuzk_snap_shape s;
    uint64_t khs = 0;
    CHECK_OK(cuzk_snap_shape_for_proof(&s, CUZK_UPDATE_32GIB_V1));
    CHECK_OK(cuzk_snap_k_and_h_select(&khs, &s, 5, 10));
    CHECK(khs == (5 | (8u << 4)));
    CHECK_FAILS(cuzk_snap_k_and_h_select(&khs, &s, 16, 10), CUZK_EINVAL);
    CHECK_FAILS(cuzk_snap_k_and_h_select(&khs, &s, 0, 6), CUZK_EINVAL);
}

static void test_custom_poseidon(void)
{
    cuzk_fr tag, two40, pre[2], a, b, m;
    CHECK_OK(cuzk_poseidon_custom_tag(&tag, 1));
    cuzk_fr_from_u64(&two40, 1ULL << 40);
    CHECK(cuzk_fr_eq(&tag, &two40));
    CHECK_FAILS(cuzk_poseidon_custom_tag(&tag, 0), CUZK_EINVAL);
    CHECK_FAILS(cuzk_poseidon_custom_tag(&tag, 257), CUZK_EINVAL);
    CHECK_OK(cuzk_poseidon_custom_tag(&tag, 1));
    cuzk_fr_from_u64(&pre[0], 12345);
    cuzk_fr_from_u64(&pre[1], 67890);
    CHECK_OK(cuzk_poseidon_hash_tagged(&a, 2, &tag, pre));
    CHECK_OK(cuzk_poseidon_hash_tagged_correct(&b, 2, &tag, pre));
    CHECK(cuzk_fr_eq(&a, &b));
    CHECK_OK(cuzk_poseidon_hash(&m, 2, pre));
    CHECK(!cuzk_fr_eq(&a, &m));
    cuzk_fr mtag;
    cuzk_fr_from_u64(&mtag, 3); /* MerkleTree tag of arity 2 */
    CHECK_OK(cuzk_poseidon_hash_tagged(&b, 2, &mtag, pre));
    CHECK(cuzk_fr_eq(&b, &m));
}

static void check_counts(const char *name, size_t constraints)
{
    cuzk_circuit *c = NULL;
    cuzk_circuit_counts n = {0, 0, 0};
    CHECK_OK(cuzk_circuit_open(&c, name));
    if (!c) return;
    CHECK_OK(cuzk_circuit_count(c, &n));
    CHECK(n.constraints == constraints && n.inputs == 5);
    printf("%-16s %zu constraints, %zu inputs, %zu aux\n", name, n.constraints, n.inputs, n.aux);
    cuzk_circuit_free(c);
}

static void test_counts(void)
{
    /* storage-proofs-update/tests/circuit.rs */
    check_counts("snap-test:1KiB", 1248389);
    check_counts("snap-test:2KiB", 1705039);
    check_counts("snap-test:4KiB", 2165109);
    check_counts("snap-test:8KiB", 2620359);
    check_counts("snap-test:16KiB", 6300021);
    check_counts("snap-test:32KiB", 6760091);
    check_counts("snap:2KiB", 1705039);
    /* a COUNT pass of 32 GiB takes about a second and a few MB */
    check_counts("snap:32GiB", 81049499);
}

/* ---------------------------------------------------------------- a test sector */
typedef struct {
    cuzk_update_proof p;
    cuzk_snap_encoded *enc;
    cuzk_snap_encoded_view v;
    uint8_t *blob[16];
    size_t len[16];
} encoded;

static bool encode_sector(encoded *e, cuzk_update_proof p, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    e->p = p;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    cuzk_seal_params prm;
    test_sector_params(&prm, pi->seal_proof, seed);
    cuzk_sealed_sector *s = test_sector_seal(&prm);
    if (!s) return false;
    uint8_t *sealed = malloc(pi->sector_size), *data = malloc(pi->sector_size), p_aux[CUZK_P_AUX_BYTES];
    cuzk_sealed_replica_nodes(s, 0, pi->nodes, sealed);
    cuzk_sealed_p_aux(s, p_aux);
    test_sector_data(data, pi->sector_size, seed);
    CHECK_OK(cuzk_snap_encode(&e->enc, p, sealed, data, p_aux, NULL));
    /* a p_aux that does not belong to the replica is refused */
    cuzk_snap_encoded *bad = NULL;
    p_aux[40] ^= 1;
    CHECK_FAILS(cuzk_snap_encode(&bad, p, sealed, data, p_aux, NULL), CUZK_EINVAL);
    p_aux[40] ^= 1;
    data[5 * 32 + 31] |= 0xc0; /* not Fr32 */
    CHECK_FAILS(cuzk_snap_encode(&bad, p, sealed, data, p_aux, NULL), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "node 5") != NULL);
    cuzk_sealed_sector_free(s);
    free(sealed);
    free(data);
    if (!e->enc) return false;
    cuzk_snap_encoded_get(e->enc, &e->v);
    CHECK(e->v.partitions == pi->partitions);
    for (unsigned k = 0; k < e->v.partitions; k++)
        CHECK_OK(cuzk_snap_partition_write(&e->v.proofs[k], &e->blob[k], &e->len[k]));
    return true;
}

static void encoded_free(encoded *e)
{
    for (unsigned k = 0; k < 16; k++) free(e->blob[k]);
    cuzk_snap_encoded_free(e->enc);
}

static cuzk_status parse_all(const encoded *e, cuzk_snap_proofs **sp)
{
    return cuzk_snap_parse(sp, e->p, e->v.comm_r_old, e->v.comm_r_new, e->v.comm_d_new, (const uint8_t *const *)e->blob,
                           e->len, e->v.partitions);
}

/* Every partition: WITNESS inputs equal the recomputed public inputs; TEST satisfied when asked. */
static void check_circuits(const cuzk_snap_proofs *sp, bool test_mode)
{
    for (unsigned k = 0; k < cuzk_snap_partitions(sp); k++) {
        cuzk_fr want[4];
        CHECK_OK(cuzk_snap_public_inputs(sp, k, want, 4));
        cuzk_circuit *c = NULL;
        CHECK_OK(cuzk_snap_circuit_open(&c, sp, k));
        if (!c) continue;
        cuzk_cs *cs = NULL;
        CHECK_OK(cuzk_cs_create(&cs, test_mode ? CUZK_CS_TEST : CUZK_CS_WITNESS, true));
        CHECK_OK(cuzk_circuit_synthesize(c, cs, 0));
        CHECK(cs->num_inputs == 5 && !memcmp(want, cs->input_vals + 1, sizeof want));
        if (test_mode) {
            const char *path = NULL;
            long bad = cuzk_cs_which_unsatisfied(cs, &path);
            CHECK(bad == -1);
            if (bad != -1) fprintf(stderr, "  partition %u: unsatisfied %ld at %s\n", k, bad, path ? path : "?");
        }
        cuzk_cs_destroy(cs);
        /* the parallel witness equals the sequential one */
        cuzk_witness w;
        memset(&w, 0, sizeof w);
        CHECK_OK(cuzk_circuit_witness(c, 0, true, &w));
        CHECK(w.num_inputs == 5 && !memcmp(want, w.input + 1, sizeof want));
        cuzk_witness_free(&w);
        cuzk_circuit_free(c);
    }
}

static void test_sector(cuzk_update_proof p, bool test_mode)
{
    encoded e;
    if (!encode_sector(&e, p, 11)) return;
    cuzk_snap_proofs *sp = NULL;
    CHECK_OK(parse_all(&e, &sp));
    if (sp) {
        CHECK(cuzk_snap_partitions(sp) == e.v.partitions && cuzk_snap_proof_type(sp) == p);
        check_circuits(sp, test_mode);
        /* round trip: parse -> write is the input */
        for (unsigned k = 0; k < e.v.partitions; k++) {
            uint8_t *out = NULL;
            size_t n = 0;
            CHECK_OK(cuzk_snap_partition_write(cuzk_snap_partition(sp, k), &out, &n));
            CHECK(n == e.len[k] && out && !memcmp(out, e.blob[k], n));
            free(out);
        }
    }
    cuzk_snap_proofs_free(sp);
    /* a wrong witness value is an unsatisfied constraint (only in TEST mode, small sizes) */
    if (test_mode) {
        cuzk_snap_proofs *sp2 = NULL;
        CHECK_OK(parse_all(&e, &sp2));
        if (sp2) {
            cuzk_snap_partition_proof *pp = (cuzk_snap_partition_proof *)cuzk_snap_partition(sp2, 0);
            pp->challenges[3].r_new.path[1].hashes[2].b[0] ^= 1;
            cuzk_circuit *c = NULL;
            cuzk_cs *cs = NULL;
            CHECK_OK(cuzk_snap_circuit_open(&c, sp2, 0));
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            if (c && cs) {
                CHECK_OK(cuzk_circuit_synthesize(c, cs, 0));
                const char *path = NULL;
                CHECK(cuzk_cs_which_unsatisfied(cs, &path) >= 0);
                CHECK(path && strstr(path, "por tree_r_new (c_index=3)") != NULL);
                if (path) printf("flipped sibling caught at %s\n", path);
            }
            cuzk_cs_destroy(cs);
            cuzk_circuit_free(c);
        }
        cuzk_snap_proofs_free(sp2);
    }
    encoded_free(&e);
}

/* ---------------------------------------------------------------- bad input */
static void test_bad_input(void)
{
    encoded e, big;
    if (!encode_sector(&e, CUZK_UPDATE_2KIB_V1, 21)) return;
    cuzk_snap_proofs *sp = NULL;
    const uint8_t *b0 = e.blob[0];
    const size_t n0 = e.len[0];
    uint8_t *copy = malloc(n0 + 8);

    /* a flipped byte in a path sibling (a node deep in the blob) */
    memcpy(copy, b0, n0);
    copy[n0 - 200] ^= 0x01;
    e.blob[0] = copy;
    CHECK(parse_all(&e, &sp) != CUZK_OK && sp == NULL);
    CHECK(strstr(cuzk_last_error(), "blob 0") != NULL);
    e.blob[0] = (uint8_t *)b0;

    /* wrong commitments */
    uint8_t wrong[32];
    memcpy(wrong, e.v.comm_r_old, 32);
    wrong[0] ^= 1;
    CHECK_FAILS(
        cuzk_snap_parse(&sp, e.p, wrong, e.v.comm_r_new, e.v.comm_d_new, (const uint8_t *const *)e.blob, e.len, 1),
        CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "comm_r_old") != NULL);
    memcpy(wrong, e.v.comm_r_new, 32);
    wrong[0] ^= 1;
    CHECK_FAILS(
        cuzk_snap_parse(&sp, e.p, e.v.comm_r_old, wrong, e.v.comm_d_new, (const uint8_t *const *)e.blob, e.len, 1),
        CUZK_EVERIFY);
    memcpy(wrong, e.v.comm_d_new, 32);
    wrong[0] ^= 1;
    CHECK_FAILS(
        cuzk_snap_parse(&sp, e.p, e.v.comm_r_old, e.v.comm_r_new, wrong, (const uint8_t *const *)e.blob, e.len, 1),
        CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "comm_d_new") != NULL);

    /* truncated */
    size_t saved = e.len[0];
    e.len[0] = saved - 1;
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "truncated") != NULL);
    e.len[0] = 0;
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    /* trailing bytes */
    memcpy(copy, b0, n0);
    copy[n0] = 0;
    e.blob[0] = copy;
    e.len[0] = n0 + 1;
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "trailing") != NULL);
    e.blob[0] = (uint8_t *)b0;
    e.len[0] = saved;

    /* a huge apex_leafs length (offset 32): fails at once, nothing allocated for it */
    memcpy(copy, b0, n0);
    for (int i = 0; i < 8; i++) copy[32 + i] = i == 7 ? 0x10 : 0; /* 2^60 */
    e.blob[0] = copy;
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "apex_leafs") != NULL && strstr(cuzk_last_error(), "byte 32") != NULL);
    /* a huge challenge_proofs length */
    memcpy(copy, b0, n0);
    size_t at = 32 + 8 + 32 * 8;
    memset(copy + at, 0xff, 8);
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "challenge_proofs") != NULL);
    /* a non-canonical comm_c */
    memcpy(copy, b0, n0);
    memset(copy, 0xff, 32);
    CHECK_FAILS(parse_all(&e, &sp), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "canonical") != NULL);
    e.blob[0] = (uint8_t *)b0;

    /* wrong number of partitions */
    CHECK_FAILS(cuzk_snap_parse(&sp, e.p, e.v.comm_r_old, e.v.comm_r_new, e.v.comm_d_new,
                                (const uint8_t *const *)e.blob, e.len, 2),
                CUZK_EINVAL);
    CHECK_FAILS(cuzk_snap_parse(&sp, e.p, e.v.comm_r_old, e.v.comm_r_new, e.v.comm_d_new,
                                (const uint8_t *const *)e.blob, e.len, 0),
                CUZK_EINVAL);

    /* a blob of another sector size (8 MiB partition 0 given as 2 KiB, and the reverse) */
    if (encode_sector(&big, CUZK_UPDATE_8MIB_V1, 22)) {
        const uint8_t *bb = big.blob[0];
        CHECK_FAILS(cuzk_snap_parse(&sp, CUZK_UPDATE_2KIB_V1, e.v.comm_r_old, e.v.comm_r_new, e.v.comm_d_new, &bb,
                                    &big.len[0], 1),
                    CUZK_EINVAL);
        const uint8_t *four[4] = {b0, b0, b0, b0};
        size_t l4[4] = {n0, n0, n0, n0};
        CHECK_FAILS(cuzk_snap_parse(&sp, CUZK_UPDATE_8MIB_V1, big.v.comm_r_old, big.v.comm_r_new, big.v.comm_d_new,
                                    four, l4, 4),
                    CUZK_EINVAL);
        /* 8 MiB: all four partitions pass the checks and give the right public inputs (WITNESS) */
        encoded_free(&big);
    }

    /* the fuzz loop: truncations, bit flips, overwritten length-sized fields; never a crash, always
     * a clean status with a message */
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 99);
    unsigned ok = 0, failed = 0;
    for (unsigned it = 0; it < 4000; it++) {
        memcpy(copy, b0, n0);
        size_t len = n0;
        uint64_t r = cuzk_rng_next(&rng);
        switch (it % 4) {
        case 0: len = cuzk_rng_next(&rng) % n0; break;
        case 1: copy[r % n0] ^= (uint8_t)(1u << (cuzk_rng_next(&rng) % 8)); break;
        case 2: {
            size_t o = r % (n0 - 8);
            uint64_t v = cuzk_rng_next(&rng);
            if (v & 1) v >>= (v >> 1) % 64;
            memcpy(copy + o, &v, 8);
            break;
        }
        default:
            for (int j = 0; j < 3; j++) copy[cuzk_rng_next(&rng) % n0] = (uint8_t)cuzk_rng_next(&rng);
            len = n0 - (r % 2);
        }
        const uint8_t *bp = copy;
        const bool full = it % 8 >= 6, changed = len != n0 || memcmp(copy, b0, n0);
        cuzk_status st = full ? cuzk_snap_parse(&sp, e.p, e.v.comm_r_old, e.v.comm_r_new, e.v.comm_d_new, &bp, &len, 1)
                              : cuzk_snap_parse_blob(&sp, e.p, copy, len, 0);
        if (st == CUZK_OK) {
            ok++;
            /* parsing alone accepts a changed node; the full checks accept no change at all */
            CHECK(!full || !changed);
            cuzk_snap_proofs_free(sp);
        } else {
            failed++;
            CHECK(sp == NULL && cuzk_last_error()[0] != 0);
        }
    }
    printf("fuzz: %u mutated blobs rejected, %u parsed (parse-only passes keep changed nodes)\n", failed, ok);
    CHECK(failed > 2000);
    free(copy);
    encoded_free(&e);
}

static void test_named_witness(void)
{
    /* the built-in witness of snap:2KiB (seal, encode, partition 0) satisfies the circuit */
    cuzk_circuit *c = NULL;
    CHECK_OK(cuzk_circuit_open(&c, "snap:2KiB"));
    if (!c) return;
    cuzk_cs *cs = NULL;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    CHECK_OK(cuzk_circuit_synthesize(c, cs, 5));
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == -1);
    cuzk_cs_destroy(cs);
    cuzk_circuit_free(c);
    /* the test shapes and 32 GiB have none */
    CHECK_OK(cuzk_circuit_open(&c, "snap-test:4KiB"));
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    CHECK_FAILS(cuzk_circuit_synthesize(c, cs, 5), CUZK_EUNSUPPORTED);
    cuzk_cs_destroy(cs);
    cuzk_circuit_free(c);
    /* the synthetic 2 KiB variant synthesizes (timing only: it need not satisfy) */
    cuzk_snap_proofs *sp = NULL;
    CHECK_OK(cuzk_snap_synthetic_open(&c, &sp, "snap:2KiB", 3));
    if (c) {
        cuzk_witness w;
        memset(&w, 0, sizeof w);
        CHECK_OK(cuzk_circuit_witness(c, 0, true, &w));
        CHECK(w.num_inputs == 5);
        cuzk_witness_free(&w);
    }
    cuzk_circuit_free(c);
    cuzk_snap_proofs_free(sp);
    CHECK_FAILS(cuzk_snap_synthetic_open(&c, &sp, "snap-test:1KiB", 3), CUZK_EINVAL);
}

int main(void)
{
    test_registry();
    test_custom_poseidon();
    test_counts();
    test_sector(CUZK_UPDATE_2KIB_V1, true);
    test_named_witness();
    test_bad_input();
    test_sector(CUZK_UPDATE_8MIB_V1, getenv("CUZK_TEST_QUICK") == NULL);
    return harness_finish("test_fil_snap");
}
