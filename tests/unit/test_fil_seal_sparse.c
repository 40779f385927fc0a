/* Sparse test sectors: their C1s pass the native vanilla check and (2 KiB, 8 MiB) the circuit
 * in TEST mode; they agree with a fully sealed zero-data sector where they must (comm_d,
 * replica id, challenges, tree D paths) and differ where they may (comm_r); 32 and 64 GiB
 * ones pass the vanilla check and read back from their JSON; a flipped byte is refused; a node
 * both challenged and a parent opens alike; what cannot be sparse is refused. */
#include <string.h>
#include <sys/resource.h>

#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/testcircuits.h"
#include "harness.h"
#include "support_sector.h"

/* TEST mode: every partition's constraints hold. */
static void check_circuit(const cuzk_c1 *c1)
{
    cuzk_porep_shape shape;
    CHECK_OK(cuzk_porep_shape_for_proof(&shape, c1->proof));
    for (unsigned k = 0; k < c1->partitions; k++) {
        CHECK_OK(cuzk_stacked_check_c1(&shape, c1, k));
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        if (!cs) return;
        cuzk_stacked_synthesize(cs, &shape, c1, k);
        CHECK_OK(cuzk_cs_status(cs));
        const char *path = NULL;
        long bad = cuzk_cs_which_unsatisfied(cs, &path);
        CHECK(bad == -1);
        if (bad != -1) fprintf(stderr, "  partition %u: constraint %ld unsatisfied: %s\n", k, bad, path);
        cuzk_cs_destroy(cs);
    }
}

/* Writes the C1's JSON and parses it back. */
static cuzk_c1 *round_trip(const cuzk_c1 *c1)
{
    uint8_t *json = NULL;
    size_t len = 0;
    cuzk_c1 *back = NULL;
    CHECK_OK(cuzk_c1_write(c1, &json, &len));
    if (json) CHECK_OK(cuzk_c1_parse(&back, json, len));
    free(json);
    return back;
}

/* Small sizes: vanilla check, circuit, and the fully sealed zero-data sector of the same inputs. */
static void test_small(cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    cuzk_seal_params sp;
    test_sector_params(&sp, p, 5);
    uint8_t seed[32];
    test_sector_seed(seed, 1);
    cuzk_c1 *c1 = NULL;
    cuzk_seal_commitments cm;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL));
    if (!c1) return;
    printf("sparse %s: %.1f ms\n", pi->name, (cuzk_now() - t0) * 1e3);
    CHECK_OK(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id));
    CHECK(!memcmp(c1->comm_r, cm.comm_r, 32) && !memcmp(c1->comm_d, cm.comm_d, 32));
    check_circuit(c1);
    cuzk_c1 *back = round_trip(c1);
    if (back) CHECK_OK(cuzk_c1_verify(back, sp.prover_id, sp.sector_id));
    cuzk_c1_free(back);

    /* the sealed zero-data sector: same comm_d, replica id, challenges and tree D paths */
    cuzk_c1 *full = test_sector_c1(&sp, seed);
    if (full) {
        CHECK_OK(cuzk_c1_verify(full, sp.prover_id, sp.sector_id));
        CHECK(!memcmp(full->comm_d, c1->comm_d, 32));
        CHECK(!memcmp(full->replica_id, c1->replica_id, 32));
        CHECK(memcmp(full->comm_r, c1->comm_r, 32) != 0);
        size_t total = (size_t)pi->partitions * pi->challenges_per_partition;
        for (size_t i = 0; i < total; i++) {
            const cuzk_challenge_proof *a = &full->proofs[i], *b = &c1->proofs[i];
            CHECK(a->labeling[0].node == b->labeling[0].node);
            CHECK(!memcmp(a->comm_d_proof.leaf.b, b->comm_d_proof.leaf.b, 32));
            for (uint32_t l = 0; l < a->comm_d_proof.nbase; l++)
                CHECK(!memcmp(a->comm_d_proof.path[l].hashes[0].b, b->comm_d_proof.path[l].hashes[0].b, 32));
        }
    }
    cuzk_c1_free(full);

    /* a flipped byte in a tree C path sibling, and in a labeling parent */
    c1->proofs[0].exp_parents[2].inclusion.path[1].hashes[3].b[4] ^= 0x01;
    CHECK_FAILS(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id), CUZK_EVERIFY);
    c1->proofs[0].exp_parents[2].inclusion.path[1].hashes[3].b[4] ^= 0x01;
    CHECK_OK(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id));
    c1->proofs[0].labeling[pi->layers - 1].parents[0].b[0] ^= 0x01;
    CHECK_FAILS(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id), CUZK_EVERIFY);
    cuzk_c1_free(c1);
}

