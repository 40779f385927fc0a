/* Fallback PoSt: the registry and parameter names of every proof type (the hashes of
 * rust-fil-proofs' parameters.json), the circuit's counts against upstream's assertions
 * (storage-proofs-post tests/fallback_circuit.rs, the 32/64 GiB figures of constants.rs),
 * satisfaction in TEST mode with vanilla proofs made from sealed 2 KiB sectors (CC and random
 * data), public inputs equal to synthesis', the bincode parser (round trip, every kind of bad
 * input with its message), the public sector list the blobs are checked against, and a
 * deterministic fuzz loop over the parser. */
#include <string.h>
#include <time.h>

#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/testcircuits.h"
#include "filecoin/post_internal.h"
#include "harness.h"
#include "support_sector.h"

/* ---------------------------------------------------------------- registry */
static void test_registry(void)
{
    static const struct {
        cuzk_post_proof p;
        const char *stem;
    } STEMS[] = {
        {CUZK_POST_WINDOW_2KIB_V1_1, "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
        {CUZK_POST_WINDOW_8MIB_V1_1, "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
        {CUZK_POST_WINDOW_512MIB_V1_1, "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
        {CUZK_POST_WINDOW_32GIB_V1_1, "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
        {CUZK_POST_WINDOW_64GIB_V1_1, "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
        {CUZK_POST_WINDOW_32GIB_V1, "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
        {CUZK_POST_WINNING_2KIB_V1, "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
        {CUZK_POST_WINNING_8MIB_V1, "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
        {CUZK_POST_WINNING_512MIB_V1, "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
        {CUZK_POST_WINNING_32GIB_V1, "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
        {CUZK_POST_WINNING_64GIB_V1, "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    };
    for (size_t i = 0; i < sizeof STEMS / sizeof STEMS[0]; i++) {
        char stem[CUZK_PARAM_STEM_MAX], want[CUZK_PARAM_STEM_MAX];
        cuzk_post_proof_param_stem(stem, STEMS[i].p);
        snprintf(want, sizeof want, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s", STEMS[i].stem);
        CHECK(!strcmp(stem, want));
        if (strcmp(stem, want)) fprintf(stderr, "  %d: %s\n", (int)STEMS[i].p, stem);
    }
    for (int i = 0; i < CUZK_POST_PROOF_COUNT; i++) {
        const cuzk_post_proof_info *pi = cuzk_post_proof_info_get((cuzk_post_proof)i);
        CHECK(pi && (int)pi->id == i && pi->nodes * 32 == pi->sector_size);
        if (!pi) continue;
        cuzk_post_proof q = CUZK_POST_PROOF_COUNT;
        CHECK_OK(cuzk_post_proof_from_name(&q, pi->name, strlen(pi->name)));
        CHECK(q == pi->id);
        CHECK_OK(cuzk_post_proof_from_name(&q, pi->go_name, strlen(pi->go_name)));
        CHECK(q == pi->id);
        CHECK(cuzk_tree_shape_leaves(&pi->tree) == pi->nodes);
        CHECK(cuzk_post_proof_num_inputs(pi->id) == (size_t)pi->sector_count * (1 + pi->challenge_count));
        CHECK(pi->kind == CUZK_POST_WINNING ? pi->sector_count == 66 && pi->challenge_count == 1 &&
                      pi->max_blobs == 1 && pi->proofs_per_blob == 66
                                            : pi->challenge_count == 10 && pi->max_blobs == pi->sector_count);
        CHECK((pi->api_version == CUZK_API_V1_2_0) == (i >= CUZK_POST_WINDOW_2KIB_V1_1));
    }
    CHECK(!strcmp(cuzk_post_proof_info_get(CUZK_POST_WINDOW_32GIB_V1_1)->name, "StackedDrgWindow32GiBV1_2"));
    CHECK(cuzk_post_proof_info_get(CUZK_POST_WINDOW_32GIB_V1_1)->sector_count == 2349);
    CHECK(cuzk_post_proof_info_get(CUZK_POST_WINDOW_64GIB_V1)->sector_count == 2300);
    CHECK(cuzk_post_proof_info_get(CUZK_POST_PROOF_COUNT) == NULL);
    cuzk_post_proof q;
    CHECK_FAILS(cuzk_post_proof_from_name(&q, "StackedDrgWinning32GiBV1_2", 26), CUZK_EUNSUPPORTED);
    CHECK_OK(cuzk_post_proof_lookup(&q, CUZK_POST_WINDOW, 32ULL << 30, true));
    CHECK(q == CUZK_POST_WINDOW_32GIB_V1_1);
    CHECK_FAILS(cuzk_post_proof_lookup(&q, CUZK_POST_WINNING, 2048, true), CUZK_EINVAL);
    CHECK_FAILS(cuzk_post_proof_lookup(&q, CUZK_POST_WINDOW, 4096, false), CUZK_EUNSUPPORTED);
    char ident[160];
    cuzk_post_proof_param_identifier(ident, sizeof ident, CUZK_POST_WINNING_32GIB_V1);
    CHECK(!strcmp(ident, "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 1, sector_count: 66}"));
    CHECK_FAILS(cuzk_post_proof_find_params("/nonexistent-dir", CUZK_POST_WINNING_2KIB_V1, NULL, NULL), CUZK_EIO);
    CHECK(strstr(cuzk_last_error(), "StackedDrgWinning2KiBV1") != NULL);

    /* challenge index: V1_2_0 ignores the sector index, the others number challenges across sectors */
    CHECK(cuzk_post_challenge_index(CUZK_API_V1_2_0, 7, 10, 3) == 3);
    CHECK(cuzk_post_challenge_index(CUZK_API_V1_0_0, 7, 10, 3) == 73);
    uint8_t rnd[32] = {1, 2, 3};
    CHECK(cuzk_post_challenge(CUZK_POST_WINDOW_2KIB_V1, rnd, 5, 1, 1, 4) ==
          cuzk_post_leaf_challenge(64, rnd, 5, (1 * 2 + 1) * 10 + 4));
    CHECK(cuzk_post_challenge(CUZK_POST_WINDOW_2KIB_V1_1, rnd, 5, 1, 1, 4) == cuzk_post_leaf_challenge(64, rnd, 5, 4));
    for (unsigned j = 0; j < 66; j++)
        CHECK(cuzk_post_blob_challenge(CUZK_POST_WINNING_2KIB_V1, rnd, 9, 0, 0, j) ==
              cuzk_post_leaf_challenge(64, rnd, 9, j));
    memset(rnd, 0xff, 32);
    CHECK_FAILS(cuzk_post_check_randomness(rnd), CUZK_EINVAL);
    rnd[31] &= 0x3f;
    CHECK_OK(cuzk_post_check_randomness(rnd));
}

/* ---------------------------------------------------------------- counts */
static void check_counts(const char *name, size_t constraints, size_t inputs)
{
    cuzk_circuit *c;
    cuzk_circuit_counts n = {0, 0, 0};
    CHECK_OK(cuzk_circuit_open(&c, name));
    if (!c) return;
    CHECK_OK(cuzk_circuit_count(c, &n));
    CHECK(n.constraints == constraints && n.inputs == inputs);
    if (n.constraints != constraints || n.inputs != inputs)
        fprintf(stderr, "  %s: %zu constraints, %zu inputs\n", name, n.constraints, n.inputs);
    cuzk_circuit_free(c);
}

static void test_counts(void)
{
    /* fallback_circuit.rs: 64 leaves per base tree, 5 challenges, 3 (or 2) sectors per partition */
    check_counts("post-test:8-0-0:64:3:5", 16869, 19);
    check_counts("post-test:8-4-0:256:3:5", 22674, 19);
    check_counts("post-test:8-4-2:512:3:5", 27384, 19);
    check_counts("post-test:8-0-0:64:2:5", 11246, 13);
    /* the bench_cs test: a 32 GiB single tree, 10 challenges, 5 sectors */
    check_counts("post-test:8-0-0:1073741824:5:10", 266665, 56);
    /* constants.rs: "this gives 125,279,217 constraints" (2349 sectors), 129,887,900 (2300);
     * a COUNT pass takes about 3.5 s and 13 MB, so it always runs */
    check_counts("window-post:32GiB", 125279217, 25840);
    check_counts("window-post:64GiB", 129887900, 25301);
    check_counts("winning-post:32GiB", 370590, 133);
    check_counts("window-post:2KiB", 21866, 23);
    check_counts("winning-post:2KiB", 90750, 133);
    cuzk_circuit *c;
    CHECK_FAILS(cuzk_circuit_open(&c, "window-post:4KiB"), CUZK_EINVAL);
    CHECK_FAILS(cuzk_circuit_open(&c, "post-test:8-0-0:63:3:5"), CUZK_EINVAL);
    CHECK_FAILS(cuzk_circuit_open(&c, "post-test:8-0-0:64:0:5"), CUZK_EINVAL);
}

/* ---------------------------------------------------------------- sealed sectors */
typedef struct {
    uint64_t id;
    uint8_t comm_r[32], p_aux[64], replica[2048];
} test_sector;

static void seal_sector(test_sector *t, uint64_t id, bool random_data)
{
    cuzk_seal_params sp;
    test_sector_params(&sp, CUZK_SEAL_2KIB_V1_1, id);
    uint8_t data[2048];
    if (random_data) {
        test_sector_data(data, sizeof data, id);
        sp.data = data;
    }
    cuzk_sealed_sector *s = test_sector_seal(&sp);
    memset(t, 0, sizeof *t);
    t->id = id;
    if (!s) return;
    memcpy(t->comm_r, cuzk_sealed_commitments(s)->comm_r, 32);
    cuzk_sealed_p_aux(s, t->p_aux);
    cuzk_sealed_replica_nodes(s, 0, 64, t->replica);
    cuzk_sealed_sector_free(s);
}

static cuzk_post_replica replica_of(const test_sector *t)
{
    cuzk_post_replica r;
    memset(&r, 0, sizeof r);
    r.sector_id = t->id;
    memcpy(r.comm_r, t->comm_r, 32);
    r.replica = t->replica;
    r.replica_len = sizeof t->replica;
    memcpy(r.p_aux, t->p_aux, 64);
    return r;
}

/* The partition satisfies its circuit; synthesis' inputs (TEST, and WITNESS in parallel)
 * equal the public inputs; a wrong sibling is caught inside its inclusion proof. */
static void check_partition_circuit(cuzk_post_partition *pp, const char *what)
{
    cuzk_circuit *c = NULL;
    CHECK_OK(cuzk_post_circuit_open(&c, pp));
    if (!c) return;
    size_t ni = cuzk_post_partition_num_inputs(pp);
    cuzk_fr *want = calloc(ni, sizeof *want);
    CHECK_OK(cuzk_post_partition_public_inputs(pp, want, ni));
    CHECK_FAILS(cuzk_post_partition_public_inputs(pp, want, ni - 1), CUZK_EINVAL);
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    CHECK_OK(cuzk_circuit_synthesize(c, cs, 0));
    const char *path = NULL;
    long bad = cuzk_cs_which_unsatisfied(cs, &path);
    CHECK(bad == -1);
    if (bad != -1) fprintf(stderr, "  %s: unsatisfied at %s\n", what, path ? path : "?");
    CHECK(cs->num_inputs == ni + 1);
    CHECK(!memcmp(want, cs->input_vals + 1, ni * sizeof(cuzk_fr)));
    cuzk_cs_destroy(cs);

    cuzk_witness w;
    memset(&w, 0, sizeof w);
    CHECK_OK(cuzk_circuit_witness(c, 0, true, &w));
    CHECK(w.num_inputs == ni + 1 && !memcmp(want, w.input + 1, ni * sizeof(cuzk_fr)));
    cuzk_witness_free(&w);

    /* the last slot's last challenge, one sibling changed */
    cuzk_fr saved = pp->siblings[pp->nblobs * pp->info->proofs_per_blob * pp->nsib - 1];
    cuzk_fr_add(&pp->siblings[pp->nblobs * pp->info->proofs_per_blob * pp->nsib - 1], &saved, &saved);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    CHECK_OK(cuzk_circuit_synthesize(c, cs, 0));
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) >= 0);
    CHECK(path && strstr(path, "challenge_inclusion_") != NULL);
    if (path) printf("%s: changed sibling caught at %s\n", what, path);
    cuzk_cs_destroy(cs);
    pp->siblings[pp->nblobs * pp->info->proofs_per_blob * pp->nsib - 1] = saved;
    free(want);
    cuzk_circuit_free(c);
}

static const uint8_t *g_blob_window[2], *g_blob_winning;
static size_t g_len_window[2], g_len_winning;
static uint8_t g_rnd[32];

static void test_sealed(void)
{
    test_sector cc, rd;
    seal_sector(&cc, 11, false);
    seal_sector(&rd, 12, true);
    cuzk_post_replica reps[2] = {replica_of(&cc), replica_of(&rd)};
    for (int i = 0; i < 32; i++) g_rnd[i] = (uint8_t)(13 * i + 5);
    g_rnd[31] &= 0x3f;

    /* Window V1_1, both sectors; then V1 with one sector (padding), partition 1 */
    uint8_t *blobs[2] = {NULL, NULL};
    size_t lens[2];
    CHECK_OK(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, reps, 2, blobs, lens));
    CHECK(lens[0] == cuzk_post_sector_proof_bytes(CUZK_POST_WINDOW_2KIB_V1_1));
    cuzk_post_partition *pp = NULL;
    CHECK_OK(cuzk_post_partition_parse(&pp, CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, NULL, (const uint8_t *const *)blobs,
                                       lens, 2));
    if (pp) {
        CHECK(cuzk_post_partition_sectors(pp) == 2 && cuzk_post_partition_num_inputs(pp) == 22);
        check_partition_circuit(pp, "window 2KiB V1_1");
        cuzk_post_partition_free(pp);
    }
    g_blob_window[0] = blobs[0];
    g_blob_window[1] = blobs[1];
    g_len_window[0] = lens[0];
    g_len_window[1] = lens[1];

    uint8_t *b1[1] = {NULL};
    size_t l1[1];
    CHECK_OK(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1, g_rnd, 1, &reps[1], 1, b1, l1));
    CHECK_OK(
        cuzk_post_partition_parse(&pp, CUZK_POST_WINDOW_2KIB_V1, g_rnd, 1, NULL, (const uint8_t *const *)b1, l1, 1));
    if (pp) {
        /* padding repeats the last sector: slot 1's inputs are slot 0's */
        cuzk_fr in[22];
        CHECK_OK(cuzk_post_partition_public_inputs(pp, in, 22));
        CHECK(!memcmp(in, in + 11, 11 * sizeof(cuzk_fr)));
        check_partition_circuit(pp, "window 2KiB V1 partition 1, padded");
        cuzk_post_partition_free(pp);
    }
    /* V1 derives the challenges from the partition: partition 0 does not accept them */
    CHECK_FAILS(
        cuzk_post_partition_parse(&pp, CUZK_POST_WINDOW_2KIB_V1, g_rnd, 0, NULL, (const uint8_t *const *)b1, l1, 1),
        CUZK_EVERIFY);
    free(b1[0]);

    /* Winning: the random-data sector */
    CHECK_OK(cuzk_post_vanilla_prove(CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, &reps[1], 1, b1, l1));
    CHECK(l1[0] == cuzk_post_sector_proof_bytes(CUZK_POST_WINNING_2KIB_V1));
    CHECK_OK(
        cuzk_post_partition_parse(&pp, CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, NULL, (const uint8_t *const *)b1, l1, 1));
    if (pp) {
        check_partition_circuit(pp, "winning 2KiB");
        cuzk_post_partition_free(pp);
    }
    g_blob_winning = b1[0];
    g_len_winning = l1[0];
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, reps, 2, b1, l1), CUZK_EINVAL);
    reps[0].p_aux[40] ^= 1;
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, reps, 1, b1, l1), CUZK_EVERIFY);
    reps[0].p_aux[40] ^= 1;
    reps[0].replica_len = 1024;
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, reps, 1, b1, l1), CUZK_EINVAL);
    reps[0] = replica_of(&cc);
    b1[0] = NULL; /* g_blob_winning keeps it */

    /* nothing is made that the prover's check refuses: one sector twice, ids descending, a
     * partition whose first slot does not fit in 32 bits (2 sectors a partition at 2 KiB) */
    uint8_t *b2[2] = {NULL, NULL};
    size_t l2[2];
    cuzk_post_replica twice[2] = {reps[1], reps[1]}, down[2] = {reps[1], reps[0]};
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, twice, 2, b2, l2), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "both have sector_id 12") != NULL);
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, down, 2, b2, l2), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "ascending") != NULL);
    CHECK_FAILS(cuzk_post_vanilla_prove(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, UINT32_MAX, reps, 1, b1, l1), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "partition index 4294967295 is out of range") != NULL);
    CHECK(b1[0] == NULL && b2[0] == NULL && b2[1] == NULL);
    /* the same check at the edge: partition 2^31 - 1 is the last whose first slot fits */
    CHECK_OK(cuzk_post_partition_check(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, UINT32_MAX / 2, NULL, 1));
    CHECK_FAILS(cuzk_post_partition_check(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, UINT32_MAX / 2 + 1, NULL, 1), CUZK_EINVAL);
    CHECK_FAILS(cuzk_post_partition_check(CUZK_POST_WINDOW_2KIB_V1_1, g_rnd, 0, NULL, 3), CUZK_EINVAL);
}

