/* sector.json: the public data of a sealed test sector (hex strings, jansson). */
#include "cli/sector_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

cuzk_status parse_prover_id(const char *s, uint8_t out[32])
{
    if ((s[0] == 't' || s[0] == 'f') && s[1] == '0') {
        char *end;
        unsigned long long id = strtoull(s + 2, &end, 10);
        if (s[2] < '0' || s[2] > '9' || *end)
            return cuzk_fail(CUZK_EINVAL, "prover id '%s' is not an ID address like t01002", s);
        cuzk_prover_id_from_actor(out, id);
        return CUZK_OK;
    }
    cuzk_status st = cuzk_hex_decode(out, 32, s);
    return st ? cuzk_fail_context(st, "prover id '%s' (an ID address like t01002, or 64 hex digits)", s) : CUZK_OK;
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
    int bad = json_object_set_new(o, "registered_proof", json_string(info->name));
    if (s->sparse) bad |= json_object_set_new(o, "test_sector", json_string("sparse"));
    bad |= put_hex(o, "prover_id", s->prover_id);
    bad |= json_object_set_new(o, "sector_id", json_integer((json_int_t)s->sector_id));
    bad |= put_hex(o, "ticket", s->ticket);
    bad |= put_hex(o, "seed", s->seed);
    bad |= put_hex(o, "comm_d", s->comm_d);
    bad |= put_hex(o, "comm_r", s->comm_r);
    bad |= put_hex(o, "replica_id", s->replica_id);
    char *t = bad ? NULL : json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    size_t n = t ? strlen(t) : 0;
    char *grown = t ? realloc(t, n + 2) : NULL;
    if (!grown) {
        free(t);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    grown[n] = '\n';
    grown[n + 1] = 0;
    *text = grown;
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

cuzk_status sector_public_read(const char *path, sector_public *s)
{
    json_error_t err;
    json_t *o = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!o) return cuzk_fail(CUZK_EINVAL, "%s: not valid JSON (line %d): %s", path, err.line, err.text);
    cuzk_status st = CUZK_OK;
    json_t *name = json_object_get(o, "registered_proof"), *sid = json_object_get(o, "sector_id"),
           *test = json_object_get(o, "test_sector");
    if (!json_is_object(o) || !json_is_string(name))
        st = cuzk_fail(CUZK_EINVAL, "%s: expected an object with \"registered_proof\"", path);
    if (!st) st = cuzk_seal_proof_from_name(&s->proof, json_string_value(name), strlen(json_string_value(name)));
    if (!st && (!json_is_integer(sid) || json_integer_value(sid) < 0))
        st = cuzk_fail(CUZK_EINVAL, "%s: \"sector_id\" must be a non-negative integer", path);
    if (!st) s->sector_id = (uint64_t)json_integer_value(sid);
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
    if (st) return st;
    uint8_t porep_id[32], rid[32];
    cuzk_seal_proof_porep_id(porep_id, s->proof);
    cuzk_porep_replica_id(rid, s->prover_id, s->sector_id, s->ticket, s->comm_d, porep_id);
    if (memcmp(rid, s->replica_id, 32))
        return cuzk_fail(CUZK_EINVAL, "%s: replica_id does not match prover_id, sector_id, ticket and comm_d", path);
    return CUZK_OK;
}
