/* Replica ids and PoRep challenges (storage-proofs-porep stacked/vanilla/params.rs and
 * challenges.rs).
 *
 * Every derivation ends the same way: 32 pseudo-random bytes read as a little-endian 256-bit
 * integer x, challenge = x mod (nodes - 1) + 1, so node 0 is never challenged. */
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/hash.h"

void cuzk_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                           const uint8_t comm_d[32], const uint8_t porep_id[32])
{
    uint8_t sid[8];
    for (int i = 0; i < 8; i++) sid[i] = (uint8_t)(sector_id >> (56 - 8 * i)); /* big-endian */
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    cuzk_sha256_update(&c, prover_id, 32);
    cuzk_sha256_update(&c, sid, 8);
    cuzk_sha256_update(&c, ticket, 32);
    cuzk_sha256_update(&c, comm_d, 32);
    cuzk_sha256_update(&c, porep_id, 32);
    cuzk_sha256_final(&c, out);
    out[31] &= 0x3f; /* bytes_into_fr_repr_safe */
}

void cuzk_prover_id_from_actor(uint8_t out[32], uint64_t actor_id)
{
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = actor_id & 0x7f;
        actor_id >>= 7;
        out[i++] = actor_id ? (uint8_t)(b | 0x80) : b;
    } while (actor_id);
}

/* x mod (nodes - 1) + 1 for the 256-bit little-endian x. */
static uint64_t to_challenge(const uint8_t x[32], uint64_t nodes)
{
    uint64_t m = nodes - 1, r = 0;
    for (int limb = 3; limb >= 0; limb--) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | x[8 * limb + i];
        r = (uint64_t)((((unsigned __int128)r << 64) | v) % m);
    }
    return r + 1;
}

static void u32_le(uint8_t out[4], uint32_t v)
{
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(v >> (8 * i));
}

void cuzk_porep_interactive_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                                       const uint8_t seed[32], unsigned k)
{
    for (size_t i = 0; i < count; i++) {
        uint8_t j[4], h[32];
        u32_le(j, (uint32_t)(count * k + i));
        cuzk_sha256_ctx c;
        cuzk_sha256_init(&c);
        cuzk_sha256_update(&c, replica_id, 32);
        cuzk_sha256_update(&c, seed, 32);
        cuzk_sha256_update(&c, j, 4);
        cuzk_sha256_final(&c, h);
        out[i] = to_challenge(h, nodes);
    }
}

void cuzk_porep_ni_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                              const uint8_t comm_r[32], unsigned k)
{
    static const char TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
    for (size_t i = 0; i < count; i++) {
        uint8_t j[4], h[32];
        u32_le(j, (uint32_t)(count * k + i));
        cuzk_sha256_ctx c;
        cuzk_sha256_init(&c);
        cuzk_sha256_update(&c, TAG, sizeof TAG - 1);
        cuzk_sha256_update(&c, replica_id, 32);
        cuzk_sha256_update(&c, comm_r, 32);
        cuzk_sha256_update(&c, j, 4);
        cuzk_sha256_final(&c, h);
        out[i] = to_challenge(h, nodes);
    }
}

/* ---------------------------------------------------------------- synthetic */
/* Both streams are IETF ChaCha20 with nonce "synth-porep\0", keyed by a 32-byte keyed Blake2b. */
static const uint8_t SYNTH_NONCE[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

static void synth_key(uint8_t out[32], const char *blake_key, const uint8_t a[32], const uint8_t b[32])
{
    cuzk_blake2b s;
    cuzk_blake2b_init(&s, 32, blake_key, strlen(blake_key));
    cuzk_blake2b_update(&s, a, 32);
    cuzk_blake2b_update(&s, b, 32);
    cuzk_blake2b_final(&s, out);
}

uint64_t cuzk_porep_synth_challenge_at(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                       uint64_t i)
{
    uint8_t key[32], x[32] = {0};
    synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
    /* challenge i is keystream bytes [32 i, 32 i + 32) */
    cuzk_chacha20_keystream(x, 32, key, SYNTH_NONCE, i * 32);
    return to_challenge(x, nodes);
}

void cuzk_porep_synth_challenges(uint64_t *out, size_t count, uint64_t nodes, uint64_t num_synth,
                                 const uint8_t replica_id[32], const uint8_t comm_r[32], const uint8_t seed[32],
                                 unsigned k)
{
    uint8_t sel_key[32], gen_key[32];
    synth_key(sel_key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
    synth_key(gen_key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
    for (size_t i = 0; i < count; i++) {
        /* index i of partition k: u32 LE at keystream byte 4 (k count + i), mod num_synth */
        uint8_t b[4] = {0};
        cuzk_chacha20_keystream(b, 4, sel_key, SYNTH_NONCE, ((uint64_t)k * count + i) * 4);
        uint64_t idx = ((uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24) % num_synth;
        uint8_t x[32] = {0};
        cuzk_chacha20_keystream(x, 32, gen_key, SYNTH_NONCE, idx * 32);
        out[i] = to_challenge(x, nodes);
    }
}

cuzk_status cuzk_porep_challenges(uint64_t *out, cuzk_seal_proof p, const uint8_t replica_id[32],
                                  const uint8_t comm_r[32], const uint8_t seed[32], unsigned k)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    if (k >= pi->partitions)
        return cuzk_fail(CUZK_EINVAL, "partition %u out of range: %s has %u partitions", k, pi->name, pi->partitions);
    if (!replica_id) return cuzk_fail(CUZK_EINVAL, "challenges need the replica id");
    switch (pi->challenges) {
    case CUZK_CHALLENGES_INTERACTIVE:
        if (!seed) return cuzk_fail(CUZK_EINVAL, "interactive challenges (%s) need the seed", pi->name);
        cuzk_porep_interactive_challenges(out, pi->challenges_per_partition, pi->nodes, replica_id, seed, k);
        return CUZK_OK;
    case CUZK_CHALLENGES_SYNTHETIC: {
        if (!seed || !comm_r)
            return cuzk_fail(CUZK_EINVAL, "synthetic challenges (%s) need the seed and comm_r", pi->name);
        uint64_t num_synth = pi->nodes < CUZK_SYNTH_CHALLENGE_COUNT ? pi->nodes : CUZK_SYNTH_CHALLENGE_COUNT;
        cuzk_porep_synth_challenges(out, pi->challenges_per_partition, pi->nodes, num_synth, replica_id, comm_r, seed,
                                    k);
        return CUZK_OK;
    }
    case CUZK_CHALLENGES_NI:
        if (!comm_r) return cuzk_fail(CUZK_EINVAL, "non-interactive challenges (%s) need comm_r", pi->name);
        cuzk_porep_ni_challenges(out, pi->challenges_per_partition, pi->nodes, replica_id, comm_r, k);
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_EINTERNAL, "unknown challenge kind");
}
