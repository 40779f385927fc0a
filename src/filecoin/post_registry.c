/* The RegisteredPoStProof registry, the parameter file names and the challenge derivation of
 * fallback PoSt (include/cuzk/filecoin_post.h).
 *
 * Winning's circuit is built from its PoStConfig {sector_count 1, challenge_count 66} as 66
 * slots of one challenge (winning_post_setup_params); Window's is the config itself. The
 * parameter identifier names the circuit's counts, so Window V1 and V1_1 share their files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "params_internal.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/hash.h"

#define PARAM_VERSION 28
#define WINNING_CHALLENGES 66 /* WINNING_POST_CHALLENGE_COUNT */
#define WINDOW_CHALLENGES 10  /* WINDOW_POST_CHALLENGE_COUNT */

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)

/* tree R of each size: base levels over the leaves of one base tree, sub and top arities */
#define T_2K       \
    {              \
        8, 2, 0, 0 \
    }
#define T_8M       \
    {              \
        8, 6, 0, 0 \
    }
#define T_512M     \
    {              \
        8, 8, 0, 0 \
    }
#define T_32G      \
    {              \
        8, 9, 8, 0 \
    }
#define T_64G      \
    {              \
        8, 9, 8, 2 \
    }

#define WIN(id, nm, sz, tr)                                                                                           \
    {                                                                                                                 \
        id, nm, nm, CUZK_POST_WINNING, sz, sz / 32, WINNING_CHALLENGES, 1, 1, WINNING_CHALLENGES, tr, CUZK_API_V1_0_0 \
    }
#define WDW(id, nm, go, sz, n, tr, api)                                                                \
    {                                                                                                  \
        id, nm, go, CUZK_POST_WINDOW, sz, sz / 32, n, WINDOW_CHALLENGES, n, WINDOW_CHALLENGES, tr, api \
    }

static const cuzk_post_proof_info REGISTRY[CUZK_POST_PROOF_COUNT] = {
    WIN(CUZK_POST_WINNING_2KIB_V1, "StackedDrgWinning2KiBV1", 2 * KIB, T_2K),
    WIN(CUZK_POST_WINNING_8MIB_V1, "StackedDrgWinning8MiBV1", 8 * MIB, T_8M),
    WIN(CUZK_POST_WINNING_512MIB_V1, "StackedDrgWinning512MiBV1", 512 * MIB, T_512M),
    WIN(CUZK_POST_WINNING_32GIB_V1, "StackedDrgWinning32GiBV1", 32 * GIB, T_32G),
    WIN(CUZK_POST_WINNING_64GIB_V1, "StackedDrgWinning64GiBV1", 64 * GIB, T_64G),
    WDW(CUZK_POST_WINDOW_2KIB_V1, "StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1", 2 * KIB, 2, T_2K,
        CUZK_API_V1_0_0),
    WDW(CUZK_POST_WINDOW_8MIB_V1, "StackedDrgWindow8MiBV1", "StackedDrgWindow8MiBV1", 8 * MIB, 2, T_8M,
        CUZK_API_V1_0_0),
    WDW(CUZK_POST_WINDOW_512MIB_V1, "StackedDrgWindow512MiBV1", "StackedDrgWindow512MiBV1", 512 * MIB, 2, T_512M,
        CUZK_API_V1_0_0),
    WDW(CUZK_POST_WINDOW_32GIB_V1, "StackedDrgWindow32GiBV1", "StackedDrgWindow32GiBV1", 32 * GIB, 2349, T_32G,
        CUZK_API_V1_0_0),
    WDW(CUZK_POST_WINDOW_64GIB_V1, "StackedDrgWindow64GiBV1", "StackedDrgWindow64GiBV1", 64 * GIB, 2300, T_64G,
        CUZK_API_V1_0_0),
    WDW(CUZK_POST_WINDOW_2KIB_V1_1, "StackedDrgWindow2KiBV1_2", "StackedDrgWindow2KiBV1_1", 2 * KIB, 2, T_2K,
        CUZK_API_V1_2_0),
    WDW(CUZK_POST_WINDOW_8MIB_V1_1, "StackedDrgWindow8MiBV1_2", "StackedDrgWindow8MiBV1_1", 8 * MIB, 2, T_8M,
        CUZK_API_V1_2_0),
    WDW(CUZK_POST_WINDOW_512MIB_V1_1, "StackedDrgWindow512MiBV1_2", "StackedDrgWindow512MiBV1_1", 512 * MIB, 2, T_512M,
        CUZK_API_V1_2_0),
    WDW(CUZK_POST_WINDOW_32GIB_V1_1, "StackedDrgWindow32GiBV1_2", "StackedDrgWindow32GiBV1_1", 32 * GIB, 2349, T_32G,
        CUZK_API_V1_2_0),
    WDW(CUZK_POST_WINDOW_64GIB_V1_1, "StackedDrgWindow64GiBV1_2", "StackedDrgWindow64GiBV1_1", 64 * GIB, 2300, T_64G,
        CUZK_API_V1_2_0),
};

const cuzk_post_proof_info *cuzk_post_proof_info_get(cuzk_post_proof p)
{
    if ((unsigned)p >= CUZK_POST_PROOF_COUNT) {
        cuzk_fail(CUZK_EINVAL, "registered PoSt proof %d is not known (0..%d)", (int)p, CUZK_POST_PROOF_COUNT - 1);
        return NULL;
    }
    return &REGISTRY[p];
}

