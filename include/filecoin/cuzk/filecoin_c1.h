/* The output of seal commit phase 1 (C1): rust-filecoin-proofs-api SealCommitPhase1Output as
 * serde_json writes it, and the {"SectorNum", "Phase1Out" (base64), "SectorSize"} wrapper that
 * lotus-bench and Curio put around it.
 *
 * Parsing is strict: the registered proof must be known, and every shape must be exactly what
 * C2 needs for that proof type (partition and challenge counts, 6 + 8 parent columns, one row
 * per layer, 37 label parents, Merkle path lengths and arities per tree shape, 32-byte arrays of
 * integers 0..255 holding canonical field elements). Consistency that needs no hashing is
 * checked too: every comm_d path ends at comm_d, all tree R roots agree, all tree C roots agree,
 * path indices, column indices and label node numbers agree with the challenge. Errors name the
 * JSON path, e.g. `vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3]
 * .hashes: expected 1 element, got 2`. Key order and whitespace are free on input; unknown or
 * duplicate keys are errors.
 *
 * Writing reproduces serde_json's compact output byte for byte (struct field order, no spaces,
 * plain decimal integers), so parse -> write returns the input bytes of any serde-written C1.
 *
 * cuzk_c1_verify does what needs hashing: the vanilla proof checks of rust-fil-proofs
 * (challenges derived from replica_id / seed / comm_r, DRG and expander parents, every Merkle
 * path, labels, encoding, comm_r = Poseidon2(comm_c, comm_r_last)). */
#ifndef CUZK_FILECOIN_C1_H
#define CUZK_FILECOIN_C1_H

#include "cuzk/filecoin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 32-byte value as Filecoin stores it (field element, little-endian canonical bytes). */
typedef struct {
    uint8_t b[32];
} cuzk_node;

/* One level of a Merkle path: the arity - 1 siblings in child order (the node itself left
 * out) and the node's position among its siblings. */
typedef struct {
    cuzk_node *hashes;
    uint32_t nhashes;
    uint32_t index;
} cuzk_path_elem;

typedef enum {
    CUZK_MERKLE_SINGLE = 0, /* one tree: the whole path is "base" */
    CUZK_MERKLE_SUB = 1,    /* base trees under one sub-tree level (32 GiB: 8 trees) */
    CUZK_MERKLE_TOP = 2     /* base, sub and a top level (64 GiB: 2 x 8 trees) */
} cuzk_merkle_kind;

typedef struct {
    cuzk_merkle_kind kind;
    cuzk_node root, leaf;
    uint32_t nbase, nsub, ntop; /* path elements of each part */
    cuzk_path_elem *path;       /* nbase + nsub + ntop elements, leaf to root */
} cuzk_merkle_proof;

typedef struct {
    uint32_t index;              /* the column's node */
    uint32_t nrows;              /* = layers */
    cuzk_node *rows;             /* rows[l] = label of layer l + 1 */
    cuzk_merkle_proof inclusion; /* of the column hash in tree C */
} cuzk_column_proof;

/* LabelingProof and EncodingProof (same fields). */
typedef struct {
    uint32_t layer_index; /* 1-based */
    uint64_t node;
    uint32_t nparents; /* = 37 */
    cuzk_node *parents;
} cuzk_labeling_proof;

/* The vanilla proof of one challenge (storage-proofs-porep stacked::Proof). */
typedef struct {
    cuzk_merkle_proof comm_d_proof;      /* tree D (binary SHA-256), Single */
    cuzk_merkle_proof comm_r_last_proof; /* tree R */
    cuzk_column_proof c_x;
    cuzk_column_proof drg_parents[CUZK_POREP_DRG_PARENTS];
    cuzk_column_proof exp_parents[CUZK_POREP_EXP_PARENTS];
    uint32_t nlabeling; /* = layers */
    cuzk_labeling_proof *labeling;
    cuzk_labeling_proof encoding;
} cuzk_challenge_proof;

typedef struct cuzk_c1_arena cuzk_c1_arena;

/* A parsed (or built) C1. Everything it points to is owned by it; free with cuzk_c1_free. */
typedef struct {
    cuzk_seal_proof proof;
    const cuzk_seal_proof_info *info;
    uint32_t partitions, challenges_per_partition;
    cuzk_challenge_proof *proofs; /* [partition][challenge], partition-major */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    cuzk_c1_arena *arena;
} cuzk_c1;

/* Proof i of partition k. */
static inline const cuzk_challenge_proof *cuzk_c1_challenge(const cuzk_c1 *c1, uint32_t k, uint32_t i)
{
    return &c1->proofs[(size_t)k * c1->challenges_per_partition + i];
}

/* Parses the serde JSON of SealCommitPhase1Output (len bytes, need not be NUL-terminated).
 * On failure *out is NULL and the message names the JSON path and byte offset. */
cuzk_status cuzk_c1_parse(cuzk_c1 **out, const uint8_t *json, size_t len) CUZK_WARN_UNUSED;
/* Parses either form: a raw SealCommitPhase1Output or the base64 wrapper (detected by its
 * keys). sector_num / sector_size (may be NULL) receive the wrapper's values, or -1 / 0 for a
 * raw C1. A wrapper's SectorSize must match the registered proof. */
cuzk_status cuzk_c1_parse_any(cuzk_c1 **out, const uint8_t *json, size_t len, int64_t *sector_num,
                              uint64_t *sector_size) CUZK_WARN_UNUSED;
/* Maps and parses a file (either form). */
cuzk_status cuzk_c1_parse_file(cuzk_c1 **out, const char *path, int64_t *sector_num) CUZK_WARN_UNUSED;
void cuzk_c1_free(cuzk_c1 *c1);
/* The bytes a C1 holds in memory (the object and its arena's chunks, used or not): what
 * keeping it costs, against the text it was parsed from. */
size_t cuzk_c1_bytes(const cuzk_c1 *c1);

/* serde_json::to_vec of the C1 into a malloc'd buffer (*json, *len; not NUL-terminated). */
cuzk_status cuzk_c1_write(const cuzk_c1 *c1, uint8_t **json, size_t *len) CUZK_WARN_UNUSED;

/* The wrapper: {"SectorNum":n,"Phase1Out":"<base64 of c1_json>","SectorSize":s} as Go's
 * encoding/json writes it. */
cuzk_status cuzk_c1_wrap(uint8_t **json, size_t *len, const uint8_t *c1_json, size_t c1_len, int64_t sector_num,
                         uint64_t sector_size) CUZK_WARN_UNUSED;
/* Decodes a wrapper: *c1_json is the malloc'd inner JSON. Keys in any order; all three
 * required; Phase1Out must be standard base64 (padding required). */
cuzk_status cuzk_c1_unwrap(const uint8_t *json, size_t len, uint8_t **c1_json, size_t *c1_len, int64_t *sector_num,
                           uint64_t *sector_size) CUZK_WARN_UNUSED;

/* Synthetic data of proof type p's exact shape for `partitions` partitions, for benchmarks:
 * structurally valid (indices, roots, counts; canonical nodes) but random, so not a proof. */
cuzk_status cuzk_c1_synthetic(cuzk_c1 **out, cuzk_seal_proof p, unsigned partitions, uint64_t seed) CUZK_WARN_UNUSED;

/* The full vanilla verification (hashes everything: milliseconds for 2 KiB, seconds for a
 * 32 GiB C1). prover_id and sector_id are optional: when prover_id is non-NULL the replica id
 * is recomputed from them, the ticket and comm_d, and must match. CUZK_EVERIFY names the first
 * check that failed (partition, challenge, what). */
cuzk_status cuzk_c1_verify(const cuzk_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
