/* SnapDeals (EmptySectorUpdate, the SHA-256 TreeD variant of storage-proofs-update) for the
 * Filecoin layer, bit-compatible with rust-fil-proofs 19 / rust-filecoin-proofs-api 19:
 *
 *   - the registry of RegisteredUpdateProof and the official parameter file names;
 *   - native encoding: the updated replica from the sealed one and new data, comm_d_new,
 *     comm_r_new, and the vanilla partition proofs a prover receives;
 *   - the bincode of one PartitionProof (the daemon's input), parser and writer;
 *   - the partition circuit (EmptySectorUpdateCircuit) as a circuit of parts: a header that
 *     holds everything the challenges share, then one part per challenge;
 *   - cuzk_snap_proofs: a request's vanilla proofs, parsed and checked, as the engine uses it.
 *
 * Byte strings (commitments, nodes) are 32-byte little-endian canonical field elements, as
 * Filecoin stores them. Errors are cuzk_status values with a message in cuzk_last_error(). */
#ifndef CUZK_FILECOIN_SNAP_H
#define CUZK_FILECOIN_SNAP_H

#include "cuzk/circuits.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/gadgets/merkle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- registry */
/* RegisteredUpdateProof: the numeric value is upstream's (append-only; never renumber). */
typedef enum cuzk_update_proof {
    CUZK_UPDATE_2KIB_V1 = 0,
    CUZK_UPDATE_8MIB_V1 = 1,
    CUZK_UPDATE_512MIB_V1 = 2,
    CUZK_UPDATE_32GIB_V1 = 3,
    CUZK_UPDATE_64GIB_V1 = 4,
    CUZK_UPDATE_PROOF_COUNT = 5
} cuzk_update_proof;

/* The number of selectable h values the circuit hard-codes (hs in constants.rs). */
#define CUZK_SNAP_HS 6
/* The index into hs that filecoin-proofs uses (h_default = hs[3]). */
#define CUZK_SNAP_H_INDEX 3
/* Phi, rho and the challenge digests use Poseidon-2 with HashType::Custom(CType::Arbitrary(1)). */
#define CUZK_SNAP_POSEIDON_CUSTOM_ID 1

typedef struct {
    cuzk_update_proof id;
    const char *name;                  /* serde name, e.g. "StackedDrg32GiBV1" */
    uint64_t sector_size;              /* bytes */
    uint64_t nodes;                    /* sector_size / 32 */
    unsigned partitions;               /* 1 / 4 / 16 */
    unsigned challenges_per_partition; /* 10 / 86 */
    unsigned hs[CUZK_SNAP_HS];         /* [1; 6] up to 32 KiB, else 7..12 */
    unsigned h;                        /* hs[CUZK_SNAP_H_INDEX]: 1 for 2 KiB, 10 from 8 MiB on */
    unsigned apex_leaves;              /* per partition: 8 up to 8 KiB, else 128 */
    cuzk_tree_shape tree_r;            /* TreeROld / TreeRNew: 8-0-0, 8-8-0 (32 GiB), 8-8-2 (64 GiB) */
    unsigned tree_d_depth;             /* log2(nodes): the binary SHA-256 TreeD */
    cuzk_seal_proof seal_proof;        /* the V1_1 seal proof of the same size (test sealer, TreeR) */
} cuzk_update_proof_info;

/* The registry entry, or NULL (error set) for a value outside the enum. */
const cuzk_update_proof_info *cuzk_update_proof_info_get(cuzk_update_proof p);
/* By serde name (exact; len bytes, not NUL-terminated). CUZK_EUNSUPPORTED naming the string. */
cuzk_status cuzk_update_proof_from_name(cuzk_update_proof *out, const char *name, size_t len) CUZK_WARN_UNUSED;
/* The update proof of a sector size in bytes. CUZK_EUNSUPPORTED for another size. */
cuzk_status cuzk_update_proof_for_sector_size(cuzk_update_proof *out, uint64_t sector_size) CUZK_WARN_UNUSED;
/* Public inputs of one partition circuit, ONE excluded: 4. */
size_t cuzk_update_proof_num_inputs(cuzk_update_proof p);
/* "empty_sector_update::PublicParams{ sector_nodes: N }", whose SHA-256 names the files.
 * snprintf semantics (returns the length needed, excluding the NUL). */
size_t cuzk_update_proof_param_identifier(char *out, size_t cap, cuzk_update_proof p);
/* "v28-empty-sector-update-merkletree-poseidon_hasher-B-S-T-<hex sha256(identifier)>". */
void cuzk_update_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_update_proof p);
/* dir/stem.params and dir/stem.vk (dir NULL = cuzk_param_dir_default()) as malloc'd strings,
 * both checked to be readable regular files (CUZK_EIO naming the missing one otherwise).
 * Either output may be NULL. */
