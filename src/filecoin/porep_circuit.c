/* The production PoRep adapter (include/cuzk/filecoin_circuit.h): partition k of a C1 opened
 * as a circuit of parts, and the synthetic "porep:SIZE" variant for timing witnesses.
 *
 * porep:SIZE — one partition of the StackedDRG PoRep circuit of a published sector size
 * (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; V1_1 proof types). Its witness comes from sealing a
 * committed-capacity test sector whose ticket and seed derive from the circuit seed (2 KiB to
 * 512 MiB; the 32/64 GiB circuits are for counting and setup only).
 * porep-test:SHAPE:NODES:LAYERS:CHALLENGES — the generic StackedCircuit of upstream's
 * stacked_circuit tests (counting and setup only: the sealer makes published sizes). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_seal.h"

typedef struct {
    cuzk_porep_shape shape;
    cuzk_seal_proof proof; /* CUZK_SEAL_PROOF_COUNT for porep-test */
    const cuzk_c1 *c1;     /* given vanilla proofs (cuzk_porep_circuit_open), borrowed */
    unsigned partition;
} porep_state;

typedef struct {
    void *stacked;     /* the StackedCircuit header context */
    const cuzk_c1 *c1; /* NULL without values */
    cuzk_c1 *sealed;   /* owned, when the witness came from sealing a test sector */
    unsigned partition;
} porep_ctx;

static const struct {
    const char *name;
    cuzk_seal_proof proof;
} SIZES[] = {
    {"2KiB", CUZK_SEAL_2KIB_V1_1},   {"8MiB", CUZK_SEAL_8MIB_V1_1},   {"512MiB", CUZK_SEAL_512MIB_V1_1},
    {"32GiB", CUZK_SEAL_32GIB_V1_1}, {"64GiB", CUZK_SEAL_64GIB_V1_1},
};

static cuzk_status porep_open(cuzk_circuit *c, const char *args)
{
    porep_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (!strcmp(args, SIZES[i].name)) {
            st->proof = SIZES[i].proof;
            return cuzk_porep_shape_for_proof(&st->shape, st->proof);
        }
    return cuzk_fail(CUZK_EINVAL, "circuit '%s': SIZE must be 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", c->name);
}

static cuzk_status porep_test_open(cuzk_circuit *c, const char *args)
{
    porep_state *st = calloc(1, sizeof *st);
    if (!st) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = st;
    st->proof = CUZK_SEAL_PROOF_COUNT;
    char shape[32];
    const char *colon = strchr(args, ':');
    uint64_t v[3]; /* nodes, layers, challenges: exact, never clamped */
    if (!colon || colon == args || (size_t)(colon - args) >= sizeof shape ||
        cuzk_u64_list_parse(colon + 1, ':', v, 3) || v[1] > UINT32_MAX || v[2] > UINT32_MAX)
        return cuzk_fail(CUZK_EINVAL,
                         "circuit '%s': expected porep-test:SHAPE:NODES:LAYERS:CHALLENGES, e.g. "
                         "porep-test:8-0-0:8:2:1",
                         c->name);
    memcpy(shape, args, (size_t)(colon - args));
    shape[colon - args] = 0;
    cuzk_status s = cuzk_porep_shape_parse(&st->shape, shape, v[0], (unsigned)v[1], (unsigned)v[2]);
    return s ? cuzk_fail_context(s, "circuit '%s'", c->name) : CUZK_OK;
}

static size_t porep_nparts(const cuzk_circuit *c) { return ((const porep_state *)c->state)->shape.challenges; }

/* Seals a CC test sector for the seed and returns its C1 (partition 0 is proved). */
static cuzk_status seal_for_seed(const porep_state *st, uint64_t seed, cuzk_c1 **out)
{
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = st->proof;
    cuzk_prover_id_from_actor(sp.prover_id, 1000 + seed % 1000);
    sp.sector_id = seed;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    uint8_t chal_seed[32];
    cuzk_rng_bytes(&rng, sp.ticket, 32);
    cuzk_rng_bytes(&rng, chal_seed, 32);
    sp.ticket[31] &= 0x3f;
    chal_seed[31] &= 0x3f;
    chal_seed[0] |= 1; /* C2 requires a nonzero seed */
    cuzk_sealed_sector *s;
    cuzk_status rc = cuzk_seal_precommit(&s, &sp, NULL);
    if (rc) return rc;
    rc = cuzk_seal_commit1(out, s, chal_seed, NULL);
    cuzk_sealed_sector_free(s);
    return rc;
}

