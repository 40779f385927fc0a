/* sector.json (src/cli/sector_json.c). Fields are read exactly (sector ids as numbers or, above
 * 2^63 - 1, decimal strings); a parsed file, written and parsed again, gives the same fields,
 * and writing those gives the same bytes: every u64 id round-trips. The replica id check runs
 * on what parses. */
#include <string.h>

#include "cli/sector_json.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sector_public s, t, u;
    if (sector_public_parse_fields((const char *)data, size, "fuzz.json", &s)) return 0;
    (void)sector_public_check("fuzz.json", &s);
    char *t1, *t2;
    size_t l1, l2;
    FUZZ_CHECK(sector_public_format(&s, &t1, &l1) == CUZK_OK, "format");
    FUZZ_CHECK(sector_public_parse_fields(t1, l1, "again.json", &t) == CUZK_OK, "own output refused: %s", t1);
    FUZZ_CHECK(!memcmp(&s, &t, sizeof s), "fields changed through the writer (sector id %llu -> %llu)",
               (unsigned long long)s.sector_id, (unsigned long long)t.sector_id);
    FUZZ_CHECK(sector_public_format(&t, &t2, &l2) == CUZK_OK, "format");
    FUZZ_CHECK(l1 == l2 && !memcmp(t1, t2, l1), "write -> parse -> write changed the bytes");
    FUZZ_CHECK(sector_public_parse_fields(t2, l2, "again.json", &u) == CUZK_OK && !memcmp(&u, &t, sizeof u), "third");
    free(t1);
    free(t2);
    return 0;
}