cuzk_status cuzk_update_proof_find_params(const char *dir, cuzk_update_proof p, char **params_path,
                                          char **vk_path) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- shape */
/* What a partition circuit depends on. The published sizes and upstream's test sizes (1 KiB
 * to 32 KiB, each with its own TreeR shape) all have one. */
typedef struct {
    uint64_t nodes;
    unsigned challenge_bits; /* log2(nodes) = TreeD depth */
    unsigned partitions, partition_bits;
    unsigned challenges; /* per partition */
    unsigned apex_leaves, apex_bits;
    unsigned hs[CUZK_SNAP_HS];
    cuzk_tree_shape tree_r;
} cuzk_snap_shape;

cuzk_status cuzk_snap_shape_for_proof(cuzk_snap_shape *out, cuzk_update_proof p) CUZK_WARN_UNUSED;
/* Upstream's ALLOWED_SECTOR_SIZES (in nodes: 2^5 .. 2^10, 2^18, 2^19, 2^24, 2^30, 2^31) with
 * the TreeR shape validate_tree_r_shape expects of each. CUZK_EINVAL for another size. */
cuzk_status cuzk_snap_shape_for_nodes(cuzk_snap_shape *out, uint64_t nodes) CUZK_WARN_UNUSED;
/* k_and_h_select = k | h_select << partition_bits, with h_select = 1 << (index of h in hs). */
cuzk_status cuzk_snap_k_and_h_select(uint64_t *out, const cuzk_snap_shape *s, unsigned k, unsigned h) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- native pieces */
/* phi = Poseidon2_custom(comm_d_new, comm_r_old); rho(high) = Poseidon2_custom(phi, high). */
cuzk_status cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32], const uint8_t comm_r_old[32]) CUZK_WARN_UNUSED;
cuzk_status cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint32_t high) CUZK_WARN_UNUSED;
/* The challenged nodes of partition k (storage-proofs-update Challenges): out[s->challenges]. */
cuzk_status cuzk_snap_challenges(uint32_t *out, const cuzk_snap_shape *s, const uint8_t comm_r_new[32],
                                 unsigned k) CUZK_WARN_UNUSED;

/* One partition's vanilla proof (vanilla.rs PartitionProof). Merkle proofs use the C1 types:
 * r_old / r_new of the TreeR shape (Single, Sub or Top), d_new Single and binary. */
typedef struct {
    cuzk_merkle_proof r_old, d_new, r_new;
} cuzk_snap_challenge_proof;

typedef struct {
    cuzk_node comm_c;
    uint32_t napex;
    cuzk_node *apex; /* apex_leaves nodes */
    uint32_t nchallenges;
    cuzk_snap_challenge_proof *challenges;
} cuzk_snap_partition_proof;

/* The result of encoding: commitments, the new replica and every partition's vanilla proof. */
typedef struct cuzk_snap_encoded cuzk_snap_encoded;
typedef struct {
    cuzk_update_proof proof;
    uint8_t comm_c[32], comm_r_last_old[32]; /* p_aux of the sealed sector */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_last_new[32], comm_r_new[32];
    unsigned partitions;
    const cuzk_snap_partition_proof *proofs; /* [partitions] */
    const uint8_t *replica;                  /* the new replica, sector_size bytes */
} cuzk_snap_encoded_view;

/* encode_into for the sector sizes whose TreeR is one octree (2 KiB, 8 MiB, 512 MiB):
 * sealed = the old replica (sector key), data = the new unsealed data (Fr32-padded: every
 * node canonical), both sector_size bytes; p_aux = comm_c || comm_r_last of the sealed
 * sector (checked against the rebuilt TreeROld). Then the vanilla proofs of every partition.
 * CUZK_EUNSUPPORTED for 32/64 GiB; CUZK_EINVAL naming the first bad node or a p_aux mismatch. */
cuzk_status cuzk_snap_encode(cuzk_snap_encoded **out, cuzk_update_proof p, const uint8_t *sealed, const uint8_t *data,
                             const uint8_t p_aux[64], cuzk_timeline *tl) CUZK_WARN_UNUSED;
void cuzk_snap_encoded_get(const cuzk_snap_encoded *e, cuzk_snap_encoded_view *out);
void cuzk_snap_encoded_free(cuzk_snap_encoded *e);

/* ---------------------------------------------------------------- bincode */
/* bincode 1.x (little-endian, u64 lengths, u32 enum variant indices) of PartitionProof
 * {comm_c, apex_leafs: Vec<Domain>, challenge_proofs: Vec<{proof_r_old, proof_d_new,
 * proof_r_new}>}, each MerkleProof the enum Single{root, leaf, path} | Sub{base_proof,
 * sub_proof, root, leaf} | Top{base_proof, sub_proof, top_proof, root, leaf} with
 * InclusionPath = Vec<PathElement{hashes: Vec<Domain>, index: u64}>.
 *
 * The writer's output for a partition proof, malloc'd. */