static void *porep_header(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const porep_state *st = c->state;
    porep_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return NULL;
    }
    x->c1 = st->c1;
    x->partition = st->partition;
    if (cs->values && !x->c1) {
        cuzk_status rc = st->proof == CUZK_SEAL_PROOF_COUNT
            ? cuzk_fail(CUZK_EUNSUPPORTED,
                        "circuit '%s' has no built-in witness (the test sealer makes "
                        "the published sector sizes): use it for counts and setup",
                        c->name)
            : seal_for_seed(st, seed, &x->sealed);
        if (rc) {
            cuzk_cs_fail(cs, rc);
            return x;
        }
        x->c1 = x->sealed;
    }
    x->stacked = cuzk_stacked_header(cs, &st->shape, x->c1, x->partition);
    return x;
}

static void porep_part(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *vctx, size_t i)
{
    const porep_state *st = c->state;
    const porep_ctx *x = vctx;
    if (!x || cs->status) return;
    cuzk_stacked_challenge(cs, &st->shape, x->stacked,
                           x->c1 ? cuzk_c1_challenge(x->c1, x->partition, (uint32_t)i) : NULL, i);
}

static void porep_ctx_free(void *vctx)
{
    porep_ctx *x = vctx;
    if (!x) return;
    cuzk_stacked_ctx_free(x->stacked);
    cuzk_c1_free(x->sealed);
    free(x);
}

const cuzk_circuit_def cuzk_circuit_porep = {
    .prefix = "porep:",
    .help = "porep:SIZE     one partition of the StackedDRG PoRep circuit (SIZE 2KiB, 8MiB, 512MiB, 32GiB, 64GiB; "
            "witness from sealing a test sector up to 512MiB); the daemon's id porep-2k ... porep-64g names it too",
    .example = "porep:2KiB",
    .open = porep_open,
    .free_state = free,
    .nparts = porep_nparts,
    .header = porep_header,
    .part = porep_part,
    .free_ctx = porep_ctx_free,
};

const cuzk_circuit_def cuzk_circuit_porep_test = {
    .prefix = "porep-test:",
    .help = "porep-test:SHAPE:NODES:LAYERS:CHALLENGES  the generic StackedCircuit of upstream's tests (counts and "
            "setup only), e.g. porep-test:8-0-0:8:2:1",
    .example = NULL,
    .open = porep_test_open,
    .free_state = free,
    .nparts = porep_nparts,
    .header = porep_header,
    .part = porep_part,
    .free_ctx = porep_ctx_free,
};

cuzk_status cuzk_porep_circuit_open(cuzk_circuit **out, const cuzk_c1 *c1, unsigned partition)
{
    *out = NULL;
    cuzk_circuit *c = calloc(1, sizeof *c);
    porep_state *st = calloc(1, sizeof *st);
    if (!c || !st) {
        free(c);
        free(st);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    snprintf(c->name, sizeof c->name, "%s partition %u", c1->info->name, partition);
    snprintf(c->shape_key, sizeof c->shape_key, "porep:%s", c1->info->name); /* every partition: one R1CS */
    c->def = &cuzk_circuit_porep;
    c->state = st;
    st->proof = c1->proof;
    st->c1 = c1;
    st->partition = partition;
    cuzk_status rc = cuzk_porep_shape_for_proof(&st->shape, c1->proof);
    if (!rc) rc = cuzk_stacked_check_c1(&st->shape, c1, partition);
    if (rc) {
        cuzk_circuit_free(c);
        return rc;
    }
    *out = c;
    return CUZK_OK;
}

cuzk_status cuzk_porep_synthetic_open(cuzk_circuit **out, cuzk_c1 **c1_out, const char *name, uint64_t seed)
{
    *out = NULL;
    *c1_out = NULL;
    const char *size = !strncmp(name, "porep:", 6) ? name + 6 : NULL;
    for (size_t i = 0; size && i < sizeof SIZES / sizeof SIZES[0]; i++)
        if (!strcmp(size, SIZES[i].name)) {
            cuzk_status st = cuzk_c1_synthetic(c1_out, SIZES[i].proof, 1, seed);
            if (!st) st = cuzk_porep_circuit_open(out, *c1_out, 0);
            if (st) {
                cuzk_c1_free(*c1_out);
                *c1_out = NULL;
            }
            return st;
        }
    return cuzk_fail(CUZK_EINVAL, "synthetic vanilla data exists for porep:SIZE circuits (2KiB ... 64GiB), not '%s'",
                     name);
}