/* The named circuits' built-in witness (a CC sector sealed from the seed) satisfies them. */
static void test_builtin(void)
{
    /* 8 MiB seals a real 8 MiB sector (seconds): not in the quick pass */
    const char *names[] = {"window-post:2KiB", "winning-post:2KiB", "winning-post:8MiB"};
    for (int i = 0; i < (getenv("CUZK_TEST_QUICK") ? 2 : 3); i++) {
        cuzk_circuit *c = NULL;
        CHECK_OK(cuzk_circuit_open(&c, names[i]));
        if (!c) continue;
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        CHECK_OK(cuzk_circuit_synthesize(c, cs, 42));
        const char *path = NULL;
        CHECK(cuzk_cs_which_unsatisfied(cs, &path) == -1);
        cuzk_cs_destroy(cs);
        cuzk_circuit_free(c);
    }
    cuzk_circuit *c = NULL;
    cuzk_post_partition *pp = NULL;
    CHECK_OK(cuzk_post_synthetic_open(&c, &pp, "window-post:32GiB", 1));
    CHECK(c && pp && cuzk_post_partition_sectors(pp) == 2349);
    if (c) {
        const cuzk_circuit_layout *lay;
        CHECK_OK(cuzk_circuit_layout_get(c, &lay));
        CHECK(lay->constraints == 125279217);
    }
    cuzk_circuit_free(c);
    cuzk_post_partition_free(pp);
    /* synthetic data are laid out as a real sector's trees: every path leads to its sector's
     * comm_r_last and comm_r = H(comm_c, comm_r_last), so the circuit is satisfied (sub and
     * top trees at 32 / 64 GiB) */
    const char *synth[] = {"window-post:2KiB", "winning-post:32GiB", "winning-post:64GiB"};
    for (int i = 0; i < (getenv("CUZK_TEST_QUICK") ? 2 : 3); i++) {
        CHECK_OK(cuzk_post_synthetic_open(&c, &pp, synth[i], 7));
        if (c) {
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            CHECK_OK(cuzk_circuit_synthesize(c, cs, 1));
            const char *path = NULL;
            CHECK(cuzk_cs_which_unsatisfied(cs, &path) == -1);
            if (path) fprintf(stderr, "%s: unsatisfied at %s\n", synth[i], path);
            cuzk_cs_destroy(cs);
        }
        cuzk_circuit_free(c);
        cuzk_post_partition_free(pp);
    }
    CHECK_FAILS(cuzk_post_synthetic_open(&c, &pp, "porep:2KiB", 1), CUZK_EINVAL);
    /* post-test has no witness */
    CHECK_OK(cuzk_circuit_open(&c, "post-test:8-0-0:64:2:5"));
    if (c) {
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        CHECK_FAILS(cuzk_circuit_synthesize(c, cs, 1), CUZK_EUNSUPPORTED);
        cuzk_cs_destroy(cs);
        cuzk_circuit_free(c);
    }
}