cuzk_status cuzk_snap_partition_write(const cuzk_snap_partition_proof *pp, uint8_t **out, size_t *len) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- the engine's object */
typedef struct cuzk_snap_proofs cuzk_snap_proofs;

/* Parses one blob per partition (nblobs must equal the proof's partitions: a prover gets the
 * whole sector at once) and checks them natively: every length against the proof's shape
 * before anything is allocated, canonical field elements, no trailing bytes, every path
 * hashing to its root, comm_r_old == H(comm_c, root_r_old), comm_r_new == H(comm_c,
 * root_r_new), the apex leaves hashing up to comm_d_new along the partition path, the
 * challenges as derived from comm_r_new and k, and leaf_r_new == leaf_r_old + leaf_d_new * rho.
 * Errors name the blob, the field and (for parsing) the byte offset. */
cuzk_status cuzk_snap_parse(cuzk_snap_proofs **out, cuzk_update_proof p, const uint8_t comm_r_old[32],
                            const uint8_t comm_r_new[32], const uint8_t comm_d_new[32], const uint8_t *const *blobs,
                            const size_t *lens, size_t nblobs) CUZK_WARN_UNUSED;
/* Parsing only (no hashing), for tests and the fuzz loop: one blob into *pp, whose memory
 * belongs to the arena-backed object *owner (free with cuzk_snap_proofs_free). */
cuzk_status cuzk_snap_parse_blob(cuzk_snap_proofs **owner, cuzk_update_proof p, const uint8_t *blob, size_t len,
                                 unsigned blob_index) CUZK_WARN_UNUSED;
unsigned cuzk_snap_partitions(const cuzk_snap_proofs *sp);
cuzk_update_proof cuzk_snap_proof_type(const cuzk_snap_proofs *sp);
/* Partition k's parsed proof (NULL when k is out of range). */
const cuzk_snap_partition_proof *cuzk_snap_partition(const cuzk_snap_proofs *sp, unsigned k);
/* The 4 public inputs of partition k from public data, upstream order: k_and_h_select,
 * comm_r_old, comm_d_new, comm_r_new (cap >= 4). */
cuzk_status cuzk_snap_public_inputs(const cuzk_snap_proofs *sp, unsigned k, cuzk_fr *out, size_t cap) CUZK_WARN_UNUSED;
/* Partition k as a circuit (sp borrowed: it must outlive the circuit); the public inputs its
 * synthesis produces equal cuzk_snap_public_inputs. */
cuzk_status cuzk_snap_circuit_open(cuzk_circuit **out, const cuzk_snap_proofs *sp, unsigned k) CUZK_WARN_UNUSED;
void cuzk_snap_proofs_free(cuzk_snap_proofs *sp);

/* The public inputs of partition k from the commitments alone (what a verifier computes). */
cuzk_status cuzk_snap_public_inputs_for(cuzk_fr *out, size_t cap, cuzk_update_proof p, unsigned k,
                                        const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                        const uint8_t comm_r_new[32]) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- circuits */
/* The partition circuit on its own: header (public inputs, phi, private commitments, apex
 * tree, challenge bits) returning the context the challenge parts read, and challenge i.
 * pp is partition k's vanilla proof (NULL when !cs->values); public values likewise. */
typedef struct {
    unsigned k, h;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    const cuzk_snap_partition_proof *pp;
} cuzk_snap_witness;
void *cuzk_snap_header(cuzk_cs *cs, const cuzk_snap_shape *s, const cuzk_snap_witness *w);
void cuzk_snap_challenge(cuzk_cs *cs, const cuzk_snap_shape *s, const void *ctx, size_t i);
void cuzk_snap_ctx_free(void *ctx);

/* "snap:SIZE": one partition of a published size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB); the
 * witness of 2KiB / 8MiB / 512MiB comes from sealing a CC test sector, encoding random data
 * into it and proving partition 0 (all from the circuit seed); 32/64 GiB are for counts and
 * setup. "snap-test:SIZE": upstream's test sizes 1KiB..32KiB with their own TreeR shapes
 * (counts and setup only). */
extern const cuzk_circuit_def cuzk_circuit_snap;
extern const cuzk_circuit_def cuzk_circuit_snap_test;
/* For timing witness generation at any published size: "snap:SIZE" with synthetic vanilla
 * data of that shape (structurally valid, random: the witness does not satisfy the circuit).
 * *sp_out must be freed after the circuit. */
cuzk_status cuzk_snap_synthetic_open(cuzk_circuit **out, cuzk_snap_proofs **sp_out, const char *name,
                                     uint64_t seed) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
