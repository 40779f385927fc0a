/* The two spellings of a Filecoin circuit: the daemon's id, as Curio names it ("porep-32g",
 * "wpost-2k", "winning-512m", "snap-64g", "ni-porep-32g"), and the family form the circuit
 * commands take ("porep:32GiB", "window-post:2KiB", ...): one circuit, either spelling. */
#include <stdio.h>
#include <string.h>

#include "cuzk/filecoin.h"

static const struct {
    const char *id, *family; /* family NULL: no circuit-command form (NI PoRep is porep's circuit) */
} FORMS[] = {
    {"ni-porep-", NULL},           {"porep-", "porep:"}, {"wpost-", "window-post:"},
    {"winning-", "winning-post:"}, {"snap-", "snap:"},
};
#define NFORMS (sizeof FORMS / sizeof FORMS[0])

/* "32g" <-> "32GiB": the size, its unit k/m/g against KiB/MiB/GiB; false for any other text */
static bool size_of(const char *s, bool long_unit, unsigned *n, char *unit)
{
    char u[8], tail;
    /* 1 to 4 digits first (sscanf would take "-3", "+3", " 3", and overflow on many digits) */
    size_t digits = strspn(s, "0123456789");
    if (*s < '1' || *s > '9' || digits > 4) return false;
    if (sscanf(s, "%u%7[a-zA-Z]%c", n, u, &tail) != 2) return false;
    static const char *const SHORT[] = {"k", "m", "g"}, *const LONG[] = {"KiB", "MiB", "GiB"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(u, long_unit ? LONG[i] : SHORT[i])) {
            *unit = "kmg"[i];
            return true;
        }
    return false;
}

bool cuzk_filecoin_circuit_spellings(const char *in, char id[64], char family[64])
{
    for (size_t i = 0; i < NFORMS; i++)
        for (int form = 0; form < 2; form++) {
            const char *prefix = form ? FORMS[i].family : FORMS[i].id;
            size_t n = prefix ? strlen(prefix) : 0;
            unsigned size;
            char unit;
            if (!prefix || strncmp(in, prefix, n) || !size_of(in + n, form == 1, &size, &unit)) continue;
            snprintf(id, 64, "%s%u%c", FORMS[i].id, size, unit);
            if (FORMS[i].family)
                snprintf(family, 64, "%s%u%s", FORMS[i].family, size,
                         unit == 'k'       ? "KiB"
                             : unit == 'm' ? "MiB"
                                           : "GiB");
            else family[0] = 0;
            return true;
        }
    return false;
}
