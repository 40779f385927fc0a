/* A job request before it becomes a job: its checks (a malformed request fails the call, with
 * nothing queued) and its digest, which with the request id is the job's identity.
 *
 * Why a digest: Curio reuses request ids for different work (every WindowPoSt partition of a
 * deadline is sent as wdpost-<miner>-0-<randomness>; a PoRep retried after a reseal keeps
 * porep-<miner>-<sector>), so an id alone cannot say whether a request is a retry of the same
 * proof. The digest covers everything that decides the proof (kind, registered proof, sector,
 * miner, every input byte, the PoSt and SnapDeals fields, a PoSt job's public sectors) and
 * nothing that does not (the priority): equal digests prove the same statement from the same
 * witness data. */
#include <string.h>

#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/hash.h"
#include "engine_internal.h"

/* A PoSt request's registered proof: a RegisteredPoStProof of its kind, of its sector size when
 * given, with its randomness; WinningPoSt has one partition. */
static cuzk_status check_post(const cuzk_job_request *req)
{
    bool window = req->kind == CUZK_KIND_WINDOW_POST;
    if (!req->has_registered_proof)
        return cuzk_fail(CUZK_EINVAL, "registered_proof: a %s job names its RegisteredPoStProof",
                         cuzk_kind_name(req->kind));
    const cuzk_post_proof_info *info = req->registered_proof < CUZK_POST_PROOF_COUNT
        ? cuzk_post_proof_info_get((cuzk_post_proof)req->registered_proof)
        : NULL;
    cuzk_clear_error();
    if (!info || (info->kind == CUZK_POST_WINDOW) != window)
        return cuzk_fail(CUZK_EINVAL, "registered_proof: %llu is not a %s RegisteredPoStProof (%s)",
                         (unsigned long long)req->registered_proof, window ? "WindowPoSt" : "WinningPoSt",
                         window ? "5..9, 10..14" : "0..4");
    if (req->sector_size && req->sector_size != info->sector_size)
        return cuzk_fail(CUZK_EINVAL, "sector_size: %llu, but registered_proof %llu (%s) is for %llu-byte sectors",
                         (unsigned long long)req->sector_size, (unsigned long long)req->registered_proof, info->name,
                         (unsigned long long)info->sector_size);
    if (!req->randomness) return cuzk_fail(CUZK_EINVAL, "randomness: a PoSt job needs its 32-byte randomness");
    if (!window && req->partition_index)
        return cuzk_fail(CUZK_EINVAL, "partition_index: %u, but WinningPoSt has one partition", req->partition_index);
    return CUZK_OK;
}

/* A SnapDeals request's registered proof: a RegisteredUpdateProof of its sector size when given,
 * with the three commitments. */
static cuzk_status check_snap(const cuzk_job_request *req)
{
    if (!req->has_registered_proof)
        return cuzk_fail(CUZK_EINVAL, "registered_proof: a SnapDeals job names its RegisteredUpdateProof");
    const cuzk_update_proof_info *info =
        req->registered_proof < 64 ? cuzk_update_proof_info_get((cuzk_update_proof)req->registered_proof) : NULL;
    cuzk_clear_error();
    if (!info)
        return cuzk_fail(CUZK_EINVAL, "registered_proof: %llu is not a RegisteredUpdateProof (0..4)",
                         (unsigned long long)req->registered_proof);
    if (req->sector_size && req->sector_size != info->sector_size)
        return cuzk_fail(CUZK_EINVAL, "sector_size: %llu, but registered_proof %llu (%s) is for %llu-byte sectors",
                         (unsigned long long)req->sector_size, (unsigned long long)req->registered_proof, info->name,
                         (unsigned long long)info->sector_size);
    if (!req->comm_r_old || !req->comm_r_new || !req->comm_d_new)
        return cuzk_fail(CUZK_EINVAL, "%s: a SnapDeals job needs comm_r_old, comm_r_new and comm_d_new",
                         !req->comm_r_old       ? "comm_r_old"
                             : !req->comm_r_new ? "comm_r_new"
                                                : "comm_d_new");
    return CUZK_OK;
}

static bool carries_blobs(cuzk_job_kind k)
{
    return k == CUZK_KIND_WINDOW_POST || k == CUZK_KIND_WINNING_POST || k == CUZK_KIND_SNAP;
}

size_t engine_request_input_bytes(const cuzk_job_request *req)
{
    return carries_blobs(req->kind) ? cuzk_blobs_packed_size(req->blob_lens, req->nblobs) : req->input_len;
}

bool engine_request_keeps_input(const cuzk_job_request *req) { return req->kind != CUZK_KIND_POREP; }

void engine_request_copy_input(const cuzk_job_request *req, uint8_t *dst)
{
    if (carries_blobs(req->kind)) cuzk_blobs_pack_into(dst, req->blobs, req->blob_lens, req->nblobs);
    else if (req->input_len) memcpy(dst, req->input, req->input_len);
}

/* Where the input is: a PoRep's C1 or a circuit job's bytes in input, a PoSt's or SnapDeals'
 * vanilla proofs in blobs; the other field empty, no pointer NULL with a length. */
