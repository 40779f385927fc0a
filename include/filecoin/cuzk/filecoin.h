/* cuzk Filecoin layer, native PoRep pieces: the registry of seal proof types, the StackedDRG
 * graph (DRG and expander parents), replica ids, challenges, and the public-input vector a
 * partition proof is verified against. Everything here is bit-compatible with
 * rust-fil-proofs 19 / rust-filecoin-proofs-api 19.
 *
 * The C1 JSON lives in cuzk/filecoin_c1.h, the test-data sealer in cuzk/filecoin_seal.h.
 *
 * Byte strings: every 32-byte value (commitments, replica id, ticket, seed, tree nodes) is in
 * the form Filecoin stores it: a field element as 32 little-endian bytes, not Montgomery.
 * Functions that can fail return a cuzk_status and leave a message in cuzk_last_error(). */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include <stdbool.h>

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- registry */
/* RegisteredSealProof. The numeric value is the registered proof id that goes into the porep
 * id (append-only upstream; never renumber). */
typedef enum {
    CUZK_SEAL_2KIB_V1 = 0,
    CUZK_SEAL_8MIB_V1 = 1,
    CUZK_SEAL_512MIB_V1 = 2,
    CUZK_SEAL_32GIB_V1 = 3,
    CUZK_SEAL_64GIB_V1 = 4,
    CUZK_SEAL_2KIB_V1_1 = 5,
    CUZK_SEAL_8MIB_V1_1 = 6,
    CUZK_SEAL_512MIB_V1_1 = 7,
    CUZK_SEAL_32GIB_V1_1 = 8,
    CUZK_SEAL_64GIB_V1_1 = 9,
    CUZK_SEAL_2KIB_V1_1_SYNTH = 10, /* StackedDrg2KiBV1_1_Feat_SyntheticPoRep (API 1.2) */
    CUZK_SEAL_8MIB_V1_1_SYNTH = 11,
    CUZK_SEAL_512MIB_V1_1_SYNTH = 12,
    CUZK_SEAL_32GIB_V1_1_SYNTH = 13,
    CUZK_SEAL_64GIB_V1_1_SYNTH = 14,
    CUZK_SEAL_2KIB_V1_2_NI = 15, /* StackedDrg2KiBV1_2_Feat_NonInteractivePoRep */
    CUZK_SEAL_8MIB_V1_2_NI = 16,
    CUZK_SEAL_512MIB_V1_2_NI = 17,
    CUZK_SEAL_32GIB_V1_2_NI = 18,
    CUZK_SEAL_64GIB_V1_2_NI = 19,
    CUZK_SEAL_PROOF_COUNT = 20
} cuzk_seal_proof;

/* ApiVersion. V1_0_0 graphs put the DRG predecessor last and truncate the expander index to
 * 32 bits before dividing; V1_1_0 and V1_2_0 share the newer rules. */
typedef enum { CUZK_API_V1_0_0 = 0, CUZK_API_V1_1_0 = 1, CUZK_API_V1_2_0 = 2 } cuzk_api_version;

/* Which challenge derivation a proof type uses. */
typedef enum {
    CUZK_CHALLENGES_INTERACTIVE = 0, /* Sha256(replica_id || seed || j) */
    CUZK_CHALLENGES_SYNTHETIC = 1,   /* seed selects among ChaCha20-derived synthetic challenges */
    CUZK_CHALLENGES_NI = 2           /* Sha256(tag || replica_id || comm_r || j), no seed */
} cuzk_challenge_kind;

#define CUZK_POREP_DRG_PARENTS 6 /* BASE_DEGREE */
#define CUZK_POREP_EXP_PARENTS 8 /* EXP_DEGREE */
#define CUZK_POREP_PARENTS 14
#define CUZK_POREP_LABEL_PARENTS 37 /* TOTAL_PARENTS: the expanded parent list hashed per label */
#define CUZK_POREP_MAX_LAYERS 11

typedef struct {
    cuzk_seal_proof id;
    const char *name;                          /* serde name, e.g. "StackedDrg32GiBV1_1" */
    const char *vanilla_name;                  /* VanillaSealProof variant, e.g. "StackedDrg32GiBV1" (no _1) */
    uint64_t sector_size;                      /* bytes */
    uint64_t nodes;                            /* sector_size / 32 */
    unsigned layers;                           /* 2 for test sizes, 11 for 32/64 GiB */
    unsigned partitions;                       /* 1 / 10 interactive, 13 / 126 non-interactive */
    unsigned challenges_per_partition;         /* 2 / 18 */
    unsigned base_arity, sub_arity, top_arity; /* tree R / tree C shape (8, 0|8, 0|2) */
    unsigned base_path_len;                    /* levels of one base tree: log8(nodes / (sub * top)) */
    unsigned tree_d_depth;                     /* log2(nodes) */
    cuzk_api_version api_version;
    cuzk_challenge_kind challenges;
} cuzk_seal_proof_info;

