/* The public data of a test sector as `cuzk seal` writes it (sector.json) and
 * `cuzk verify porep --public` reads it. A sparse sector's file says so ("test_sector":
 * "sparse"): it has no replica or p_aux beside it. */
#ifndef CUZK_CLI_SECTOR_JSON_H
#define CUZK_CLI_SECTOR_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "cuzk/filecoin.h"

typedef struct {
    cuzk_seal_proof proof;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32], comm_d[32], comm_r[32], replica_id[32];
    bool sparse; /* "test_sector": "sparse" (cuzk seal --sparse) */
} sector_public;

/* The file: an object of "registered_proof" (its name), "sector_id" and 64-digit hex strings.
 * jansson's integers are signed 64-bit, so a sector id above 2^63 - 1 is written as its decimal
 * string ("sector_id": "18446744073709551615"); smaller ones as plain integers. The reader takes
 * either form for any id and reads it exactly, so every u64 id round-trips. */
cuzk_status sector_public_write(const char *path, const sector_public *s) CUZK_WARN_UNUSED;
/* The file's text into *text (malloc'd, NUL-terminated, *len bytes with the final newline). */
cuzk_status sector_public_format(const sector_public *s, char **text, size_t *len) CUZK_WARN_UNUSED;
/* Reads and checks it: a regular file of at most CLI_SMALL_JSON_MAX bytes (a FIFO is refused,
 * not waited on); the replica id is recomputed from prover id, sector id, ticket and comm_d
 * and must match the file's. */
cuzk_status sector_public_read(const char *path, sector_public *s) CUZK_WARN_UNUSED;
/* The two steps of reading, on len bytes of text (path names it in messages): the fields, then
 * the replica id check. */
cuzk_status sector_public_parse_fields(const char *text, size_t len, const char *path,
                                       sector_public *s) CUZK_WARN_UNUSED;
cuzk_status sector_public_check(const char *path, const sector_public *s) CUZK_WARN_UNUSED;
/* A miner ID address ("t01002" / "f01002", actor id 0 .. 2^64 - 1 exactly) or 64 hex digits. */
cuzk_status parse_prover_id(const char *s, uint8_t out[32]) CUZK_WARN_UNUSED;
/* A sector id as a JSON value in that convention, read exactly; errors name it as `where` (a
 * file and the value's place in it: "s/sector.json: \"sector_id\""). */
cuzk_status sector_id_from_json(json_t *v, const char *where, uint64_t *out) CUZK_WARN_UNUSED;
/* A sector id as JSON text in the same convention (a number, or above 2^63 - 1 a quoted
 * decimal string), for descriptors written with printf. */
#define SECTOR_ID_JSON_MAX 24
void sector_id_json(char out[SECTOR_ID_JSON_MAX], uint64_t id);

#endif
