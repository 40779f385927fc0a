/* A folder of vanilla proofs as Curio would send them to a prover, made by `cuzk post vanilla`
 * (post.json and one blob per sector) or `cuzk snap encode` (update.json and one blob per
 * partition): the proof kind, the registered proof, the public values of the request and the
 * blobs, read for `cuzk prove` and `cuzk verify`. */
#ifndef CUZK_CLI_VANILLA_SET_H
#define CUZK_CLI_VANILLA_SET_H

#include "cuzk/engine.h"

typedef struct {
    cuzk_job_kind kind;
    uint64_t registered_proof;
    char proof_name[64];
    uint8_t randomness[32];                                 /* PoSt */
    uint32_t partition_index;                               /* WindowPoSt */
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32]; /* SnapDeals */
    size_t n;
    uint8_t **blobs; /* n blobs, malloc'd */
    size_t *lens;
    char **paths;     /* the n blobs' files (malloc'd), for the outputs' checks */
    char *descriptor; /* its post.json or update.json */
    /* PoSt: post.json's public sectors, one per blob (strictly ascending ids; malloc'd): the
     * sectors the blobs are checked against and the public inputs are made of */
    uint64_t *sector_ids;
    uint8_t *comm_rs; /* 32 bytes each */
} vanilla_set;

/* The kinds by their command names ("window-post", "winning-post", "snap"); false for others. */
bool vanilla_kind_of(const char *name, cuzk_job_kind *kind);
/* Reads dir's descriptor and blobs for kind; errors name the file and the field. */
cuzk_status vanilla_set_read(vanilla_set *v, cuzk_job_kind kind, const char *dir) CUZK_WARN_UNUSED;
void vanilla_set_free(vanilla_set *v);
/* The engine request of the set (pointers into v). */
void vanilla_set_request(const vanilla_set *v, cuzk_job_request *req);
/* Every partition's public inputs, recomputed from the set (the vanilla proofs parsed and
 * checked natively): out[nparts * ninputs], malloc'd. */
cuzk_status vanilla_set_public_inputs(const vanilla_set *v, cuzk_fr **out, size_t *nparts,
                                      size_t *ninputs) CUZK_WARN_UNUSED;

#endif
