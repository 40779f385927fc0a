/* A job's identity is its request id and the digest of what it proves (engine_request.c): the
 * digest changes with each field that decides the proof (kind, registered proof, sector, miner,
 * partition, randomness, the SnapDeals commitments, the input bytes or each blob's, a PoSt job's
 * public sector ids and comm_r) and not with the priority. */
#include <string.h>

#include "engine/engine_internal.h"
#include "harness.h"

static const uint8_t blob_bytes[4] = {1, 2, 3, 4}, blob2_bytes[2] = {9, 8};
static const uint8_t *const blobs_a[2] = {blob_bytes, blob2_bytes};
static const size_t lens_a[2] = {4, 2};
static const uint8_t rand_a[32] = {7}, rand_b[32] = {8};
static const uint64_t ids_a[2] = {21, 22}, ids_b[2] = {21, 23};
static uint8_t comm_a[64], comm_b[64];

static cuzk_job_request base(void)
{
    cuzk_job_request r = {0};
    r.request_id = "wdpost-1000-0-abcd";
    r.kind = CUZK_KIND_WINDOW_POST;
    r.has_registered_proof = true;
    r.registered_proof = 8;
    r.sector_number = 0;
    r.miner_id = 1000;
    r.partition_index = 0;
    r.randomness = rand_a;
    r.blobs = blobs_a;
    r.blob_lens = lens_a;
    r.nblobs = 2;
    r.post_sector_ids = ids_a;
    r.post_comm_rs = comm_a;
    r.post_nsectors = 2;
    return r;
}

static bool differs(const cuzk_job_request *a, const cuzk_job_request *b)
{
    uint8_t da[32], db[32];
    engine_request_digest(a, da);
    engine_request_digest(b, db);
    return memcmp(da, db, 32) != 0;
}

int main(void)
{
    memset(comm_b, 0, sizeof comm_b);
    comm_b[40] = 1;
    const cuzk_job_request a = base();
    cuzk_job_request b = base();
    CHECK(!differs(&a, &b));
    b.priority = CUZK_PRIORITY_CRITICAL; /* not part of what is proved */
    CHECK(!differs(&a, &b));
    b.request_id = "another id"; /* the id is beside the digest, not in it */
    CHECK(!differs(&a, &b));

    b = base();
    b.post_sector_ids = ids_b;
    CHECK(differs(&a, &b));
    b = base();
    b.post_comm_rs = comm_b;
    CHECK(differs(&a, &b));
    b = base();
    b.post_nsectors = 0; /* no public list: the blobs' own sectors */
    b.post_sector_ids = NULL;
    b.post_comm_rs = NULL;
    CHECK(differs(&a, &b));
    b = base();
    b.randomness = rand_b;
    CHECK(differs(&a, &b));
    b = base();
    b.partition_index = 1;
    CHECK(differs(&a, &b));
    b = base();
    b.miner_id = 1001;
    CHECK(differs(&a, &b));
    b = base();
    b.registered_proof = 13;
    CHECK(differs(&a, &b));
    b = base();
    b.kind = CUZK_KIND_WINNING_POST;
    CHECK(differs(&a, &b));
    /* every byte of every blob, and where one blob ends: the same bytes cut another way differ */
    b = base();
    static const uint8_t other_blob[4] = {1, 2, 3, 5};
    const uint8_t *const blobs_b[2] = {other_blob, blob2_bytes};
    b.blobs = blobs_b;
    CHECK(differs(&a, &b));
    b = base();
    const size_t lens_b[2] = {3, 2};
    b.blob_lens = lens_b;
    CHECK(differs(&a, &b));
    b = base();
    b.nblobs = 1;
    CHECK(differs(&a, &b));
    static const uint8_t joined[6] = {1, 2, 3, 4, 9, 8}, head[3] = {1, 2, 3}, tail[3] = {4, 9, 8};
    const uint8_t *const one[1] = {joined}, *const cut[2] = {head, tail};
    const size_t one_len[1] = {6}, cut_lens[2] = {3, 3};
    b = base();
    b.blobs = one;
    b.blob_lens = one_len;
    b.nblobs = 1;
    cuzk_job_request c = base();
    c.blobs = cut;
    c.blob_lens = cut_lens;
    CHECK(differs(&a, &b) && differs(&b, &c) && differs(&a, &c));
    /* a PoRep's C1: every byte */
    b = base();
    b.kind = CUZK_KIND_POREP;
    b.nblobs = 0;
    b.input = blob_bytes;
    b.input_len = 4;
    c = b;
    c.input = other_blob;
    CHECK(differs(&b, &c));
    c = b;
    c.input_len = 3;
    CHECK(differs(&b, &c));
    return harness_finish("test_request_digest");
}
