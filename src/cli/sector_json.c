/* sector.json: the public data of a sealed test sector (hex strings, jansson). */
#include "cli/sector_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/outputs.h"

cuzk_status parse_prover_id(const char *s, uint8_t out[32])
{
    if ((s[0] == 't' || s[0] == 'f') && s[1] == '0') {
        uint64_t id;
        if (s[2] < '0' || s[2] > '9' || cuzk_u64_parse(s + 2, &id))
            return cuzk_fail(CUZK_EINVAL,
                             "prover id '%s' is not an ID address like t01002 (actor ids are 0 .. 2^64 - 1)", s);
        cuzk_prover_id_from_actor(out, id);
        return CUZK_OK;
    }
    cuzk_status st = cuzk_hex_decode(out, 32, s);
    return st ? cuzk_fail_context(st, "prover id '%s' (an ID address like t01002, or 64 hex digits)", s) : CUZK_OK;
}

void sector_id_json(char out[SECTOR_ID_JSON_MAX], uint64_t id)
{
    snprintf(out, SECTOR_ID_JSON_MAX, id > INT64_MAX ? "\"%llu\"" : "%llu", (unsigned long long)id);
}

static int put_hex(json_t *o, const char *key, const uint8_t b[32])
{
    char hex[65];
    cuzk_hex_encode(hex, b, 32);
    return json_object_set_new(o, key, json_string(hex));
}

cuzk_status sector_public_format(const sector_public *s, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(s->proof);
    if (!info) return CUZK_EINVAL;
    json_t *o = json_object();
    if (!o) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    /* jansson's integers are signed 64-bit: an id above 2^63 - 1 is its decimal string */
    char dec[SECTOR_ID_JSON_MAX];
    snprintf(dec, sizeof dec, "%llu", (unsigned long long)s->sector_id);
    int bad = json_object_set_new(o, "registered_proof", json_string(info->name));
    if (s->sparse) bad |= json_object_set_new(o, "test_sector", json_string("sparse"));
    bad |= put_hex(o, "prover_id", s->prover_id);
    bad |= json_object_set_new(o, "sector_id",
                               s->sector_id > INT64_MAX ? json_string(dec) : json_integer((json_int_t)s->sector_id));
    bad |= put_hex(o, "ticket", s->ticket);
    bad |= put_hex(o, "seed", s->seed);
    bad |= put_hex(o, "comm_d", s->comm_d);
    bad |= put_hex(o, "comm_r", s->comm_r);
    bad |= put_hex(o, "replica_id", s->replica_id);
    char *t = bad ? NULL : json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!t) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    size_t n = strlen(t);
    char *nl = realloc(t, n + 2);
    if (!nl) {
        free(t);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    nl[n] = '\n';
    nl[n + 1] = 0;
    *text = nl;
    *len = n + 1;
    return CUZK_OK;
}

cuzk_status sector_public_write(const char *path, const sector_public *s)
{
    char *text;
    size_t n;
    cuzk_status st = sector_public_format(s, &text, &n);
    if (!st) st = cuzk_write_file_atomic(path, text, n);
    free(text);
    return st;
}

static cuzk_status get_hex(json_t *o, const char *path, const char *key, uint8_t out[32])
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v)) return cuzk_fail(CUZK_EINVAL, "%s: \"%s\" must be a string of 64 hex digits", path, key);
    cuzk_status st = cuzk_hex_decode(out, 32, json_string_value(v));
    return st ? cuzk_fail_context(st, "%s: \"%s\"", path, key) : CUZK_OK;
}

cuzk_status sector_id_from_json(json_t *v, const char *where, uint64_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return CUZK_OK;
    }
    const char *s = json_string_value(v);
    if (s && strlen(s) == json_string_length(v)) {
        if (s[0] == '0' && s[1]) return cuzk_fail(CUZK_EINVAL, "%s: '%s' has leading zeros", where, s);
        if (cuzk_u64_parse(s, out)) return cuzk_fail_context(CUZK_EINVAL, "%s", where);
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_EINVAL, "%s must be an integer in 0 .. 2^64 - 1 (above 2^63 - 1 as a decimal string)", where);
}

static cuzk_status get_u64(json_t *o, const char *path, const char *key, uint64_t *out)
{
    char where[4200];
    snprintf(where, sizeof where, "%s: \"%s\"", path, key);
    return sector_id_from_json(json_object_get(o, key), where, out);
}

cuzk_status sector_public_parse_fields(const char *text, size_t len, const char *path, sector_public *s)
{
    memset(s, 0, sizeof *s);
    json_error_t err;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!o) return cuzk_fail(CUZK_EINVAL, "%s: not valid JSON (line %d): %s", path, err.line, err.text);
    cuzk_status st = CUZK_OK;
    json_t *name = json_object_get(o, "registered_proof"), *test = json_object_get(o, "test_sector");
    if (!json_is_object(o) || !json_is_string(name))
        st = cuzk_fail(CUZK_EINVAL, "%s: expected an object with \"registered_proof\"", path);
    if (!st) st = cuzk_seal_proof_from_name(&s->proof, json_string_value(name), json_string_length(name));
    if (!st) st = get_u64(o, path, "sector_id", &s->sector_id);
    if (!st && test && !(json_is_string(test) && !strcmp(json_string_value(test), "sparse")))
        st = cuzk_fail(CUZK_EINVAL, "%s: \"test_sector\" must be \"sparse\" when present", path);
    if (!st) s->sparse = test != NULL;
    if (!st) st = get_hex(o, path, "prover_id", s->prover_id);
    if (!st) st = get_hex(o, path, "ticket", s->ticket);
    if (!st) st = get_hex(o, path, "seed", s->seed);
    if (!st) st = get_hex(o, path, "comm_d", s->comm_d);
    if (!st) st = get_hex(o, path, "comm_r", s->comm_r);
    if (!st) st = get_hex(o, path, "replica_id", s->replica_id);
    json_decref(o);
    return st;
}

cuzk_status sector_public_check(const char *path, const sector_public *s)
{
    uint8_t porep_id[32], rid[32];
    cuzk_seal_proof_porep_id(porep_id, s->proof);
    cuzk_porep_replica_id(rid, s->prover_id, s->sector_id, s->ticket, s->comm_d, porep_id);
    if (memcmp(rid, s->replica_id, 32))
        return cuzk_fail(CUZK_EINVAL, "%s: replica_id does not match prover_id, sector_id, ticket and comm_d", path);
    return CUZK_OK;
}

cuzk_status sector_public_read(const char *path, sector_public *s)
{
    uint8_t *text;
    size_t len;
    cuzk_status st = cuzk_read_file_max(path, CLI_SMALL_JSON_MAX, &text, &len);
    if (st) return st;
    st = sector_public_parse_fields((const char *)text, len, path, s);
    free(text);
    return st ? st : sector_public_check(path, s);
}