/* The registry entry, or NULL (error set) for a value outside the enum. */
const cuzk_seal_proof_info *cuzk_seal_proof_info_get(cuzk_seal_proof p);
/* Looks a proof up by its serde name (exact, case-sensitive; len bytes, not NUL-terminated).
 * CUZK_EUNSUPPORTED, naming the string, when there is no such proof. */
cuzk_status cuzk_seal_proof_from_name(cuzk_seal_proof *out, const char *name, size_t len) CUZK_WARN_UNUSED;
/* porep_id: the registered proof id as u64 little-endian, then the nonce (0 for every proof
 * today) as u64 little-endian, then 16 zero bytes. */
void cuzk_seal_proof_porep_id(uint8_t out[32], cuzk_seal_proof p);
/* Number of public inputs of one partition circuit, ONE excluded: 3 + 18 * challenges. */
size_t cuzk_seal_proof_num_inputs(cuzk_seal_proof p);

/* ---------------------------------------------------------------- parameter files */
/* The parameter set identifier whose SHA-256 names the files ("layered_drgporep::PublicParams{
 * graph: ... }"). out gets at most cap bytes including the NUL; returns the length needed
 * (excluding the NUL), as snprintf does. */
size_t cuzk_seal_proof_param_identifier(char *out, size_t cap, cuzk_seal_proof p);
/* The file stem "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-S-T-sha256_hasher-
 * <hex sha256(identifier)>", shared by the .params, .vk and .meta files. */
#define CUZK_PARAM_STEM_MAX 160
void cuzk_seal_proof_param_stem(char out[CUZK_PARAM_STEM_MAX], cuzk_seal_proof p);
/* The default parameter directory, /var/tmp/filecoin-proof-parameters (what rust-fil-proofs
 * uses). The CLI's parameter_cache setting (FIL_PROOFS_PARAMETER_CACHE overrides it) names
 * another; the library reads no environment. */
#define CUZK_PARAM_DIR_DEFAULT "/var/tmp/filecoin-proof-parameters"
const char *cuzk_param_dir_default(void);
/* Builds dir/stem.params and dir/stem.vk (dir NULL = cuzk_param_dir_default()) into malloc'd
 * strings and checks that both are readable regular files. On CUZK_EIO the message names the
 * missing file, the proof type and the directory; the outputs are then NULL. Either output
 * pointer may be NULL when not wanted. */
cuzk_status cuzk_seal_proof_find_params(const char *dir, cuzk_seal_proof p, char **params_path,
                                        char **vk_path) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- graph */
/* The StackedDRG graph of one proof type: a BucketGraph DRG of degree 6 plus 8 Feistel expander
 * parents. Plain data; no allocation. */
typedef struct {
    uint64_t nodes;
    cuzk_api_version api_version;
    uint8_t drg_seed[28];     /* Sha256("Filecoin_DRSample" || porep_id)[..28] */
    uint64_t feistel_keys[4]; /* Sha256("Filecoin_Feistel" || porep_id) as 4 LE u64 */
    uint64_t feistel_left_mask, feistel_right_mask, feistel_half_bits;
} cuzk_porep_graph;

/* nodes must be a power of two in [4, 2^31] (CUZK_EINVAL otherwise). */
cuzk_status cuzk_porep_graph_init(cuzk_porep_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                                  cuzk_api_version api) CUZK_WARN_UNUSED;
/* The graph a registered proof type seals with (its nodes, porep_id and api version). */
cuzk_status cuzk_porep_graph_for_proof(cuzk_porep_graph *g, cuzk_seal_proof p) CUZK_WARN_UNUSED;
/* The 6 DRG parents of node (node < g->nodes; nodes 0 and 1 have all parents 0). For V1_1+
 * parents[0] = node - 1; for V1_0 parents[5] = node - 1. */
void cuzk_porep_drg_parents(const cuzk_porep_graph *g, uint32_t node, uint32_t parents[CUZK_POREP_DRG_PARENTS]);
/* The 8 expander parents of node (labels of the previous layer). */
void cuzk_porep_exp_parents(const cuzk_porep_graph *g, uint32_t node, uint32_t parents[CUZK_POREP_EXP_PARENTS]);

