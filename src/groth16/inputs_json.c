/* Public inputs as JSON (jansson): ["1", "2"] for one proof, [["1"], ["2"]] for several. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

cuzk_status cuzk_inputs_json_format(char **text, size_t *len, const cuzk_fr *inputs, size_t nproofs, size_t ninputs,
                                    bool nested)
{
    *text = NULL;
    *len = 0;
    json_t *top = json_array();
    cuzk_status st = top ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    nested = nested || nproofs != 1;
    for (size_t p = 0; p < nproofs && !st; p++) {
        json_t *arr = nested ? json_array() : top;
        if (!arr) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (size_t i = 0; i < ninputs && !st; i++) {
            char dec[CUZK_FR_DECIMAL_MAX];
            cuzk_fr_to_decimal(dec, &inputs[p * ninputs + i]);
            if (json_array_append_new(arr, json_string(dec))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        if (nested && arr && json_array_append_new(top, arr)) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    char *s = st ? NULL : json_dumps(top, JSON_COMPACT);
    json_decref(top);
    if (!st && !s) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (st) return st;
    /* the line's newline: json_dumps leaves no room for it */
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    t[n] = '\n';
    t[n + 1] = 0;
    *text = t;
    *len = n + 1;
    return CUZK_OK;
}

cuzk_status cuzk_inputs_json_write(const char *path, const cuzk_fr *inputs, size_t nproofs, size_t ninputs, bool nested)
{
    char *text;
    size_t n;
    cuzk_status st = cuzk_inputs_json_format(&text, &n, inputs, nproofs, ninputs, nested);
    if (!st) st = cuzk_write_file_atomic(path, text, n);
    free(text);
    return st;
}

static cuzk_status parse_value(const char *name, json_t *v, size_t p, size_t i, bool nested, cuzk_fr *out)
{
    char where[64];
    if (nested) snprintf(where, sizeof where, "[%zu][%zu]", p, i);
    else snprintf(where, sizeof where, "[%zu]", i);
    if (!json_is_string(v)) return cuzk_fail(CUZK_EINVAL, "%s: %s: expected a decimal string", name, where);
    const char *s = json_string_value(v);
    if (s[0] == '0' && s[1]) return cuzk_fail(CUZK_EINVAL, "%s: %s: '%s' has leading zeros", name, where, s);
    cuzk_status st = cuzk_fr_from_decimal(out, s);
    return st ? cuzk_fail_context(st, "%s: %s", name, where) : CUZK_OK;
}

/* The shape of the document, checked before anything is sized from it: every row an array of
 * the first row's length. */
static cuzk_status check_shape(const char *name, json_t *top, bool *nested, size_t *np, size_t *ni)
{
    if (!json_is_array(top))
        return cuzk_fail(CUZK_EINVAL, "%s: expected an array of decimal strings, or an array of such arrays", name);
    size_t n = json_array_size(top);
    *nested = n > 0 && json_is_array(json_array_get(top, 0));
    *np = *nested ? n : 1;
    *ni = *nested ? json_array_size(json_array_get(top, 0)) : n;
    for (size_t p = 0; *nested && p < n; p++) {
        json_t *row = json_array_get(top, p);
        if (!json_is_array(row))
            return cuzk_fail(CUZK_EINVAL, "%s: [%zu]: expected an array of decimal strings", name, p);
        if (json_array_size(row) != *ni)
            return cuzk_fail(CUZK_EINVAL, "%s: [%zu] has %zu inputs but [0] has %zu", name, p, json_array_size(row),
                             *ni);
    }
    return CUZK_OK;
}

static cuzk_status parse_doc(const char *name, json_t *top, cuzk_fr **inputs, size_t *nproofs, size_t *ninputs)
{
    bool nested = false;
    size_t np = 0, ni = 0;
    cuzk_status st = check_shape(name, top, &nested, &np, &ni);
    if (st) return st;
    /* np * ni values are in the document, so the product is bounded by its size */
    cuzk_fr *vals = calloc(np * ni + 1, sizeof(cuzk_fr));
    if (!vals) return cuzk_fail(CUZK_ENOMEM, "%s: out of memory for %zu x %zu inputs", name, np, ni);
    for (size_t p = 0; p < np && !st; p++) {
        json_t *arr = nested ? json_array_get(top, p) : top;
        for (size_t i = 0; i < ni && !st; i++)
            st = parse_value(name, json_array_get(arr, i), p, i, nested, &vals[p * ni + i]);
    }
    if (st) {
        free(vals);
        return st;
    }
    *inputs = vals;
    *nproofs = np;
    *ninputs = ni;
    return CUZK_OK;
}

cuzk_status cuzk_inputs_json_parse(const char *text, size_t len, const char *name, cuzk_fr **inputs, size_t *nproofs,
                                   size_t *ninputs)
{
    *inputs = NULL;
    *nproofs = *ninputs = 0;
    json_error_t err;
    json_t *top = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!top)
        return cuzk_fail(CUZK_EINVAL, "%s: not valid JSON (line %d, column %d): %s", name, err.line, err.column,
                         err.text);
    cuzk_status st = parse_doc(name, top, inputs, nproofs, ninputs);
    json_decref(top);
    return st;
}

cuzk_status cuzk_inputs_json_read(const char *path, uint64_t max_bytes, cuzk_fr **inputs, size_t *nproofs,
                                  size_t *ninputs)
{
    *inputs = NULL;
    *nproofs = *ninputs = 0;
    uint8_t *text;
    size_t len;
    cuzk_status st = cuzk_read_file_max(path, max_bytes, &text, &len);
    if (st) return st;
    st = cuzk_inputs_json_parse((const char *)text, len, path, inputs, nproofs, ninputs);
    free(text);
    return st;
}
