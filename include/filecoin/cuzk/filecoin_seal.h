/* A PoRep sealer for test data: what lotus' PreCommit1 / PreCommit2 / Commit1 compute, for
 * the sector sizes whose trees are single octrees (2 KiB, 8 MiB, 512 MiB), for every proof
 * type of those sizes (V1, V1_1, synthetic, non-interactive).
 *
 *   precommit: tree D over the data (comm_d), replica_id, SDR labels of every layer, tree C over
 *              the column hashes (comm_c), the replica (data + last label) and tree R over it
 *              (comm_r_last), comm_r = Poseidon2(comm_c, comm_r_last);
 *   commit1:   the challenges for a seed and their vanilla proofs, as a cuzk_c1 that
 *              cuzk_c1_write turns into the exact JSON rust-filecoin-proofs-api produces.
 *
 * Memory: the labels of all layers (2 x 32 B per node: 1 GiB for 512 MiB) plus the upper levels
 * of the trees; the data is borrowed, not copied. Tree building and parent generation run on
 * the thread pool; labeling within a layer is sequential (each node hashes its predecessor). */
#ifndef CUZK_FILECOIN_SEAL_H
#define CUZK_FILECOIN_SEAL_H

#include "cuzk/filecoin_c1.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_seal_proof proof;
    uint8_t prover_id[32]; /* cuzk_prover_id_from_actor() for an ID address */
    uint64_t sector_id;
    uint8_t ticket[32];
    /* sector_size bytes of unsealed data (already Fr32-padded: every 32-byte node must be a
     * canonical field element), or NULL for a committed-capacity sector of zeros. Borrowed:
     * it must stay valid until the sealed sector is freed. */
    const uint8_t *data;
} cuzk_seal_params;

typedef struct {
    uint8_t comm_d[32], comm_r[32], comm_c[32], comm_r_last[32], replica_id[32];
} cuzk_seal_commitments;

typedef struct cuzk_sealed_sector cuzk_sealed_sector;

/* Seals. CUZK_EUNSUPPORTED for 32/64 GiB proof types; CUZK_EINVAL for data that is not
 * Fr32-padded (the message names the first bad node). tl may be NULL. */
/* cuzk_seal_precommit reporting to progress (NULL: none): tree D, the labels of every layer,
 * tree C and tree R, each a task in nodes. */
cuzk_status cuzk_seal_precommit_progress(cuzk_sealed_sector **out, const cuzk_seal_params *params, cuzk_timeline *tl,
                                         const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;
cuzk_status cuzk_seal_precommit(cuzk_sealed_sector **out, const cuzk_seal_params *params,
                                cuzk_timeline *tl) CUZK_WARN_UNUSED;
void cuzk_sealed_sector_free(cuzk_sealed_sector *s);
const cuzk_seal_commitments *cuzk_sealed_commitments(const cuzk_sealed_sector *s);
/* The replica (the sealed file's bytes: data + last layer's label per node, or the label for a
 * CC sector), nodes [first, first + n) into out (n * 32 bytes). first + n <= nodes. */
void cuzk_sealed_replica_nodes(const cuzk_sealed_sector *s, uint64_t first, uint64_t n, uint8_t *out);
/* p_aux as rust-fil-proofs stores it beside a sealed sector: bincode of PersistentAux
 * {comm_c, comm_r_last}, i.e. the two 32-byte values back to back. */
#define CUZK_P_AUX_BYTES 64
void cuzk_sealed_p_aux(const cuzk_sealed_sector *s, uint8_t out[CUZK_P_AUX_BYTES]);
/* The label of node v on layer (1-based), for tests. */
const uint8_t *cuzk_sealed_label(const cuzk_sealed_sector *s, unsigned layer, uint64_t v);

/* The C1 for a seed (the interactive randomness; also used by synthetic proofs to select
 * among synthetic challenges; non-interactive proofs use it only as the C1's "seed" field,
 * which C2 requires to be non-zero). */
cuzk_status cuzk_seal_commit1(cuzk_c1 **out, const cuzk_sealed_sector *s, const uint8_t seed[32],
                              cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- sparse test sectors */
/* A sparse test sector of any published size (2 KiB to 64 GiB) without sealing it: its C1
 * for a seed, with its commitments in *comm. Only what the challenges open is computed:
 *
 *   - the data is all zero (a committed-capacity sector), so comm_d, the replica id and the
 *     interactive challenges are known before anything else;
 *   - the challenged nodes' labels are computed in layer and index order from their parents'
 *     labels, so a node that is both challenged and a parent opens alike everywhere;
 *   - every other node's label is zero on every layer: a parent column that is not challenged
 *     is all zero, and its column hash is tree C's default leaf;
 *   - trees D, C and R hold default hashes per level outside the challenged leaves (zero data;
 *     the zero column's hash; replica = zero data + zero label).
 *
 * The C1 passes cuzk_c1_verify and the circuit like a sealed sector's; it is not the sealing
 * of any data (untouched labels are not SDR labels), so the sector is a test sector: it has
 * no replica or p_aux file. Memory and time follow the challenge count: milliseconds and a
 * few MiB beyond the C1 itself, for 64 GiB too.
 *
 * Interactive proof types only (V1, V1_1): CUZK_EUNSUPPORTED for synthetic and
 * non-interactive ones, whose challenges are derived from comm_r, i.e. from the challenged
 * columns themselves; CUZK_EINVAL when params->data is not NULL. tl may be NULL. */
cuzk_status cuzk_seal_sparse_commit1(cuzk_c1 **out, cuzk_seal_commitments *comm, const cuzk_seal_params *params,
                                     const uint8_t seed[32], cuzk_timeline *tl) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
