/* The native SnapDeals derivations (storage-proofs-update vanilla.rs phi / rho, challenges.rs,
 * circuit.rs PublicInputs): what a verifier computes from public data. */
#include <string.h>

#include "cuzk/hash.h"
#include "snap_internal.h"

cuzk_status snap_hash_custom(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b)
{
    cuzk_fr tag, pre[2] = {*a, *b};
    cuzk_status st = cuzk_poseidon_custom_tag(&tag, CUZK_SNAP_POSEIDON_CUSTOM_ID);
    return st ? st : cuzk_poseidon_hash_tagged(out, 2, &tag, pre);
}

static cuzk_status canonical(cuzk_fr *out, const uint8_t b[32], const char *what)
{
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        return cuzk_fail(CUZK_EINVAL, "%s is not a canonical field element", what);
    return CUZK_OK;
}

cuzk_status cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32], const uint8_t comm_r_old[32])
{
    cuzk_fr d, r;
    cuzk_status st = canonical(&d, comm_d_new, "comm_d_new");
    if (!st) st = canonical(&r, comm_r_old, "comm_r_old");
    return st ? st : snap_hash_custom(phi, &d, &r);
}

cuzk_status cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint32_t high)
{
    cuzk_fr h;
    cuzk_fr_from_u64(&h, high);
    return snap_hash_custom(rho, phi, &h);
}

/* Challenges::new(sector_nodes, comm_r_new, k): digest d = k * digests + j hashed with
 * comm_r_new; each digest's little-endian bits give per_digest challenges of rbits bits; the
 * partition index is put above them. */
cuzk_status cuzk_snap_challenges(uint32_t *out, const cuzk_snap_shape *s, const uint8_t comm_r_new[32], unsigned k)
{
    if (k >= s->partitions) return cuzk_fail(CUZK_EINVAL, "partition %u of %u", k, s->partitions);
    cuzk_fr cr;
    cuzk_status st = canonical(&cr, comm_r_new, "comm_r_new");
    if (st) return st;
    const unsigned rbits = s->challenge_bits - s->partition_bits;
    const unsigned per_digest = 254 / rbits;
    const unsigned digests = (s->challenges + per_digest - 1) / per_digest;
    unsigned i = 0;
    for (unsigned j = 0; j < digests && i < s->challenges; j++) {
        cuzk_fr idx, digest;
        cuzk_fr_from_u64(&idx, (uint64_t)k * digests + j);
        if ((st = snap_hash_custom(&digest, &cr, &idx)) != CUZK_OK) return st;
        uint8_t le[32];
        cuzk_fr_to_bytes_le(le, &digest);
        for (unsigned c = 0; c < per_digest && i < s->challenges; c++, i++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < rbits; b++) {
                unsigned bit = c * rbits + b;
                v |= (uint32_t)((le[bit / 8] >> (bit % 8)) & 1) << b;
            }
            out[i] = v | ((uint32_t)k << rbits);
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_public_inputs_for(cuzk_fr *out, size_t cap, cuzk_update_proof p, unsigned k,
                                        const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                        const uint8_t comm_r_new[32])
{
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    if (cap < 4) return cuzk_fail(CUZK_EINVAL, "snap public inputs: room for %zu of 4", cap);
    cuzk_snap_shape s;
    uint64_t khs;
    cuzk_status st = cuzk_snap_shape_for_proof(&s, p);
    if (!st) st = cuzk_snap_k_and_h_select(&khs, &s, k, pi->h);
    if (!st) st = canonical(&out[1], comm_r_old, "comm_r_old");
    if (!st) st = canonical(&out[2], comm_d_new, "comm_d_new");
    if (!st) st = canonical(&out[3], comm_r_new, "comm_r_new");
    if (st) return st;
    cuzk_fr_from_u64(&out[0], khs);
    return CUZK_OK;
}
