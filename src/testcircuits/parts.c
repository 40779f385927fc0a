/* parts:K:NAME — K independent copies of the built-in circuit NAME, each with its own
 * witness (seed derived per copy): a circuit of parts whose witness is generated in
 * parallel. Used to measure synthesis scaling on any circuit. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

typedef struct {
    cuzk_circuit *inner;
    size_t k;
} parts_state;

static void parts_free(void *state)
{
    parts_state *ps = state;
    cuzk_circuit_free(ps->inner);
    free(ps);
}

static cuzk_status parts_open(cuzk_circuit *c, const char *args)
{
    char *end;
    unsigned long long k = strtoull(args, &end, 10);
    if (*args < '0' || *args > '9' || *end != ':' || k < 1 || k > 65536)
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': expected parts:K:NAME with 1 <= K <= 65536", c->name);
    parts_state *ps = calloc(1, sizeof *ps);
    if (!ps) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = ps;
    ps->k = (size_t)k;
    cuzk_status st = cuzk_circuit_open(&ps->inner, end + 1);
    if (st) return cuzk_fail_context(st, "circuit '%s'", c->name);
    if (!ps->inner->def->synthesize)
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': %s is itself made of parts", c->name, ps->inner->name);
    return CUZK_OK;
}

static size_t parts_count(const cuzk_circuit *c) { return ((const parts_state *)c->state)->k; }

static void *parts_header(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed) { return NULL; }

static void parts_part(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *ctx, size_t i)
{
    const parts_state *ps = c->state;
    cuzk_cs_push(cs, "copy %zu", i);
    ps->inner->def->synthesize(ps->inner, cs, seed * 0x9e3779b97f4a7c15ull + i);
    cuzk_cs_pop(cs);
}

const cuzk_circuit_def cuzk_circuit_parts = {
    .prefix = "parts:",
    .help = "parts:K:NAME   K independent copies of circuit NAME (a circuit of parts: parallel witness)",
    .example = "parts:3:sha256:64",
    .open = parts_open,
    .free_state = parts_free,
    .nparts = parts_count,
    .header = parts_header,
    .part = parts_part,
};
