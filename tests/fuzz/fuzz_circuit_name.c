/* A circuit's two spellings (cuzk_filecoin_circuit_spellings): the input is the name, cut at its
 * first NUL. A name taken gives an id and a family form that are each taken again and give the
 * same pair back (the two spellings name one circuit, whichever is read), each at most 63 bytes;
 * a name not taken leaves both outputs as they were. */
#include <string.h>

#include "cuzk/filecoin.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char name[256];
    size_t n = size < sizeof name - 1 ? size : sizeof name - 1;
    memcpy(name, data, n);
    name[n] = 0;
    char id[64], family[64];
    memset(id, 'x', sizeof id);
    memset(family, 'x', sizeof family);
    if (!cuzk_filecoin_circuit_spellings(name, id, family)) {
        for (size_t i = 0; i < sizeof id; i++)
            FUZZ_CHECK(id[i] == 'x' && family[i] == 'x', "a name not taken changed the outputs");
        return 0;
    }
    FUZZ_CHECK(memchr(id, 0, sizeof id) && memchr(family, 0, sizeof family), "an output is not terminated");
    FUZZ_CHECK(!strcmp(name, id) || !strcmp(name, family), "'%s' is neither of its spellings %s, %s", name, id, family);
    char id2[64], family2[64];
    FUZZ_CHECK(cuzk_filecoin_circuit_spellings(id, id2, family2) && !strcmp(id, id2) && !strcmp(family, family2),
               "the id %s does not give the same pair back", id);
    if (family[0])
        FUZZ_CHECK(cuzk_filecoin_circuit_spellings(family, id2, family2) && !strcmp(id, id2) &&
                       !strcmp(family, family2),
                   "the family form %s does not give the same pair back", family);
    return 0;
}
