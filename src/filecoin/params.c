/* Official parameter file names (storage-proofs-core parameter_cache.rs): the circuit's
 * parameter set is described by an identifier string, and the files are named
 * v<VERSION>-<cache prefix>-<hex sha256(identifier)>.<ext>, with VERSION = 28 and the StackedDRG
 * cache prefix "stacked-proof-of-replication-<tree display>-<piece hasher name>".
 *
 * The identifier does not contain the porep id or the api version, so V1, V1_1, synthetic and
 * NI proofs of one sector size share their files (NI keeps the per-partition challenge count
 * at 2 / 18 precisely so that it does). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "params_internal.h"
#include "cuzk/filecoin.h"
#include "cuzk/hash.h"

#define PARAM_VERSION 28

size_t cuzk_seal_proof_param_identifier(char *out, size_t cap, cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) {
        if (cap) out[0] = 0;
        return 0;
    }
    /* StackedGraph / BucketGraph identifiers (graph.rs, drgraph.rs), LayerChallenges and the
     * tree display (merkle/tree.rs), exactly as the Rust format strings produce them. */
    int n = snprintf(out, cap,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: %d "
                     "base_graph: drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }, "
                     "challenges: LayerChallenges { layers: %u, max_count: %u }, "
                     "tree: merkletree-poseidon_hasher-%u-%u-%u }",
                     CUZK_POREP_EXP_PARENTS, (unsigned long long)pi->nodes, CUZK_POREP_DRG_PARENTS, pi->layers,
                     pi->challenges_per_partition, pi->base_arity, pi->sub_arity, pi->top_arity);
    return n < 0 ? 0 : (size_t)n;
}

void cuzk_seal_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_seal_proof p)
{
    out[0] = 0;
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return;
    char ident[512];
    size_t n = cuzk_seal_proof_param_identifier(ident, sizeof ident, p);
    uint8_t digest[32];
    cuzk_sha256(digest, ident, n);
    char hex[65];
    cuzk_hex_encode(hex, digest, 32);
    snprintf(out, CUZK_PARAM_STEM_MAX,
             "v%d-stacked-proof-of-replication-merkletree-poseidon_hasher-%u-%u-%u-sha256_hasher-%s", PARAM_VERSION,
             pi->base_arity, pi->sub_arity, pi->top_arity, hex);
}

const char *cuzk_param_dir_default(void) { return CUZK_PARAM_DIR_DEFAULT; }

static char *join_path(const char *dir, const char *stem, const char *ext)
{
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dl--; /* "dir/" and "dir" name the same files */
    size_t n = dl + 1 + strlen(stem) + 1 + strlen(ext) + 1;
    char *s = cuzk_malloc(n);
    if (s) snprintf(s, n, "%.*s/%s.%s", (int)dl, dir, stem, ext);
    return s;
}

static cuzk_status check_file(const char *path, const char *proof_name, const char *dir, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return cuzk_fail(CUZK_EIO, "missing %s file for %s: %s (%s; parameter directory %s)", what, proof_name, path,
                         strerror(errno), dir);
    if (!S_ISREG(st.st_mode))
        return cuzk_fail(CUZK_EIO, "%s file for %s is not a regular file: %s", what, proof_name, path);
    return CUZK_OK;
}

cuzk_status param_files_find(const char *dir, const char *stem, const char *proof_name, char **params_path,
                             char **vk_path)
{
    if (params_path) *params_path = NULL;
    if (vk_path) *vk_path = NULL;
    if (!dir) dir = cuzk_param_dir_default();
    char *pp = join_path(dir, stem, "params"), *vp = join_path(dir, stem, "vk");
    cuzk_status st = (pp && vp) ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (st == CUZK_OK) st = check_file(pp, proof_name, dir, "Groth16 parameter (.params)");
    if (st == CUZK_OK) st = check_file(vp, proof_name, dir, "verifying key (.vk)");
    if (st != CUZK_OK) {
        free(pp);
        free(vp);
        return st;
    }
    if (params_path) *params_path = pp;
    else free(pp);
    if (vk_path) *vk_path = vp;
    else free(vp);
    return CUZK_OK;
}

cuzk_status cuzk_seal_proof_find_params(const char *dir, cuzk_seal_proof p, char **params_path, char **vk_path)
{
    if (params_path) *params_path = NULL;
    if (vk_path) *vk_path = NULL;
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    char stem[CUZK_PARAM_STEM_MAX];
    cuzk_seal_proof_param_stem(stem, p);
    return param_files_find(dir, stem, pi->name, params_path, vk_path);
}