/* ---------------------------------------------------------------- replica id and challenges */
/* Sha256(prover_id || sector_id u64 BE || ticket || comm_d || porep_id), top two bits of byte
 * 31 cleared. prover_id is the 32-byte zero-padded payload of the miner's ID address (the
 * unsigned LEB128 of the actor id). */
void cuzk_porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                           const uint8_t comm_d[32], const uint8_t porep_id[32]);
/* prover_id for miner actor id (the "t0" / "f0" number): LEB128, zero padded. */
void cuzk_prover_id_from_actor(uint8_t out[32], uint64_t actor_id);

/* The challenged nodes of partition k, in proof order: out[challenges_per_partition], each in
 * [1, nodes). Which inputs matter depends on the proof type: interactive uses replica_id and
 * seed; synthetic uses replica_id, comm_r and seed; non-interactive uses replica_id and comm_r
 * (pass NULL for what is not used). CUZK_EINVAL when k >= partitions or a needed input is NULL. */
cuzk_status cuzk_porep_challenges(uint64_t *out, cuzk_seal_proof p, const uint8_t replica_id[32],
                                  const uint8_t comm_r[32], const uint8_t seed[32], unsigned k) CUZK_WARN_UNUSED;

/* The three derivations on their own (nodes < 2^32; j = count * k + i for challenge i). */
void cuzk_porep_interactive_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                                       const uint8_t seed[32], unsigned k);
void cuzk_porep_ni_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                              const uint8_t comm_r[32], unsigned k);
/* Synthetic PoRep: the generator draws num_synth (min(nodes, 2^18) in production) challenges
 * from a ChaCha20 stream keyed by Blake2b(replica_id || comm_r); the porep challenges of
 * partition k are the synthetic challenges at indices drawn from a second stream keyed by
 * (replica_id || seed). */
void cuzk_porep_synth_challenges(uint64_t *out, size_t count, uint64_t nodes, uint64_t num_synth,
                                 const uint8_t replica_id[32], const uint8_t comm_r[32], const uint8_t seed[32],
                                 unsigned k);
/* Synthetic challenge number i (i < num_synth) on its own. */
uint64_t cuzk_porep_synth_challenge_at(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                       uint64_t i);
#define CUZK_SYNTH_CHALLENGE_COUNT (1u << 18)

/* ---------------------------------------------------------------- public inputs */
/* The public inputs of partition k, in circuit order, ONE excluded:
 *   replica_id, comm_d, comm_r, then per challenge c:
 *   c (tree D path), drg_parent[0..6], exp_parent[0..8], c (UInt64), c (tree R path), c (tree C path).
 * out has room for cuzk_seal_proof_num_inputs(p) elements (cap checks it). replica_id, comm_d and
 * comm_r must be canonical field elements (CUZK_EINVAL otherwise). */
cuzk_status cuzk_porep_public_inputs(cuzk_fr *out, size_t cap, cuzk_seal_proof p, const uint8_t replica_id[32],
                                     const uint8_t comm_d[32], const uint8_t comm_r[32], const uint8_t seed[32],
                                     unsigned k) CUZK_WARN_UNUSED;
/* The same from what the chain knows about a sector (replica_id derived here). */
cuzk_status cuzk_porep_public_inputs_for_sector(cuzk_fr *out, size_t cap, cuzk_seal_proof p,
                                                const uint8_t prover_id[32], uint64_t sector_id,
                                                const uint8_t ticket[32], const uint8_t seed[32],
                                                const uint8_t comm_d[32], const uint8_t comm_r[32],
                                                unsigned k) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- circuit names */
/* A Filecoin circuit's two spellings from either: its id as the daemon and Curio name it
 * ("porep-32g", "ni-porep-32g", "wpost-2k", "winning-512m", "snap-64g") and its family form as the
 * circuit commands take it ("porep:32GiB", "window-post:2KiB", "winning-post:512MiB",
 * "snap:64GiB"; "" for NI PoRep, which has none). Only the text is read: whether such a sector
 * size exists is the registry's to say. Returns: true when in is either form.
 * In: in. Out: id, family (64 bytes each), set only when it returns true. Thread: any. */
bool cuzk_filecoin_circuit_spellings(const char *in, char id[64], char family[64]);

#ifdef __cplusplus
}
#endif
#endif
