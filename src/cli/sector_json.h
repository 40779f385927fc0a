/* The public data of a test sector as `cuzk seal` writes it (sector.json) and
 * `cuzk verify porep --public` reads it. A sparse sector's file says so ("test_sector":
 * "sparse"): it has no replica or p_aux beside it. */
#ifndef CUZK_CLI_SECTOR_JSON_H
#define CUZK_CLI_SECTOR_JSON_H

#include <stdbool.h>

#include "cuzk/filecoin.h"

typedef struct {
    cuzk_seal_proof proof;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32], comm_d[32], comm_r[32], replica_id[32];
    bool sparse; /* "test_sector": "sparse" (cuzk seal --sparse) */
} sector_public;

/* The file's text (malloc'd, ending in a newline), and the whole file written atomically. */
cuzk_status sector_public_format(const sector_public *s, char **text, size_t *len) CUZK_WARN_UNUSED;
cuzk_status sector_public_write(const char *path, const sector_public *s) CUZK_WARN_UNUSED;
/* Reads and checks it: the replica id is recomputed from prover id, sector id, ticket and
 * comm_d and must match the file's. */
cuzk_status sector_public_read(const char *path, sector_public *s) CUZK_WARN_UNUSED;
/* A miner ID address ("t01002" / "f01002") or 64 hex digits. */
cuzk_status parse_prover_id(const char *s, uint8_t out[32]) CUZK_WARN_UNUSED;

#endif