static bool name_is(const char *a, const char *name, size_t len) { return strlen(a) == len && !memcmp(a, name, len); }

cuzk_status cuzk_post_proof_from_name(cuzk_post_proof *out, const char *name, size_t len)
{
    for (int i = 0; i < CUZK_POST_PROOF_COUNT; i++)
        if (name_is(REGISTRY[i].name, name, len) || name_is(REGISTRY[i].go_name, name, len)) {
            *out = (cuzk_post_proof)i;
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EUNSUPPORTED, "unknown registered PoSt proof '%.*s'", (int)(len > 80 ? 80 : len), name);
}

cuzk_status cuzk_post_proof_lookup(cuzk_post_proof *out, cuzk_post_kind kind, uint64_t sector_size, bool v1_1)
{
    if (kind == CUZK_POST_WINNING && v1_1)
        return cuzk_fail(CUZK_EINVAL, "WinningPoSt has only V1 proof types (V1_1 exists for WindowPoSt)");
    for (int i = 0; i < CUZK_POST_PROOF_COUNT; i++) {
        const cuzk_post_proof_info *pi = &REGISTRY[i];
        if (pi->kind == kind && pi->sector_size == sector_size &&
            (kind == CUZK_POST_WINNING || (pi->api_version == CUZK_API_V1_2_0) == v1_1)) {
            *out = pi->id;
            return CUZK_OK;
        }
    }
    return cuzk_fail(CUZK_EUNSUPPORTED, "no %s PoSt proof for sector size %llu (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                     kind == CUZK_POST_WINNING ? "Winning" : "Window", (unsigned long long)sector_size);
}

size_t cuzk_post_proof_num_inputs(cuzk_post_proof p)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    return pi ? (size_t)pi->sector_count * (1 + pi->challenge_count) : 0;
}

size_t cuzk_post_proof_param_identifier(char *out, size_t cap, cuzk_post_proof p)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) {
        if (cap) out[0] = 0;
        return 0;
    }
    /* FallbackPoSt PublicParams::identifier (fallback/vanilla.rs) */
    int n = snprintf(out, cap, "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
                     (unsigned long long)pi->sector_size, pi->challenge_count, pi->sector_count);
    return n < 0 ? 0 : (size_t)n;
}

void cuzk_post_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_post_proof p)
{
    out[0] = 0;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return;
    char ident[256];
    size_t n = cuzk_post_proof_param_identifier(ident, sizeof ident, p);
    uint8_t digest[32];
    cuzk_sha256(digest, ident, n);
    char hex[65];
    cuzk_hex_encode(hex, digest, 32);
    snprintf(out, CUZK_PARAM_STEM_MAX, "v%d-proof-of-spacetime-fallback-merkletree-poseidon_hasher-%u-%u-%u-%s",
             PARAM_VERSION, pi->tree.base_arity, pi->tree.sub_arity, pi->tree.top_arity, hex);
}

cuzk_status cuzk_post_proof_find_params(const char *dir, cuzk_post_proof p, char **params_path, char **vk_path)
{
    if (params_path) *params_path = NULL;
    if (vk_path) *vk_path = NULL;
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    char stem[CUZK_PARAM_STEM_MAX];
    cuzk_post_proof_param_stem(stem, p);
    return param_files_find(dir, stem, pi->name, params_path, vk_path);
}

static void put_u64le(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
}

uint64_t cuzk_post_leaf_challenge(uint64_t nodes, const uint8_t randomness[32], uint64_t sector_id,
                                  uint64_t challenge_index)
{
    uint8_t pre[48], h[32];
    memcpy(pre, randomness, 32);
    put_u64le(pre + 32, sector_id);
    put_u64le(pre + 40, challenge_index);
    cuzk_sha256(h, pre, sizeof pre);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | h[i];
    return v % nodes;
}

uint64_t cuzk_post_challenge_index(cuzk_api_version api, uint64_t sector_index, uint64_t challenge_count, uint64_t n)
{
    return api == CUZK_API_V1_2_0 ? n : sector_index * challenge_count + n;
}

uint64_t cuzk_post_challenge(cuzk_post_proof p, const uint8_t randomness[32], uint64_t sector_id, unsigned k,
                             unsigned i, unsigned n)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return 0;
    uint64_t sector_index = (uint64_t)k * pi->sector_count + i;
    return cuzk_post_leaf_challenge(pi->nodes, randomness, sector_id,
                                    cuzk_post_challenge_index(pi->api_version, sector_index, pi->challenge_count, n));
}

uint64_t cuzk_post_blob_challenge(cuzk_post_proof p, const uint8_t randomness[32], uint64_t sector_id, unsigned k,
                                  unsigned b, unsigned j)
{
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get(p);
    if (!pi) return 0;
    /* Winning: the vanilla prover derives challenge j of the one sector with index j (sector
     * index 0 of a 1-sector, 66-challenge config); the verifier's slot j with its one challenge
     * gives index j * 1 + 0, the same leaf. */
    if (pi->kind == CUZK_POST_WINNING) return cuzk_post_challenge(p, randomness, sector_id, 0, j, 0);
    return cuzk_post_challenge(p, randomness, sector_id, k, b, j);
}

cuzk_status cuzk_post_check_randomness(const uint8_t randomness[32])
{
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, randomness) != CUZK_OK)
        return cuzk_fail(CUZK_EINVAL,
                         "randomness is not a canonical field element (>= r); the chain's randomness needs its top "
                         "two bits cleared (randomness[31] &= 0x3f) first, as Curio does");
    return CUZK_OK;
}
