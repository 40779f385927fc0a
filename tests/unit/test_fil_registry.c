/* Filecoin proof registry: names and ids (rust-filecoin-proofs-api registry.rs), PoRep
 * configuration (filecoin-proofs constants.rs), porep ids, and the official parameter file
 * names, whose stem hashes are the ones published in parameters.json. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "harness.h"

static void test_names_and_ids(void)
{
    static const char *const NAMES[CUZK_SEAL_PROOF_COUNT] = {"StackedDrg2KiBV1",
                                                             "StackedDrg8MiBV1",
                                                             "StackedDrg512MiBV1",
                                                             "StackedDrg32GiBV1",
                                                             "StackedDrg64GiBV1",
                                                             "StackedDrg2KiBV1_1",
                                                             "StackedDrg8MiBV1_1",
                                                             "StackedDrg512MiBV1_1",
                                                             "StackedDrg32GiBV1_1",
                                                             "StackedDrg64GiBV1_1",
                                                             "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                                                             "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
                                                             "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
                                                             "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
                                                             "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
                                                             "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                                                             "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
                                                             "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
                                                             "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
                                                             "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};
    static const uint64_t SIZES[5] = {2048, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    static const char *const VNAMES[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                          "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
    for (int i = 0; i < CUZK_SEAL_PROOF_COUNT; i++) {
        const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get((cuzk_seal_proof)i);
        CHECK(pi && (int)pi->id == i);
        CHECK(strcmp(pi->name, NAMES[i]) == 0);
        int s = i % 5;
        CHECK(pi->sector_size == SIZES[s]);
        CHECK(pi->nodes == SIZES[s] / 32);
        CHECK(strcmp(pi->vanilla_name, VNAMES[s]) == 0);
        bool big = s >= 3;
        CHECK(pi->layers == (big ? 11u : 2u));
        CHECK(pi->challenges_per_partition == (big ? 18u : 2u));
        bool ni = i >= 15;
        CHECK(pi->partitions == (ni ? (big ? 126u : 13u) : (big ? 10u : 1u)));
        CHECK(pi->base_arity == 8);
        CHECK(pi->sub_arity == (s == 3 || s == 4 ? 8u : 0u));
        CHECK(pi->top_arity == (s == 4 ? 2u : 0u));
        /* leaves of one base tree = 8^base_path_len */
        uint64_t trees = (pi->sub_arity ? pi->sub_arity : 1) * (pi->top_arity ? pi->top_arity : 1);
        CHECK((1ULL << (3 * pi->base_path_len)) * trees == pi->nodes);
        CHECK((1ULL << pi->tree_d_depth) == pi->nodes);
        CHECK(pi->api_version == (i < 5 ? CUZK_API_V1_0_0 : i < 10 ? CUZK_API_V1_1_0 : CUZK_API_V1_2_0));
        CHECK(pi->challenges ==
              (i < 10       ? CUZK_CHALLENGES_INTERACTIVE
                   : i < 15 ? CUZK_CHALLENGES_SYNTHETIC
                            : CUZK_CHALLENGES_NI));
        CHECK(cuzk_seal_proof_num_inputs((cuzk_seal_proof)i) == (big ? 327u : 39u));

        cuzk_seal_proof back;
        CHECK_OK(cuzk_seal_proof_from_name(&back, NAMES[i], strlen(NAMES[i])));
        CHECK((int)back == i);

        uint8_t id[32], want[32] = {0};
        want[0] = (uint8_t)i;
        cuzk_seal_proof_porep_id(id, (cuzk_seal_proof)i);
        CHECK(memcmp(id, want, 32) == 0);
    }
    cuzk_seal_proof p;
    CHECK_FAILS(cuzk_seal_proof_from_name(&p, "StackedDrg2KiBV2", 16), CUZK_EUNSUPPORTED);
    CHECK(strstr(cuzk_last_error(), "StackedDrg2KiBV2") != NULL);
    CHECK_FAILS(cuzk_seal_proof_from_name(&p, "StackedDrg2KiBV1_1x", 19), CUZK_EUNSUPPORTED); /* prefix only */
    CHECK_FAILS(cuzk_seal_proof_from_name(&p, "\x01\xff", 2), CUZK_EUNSUPPORTED);
    CHECK(cuzk_seal_proof_info_get((cuzk_seal_proof)20) == NULL);
    CHECK(cuzk_seal_proof_info_get((cuzk_seal_proof)-1) == NULL);
}

