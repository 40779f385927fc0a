/* Fallback PoSt (WinningPoSt and WindowPoSt), bit-compatible with rust-fil-proofs 19 /
 * rust-filecoin-proofs-api 19: the registry of RegisteredPoStProof, parameter file names,
 * challenge derivation, the vanilla proofs a prover receives (bincode of
 * FallbackPoStSectorProof, one blob per sector), the partition object (parsed, checked and
 * padded vanilla proofs plus the public data) and the circuit (storage-proofs-post
 * FallbackPoStCircuit) as a circuit of parts, one part per sector slot.
 *
 * One circuit, two shapes. A circuit has sector_count sector slots with challenge_count
 * challenges each; per slot it proves comm_r = Poseidon2(comm_c, comm_r_last) and, per
 * challenge, the inclusion of the challenged leaf in tree R (root comm_r_last, leaf index a
 * public input). WindowPoSt: a partition of up to sector_count sectors, 10 challenges each (one
 * blob per sector; a short partition repeats its last sector). WinningPoSt: one challenged
 * sector whose one blob holds 66 inclusion proofs; upstream unrolls them onto the circuit's 66
 * slots of one challenge each, so every slot is that sector.
 *
 * 32-byte values are as Filecoin stores them (field elements, 32 little-endian bytes). */
#ifndef CUZK_FILECOIN_POST_H
#define CUZK_FILECOIN_POST_H

#include "cuzk/circuits.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/gadgets/merkle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- registry */
/* RegisteredPoStProof, numbered as upstream (append-only; never renumber). The third group is
 * upstream's StackedDrgWindow*V1_2 (serde names end in V1_2, ApiVersion 1.2.0); the chain and
 * Go call the same ids StackedDrgWindow*V1_1. */
typedef enum {
    CUZK_POST_WINNING_2KIB_V1 = 0,
    CUZK_POST_WINNING_8MIB_V1 = 1,
    CUZK_POST_WINNING_512MIB_V1 = 2,
    CUZK_POST_WINNING_32GIB_V1 = 3,
    CUZK_POST_WINNING_64GIB_V1 = 4,
    CUZK_POST_WINDOW_2KIB_V1 = 5,
    CUZK_POST_WINDOW_8MIB_V1 = 6,
    CUZK_POST_WINDOW_512MIB_V1 = 7,
    CUZK_POST_WINDOW_32GIB_V1 = 8,
    CUZK_POST_WINDOW_64GIB_V1 = 9,
    CUZK_POST_WINDOW_2KIB_V1_1 = 10,
    CUZK_POST_WINDOW_8MIB_V1_1 = 11,
    CUZK_POST_WINDOW_512MIB_V1_1 = 12,
    CUZK_POST_WINDOW_32GIB_V1_1 = 13,
    CUZK_POST_WINDOW_64GIB_V1_1 = 14,
    CUZK_POST_PROOF_COUNT = 15
} cuzk_post_proof;

typedef enum { CUZK_POST_WINNING = 0, CUZK_POST_WINDOW = 1 } cuzk_post_kind;

typedef struct {
    cuzk_post_proof id;
    const char *name;    /* serde name, e.g. "StackedDrgWindow32GiBV1_2" */
    const char *go_name; /* go-state-types name, e.g. "StackedDrgWindow32GiBV1_1" */
    cuzk_post_kind kind;
    uint64_t sector_size; /* bytes */
    uint64_t nodes;       /* sector_size / 32: leaves of tree R */
    /* The circuit: sector slots and challenges per slot (Winning 66 x 1; Window 2349 x 10 for
     * 32 GiB, 2300 x 10 for 64 GiB, 2 x 10 for the test sizes). */
    unsigned sector_count, challenge_count;
    /* What a partition receives: blobs (Winning 1, Window sector_count) and inclusion proofs in
     * each blob (Winning 66, Window 10). */
    unsigned max_blobs, proofs_per_blob;
    cuzk_tree_shape tree;         /* tree R: 8-0-0, 8-8-0 (32 GiB) or 8-8-2 (64 GiB) */
    cuzk_api_version api_version; /* V1_0_0, or V1_2_0 for the Window V1_1 ids */
} cuzk_post_proof_info;