/* ---------------------------------------------------------------- parser */
static cuzk_status parse_one(cuzk_post_proof p, const uint8_t *blob, size_t len, uint32_t k)
{
    cuzk_post_partition *pp = NULL;
    const uint8_t *b[1] = {blob};
    cuzk_status st = cuzk_post_partition_parse(&pp, p, g_rnd, k, NULL, b, &len, 1);
    cuzk_post_partition_free(pp);
    return st;
}

static void put_u64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
}

static void test_parser(void)
{
    const cuzk_post_proof W = CUZK_POST_WINDOW_2KIB_V1_1;
    size_t n = g_len_window[0];
    if (!g_blob_window[0]) return;
    uint8_t *b = malloc(n + 1);
    memcpy(b, g_blob_window[0], n);

    /* round trip */
    cuzk_post_sector_proof *sp = NULL;
    CHECK_OK(cuzk_post_sector_proof_parse(&sp, W, 0, b, n));
    if (sp) {
        uint8_t *out;
        size_t len;
        CHECK_OK(cuzk_post_sector_proof_write(sp, W, &out, &len));
        CHECK(len == n && !memcmp(out, b, n));
        free(out);
        CHECK(sp->sector_id == 11 && sp->nproofs == 10 && sp->proofs[0].nbase == 2);
        cuzk_post_sector_proof_free(sp);
    }
    CHECK_OK(cuzk_post_sector_proof_parse(&sp, CUZK_POST_WINNING_2KIB_V1, 0, g_blob_winning, g_len_winning));
    cuzk_post_sector_proof_free(sp);

    /* layout of the 2 KiB blob: id 0, comm_r 8, sectors len 40, proofs len 48, proof 0 at 56:
     * tag, root 60, leaf 92, path len 124, path[0].hashes len 132, hashes[0] 140 */
    b[141] ^= 1;
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "blob 0") && strstr(cuzk_last_error(), "inclusion_proofs[0]"));
    printf("flipped path hash: %s\n", cuzk_last_error());
    b[141] ^= 1;
    CHECK_OK(parse_one(W, b, n, 0));
    b[9] ^= 1;
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "comm_r") != NULL);
    b[9] ^= 1;
    b[0] ^= 1; /* another sector id: other challenges (and the comm_r check still holds) */
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EVERIFY);
    b[0] ^= 1;
    b[60 + 31] = 0xff; /* root not canonical */
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "inclusion_proofs[0].Single.root") && strstr(cuzk_last_error(), "offset 60"));
    memcpy(b, g_blob_window[0], n);

    /* wrong randomness */
    uint8_t saved[32];
    memcpy(saved, g_rnd, 32);
    g_rnd[0] ^= 1;
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "challenge") != NULL);
    memset(g_rnd, 0xff, 32);
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EINVAL);
    memcpy(g_rnd, saved, 32);

    /* truncated, trailing bytes, another sector size, another kind */
    CHECK_FAILS(parse_one(W, b, n - 1, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "truncated") && strstr(cuzk_last_error(), "comm_r_last"));
    CHECK_FAILS(parse_one(W, b, 0, 0), CUZK_EFORMAT);
    CHECK_FAILS(parse_one(W, NULL, 0, 0), CUZK_EFORMAT);
    b[n] = 0;
    CHECK_FAILS(parse_one(W, b, n + 1, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "trailing") != NULL);
    CHECK_FAILS(parse_one(CUZK_POST_WINDOW_8MIB_V1_1, b, n, 0), CUZK_EFORMAT);
    printf("2 KiB blob as 8 MiB: %s\n", cuzk_last_error());
    CHECK_FAILS(parse_one(CUZK_POST_WINDOW_32GIB_V1_1, b, n, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "variant") != NULL);
    CHECK_FAILS(parse_one(CUZK_POST_WINNING_2KIB_V1, b, n, 0), CUZK_EFORMAT);

    /* huge lengths fail at their field, at once */
    clock_t t0 = clock();
    put_u64(b + 48, 1ULL << 60);
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "inclusion_proofs: expected 10 elements, got 1152921504606846976") != NULL);
    memcpy(b, g_blob_window[0], n);
    put_u64(b + 132, UINT64_MAX);
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "path[0].hashes: expected 7") && strstr(cuzk_last_error(), "offset 132"));
    memcpy(b, g_blob_window[0], n);
    put_u64(b + 40, 2);
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EFORMAT);
    CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5);
    memcpy(b, g_blob_window[0], n);
    put_u64(b + 132 + 8 + 7 * 32, 8); /* path[0].index 8 of arity 8 */
    CHECK_FAILS(parse_one(W, b, n, 0), CUZK_EFORMAT);
    memcpy(b, g_blob_window[0], n);

    /* sector counts */
    cuzk_post_partition *pp = NULL;
    const uint8_t *three[3] = {g_blob_window[0], g_blob_window[1], g_blob_window[0]};
    size_t lens3[3] = {g_len_window[0], g_len_window[1], g_len_window[0]};
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, NULL, three, lens3, 3), CUZK_EINVAL);
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, NULL, three, lens3, 0), CUZK_EINVAL);
    const uint8_t *dup[2] = {g_blob_window[0], g_blob_window[0]};
    size_t dlen[2] = {g_len_window[0], g_len_window[0]};
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, NULL, dup, dlen, 2), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "both of sector 11") != NULL);
    CHECK_OK(cuzk_post_partition_parse(&pp, W, g_rnd, 0, NULL, three + 1, lens3 + 1, 1));
    cuzk_post_partition_free(pp);
    pp = NULL;
    const uint8_t *win2[2] = {g_blob_winning, g_blob_winning};
    size_t wl2[2] = {g_len_winning, g_len_winning};
    CHECK_FAILS(cuzk_post_partition_parse(&pp, CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, NULL, win2, wl2, 2), CUZK_EINVAL);
    CHECK_FAILS(cuzk_post_partition_parse(&pp, CUZK_POST_WINNING_2KIB_V1, g_rnd, 1, NULL, win2, wl2, 1), CUZK_EINVAL);
    free(b);
}