static void test_param_names(void)
{
    /* parameters.json stems; the same file serves every proof type of one size */
    static const char *const STEMS[5] = {
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
        "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
        "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"};
    for (int i = 0; i < CUZK_SEAL_PROOF_COUNT; i++) {
        char stem[CUZK_PARAM_STEM_MAX];
        cuzk_seal_proof_param_stem(stem, (cuzk_seal_proof)i);
        CHECK(strcmp(stem, STEMS[i % 5]) == 0);
        if (strcmp(stem, STEMS[i % 5]) != 0) fprintf(stderr, "    %d: %s\n", i, stem);
    }
    /* storage-proofs-porep params.rs test_public_params_identifier */
    char ident[512];
    size_t n = cuzk_seal_proof_param_identifier(ident, sizeof ident, CUZK_SEAL_32GIB_V1_1);
    const char *want32 =
        "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
        "drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }, challenges: "
        "LayerChallenges { layers: 11, max_count: 18 }, tree: merkletree-poseidon_hasher-8-8-0 }";
    CHECK(n == strlen(want32) && strcmp(ident, want32) == 0);
    /* snprintf semantics: the length is returned even when truncated */
    char small[8];
    CHECK(cuzk_seal_proof_param_identifier(small, sizeof small, CUZK_SEAL_32GIB_V1_1) == n);
    CHECK(strlen(small) == 7);
}

static void test_find_params(void)
{
    char dir[] = "/tmp/cuzk-params-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *pp = (char *)1, *vp = (char *)1;
    CHECK_FAILS(cuzk_seal_proof_find_params(dir, CUZK_SEAL_2KIB_V1_1, &pp, &vp), CUZK_EIO);
    CHECK(pp == NULL && vp == NULL);
    const char *msg = cuzk_last_error();
    CHECK(strstr(msg, ".params") != NULL && strstr(msg, "032d3138d22506ec") != NULL);
    CHECK(strstr(msg, "StackedDrg2KiBV1_1") != NULL && strstr(msg, dir) != NULL);

    char stem[CUZK_PARAM_STEM_MAX], path[512];
    cuzk_seal_proof_param_stem(stem, CUZK_SEAL_2KIB_V1_1);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) fclose(f);
    /* now only the .vk is missing, and the message says so */
    CHECK_FAILS(cuzk_seal_proof_find_params(dir, CUZK_SEAL_2KIB_V1_1, &pp, &vp), CUZK_EIO);
    CHECK(strstr(cuzk_last_error(), ".vk") != NULL);
    char vkpath[512];
    snprintf(vkpath, sizeof vkpath, "%s/%s.vk", dir, stem);
    f = fopen(vkpath, "w");
    if (f) fclose(f);
    char slashdir[300];
    snprintf(slashdir, sizeof slashdir, "%s/", dir);
    CHECK_OK(cuzk_seal_proof_find_params(slashdir, CUZK_SEAL_2KIB_V1_2_NI, &pp, &vp));
    CHECK(pp && strcmp(pp, path) == 0);
    CHECK(vp && strcmp(vp, vkpath) == 0);
    free(pp);
    free(vp);
    CHECK_OK(cuzk_seal_proof_find_params(dir, CUZK_SEAL_2KIB_V1, NULL, NULL));
    /* the library reads no environment: the default is rust-fil-proofs' directory (the CLI
     * applies FIL_PROOFS_PARAMETER_CACHE, tests/cli checks it) */
    setenv("FIL_PROOFS_PARAMETER_CACHE", dir, 1);
    CHECK(strcmp(cuzk_param_dir_default(), "/var/tmp/filecoin-proof-parameters") == 0);
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    unlink(path);
    unlink(vkpath);
    rmdir(dir);
}

/* A circuit's two spellings, from either; anything else is neither. */
static void test_circuit_spellings(void)
{
    static const struct {
        const char *in, *id, *family;
    } ok[] = {
        {"porep-32g", "porep-32g", "porep:32GiB"},
        {"porep:2KiB", "porep-2k", "porep:2KiB"},
        {"wpost-512m", "wpost-512m", "window-post:512MiB"},
        {"window-post:8MiB", "wpost-8m", "window-post:8MiB"},
        {"winning-64g", "winning-64g", "winning-post:64GiB"},
        {"winning-post:2KiB", "winning-2k", "winning-post:2KiB"},
        {"snap-32g", "snap-32g", "snap:32GiB"},
        {"snap:64GiB", "snap-64g", "snap:64GiB"},
        {"ni-porep-32g", "ni-porep-32g", ""},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char id[64] = "", family[64] = "";
        CHECK(cuzk_filecoin_circuit_spellings(ok[i].in, id, family));
        CHECK(!strcmp(id, ok[i].id) && !strcmp(family, ok[i].family));
    }
    static const char *const bad[] = {
        "porep-32",    "porep-32gb", "porep:32g",  "porep-0g",       "porep:32GiBx",
        "random:1024", "wpost-",     "porep-g",    "ni-porep:32GiB", "",
        "porep-32G",   "snap:2kib",  "porep--32g", "porep-1k2g",     "porep-99999999999g"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char id[64] = "untouched", family[64] = "untouched";
        CHECK(!cuzk_filecoin_circuit_spellings(bad[i], id, family));
        CHECK(!strcmp(id, "untouched") && !strcmp(family, "untouched"));
    }
}

int main(void)
{
    test_circuit_spellings();
    test_names_and_ids();
    test_param_names();
    test_find_params();
    return harness_finish("test_fil_registry");
}
