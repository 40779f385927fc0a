/* Public inputs JSON (["1", "2"] or [["1"], ["2"]]). Parsing never sizes memory beyond what
 * the document holds (libFuzzer's malloc limit fails a run that does); a parsed document,
 * written out and parsed again, gives the same values, and writing that again gives the same
 * bytes. */
#include <string.h>

#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_fr *v;
    size_t np, ni;
    if (cuzk_inputs_json_parse((const char *)data, size, "fuzz.json", &v, &np, &ni)) {
        FUZZ_CHECK(v == NULL && np == 0 && ni == 0, "a refused document left outputs");
        return 0;
    }
    FUZZ_CHECK(np >= 1 && v != NULL, "%zu proofs", np);
    char *t1, *t2;
    size_t l1, l2;
    FUZZ_CHECK(cuzk_inputs_json_format(&t1, &l1, v, np, ni, false) == CUZK_OK, "format");
    cuzk_fr *w;
    size_t np2, ni2;
    FUZZ_CHECK(cuzk_inputs_json_parse(t1, l1, "again.json", &w, &np2, &ni2) == CUZK_OK, "own output refused: %s", t1);
    FUZZ_CHECK(np2 == np && ni2 == ni && !memcmp(v, w, np * ni * sizeof *v), "values changed through the writer");
    FUZZ_CHECK(cuzk_inputs_json_format(&t2, &l2, w, np2, ni2, false) == CUZK_OK, "format");
    FUZZ_CHECK(l1 == l2 && !memcmp(t1, t2, l1), "write -> parse -> write changed the bytes");
    free(t1);
    free(t2);
    free(v);
    free(w);
    return 0;
}