static uint64_t get_u64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

/* The public sector list is what the blobs are checked against: blobs of its sectors in its
 * order pass (with the public inputs of the blobs' own list), another sector id, another
 * comm_r, a list out of order or with a repeated id are refused naming the field. */
static void test_public(void)
{
    const cuzk_post_proof W = CUZK_POST_WINDOW_2KIB_V1_1;
    if (!g_blob_window[0] || !g_blob_window[1]) return;
    cuzk_post_public_sector pub[2];
    for (int i = 0; i < 2; i++) { /* a blob starts with its sector id and comm_r */
        pub[i].sector_id = get_u64(g_blob_window[i]);
        memcpy(pub[i].comm_r, g_blob_window[i] + 8, 32);
    }
    CHECK(pub[0].sector_id == 11 && pub[1].sector_id == 12);
    cuzk_post_partition *pp = NULL, *own = NULL;
    CHECK_OK(cuzk_post_partition_parse(&pp, W, g_rnd, 0, pub, g_blob_window, g_len_window, 2));
    CHECK_OK(cuzk_post_partition_parse(&own, W, g_rnd, 0, NULL, g_blob_window, g_len_window, 2));
    cuzk_fr a[22], b[22];
    if (pp && own) {
        CHECK_OK(cuzk_post_partition_public_inputs(pp, a, 22));
        CHECK_OK(cuzk_post_partition_public_inputs(own, b, 22));
        CHECK(!memcmp(a, b, sizeof a));
    }
    cuzk_post_partition_free(pp);
    cuzk_post_partition_free(own);

    pub[1].sector_id = 13;
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, pub, g_blob_window, g_len_window, 2), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "blob 1: sector_id is 12, but public sectors[1].sector_id is 13") != NULL);
    pub[1].sector_id = 12;
    uint8_t saved[32];
    memcpy(saved, pub[0].comm_r, 32);
    memset(pub[0].comm_r, 0, 32);
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, pub, g_blob_window, g_len_window, 2), CUZK_EVERIFY);
    CHECK(
        strstr(cuzk_last_error(), "blob 0 (sector 11): comm_r is ") &&
        strstr(cuzk_last_error(), "public sectors[0].comm_r is 0000000000000000000000000000000000000000000000000000"));
    printf("zero public comm_r: %s\n", cuzk_last_error());
    memcpy(pub[0].comm_r, saved, 32);

    /* the blobs in the other order: their list descends, and against the ascending list each
     * blob is of another sector */
    const uint8_t *swapped[2] = {g_blob_window[1], g_blob_window[0]};
    size_t swapped_len[2] = {g_len_window[1], g_len_window[0]};
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, pub, swapped, swapped_len, 2), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "blob 0: sector_id is 12, but public sectors[0].sector_id is 11") != NULL);
    cuzk_post_public_sector desc[2] = {pub[1], pub[0]};
    CHECK_FAILS(cuzk_post_partition_parse(&pp, W, g_rnd, 0, desc, swapped, swapped_len, 2), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "public sectors[1].sector_id is 11, after 12 in sectors[0]") != NULL);
    CHECK_FAILS(cuzk_post_public_sectors_check(W, desc, 2), CUZK_EINVAL);
    cuzk_post_public_sector dup[3] = {pub[0], pub[1], pub[0]};
    CHECK_OK(cuzk_post_public_sectors_check(W, dup, 2));
    dup[1] = pub[0];
    CHECK_FAILS(cuzk_post_public_sectors_check(W, dup, 2), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "public sectors[0] and sectors[1] both have sector_id 11") != NULL);
    CHECK_FAILS(cuzk_post_public_sectors_check(W, dup, 3), CUZK_EINVAL); /* more than a partition holds */
    CHECK_FAILS(cuzk_post_public_sectors_check(W, dup, 0), CUZK_EINVAL);

    /* Winning: the one challenged sector */
    cuzk_post_public_sector win = {get_u64(g_blob_winning), {0}};
    memcpy(win.comm_r, g_blob_winning + 8, 32);
    const uint8_t *wb[1] = {g_blob_winning};
    CHECK_OK(cuzk_post_partition_parse(&pp, CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, &win, wb, &g_len_winning, 1));
    cuzk_post_partition_free(pp);
    win.sector_id = 99;
    CHECK_FAILS(cuzk_post_partition_parse(&pp, CUZK_POST_WINNING_2KIB_V1, g_rnd, 0, &win, wb, &g_len_winning, 1),
                CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "sector_id is 12, but public sectors[0].sector_id is 99") != NULL);
}

