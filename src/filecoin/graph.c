/* The StackedDRG graph: BucketGraph DRG parents (storage-proofs-core drgraph.rs) and Feistel
 * expander parents (storage-proofs-porep stacked/vanilla/graph.rs, storage-proofs-core
 * crypto/feistel.rs).
 *
 * DRG. Node v >= 2 draws 5 parents from a ChaCha8 stream keyed by drg_seed || v (u32 LE): in
 * the "metagraph" of v * 5 nodes, each draw picks a bucket b = (u64 % ceil(log2(v * 5))) + 1,
 * then a distance in [max(2, min(v*5, 2^b) / 2), min(v*5, 2^b)], and maps the metagraph
 * parent back by dividing by 5 (a self reference becomes v - 1). The sixth parent is the
 * predecessor v - 1: first for V1_1+, last for V1_0 (where the draws fill slots 0..4).
 *
 * Expander. Parent i of node v is feistel_permute(nodes * 8, v * 8 + i) / 8, a 3-round Feistel
 * network over the smallest even number of bits covering nodes * 8, round function
 * Blake2b-512(right u64 BE || key u64 BE)[0..8] as a u64 BE, cycle-walked until the result
 * is in range. V1_0 truncates the permuted value to 32 bits before dividing. */
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/hash.h"

static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32])
{
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    cuzk_sha256_update(&c, tag, strlen(tag));
    cuzk_sha256_update(&c, porep_id, 32);
    cuzk_sha256_final(&c, out);
}

cuzk_status cuzk_porep_graph_init(cuzk_porep_graph *g, uint64_t nodes, const uint8_t porep_id[32], cuzk_api_version api)
{
    memset(g, 0, sizeof *g);
    if (nodes < 4 || nodes > (1ULL << 31) || (nodes & (nodes - 1)) != 0)
        return cuzk_fail(CUZK_EINVAL, "graph size %llu is not a power of two in [4, 2^31]", (unsigned long long)nodes);
    if ((unsigned)api > CUZK_API_V1_2_0) return cuzk_fail(CUZK_EINVAL, "unknown api version %d", (int)api);
    g->nodes = nodes;
    g->api_version = api;
    uint8_t seed[32];
    domain_seed(seed, "Filecoin_DRSample", porep_id);
    memcpy(g->drg_seed, seed, 28);
    domain_seed(seed, "Filecoin_Feistel", porep_id);
    for (int k = 0; k < 4; k++) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | seed[8 * k + i];
        g->feistel_keys[k] = v;
    }
    /* feistel::precompute(nodes * 8): the smallest power of 4 >= n (at least 4) gives the
     * half width in bits */
    uint64_t n = nodes * CUZK_POREP_EXP_PARENTS, next_pow4 = 4, log4 = 1;
    while (next_pow4 < n) {
        next_pow4 *= 4;
        log4++;
    }
    g->feistel_left_mask = ((1ULL << log4) - 1) << log4;
    g->feistel_right_mask = (1ULL << log4) - 1;
    g->feistel_half_bits = log4;
    return CUZK_OK;
}

cuzk_status cuzk_porep_graph_for_proof(cuzk_porep_graph *g, cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    uint8_t porep_id[32];
    cuzk_seal_proof_porep_id(porep_id, p);
    return cuzk_porep_graph_init(g, pi->nodes, porep_id, pi->api_version);
}

void cuzk_porep_drg_parents(const cuzk_porep_graph *g, uint32_t node, uint32_t parents[CUZK_POREP_DRG_PARENTS])
{
    if (node < 2 || node >= g->nodes) {
        /* node 0 references itself, node 1 only node 0 (out of range: the same, harmlessly) */
        memset(parents, 0, CUZK_POREP_DRG_PARENTS * sizeof parents[0]);
        return;
    }
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++) seed[28 + i] = (uint8_t)(node >> (8 * i));
    cuzk_chacha8_rng rng;
    cuzk_chacha8_rng_init(&rng, seed);

    const uint64_t m_prime = CUZK_POREP_DRG_PARENTS - 1;
    uint64_t meta = (uint64_t)node * m_prime;
    /* ceil(log2(meta)) computed exactly; the Rust code goes through f64, which is exact here
     * because meta < 2^54 and log2 of a non-power of two is far from an integer at this size */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    uint32_t *draws = g->api_version == CUZK_API_V1_0_0 ? parents : parents + 1;
    for (uint64_t k = 0; k < m_prime; k++) {
        uint64_t bucket = cuzk_chacha8_rng_u64(&rng) % n_buckets + 1;
        uint64_t largest = meta < (1ULL << bucket) ? meta : (1ULL << bucket);
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t n_dist = largest - smallest + 1;
        uint64_t distance = smallest + cuzk_chacha8_rng_u64(&rng) % n_dist;
        uint32_t mapped = (uint32_t)((meta - distance) / m_prime);
        draws[k] = mapped == node ? node - 1 : mapped;
    }
    parents[g->api_version == CUZK_API_V1_0_0 ? m_prime : 0] = node - 1;
}

/* Round function F(right, key): Blake2b-512 of right and key as big-endian u64s, the first 8
 * digest bytes read big-endian, masked to the half width. */
static uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t data[16], h[64];
    for (int i = 0; i < 8; i++) {
        data[i] = (uint8_t)(right >> (56 - 8 * i));
        data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    cuzk_blake2b_512(h, data, 16);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) r = (r << 8) | h[i];
    return r & mask;
}

static uint64_t feistel_encode(const cuzk_porep_graph *g, uint64_t index)
{
    uint64_t left = (index & g->feistel_left_mask) >> g->feistel_half_bits;
    uint64_t right = index & g->feistel_right_mask;
    for (int r = 0; r < 3; r++) { /* FEISTEL_ROUNDS = 3: keys[3] is never used */
        uint64_t nl = right, nr = left ^ feistel_round(right, g->feistel_keys[r], g->feistel_right_mask);
        left = nl;
        right = nr;
    }
    return (left << g->feistel_half_bits) | right;
}

void cuzk_porep_exp_parents(const cuzk_porep_graph *g, uint32_t node, uint32_t parents[CUZK_POREP_EXP_PARENTS])
{
    uint64_t n = g->nodes * CUZK_POREP_EXP_PARENTS;
    for (uint64_t i = 0; i < CUZK_POREP_EXP_PARENTS; i++) {
        uint64_t u = feistel_encode(g, (uint64_t)node * CUZK_POREP_EXP_PARENTS + i);
        /* cycle-walk: the Feistel domain is a power of 4, possibly larger than n */
        while (u >= n) u = feistel_encode(g, u);
        if (g->api_version == CUZK_API_V1_0_0) parents[i] = (uint32_t)u / CUZK_POREP_EXP_PARENTS;
        else parents[i] = (uint32_t)(u / CUZK_POREP_EXP_PARENTS);
    }
}