/* The registry entry, or NULL (error set) for a value outside the enum. */
const cuzk_post_proof_info *cuzk_post_proof_info_get(cuzk_post_proof p);
/* By serde name or Go name (exact; len bytes). CUZK_EUNSUPPORTED naming the string otherwise. */
cuzk_status cuzk_post_proof_from_name(cuzk_post_proof *out, const char *name, size_t len) CUZK_WARN_UNUSED;
/* The proof of a kind and sector size; v1_1 selects the Window V1_1 ids (Winning has only V1:
 * CUZK_EINVAL when v1_1 is asked for Winning). */
cuzk_status cuzk_post_proof_lookup(cuzk_post_proof *out, cuzk_post_kind kind, uint64_t sector_size,
                                   bool v1_1) CUZK_WARN_UNUSED;
/* Public inputs of one partition circuit, ONE excluded: sector_count * (1 + challenge_count). */
size_t cuzk_post_proof_num_inputs(cuzk_post_proof p);

/* ---------------------------------------------------------------- parameter files */
/* "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}" with the
 * circuit's counts; returns the length needed (excluding the NUL), as snprintf does. */
size_t cuzk_post_proof_param_identifier(char *out, size_t cap, cuzk_post_proof p);
/* "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-B-S-T-<hex sha256(identifier)>". */
void cuzk_post_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_post_proof p);
/* As cuzk_seal_proof_find_params: dir/stem.params and dir/stem.vk, both checked. */
cuzk_status cuzk_post_proof_find_params(const char *dir, cuzk_post_proof p, char **params_path,
                                        char **vk_path) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- challenges */
/* u64 LE of Sha256(randomness || sector_id u64 LE || challenge_index u64 LE)[0..8] mod nodes. */
uint64_t cuzk_post_leaf_challenge(uint64_t nodes, const uint8_t randomness[32], uint64_t sector_id,
                                  uint64_t challenge_index);
/* get_challenge_index: n for V1_2_0, else sector_index * challenge_count + n. */
uint64_t cuzk_post_challenge_index(cuzk_api_version api, uint64_t sector_index, uint64_t challenge_count, uint64_t n);
/* Challenge n of circuit slot i of partition k, as the verifier derives it (sector_index =
 * k * sector_count + i). n < challenge_count, i < sector_count. */
uint64_t cuzk_post_challenge(cuzk_post_proof p, const uint8_t randomness[32], uint64_t sector_id, unsigned k,
                             unsigned i, unsigned n);
/* The leaves inclusion proof j of blob b (of partition k) must open, j < proofs_per_blob:
 * Window: slot b, challenge j; Winning (k = b = 0): slot j, challenge 0, which for the Winning
 * api version is challenge index j, what the vanilla prover derives for the one sector. */
uint64_t cuzk_post_blob_challenge(cuzk_post_proof p, const uint8_t randomness[32], uint64_t sector_id, unsigned k,
                                  unsigned b, unsigned j);
/* Randomness must be a canonical field element (upstream's as_safe_commitment; Curio clears
 * the top two bits first). CUZK_EINVAL otherwise. */
cuzk_status cuzk_post_check_randomness(const uint8_t randomness[32]) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- vanilla proof blobs */
/* One FallbackPoStSectorProof: {sector_id, comm_r, vanilla_proof: {sectors: [one SectorProof
 * {inclusion_proofs, comm_c, comm_r_last}]}}. The proofs' kind follows the tree shape (Single
 * 8-0-0, Sub 8-8-0, Top 8-8-2). Owned by one allocation; free with cuzk_post_sector_proof_free. */
typedef struct {
    uint64_t sector_id;
    cuzk_node comm_r, comm_c, comm_r_last;
    uint32_t nproofs;
    cuzk_merkle_proof *proofs;
} cuzk_post_sector_proof;