/* Random truncations, bit flips, byte runs and length fields over valid blobs: every call ends
 * with a status, never a crash (the ASan build runs this too). */
static void test_fuzz(void)
{
    const struct {
        cuzk_post_proof p;
        const uint8_t *blob;
        size_t len;
    } CASES[2] = {{CUZK_POST_WINDOW_2KIB_V1_1, g_blob_window[0], g_len_window[0]},
                  {CUZK_POST_WINNING_2KIB_V1, g_blob_winning, g_len_winning}};
    if (!CASES[0].blob || !CASES[1].blob) return;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 2024);
    int ok = 0, format = 0, verify = 0, other = 0;
    const int iters = getenv("CUZK_TEST_QUICK") ? 3000 : 10000;
    for (int it = 0; it < iters; it++) {
        int c = it & 1;
        size_t len = CASES[c].len;
        uint8_t *b = malloc(len + 16);
        memcpy(b, CASES[c].blob, len);
        switch (cuzk_rng_next(&rng) % 5) {
        case 0: len = cuzk_rng_next(&rng) % (len + 1); break;
        case 1:
            for (int f = 0, nf = 1 + (int)(cuzk_rng_next(&rng) % 4); f < nf; f++) {
                size_t o = cuzk_rng_next(&rng) % len;
                b[o] ^= (uint8_t)(1u << (cuzk_rng_next(&rng) % 8));
            }
            break;
        case 2: { /* a length-like u64 somewhere */
            size_t o = cuzk_rng_next(&rng) % (len - 8);
            uint64_t v = cuzk_rng_next(&rng);
            if (v & 1) v >>= (cuzk_rng_next(&rng) % 64);
            put_u64(b + o, v);
            break;
        }
        case 3: len += 1 + cuzk_rng_next(&rng) % 16; break;
        default: {
            size_t o = cuzk_rng_next(&rng) % len, m = 1 + cuzk_rng_next(&rng) % 40;
            for (size_t q = o; q < o + m && q < len; q++) b[q] = (uint8_t)cuzk_rng_next(&rng);
        }
        }
        cuzk_status st = parse_one(CASES[c].p, b, len, 0);
        if (st == CUZK_OK) ok++;
        else if (st == CUZK_EFORMAT) format++;
        else if (st == CUZK_EVERIFY) verify++;
        else other++;
        CHECK(st == CUZK_OK || st == CUZK_EFORMAT || st == CUZK_EVERIFY);
        free(b);
    }
    printf("fuzz: %d blobs: %d accepted, %d malformed, %d failed checks, %d other\n", iters, ok, format, verify, other);
    CHECK(format > iters / 4 && verify > iters / 20);
}

int main(void)
{
    test_registry();
    test_counts();
    test_sealed();
    test_builtin();
    test_parser();
    test_public();
    test_fuzz();
    free((void *)g_blob_window[0]);
    free((void *)g_blob_window[1]);
    free((void *)g_blob_winning);
    return harness_finish("test_fil_post");
}