/* Does some challenge of c1 open another challenged node as a parent? */
static bool parent_is_challenged(const cuzk_c1 *c1)
{
    size_t total = (size_t)c1->partitions * c1->challenges_per_partition;
    for (size_t i = 0; i < total; i++)
        for (size_t j = 0; j < total; j++) {
            uint64_t other = c1->proofs[j].labeling[0].node;
            if (other == c1->proofs[i].labeling[0].node) continue;
            for (int p = 0; p < CUZK_POREP_DRG_PARENTS; p++)
                if (c1->proofs[i].drg_parents[p].index == other) return true;
            for (int p = 0; p < CUZK_POREP_EXP_PARENTS; p++)
                if (c1->proofs[i].exp_parents[p].index == other) return true;
        }
    return false;
}

/* A 2 KiB seed where one challenge is another's parent: its column agrees everywhere (tree C
 * has one leaf for it, so the vanilla check and the circuit hold only if it does). */
static void test_challenged_parent(void)
{
    cuzk_seal_params sp;
    test_sector_params(&sp, CUZK_SEAL_2KIB_V1_1, 9);
    bool found = false;
    for (unsigned n = 0; n < 400 && !found; n++) {
        uint8_t seed[32];
        test_sector_seed(seed, n);
        cuzk_c1 *c1 = NULL;
        cuzk_seal_commitments cm;
        CHECK_OK(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL));
        if (!c1) return;
        if (parent_is_challenged(c1)) {
            found = true;
            printf("seed %u: a challenged node is another challenge's parent\n", n);
            CHECK_OK(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id));
            check_circuit(c1);
        }
        cuzk_c1_free(c1);
    }
    CHECK(found);
}

static long max_rss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* 32 / 64 GiB: vanilla check, JSON round trip, a flipped path byte refused. */
static void test_large(cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    cuzk_seal_params sp;
    test_sector_params(&sp, p, 77);
    uint8_t seed[32];
    test_sector_seed(seed, 3);
    cuzk_c1 *c1 = NULL;
    cuzk_seal_commitments cm;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL));
    if (!c1) return;
    double t1 = cuzk_now();
    CHECK(c1->partitions == pi->partitions && c1->challenges_per_partition == pi->challenges_per_partition);
    CHECK(c1->proofs[0].comm_r_last_proof.kind == (pi->top_arity ? CUZK_MERKLE_TOP : CUZK_MERKLE_SUB));
    CHECK_OK(cuzk_c1_verify(c1, sp.prover_id, sp.sector_id));
    double t2 = cuzk_now();
    cuzk_c1 *back = round_trip(c1);
    if (back) {
        CHECK_OK(cuzk_c1_verify(back, sp.prover_id, sp.sector_id));
        /* a flipped byte in one tree R path of the last partition */
        cuzk_challenge_proof *cp = &back->proofs[(size_t)pi->partitions * pi->challenges_per_partition - 1];
        cp->comm_r_last_proof.path[pi->base_path_len].hashes[0].b[7] ^= 0x20;
        CHECK_FAILS(cuzk_c1_verify(back, sp.prover_id, sp.sector_id), CUZK_EVERIFY);
        CHECK(strstr(cuzk_last_error(), "comm_r_last_proof") != NULL);
    }
    cuzk_c1_free(back);
    printf("sparse %s: seal %.3f s, vanilla check %.3f s, max RSS %ld MiB\n", pi->name, t1 - t0, t2 - t1,
           max_rss_kib() / 1024);
    cuzk_c1_free(c1);
}

static void test_refused(void)
{
    cuzk_seal_params sp;
    uint8_t seed[32];
    test_sector_seed(seed, 2);
    cuzk_c1 *c1 = NULL;
    cuzk_seal_commitments cm;
    test_sector_params(&sp, CUZK_SEAL_32GIB_V1_2_NI, 1);
    CHECK_FAILS(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL), CUZK_EUNSUPPORTED);
    CHECK(strstr(cuzk_last_error(), "comm_r") != NULL);
    test_sector_params(&sp, CUZK_SEAL_2KIB_V1_1_SYNTH, 1);
    CHECK_FAILS(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL), CUZK_EUNSUPPORTED);
    static uint8_t data[2048];
    test_sector_params(&sp, CUZK_SEAL_2KIB_V1_1, 1);
    sp.data = data;
    CHECK_FAILS(cuzk_seal_sparse_commit1(&c1, &cm, &sp, seed, NULL), CUZK_EINVAL);
    CHECK(c1 == NULL);
}

int main(void)
{
    test_small(CUZK_SEAL_2KIB_V1_1);
    test_small(CUZK_SEAL_2KIB_V1);
    /* 8 MiB checks every partition circuit in TEST mode (minutes under the sanitizers): the
     * quick pass leaves it to the plain one */
    if (!getenv("CUZK_TEST_QUICK")) test_small(CUZK_SEAL_8MIB_V1_1);
    else printf("quick pass: the 8 MiB sector is checked by the plain pass\n");
    test_challenged_parent();
    test_refused();
    test_large(CUZK_SEAL_32GIB_V1_1);
    test_large(CUZK_SEAL_64GIB_V1_1);
    if (!getenv("CUZK_TEST_QUICK")) test_large(CUZK_SEAL_32GIB_V1);
    return harness_finish("test_fil_seal_sparse");
}
