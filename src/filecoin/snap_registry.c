/* The registry of RegisteredUpdateProof (rust-filecoin-proofs-api registry.rs) with the
 * EmptySectorUpdate configuration of storage-proofs-update constants.rs, the shapes of
 * upstream's test sizes, and the official parameter file names (parameter_cache.rs: the
 * files are v28-<cache prefix>-<hex sha256(identifier)>, the cache prefix
 * "empty-sector-update-" followed by the TreeR display, the identifier naming only the sector's
 * node count).
 *
 * Where the numbers come from (constants.rs): partitions 1 up to 8 KiB, 2 up to 32 KiB, 4 up
 * to 16 MiB, else 16; challenges 10 up to 16 MiB, else 86; hs = [1; 6] up to 32 KiB, else
 * [7, 8, 9, 10, 11, 12], h = hs[3]; apex leaves 8 up to 8 KiB, else 128; TreeR shapes per size
 * as validate_tree_r_shape lists them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "params_internal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/hash.h"

#define PARAM_VERSION 28

#define HS_TEST          \
    {                    \
        1, 1, 1, 1, 1, 1 \
    }
#define HS_PROD             \
    {                       \
        7, 8, 9, 10, 11, 12 \
    }
#define ENTRY(ID, NAME, LOG2N, PARTS, CH, HS, H, APEX, SUB, TOP, LEVELS, SEAL)                                        \
    {                                                                                                                 \
        ID, NAME, (1ULL << (LOG2N)) * 32, 1ULL << (LOG2N), PARTS, CH, HS, H, APEX, {8, LEVELS, SUB, TOP}, LOG2N, SEAL \
    }

/* TreeR base levels: log8(nodes / (sub * top)). */
static const cuzk_update_proof_info REGISTRY[CUZK_UPDATE_PROOF_COUNT] = {
    ENTRY(CUZK_UPDATE_2KIB_V1, "StackedDrg2KiBV1", 6, 1, 10, HS_TEST, 1, 8, 0, 0, 2, CUZK_SEAL_2KIB_V1_1),
    ENTRY(CUZK_UPDATE_8MIB_V1, "StackedDrg8MiBV1", 18, 4, 10, HS_PROD, 10, 128, 0, 0, 6, CUZK_SEAL_8MIB_V1_1),
    ENTRY(CUZK_UPDATE_512MIB_V1, "StackedDrg512MiBV1", 24, 16, 86, HS_PROD, 10, 128, 0, 0, 8, CUZK_SEAL_512MIB_V1_1),
    ENTRY(CUZK_UPDATE_32GIB_V1, "StackedDrg32GiBV1", 30, 16, 86, HS_PROD, 10, 128, 8, 0, 9, CUZK_SEAL_32GIB_V1_1),
    ENTRY(CUZK_UPDATE_64GIB_V1, "StackedDrg64GiBV1", 31, 16, 86, HS_PROD, 10, 128, 8, 2, 9, CUZK_SEAL_64GIB_V1_1),
};

/* ---------------------------------------------------------------- constants.rs */
static unsigned partition_count(uint64_t nodes)
{
    return nodes <= (1u << 8) ? 1 : nodes <= (1u << 10) ? 2 : nodes <= (1u << 19) ? 4 : 16;
}
static unsigned challenge_count(uint64_t nodes) { return nodes <= (1u << 19) ? 10 : 86; }
static unsigned apex_leaf_count(uint64_t nodes) { return nodes <= (1u << 8) ? 8 : 128; }
static void hs_for(uint64_t nodes, unsigned hs[CUZK_SNAP_HS])
{
    for (unsigned i = 0; i < CUZK_SNAP_HS; i++) hs[i] = nodes <= (1u << 10) ? 1 : 7 + i;
}
static unsigned log2_u64(uint64_t x)
{
    unsigned k = 0;
    while (x > 1) x >>= 1, k++;
    return k;
}

const cuzk_update_proof_info *cuzk_update_proof_info_get(cuzk_update_proof p)
{
    if ((unsigned)p >= CUZK_UPDATE_PROOF_COUNT) {
        cuzk_fail(CUZK_EINVAL, "unknown registered update proof %d", (int)p);
        return NULL;
    }
    return &REGISTRY[p];
}

cuzk_status cuzk_update_proof_from_name(cuzk_update_proof *out, const char *name, size_t len)
{
    for (unsigned i = 0; i < CUZK_UPDATE_PROOF_COUNT; i++)
        if (strlen(REGISTRY[i].name) == len && !memcmp(REGISTRY[i].name, name, len)) {
            *out = (cuzk_update_proof)i;
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EUNSUPPORTED, "unknown registered update proof '%.*s'", (int)(len > 64 ? 64 : len), name);
}