static cuzk_status check_input_fields(const cuzk_job_request *req)
{
    const char *kind = cuzk_kind_name(req->kind);
    if (req->input_len && !req->input) return cuzk_fail(CUZK_EINVAL, "input: NULL with a length");
    if (!carries_blobs(req->kind)) {
        if (req->nblobs || req->blobs)
            return cuzk_fail(CUZK_EINVAL, "vanilla_proofs: a %s job takes its input whole, not as blobs", kind);
        if (req->kind != CUZK_KIND_CIRCUIT && !req->input_len)
            return cuzk_fail(CUZK_EINVAL, "input: empty (a %s job needs its vanilla proof)", kind);
        return CUZK_OK;
    }
    if (req->input || req->input_len)
        return cuzk_fail(CUZK_EINVAL, "input: a %s job carries its vanilla proofs as blobs, not as input", kind);
    if (!req->nblobs) return cuzk_fail(CUZK_EINVAL, "vanilla_proofs: none (a %s job needs its vanilla proofs)", kind);
    if (!req->blobs || !req->blob_lens)
        return cuzk_fail(CUZK_EINVAL, "vanilla_proofs: %zu blobs, but the blobs or their lengths are NULL",
                         req->nblobs);
    for (size_t i = 0; i < req->nblobs; i++)
        if (req->blob_lens[i] && !req->blobs[i])
            return cuzk_fail(CUZK_EINVAL, "vanilla_proofs[%zu]: NULL with %zu bytes", i, req->blob_lens[i]);
    return CUZK_OK;
}

cuzk_status cuzk_engine_check_request(const cuzk_engine *e, const cuzk_job_request *req)
{
    if (cuzk_kind_index(req->kind) < 0)
        return cuzk_fail(CUZK_EINVAL, "proof_kind: unknown kind %d (1 PoRep, 2 SnapDeals, 3 WindowPoSt, 4 WinningPoSt)",
                         (int)req->kind);
    if ((unsigned)req->priority > CUZK_PRIORITY_CRITICAL)
        return cuzk_fail(CUZK_EINVAL, "priority: unknown value %d (0..4)", (int)req->priority);
    cuzk_status st = check_input_fields(req);
    if (st) return st;
    size_t bytes = engine_request_input_bytes(req);
    const char *field = carries_blobs(req->kind) ? "vanilla_proofs" : "input";
    if (bytes == SIZE_MAX)
        return cuzk_fail(CUZK_EINVAL, "%s: %zu blobs whose lengths overflow a size", field, req->nblobs);
    if (e && bytes > e->cfg.max_input_bytes)
        return cuzk_fail(CUZK_EINVAL, "%s: %zu bytes, more than the %llu the engine accepts (engine.max_input_bytes)",
                         field, bytes, (unsigned long long)e->cfg.max_input_bytes);
    if (req->kind == CUZK_KIND_CIRCUIT && (!req->circuit || !req->circuit[0]))
        return cuzk_fail(CUZK_EINVAL, "circuit: a circuit job names a registered circuit");
    if (req->kind == CUZK_KIND_CIRCUIT && req->partitions > 100000)
        return cuzk_fail(CUZK_EINVAL, "partitions: %u, at most 100000", req->partitions);
    bool post = req->kind == CUZK_KIND_WINDOW_POST || req->kind == CUZK_KIND_WINNING_POST;
    if (req->post_nsectors && !post)
        return cuzk_fail(CUZK_EINVAL, "post_sectors: a %s job has no public sector list", cuzk_kind_name(req->kind));
    if (req->post_nsectors && (!req->post_sector_ids || !req->post_comm_rs))
        return cuzk_fail(CUZK_EINVAL, "post_sectors: %zu sectors, but their ids or comm_r are NULL",
                         req->post_nsectors);
    if (req->request_id &&
        cuzk_check_client_id("request_id", req->request_id, strlen(req->request_id), CUZK_REQUEST_ID_MAX))
        return CUZK_EINVAL;
    if (post) return check_post(req);
    if (req->kind == CUZK_KIND_SNAP) return check_snap(req);
    return CUZK_OK;
}

static void put_u64(cuzk_sha256_ctx *c, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    cuzk_sha256_update(c, b, sizeof b);
}

/* A field of n bytes (NULL: absent, which differs from any value, all zero included). */
static void put_bytes(cuzk_sha256_ctx *c, const void *p, size_t n)
{
    put_u64(c, p ? (uint64_t)n : UINT64_MAX);
    if (p && n) cuzk_sha256_update(c, p, n);
}

void engine_request_digest(const cuzk_job_request *req, uint8_t out[32])
{
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    static const char tag[] = "cuzk job request digest v1";
    cuzk_sha256_update(&c, tag, sizeof tag);
    put_u64(&c, (uint64_t)req->kind);
    put_u64(&c, req->has_registered_proof);
    put_u64(&c, req->registered_proof);
    put_u64(&c, req->sector_number);
    put_u64(&c, req->sector_size);
    put_u64(&c, req->miner_id);
    put_u64(&c, req->partition_index);
    put_bytes(&c, req->randomness, 32);
    put_u64(&c, req->post_nsectors);
    for (size_t i = 0; i < req->post_nsectors; i++) put_u64(&c, req->post_sector_ids[i]);
    if (req->post_nsectors) cuzk_sha256_update(&c, req->post_comm_rs, req->post_nsectors * 32);
    put_bytes(&c, req->comm_r_old, 32);
    put_bytes(&c, req->comm_r_new, 32);
    put_bytes(&c, req->comm_d_new, 32);
    put_bytes(&c, req->circuit, req->circuit ? strlen(req->circuit) : 0);
    put_u64(&c, req->partitions ? req->partitions : 1);
    put_u64(&c, req->seed);
    put_bytes(&c, req->input, req->input_len);
    put_u64(&c, req->nblobs); /* each blob with its length: no two lists of blobs hash alike */
    for (size_t i = 0; i < req->nblobs; i++)
        put_bytes(&c, req->blobs[i] ? req->blobs[i] : (const uint8_t *)"", req->blob_lens[i]);
    cuzk_sha256_final(&c, out);
}
