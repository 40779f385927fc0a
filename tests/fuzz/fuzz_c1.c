/* C1 JSON (SealCommitPhase1Output, raw or in its base64 wrapper). A C1 that parses has the
 * shapes its registered proof fixes (partitions, challenges, layers, 37 label parents, path
 * lengths); written out (serde's bytes; key order and spacing are free on input) and parsed
 * again it writes the same bytes; the vanilla checks run on what parses and must not crash. */
#include <string.h>

#include "cuzk/filecoin_c1.h"
#include "support.h"

static void check_shape(const cuzk_c1 *c1)
{
    const cuzk_seal_proof_info *info = c1->info;
    FUZZ_CHECK(info && c1->partitions == info->partitions &&
                   c1->challenges_per_partition == info->challenges_per_partition,
               "partitions %u x %u", c1->partitions, c1->challenges_per_partition);
    for (uint32_t k = 0; k < c1->partitions; k++)
        for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
            const cuzk_challenge_proof *cp = cuzk_c1_challenge(c1, k, i);
            FUZZ_CHECK(cp->c_x.nrows == info->layers && cp->nlabeling == info->layers, "rows %u, labeling %u",
                       cp->c_x.nrows, cp->nlabeling);
            for (uint32_t l = 0; l < cp->nlabeling; l++)
                FUZZ_CHECK(cp->labeling[l].nparents == 37, "labeling %u: %u parents", l, cp->labeling[l].nparents);
            FUZZ_CHECK(cp->encoding.nparents == 37, "encoding: %u parents", cp->encoding.nparents);
            FUZZ_CHECK(cp->comm_d_proof.nbase == info->tree_d_depth, "comm_d path of %u", cp->comm_d_proof.nbase);
            FUZZ_CHECK(cp->comm_r_last_proof.nbase == info->base_path_len, "comm_r_last base path of %u",
                       cp->comm_r_last_proof.nbase);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_c1 *c1;
    int64_t num;
    uint64_t ssize;
    if (cuzk_c1_parse_any(&c1, data, size, &num, &ssize)) {
        FUZZ_CHECK(c1 == NULL, "a refused C1 left an object");
        return 0;
    }
    check_shape(c1);
    uint8_t *w1, *w2;
    size_t l1, l2;
    FUZZ_CHECK(cuzk_c1_write(c1, &w1, &l1) == CUZK_OK, "write");
    (void)cuzk_c1_verify(c1, NULL, 0);
    cuzk_c1_free(c1);
    FUZZ_CHECK(cuzk_c1_parse(&c1, w1, l1) == CUZK_OK, "own output refused");
    check_shape(c1);
    FUZZ_CHECK(cuzk_c1_write(c1, &w2, &l2) == CUZK_OK, "write");
    FUZZ_CHECK(l1 == l2 && !memcmp(w1, w2, l1), "write -> parse -> write changed the bytes");
    cuzk_c1_free(c1);
    free(w1);
    free(w2);
    return 0;
}