/* An empty proof of p's shape (proofs_per_blob inclusion proofs with their paths allocated). */
cuzk_status cuzk_post_sector_proof_alloc(cuzk_post_sector_proof **out, cuzk_post_proof p) CUZK_WARN_UNUSED;
void cuzk_post_sector_proof_free(cuzk_post_sector_proof *sp);
/* Strict bincode 1.x (fixed-width little-endian integers, u64 lengths, u32 enum tags): every
 * length must equal what p's shape says (checked before anything is allocated), every 32-byte
 * value must be a canonical field element, no trailing bytes. Errors (CUZK_EFORMAT) name the
 * blob index, the field path and the byte offset. No hashing: see cuzk_post_partition_parse. */
cuzk_status cuzk_post_sector_proof_parse(cuzk_post_sector_proof **out, cuzk_post_proof p, size_t blob_index,
                                         const uint8_t *blob, size_t len) CUZK_WARN_UNUSED;
/* The exact size of a blob of p's shape. */
size_t cuzk_post_sector_proof_bytes(cuzk_post_proof p);
/* bincode::serialize of sp (the inverse of parse) into a malloc'd buffer. */
cuzk_status cuzk_post_sector_proof_write(const cuzk_post_sector_proof *sp, cuzk_post_proof p, uint8_t **out,
                                         size_t *len) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- partition */
typedef struct cuzk_post_partition cuzk_post_partition;

/* One sector of the statement a partition proves (upstream's PublicSector): what the verifier
 * knows from the chain, not what a vanilla proof says of itself. */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
} cuzk_post_public_sector;

/* A partition's public sector list: 1 .. max_blobs sectors (Winning: 1), sector ids strictly
 * ascending (upstream's verifier lists a partition's sectors sorted by id). CUZK_EINVAL naming
 * the positions: both of a repeated id, or the one out of order and the one before it. */
cuzk_status cuzk_post_public_sectors_check(cuzk_post_proof p, const cuzk_post_public_sector *pub,
                                           size_t n) CUZK_WARN_UNUSED;

/* What a partition's proof would be refused for before any vanilla proof is read, the one
 * check of the prover (cuzk_post_partition_parse) and of the vanilla prover
 * (cuzk_post_vanilla_prove), so that no vanilla proofs are made that the prover refuses.
 * Returns: CUZK_OK, or CUZK_EINVAL naming the value and the rule.
 * In: p, a registered PoSt proof; randomness, a canonical field element; partition_index
 * (Winning: 0; Window: partition_index * sector_count fits in 32 bits); pub, the public sector
 * list of nsectors entries (checked as cuzk_post_public_sectors_check), or NULL to skip that
 * check; nsectors, 1 .. max_blobs.
 * Errors: CUZK_EINVAL (unknown proof, randomness not canonical, no or too many sectors,
 * partition out of range, sector ids repeated or not ascending).
 * Thread: any thread; reads only its arguments. */
cuzk_status cuzk_post_partition_check(cuzk_post_proof p, const uint8_t randomness[32], uint32_t partition_index,
                                      const cuzk_post_public_sector *pub, size_t nsectors) CUZK_WARN_UNUSED;

/* Parses the nblobs blobs of partition partition_index (Window: 1 .. sector_count sectors;
 * Winning: exactly one, the challenged sector, partition 0), checks them natively (each path
 * hashes to comm_r_last, comm_r = Poseidon2(comm_c, comm_r_last), each proof opens the leaf the
 * verifier challenges, proof counts), pads a short partition by repeating its last sector, and
 * keeps what the circuit and the public inputs need.
 * pub: the public sector list (nblobs entries, checked as cuzk_post_public_sectors_check): blob
 * b must carry exactly pub[b]'s sector id and comm_r (CUZK_EVERIFY naming the field, the blob
 * and both values otherwise), so the checks and the public inputs are those of the public
 * sectors. NULL: each blob's own sector id and comm_r are taken as public, in the order given
 * (what a Curio request carries: no other list travels with it).
 * Errors name the blob and the field (CUZK_EFORMAT for malformed blobs, CUZK_EVERIFY for
 * failed checks, CUZK_EINVAL for bad arguments). */