cuzk_status cuzk_update_proof_for_sector_size(cuzk_update_proof *out, uint64_t sector_size)
{
    for (unsigned i = 0; i < CUZK_UPDATE_PROOF_COUNT; i++)
        if (REGISTRY[i].sector_size == sector_size) {
            *out = (cuzk_update_proof)i;
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EUNSUPPORTED, "no registered update proof for a sector of %llu bytes",
                     (unsigned long long)sector_size);
}

size_t cuzk_update_proof_num_inputs(cuzk_update_proof p) { return (unsigned)p < CUZK_UPDATE_PROOF_COUNT ? 4 : 0; }

/* ---------------------------------------------------------------- shapes */
static const struct {
    unsigned log2n, sub, top;
} ALLOWED[] = {
    {5, 4, 0},  {6, 0, 0},  {7, 2, 0},  {8, 4, 0},  {9, 8, 0},  {10, 8, 2},
    {18, 0, 0}, {19, 2, 0}, {24, 0, 0}, {30, 8, 0}, {31, 8, 2},
};

cuzk_status cuzk_snap_shape_for_nodes(cuzk_snap_shape *out, uint64_t nodes)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof ALLOWED / sizeof ALLOWED[0]; i++) {
        if (nodes != 1ULL << ALLOWED[i].log2n) continue;
        unsigned sub = ALLOWED[i].sub, top = ALLOWED[i].top;
        unsigned bits = ALLOWED[i].log2n - (sub ? log2_u64(sub) : 0) - (top ? log2_u64(top) : 0);
        out->nodes = nodes;
        out->challenge_bits = ALLOWED[i].log2n;
        out->partitions = partition_count(nodes);
        out->partition_bits = log2_u64(out->partitions);
        out->challenges = challenge_count(nodes);
        out->apex_leaves = apex_leaf_count(nodes);
        out->apex_bits = log2_u64(out->apex_leaves);
        hs_for(nodes, out->hs);
        out->tree_r = (cuzk_tree_shape){8, bits / 3, sub, top};
        return cuzk_tree_shape_check(&out->tree_r);
    }
    return cuzk_fail(CUZK_EINVAL, "%llu nodes is not a sector size of EmptySectorUpdate", (unsigned long long)nodes);
}

cuzk_status cuzk_snap_shape_for_proof(cuzk_snap_shape *out, cuzk_update_proof p)
{
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EINVAL;
    return cuzk_snap_shape_for_nodes(out, pi->nodes);
}

cuzk_status cuzk_snap_k_and_h_select(uint64_t *out, const cuzk_snap_shape *s, unsigned k, unsigned h)
{
    if (k >= s->partitions)
        return cuzk_fail(CUZK_EINVAL, "partition %u: the sector has %u partitions", k, s->partitions);
    for (unsigned i = 0; i < CUZK_SNAP_HS; i++)
        if (s->hs[i] == h) {
            *out = (uint64_t)k | ((uint64_t)1 << i) << s->partition_bits;
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EINVAL, "h = %u is not allowed for this sector size", h);
}

/* ---------------------------------------------------------------- parameter files */
size_t cuzk_update_proof_param_identifier(char *out, size_t cap, cuzk_update_proof p)
{
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) {
        if (cap) out[0] = 0;
        return 0;
    }
    int n =
        snprintf(out, cap, "empty_sector_update::PublicParams{ sector_nodes: %llu }", (unsigned long long)pi->nodes);
    return n < 0 ? 0 : (size_t)n;
}

void cuzk_update_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_update_proof p)
{
    out[0] = 0;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return;
    char ident[128];
    size_t n = cuzk_update_proof_param_identifier(ident, sizeof ident, p);
    uint8_t digest[32];
    cuzk_sha256(digest, ident, n);
    char hex[65];
    cuzk_hex_encode(hex, digest, 32);
    snprintf(out, CUZK_PARAM_STEM_MAX, "v%d-empty-sector-update-merkletree-poseidon_hasher-%u-%u-%u-%s", PARAM_VERSION,
             pi->tree_r.base_arity, pi->tree_r.sub_arity, pi->tree_r.top_arity, hex);
}

cuzk_status cuzk_update_proof_find_params(const char *dir, cuzk_update_proof p, char **params_path, char **vk_path)
{
    if (params_path) *params_path = NULL;
    if (vk_path) *vk_path = NULL;
    const cuzk_update_proof_info *pi = cuzk_update_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    char stem[CUZK_PARAM_STEM_MAX];
    cuzk_update_proof_param_stem(stem, p);
    char what[96];
    snprintf(what, sizeof what, "update proof %s", pi->name);
    return param_files_find(dir, stem, what, params_path, vk_path);
}
