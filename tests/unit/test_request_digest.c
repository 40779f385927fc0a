/* A job's identity is its request id and the digest of what it proves (engine_request.c): the
 * digest changes with each field that decides the proof (kind, registered proof, sector, miner,
 * partition, randomness, the SnapDeals commitments, the input bytes, a PoSt job's public sector
 * ids and comm_r) and not with the priority. */
#include <string.h>

#include "engine/engine_internal.h"
#include "harness.h"

static const uint8_t blob_bytes[4] = {1, 2, 3, 4};
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
    r.input = blob_bytes;
    r.input_len = sizeof blob_bytes;
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
    b = base();
    static const uint8_t other_blob[4] = {1, 2, 3, 5};
    b.input = other_blob;
    CHECK(differs(&a, &b));
    b = base();
    b.input_len = 3;
    CHECK(differs(&a, &b));
    return harness_finish("test_request_digest");
}
