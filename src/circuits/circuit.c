/* The built-in circuit registry: name parsing and the shared circuit object. */
#include <stdlib.h>
#include <string.h>

#include "circuits/builtin.h"

const char *cuzk_circuit_names(void) { return "cubic, random:N (N >= 8 constraints)"; }

cuzk_status cuzk_circuit_open(cuzk_circuit **out, const char *name)
{
    *out = NULL;
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (!c) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    snprintf(c->name, sizeof c->name, "%s", name);
    cuzk_status st;
    if (!strcmp(name, "cubic")) {
        st = cubic_build(c);
    } else if (!strncmp(name, "random:", 7)) {
        char *end;
        const char *num = name + 7;
        unsigned long long n = strtoull(num, &end, 10);
        if (*num < '0' || *num > '9' || *end || n < 8 || n > (1ull << 28))
            st = cuzk_fail(CUZK_EINVAL, "circuit '%s': N must be a number of constraints from 8 to 2^28", name);
        else st = random_build(c, (size_t)n);
    } else {
        st = cuzk_fail(CUZK_EINVAL, "unknown circuit '%s' (known: %s)", name, cuzk_circuit_names());
    }
    if (st) {
        cuzk_circuit_free(c);
        return st;
    }
    *out = c;
    return CUZK_OK;
}

void cuzk_circuit_free(cuzk_circuit *c)
{
    if (!c) return;
    cuzk_r1cs_free(&c->r1cs);
    free(c->gates);
    free(c);
}

const char *cuzk_circuit_name(const cuzk_circuit *c) { return c->name; }
const cuzk_r1cs *cuzk_circuit_r1cs(const cuzk_circuit *c) { return &c->r1cs; }

cuzk_status cuzk_circuit_witness(const cuzk_circuit *c, uint64_t seed, cuzk_fr *input, cuzk_fr *aux)
{
    return c->witness(c, seed, input, aux);
}
