/* The parameter digests' record (cache_dir/param-digests.txt, cuzk_param_digest_record_find): the
 * input is the record's text; the key the fuzzer looks for is FUZZ_KEY with FUZZ_SIZE and
 * FUZZ_MTIME (the seeds hold lines for it). A digest found is 32 lowercase hex characters; lines
 * for the key with another size or mtime after the input change nothing; the input followed by a
 * line for the key always finds it (no earlier bytes, however long or binary, swallow a later
 * line). */
#include <string.h>

#include "cuzk/filecoin_params.h"
#include "support.h"

#define FUZZ_KEY "/var/tmp/filecoin-proof-parameters/v28-test.params"
#define FUZZ_SIZE 47ull
#define FUZZ_MTIME 1700000000123456789ull
#define FUZZ_HEX "0123456789abcdef0123456789abcdef"

static bool is_digest(const char *hex) { return strlen(hex) == 32 && strspn(hex, "0123456789abcdef") == 32; }

/* data, then line; found and its digest */
static bool find_after(const uint8_t *data, size_t size, const char *line, char hex[CUZK_PARAM_DIGEST_HEX])
{
    const size_t n = strlen(line);
    char *buf = malloc(size + n + 1);
    memcpy(buf, data, size);
    memcpy(buf + size, line, n);
    const bool found = cuzk_param_digest_record_find(buf, size + n, FUZZ_KEY, FUZZ_SIZE, FUZZ_MTIME, hex);
    free(buf);
    return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char hex[CUZK_PARAM_DIGEST_HEX], again[CUZK_PARAM_DIGEST_HEX];
    const bool found = cuzk_param_digest_record_find((const char *)data, size, FUZZ_KEY, FUZZ_SIZE, FUZZ_MTIME, hex);
    if (found) FUZZ_CHECK(is_digest(hex), "a found digest is not 32 hex characters");
    /* a line for the key with another size, then another mtime: never taken */
    const bool stale = find_after(data, size,
                                  "\nffffffffffffffffffffffffffffffff 46 1700000000123456789 " FUZZ_KEY
                                  "\nffffffffffffffffffffffffffffffff 47 5 " FUZZ_KEY "\n",
                                  again);
    FUZZ_CHECK(stale == found && (!found || !strcmp(hex, again)),
               "a line for another size or mtime changed the answer");
    /* a line for the key after the input: found, whatever came before */
    FUZZ_CHECK(find_after(data, size, "\n" FUZZ_HEX " 47 1700000000123456789 " FUZZ_KEY "\n", again),
               "a line for the key after %zu bytes of input is not found", size);
    FUZZ_CHECK(is_digest(again), "a found digest is not 32 hex characters");
    return 0;
}
