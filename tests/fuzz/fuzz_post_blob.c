/* PoSt vanilla proof blobs (bincode FallbackPoStSectorProof). Input: one byte choosing the
 * RegisteredPoStProof (mod 15), 32 bytes of randomness, then the blob. A blob that parses has
 * exactly the proof type's length and shape and writes back to its own bytes; then the
 * partition parser checks it natively (paths, comm_r, challenges), which must not crash and,
 * when it accepts, leaves public inputs of the proof type's count. */
#include <string.h>

#include "cuzk/filecoin_post.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 33) return -1;
    cuzk_post_proof p = (cuzk_post_proof)(data[0] % CUZK_POST_PROOF_COUNT);
    const uint8_t *rnd = data + 1, *blob = data + 33;
    size_t len = size - 33;
    const cuzk_post_proof_info *info = cuzk_post_proof_info_get(p);
    cuzk_post_sector_proof *sp;
    if (cuzk_post_sector_proof_parse(&sp, p, 0, blob, len)) return 0;
    FUZZ_CHECK(len == cuzk_post_sector_proof_bytes(p), "accepted %zu bytes, the shape has %zu", len,
               cuzk_post_sector_proof_bytes(p));
    FUZZ_CHECK(sp->nproofs == info->proofs_per_blob, "%u inclusion proofs, %u expected", sp->nproofs,
               info->proofs_per_blob);
    uint8_t *back;
    size_t blen;
    FUZZ_CHECK(cuzk_post_sector_proof_write(sp, p, &back, &blen) == CUZK_OK, "write");
    FUZZ_CHECK(blen == len && !memcmp(back, blob, len), "parse -> write changed the bytes");
    free(back);
    cuzk_post_sector_proof_free(sp);
    cuzk_post_partition *pp;
    const uint8_t *blobs[1] = {blob};
    size_t lens[1] = {len};
    if (cuzk_post_partition_parse(&pp, p, rnd, 0, NULL, blobs, lens, 1) == CUZK_OK) {
        size_t n = cuzk_post_partition_num_inputs(pp);
        FUZZ_CHECK(n == cuzk_post_proof_num_inputs(p), "%zu public inputs", n);
        cuzk_fr *in = calloc(n, sizeof *in);
        FUZZ_CHECK(cuzk_post_partition_public_inputs(pp, in, n) == CUZK_OK, "public inputs");
        free(in);
        cuzk_post_partition_free(pp);
    }
    return 0;
}
