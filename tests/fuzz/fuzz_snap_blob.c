/* SnapDeals vanilla partition proofs (bincode PartitionProof). Input: one byte choosing the
 * RegisteredUpdateProof (mod 5), comm_r_old, comm_r_new and comm_d_new (32 bytes each), then
 * the blob. A blob that parses writes back to its own bytes; for proof types of one partition
 * the full parser then checks it natively against the commitments, which must not crash. */
#include <string.h>

#include "cuzk/filecoin_snap.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 97) return -1;
    cuzk_update_proof p = (cuzk_update_proof)(data[0] % CUZK_UPDATE_PROOF_COUNT);
    const uint8_t *r_old = data + 1, *r_new = data + 33, *d_new = data + 65, *blob = data + 97;
    size_t len = size - 97;
    cuzk_snap_proofs *owner;
    if (cuzk_snap_parse_blob(&owner, p, blob, len, 0)) return 0;
    const cuzk_snap_partition_proof *pp = cuzk_snap_partition(owner, 0);
    FUZZ_CHECK(pp != NULL, "no partition 0");
    uint8_t *back;
    size_t blen;
    FUZZ_CHECK(cuzk_snap_partition_write(pp, &back, &blen) == CUZK_OK, "write");
    FUZZ_CHECK(blen == len && !memcmp(back, blob, len), "parse -> write changed the bytes (%zu -> %zu)", len, blen);
    free(back);
    cuzk_snap_proofs_free(owner);
    const cuzk_update_proof_info *info = cuzk_update_proof_info_get(p);
    if (info->partitions == 1) {
        cuzk_snap_proofs *sp;
        const uint8_t *blobs[1] = {blob};
        size_t lens[1] = {len};
        if (cuzk_snap_parse(&sp, p, r_old, r_new, d_new, blobs, lens, 1) == CUZK_OK) {
            cuzk_fr in[4];
            FUZZ_CHECK(cuzk_snap_public_inputs(sp, 0, in, 4) == CUZK_OK, "public inputs");
            cuzk_snap_proofs_free(sp);
        }
    }
    return 0;
}
