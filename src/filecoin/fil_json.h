/* A strict, allocation-free JSON reader for the C1 schemas, driven by the parser that knows
 * the schema (recursive descent), with the JSON path of the current value kept on a stack so
 * every error can say where it happened.
 *
 * Why not a DOM or a generic library: a 32 GiB C1 is ~50 MB of JSON made of ~1.7 million
 * 32-byte arrays written as decimal integers. A DOM (jansson, cJSON) would allocate a node per
 * integer, ~50 million of them, costing gigabytes and many seconds; an event parser such as
 * yajl's would need the schema turned inside out into a state machine. Reading the schema top
 * down over the mapped bytes keeps the code a direct transcription of the serde types, decodes
 * each 32-byte array in one tight loop straight into its final place, and parses at hundreds of
 * MB/s with memory about a quarter of the file. The grammar needed is small (objects, arrays,
 * strings, non-negative integers, null), and everything else is rejected with a message. */
#ifndef CUZK_FIL_JSON_H
#define CUZK_FIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/base.h"

#define FJ_MAX_DEPTH 48

typedef struct {
    const char *key; /* NULL for an array index */
    size_t klen;
    uint64_t index;
} fj_seg;

typedef struct {
    const uint8_t *start, *p, *end;
    fj_seg path[FJ_MAX_DEPTH];
    int depth;
    char keybuf[128]; /* decoded keys that contained escapes */
} fj_reader;

void fj_init(fj_reader *r, const uint8_t *json, size_t len);
/* Fails with CUZK_EFORMAT: "<json path>: <message> (byte <offset>)". */
cuzk_status fj_error(fj_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Formats the current path ("vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs"). */
void fj_path(const fj_reader *r, char *out, size_t cap);

static inline void fj_ws(fj_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')) r->p++;
}

/* Objects: fj_obj_begin consumes '{'. fj_obj_next reads the next key and its ':' (or the
 * closing '}', then *has = false) and pushes the key on the path; pop it after the value. */
cuzk_status fj_obj_begin(fj_reader *r) CUZK_WARN_UNUSED;
cuzk_status fj_obj_next(fj_reader *r, bool *has, const char **key, size_t *klen) CUZK_WARN_UNUSED;
/* Arrays: fj_arr_begin consumes '['; fj_arr_next consumes ',' or ']' and pushes the index. */
cuzk_status fj_arr_begin(fj_reader *r) CUZK_WARN_UNUSED;
cuzk_status fj_arr_next(fj_reader *r, bool *has) CUZK_WARN_UNUSED;
static inline void fj_pop(fj_reader *r) { r->depth--; }
/* After fj_arr_next reported an element beyond `expected`, counts the rest (skipping values)
 * and fails with "expected N elements, got M" at the array's path. */
cuzk_status fj_too_many(fj_reader *r, uint64_t expected, const char *what) CUZK_WARN_UNUSED;

/* An unsigned integer <= max (JSON integer syntax: no sign, no leading zeros, no fraction or
 * exponent). */
cuzk_status fj_u64(fj_reader *r, uint64_t max, uint64_t *v) CUZK_WARN_UNUSED;
cuzk_status fj_i64(fj_reader *r, int64_t *v) CUZK_WARN_UNUSED;
cuzk_status fj_null(fj_reader *r) CUZK_WARN_UNUSED;
/* A string's raw bytes between the quotes (escapes left as they are; *escaped tells). */
cuzk_status fj_string_raw(fj_reader *r, const uint8_t **s, size_t *len, bool *escaped) CUZK_WARN_UNUSED;
/* Decodes the JSON escapes of a raw string into out (cap bytes); UTF-8 for \u escapes. */
cuzk_status fj_unescape(fj_reader *r, const uint8_t *s, size_t len, char *out, size_t cap,
                        size_t *outlen) CUZK_WARN_UNUSED;
/* A 32-byte value: an array of exactly 32 integers 0..255. With `canonical`, the bytes read
 * as a little-endian integer must be below the BLS12-381 scalar field modulus. */
cuzk_status fj_node(fj_reader *r, uint8_t out[32], bool canonical) CUZK_WARN_UNUSED;
/* Only whitespace may follow the top-level value. */
cuzk_status fj_end(fj_reader *r) CUZK_WARN_UNUSED;

/* Little-endian 32-byte value < r. */
bool fj_is_canonical_fr(const uint8_t b[32]);

#endif