cuzk_status cuzk_post_partition_parse(cuzk_post_partition **out, cuzk_post_proof p, const uint8_t randomness[32],
                                      uint32_t partition_index, const cuzk_post_public_sector *pub,
                                      const uint8_t *const *blobs, const size_t *lens, size_t nblobs) CUZK_WARN_UNUSED;
/* ONE excluded; = cuzk_post_proof_num_inputs. */
size_t cuzk_post_partition_num_inputs(const cuzk_post_partition *pp);
/* generate_public_inputs' order: per slot comm_r, then each challenge's leaf index. Derived
 * from the public data only (comm_r, sector ids, randomness, partition index). */
cuzk_status cuzk_post_partition_public_inputs(const cuzk_post_partition *pp, cuzk_fr *out, size_t cap) CUZK_WARN_UNUSED;
cuzk_post_proof cuzk_post_partition_proof(const cuzk_post_partition *pp);
uint32_t cuzk_post_partition_index(const cuzk_post_partition *pp);
/* Sectors given (before padding). */
size_t cuzk_post_partition_sectors(const cuzk_post_partition *pp);
void cuzk_post_partition_free(cuzk_post_partition *pp);

/* The partition as a circuit (pp borrowed: it must outlive the circuit); its synthesized public
 * inputs equal cuzk_post_partition_public_inputs. Every partition of a proof type has one R1CS
 * (shape key "post:<name>"). */
cuzk_status cuzk_post_circuit_open(cuzk_circuit **out, const cuzk_post_partition *pp) CUZK_WARN_UNUSED;
/* For timing at any size: "window-post:SIZE" or "winning-post:SIZE" fed synthetic vanilla
 * data of the exact shape, laid out as a real sector's (each sector one tree whose paths agree
 * where they meet and lead to its comm_r_last; comm_r = H(comm_c, comm_r_last)), so the
 * witness satisfies the circuit; the challenged leaves are random, not the ones the randomness
 * derives, so no real vanilla check passes. *pp_out must be freed after the circuit. */
cuzk_status cuzk_post_synthetic_open(cuzk_circuit **out, cuzk_post_partition **pp_out, const char *name,
                                     uint64_t seed) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- vanilla proofs of test sectors */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
    const uint8_t *replica; /* sector_size bytes: the sealed file */
    size_t replica_len;
    uint8_t p_aux[64]; /* comm_c || comm_r_last */
} cuzk_post_replica;

/* What a storage provider's vanilla prover sends for partition k: one blob per sector (Window:
 * up to sector_count sectors, blob i = slot i; Winning: the one challenged sector). Builds tree
 * R from the replica (single-octree sizes: 2 KiB, 8 MiB, 512 MiB), checks it against p_aux and
 * comm_r, derives the challenges and writes the blobs (blobs[i], lens[i]: malloc'd). The
 * sectors are the public list, in ascending id order: what cuzk_post_partition_check refuses
 * is refused first (CUZK_EINVAL), before any tree is built. */
cuzk_status cuzk_post_vanilla_prove(cuzk_post_proof p, const uint8_t randomness[32], uint32_t partition_index,
                                    const cuzk_post_replica *sectors, size_t nsectors, uint8_t **blobs,
                                    size_t *lens) CUZK_WARN_UNUSED;

/* The circuit families "window-post:SIZE" (Window V1_1), "winning-post:SIZE" (SIZE 2KiB, 8MiB,
 * 512MiB, 32GiB, 64GiB; the witness comes from sealing a CC test sector up to 512 MiB) and
 * "post-test:SHAPE:LEAVES:SECTORS:CHALLENGES" (the generic circuit of upstream's tests;
 * counts and setup only), for the registry of named circuits. */
extern const cuzk_circuit_def cuzk_circuit_window_post;
extern const cuzk_circuit_def cuzk_circuit_winning_post;
extern const cuzk_circuit_def cuzk_circuit_post_test;

#ifdef __cplusplus
}
#endif
#endif
