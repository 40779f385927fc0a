/* Public inputs as JSON (jansson): ["1", "2"] for one proof, [["1"], ["2"]] for several. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

cuzk_status cuzk_inputs_json_write(const char *path, const cuzk_fr *inputs, size_t nproofs, size_t ninputs, bool nested)
{
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
    char *text = st ? NULL : json_dumps(top, JSON_COMPACT);
    json_decref(top);
    if (!st && !text) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st) {
        size_t n = strlen(text);
        text[n] = '\n';
        st = cuzk_write_file_atomic(path, text, n + 1);
        text[n] = 0;
    }
    free(text);
    return st;
}

static cuzk_status parse_value(const char *path, json_t *v, size_t p, size_t i, bool nested, cuzk_fr *out)
{
    char where[64];
    if (nested) snprintf(where, sizeof where, "[%zu][%zu]", p, i);
    else snprintf(where, sizeof where, "[%zu]", i);
    if (!json_is_string(v)) return cuzk_fail(CUZK_EINVAL, "%s: %s: expected a decimal string", path, where);
    const char *s = json_string_value(v);
    if (s[0] == '0' && s[1]) return cuzk_fail(CUZK_EINVAL, "%s: %s: '%s' has leading zeros", path, where, s);
    cuzk_status st = cuzk_fr_from_decimal(out, s);
    return st ? cuzk_fail_context(st, "%s: %s", path, where) : CUZK_OK;
}

cuzk_status cuzk_inputs_json_read(const char *path, cuzk_fr **inputs, size_t *nproofs, size_t *ninputs)
{
    *inputs = NULL;
    *nproofs = *ninputs = 0;
    json_error_t err;
    json_t *top = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!top)
        return cuzk_fail(CUZK_EINVAL, "%s: not valid JSON (line %d, column %d): %s", path, err.line, err.column,
                         err.text);
    cuzk_status st = CUZK_OK;
    if (!json_is_array(top)) {
        st = cuzk_fail(CUZK_EINVAL, "%s: expected an array of decimal strings, or an array of such arrays", path);
        goto done;
    }
    size_t n = json_array_size(top);
    bool nested = n > 0 && json_is_array(json_array_get(top, 0));
    size_t np = nested ? n : 1, ni = nested ? json_array_size(json_array_get(top, 0)) : n;
    if (nested && n == 0) {
        st = cuzk_fail(CUZK_EINVAL, "%s: no proofs' inputs", path);
        goto done;
    }
    cuzk_fr *vals = calloc(np * ni + 1, sizeof(cuzk_fr));
    if (!vals) {
        st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t p = 0; p < np && !st; p++) {
        json_t *arr = nested ? json_array_get(top, p) : top;
        if (!json_is_array(arr)) {
            st = cuzk_fail(CUZK_EINVAL, "%s: [%zu]: expected an array of decimal strings", path, p);
            break;
        }
        if (json_array_size(arr) != ni) {
            st = cuzk_fail(CUZK_EINVAL, "%s: [%zu] has %zu inputs but [0] has %zu", path, p, json_array_size(arr), ni);
            break;
        }
        for (size_t i = 0; i < ni && !st; i++)
            st = parse_value(path, json_array_get(arr, i), p, i, nested, &vals[p * ni + i]);
    }
    if (st) free(vals);
    else {
        *inputs = vals;
        *nproofs = np;
        *ninputs = ni;
    }
done:
    json_decref(top);
    return st;
}
