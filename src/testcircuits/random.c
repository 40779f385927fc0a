/* random:N — a random satisfiable R1CS with the shape of Filecoin circuits.
 *
 * The structure depends only on N; the witness on the seed. Most constraints are boolean
 * gadgets (bit allocation, AND, XOR, as SHA-256 is built from), some pack bits into field
 * elements or multiply field elements, and the last RANDOM_INPUTS constraints expose computed
 * values as the public inputs. About 70% of the aux values are 0 or 1. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

/* One step of the random circuit: which constraint it adds and how its witness is computed. */
typedef struct random_gate {
    uint8_t op;
    uint32_t x, y, z, k;
} random_gate;

#define RANDOM_INPUTS 4
#define NUM_INPUTS (1 + RANDOM_INPUTS)
#define PACK_MAX 16

enum { OP_BIT, OP_AND, OP_XOR, OP_PACK, OP_SQR, OP_MUL, OP_OUT };

typedef struct {
    uint32_t *v;
    size_t n, cap;
} u32_list;

static int list_push(u32_list *l, uint32_t x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        uint32_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

#define COL(aux) ((size_t)(aux) + NUM_INPUTS)

static uint32_t pick(cuzk_rng *rng, const u32_list *l) { return l->v[cuzk_rng_next(rng) % l->n]; }

/* Emits the constraint for gate g into the builder. */
static cuzk_status emit(cuzk_r1cs_builder *b, const random_gate *g, const u32_list *bits)
{
    const cuzk_fr *one = &CUZK_FR_ONE;
    cuzk_fr minus_one, two, coeff;
    cuzk_fr_neg(&minus_one, one);
    cuzk_fr_from_u64(&two, 2);
    cuzk_status st = CUZK_OK;
#define T(M, col, c) \
    if (!st) st = cuzk_r1cs_builder_term(b, M, col, c)
    switch (g->op) {
    case OP_BIT: /* (ONE - z) * z = 0 */
        T(CUZK_MAT_A, 0, one);
        T(CUZK_MAT_A, COL(g->z), &minus_one);
        T(CUZK_MAT_B, COL(g->z), one);
        break;
    case OP_AND: /* x * y = z */
        T(CUZK_MAT_A, COL(g->x), one);
        T(CUZK_MAT_B, COL(g->y), one);
        T(CUZK_MAT_C, COL(g->z), one);
        break;
    case OP_XOR: /* 2x * y = x + y - z */
        T(CUZK_MAT_A, COL(g->x), &two);
        T(CUZK_MAT_B, COL(g->y), one);
        T(CUZK_MAT_C, COL(g->x), one);
        T(CUZK_MAT_C, COL(g->y), one);
        T(CUZK_MAT_C, COL(g->z), &minus_one);
        break;
    case OP_PACK: /* (sum 2^i bit_i) * ONE = z */
        coeff = *one;
        for (uint32_t i = 0; i < g->k; i++) {
            T(CUZK_MAT_A, COL(bits->v[g->x + i]), &coeff);
            cuzk_fr_add(&coeff, &coeff, &coeff);
        }
        T(CUZK_MAT_B, 0, one);
        T(CUZK_MAT_C, COL(g->z), one);
        break;
    case OP_SQR: /* x * x = z */
    case OP_MUL: /* x * y = z */
        T(CUZK_MAT_A, COL(g->x), one);
        T(CUZK_MAT_B, COL(g->op == OP_SQR ? g->x : g->y), one);
        T(CUZK_MAT_C, COL(g->z), one);
        break;
    case OP_OUT: /* x * ONE = input_k */
        T(CUZK_MAT_A, COL(g->x), one);
        T(CUZK_MAT_B, 0, one);
        T(CUZK_MAT_C, g->k, one);
        break;
    }
#undef T
    if (!st) st = cuzk_r1cs_builder_row(b);
    return st;
}

static cuzk_status random_witness(const matrix_circuit *c, uint64_t seed, cuzk_fr *input, cuzk_fr *aux)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    u32_list bits = {0};
    input[0] = CUZK_FR_ONE;
    for (size_t i = 0; i < c->ngates; i++) {
        const random_gate *g = &c->gates[i];
        switch (g->op) {
        case OP_BIT: aux[g->z] = cuzk_rng_next(&rng) & 1 ? CUZK_FR_ONE : CUZK_FR_ZERO; break;
        case OP_AND: cuzk_fr_mul(&aux[g->z], &aux[g->x], &aux[g->y]); break;
        case OP_XOR: /* x + y - 2xy */
        {
            cuzk_fr t;
            cuzk_fr_mul(&t, &aux[g->x], &aux[g->y]);
            cuzk_fr_add(&t, &t, &t);
            cuzk_fr_add(&aux[g->z], &aux[g->x], &aux[g->y]);
            cuzk_fr_sub(&aux[g->z], &aux[g->z], &t);
            break;
        }
        case OP_PACK: {
            cuzk_fr acc = CUZK_FR_ZERO;
            for (uint32_t k = g->k; k-- > 0;) {
                cuzk_fr_add(&acc, &acc, &acc);
                cuzk_fr_add(&acc, &acc, &aux[bits.v[g->x + k]]);
            }
            aux[g->z] = acc;
            break;
        }
        case OP_SQR:
            cuzk_fr_random(&aux[g->x], &rng);
            cuzk_fr_mul(&aux[g->z], &aux[g->x], &aux[g->x]);
            break;
        case OP_MUL: cuzk_fr_mul(&aux[g->z], &aux[g->x], &aux[g->y]); break;
        case OP_OUT: input[g->k] = aux[g->x]; break;
        }
        if ((g->op == OP_BIT || g->op == OP_AND || g->op == OP_XOR) && list_push(&bits, g->z)) {
            free(bits.v);
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
    }
    free(bits.v);
    return CUZK_OK;
}

static cuzk_status random_build(matrix_circuit *c, size_t n)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 0x72616e646f6dull ^ n); /* structure depends on N only */
    c->gates = malloc(n * sizeof *c->gates);
    if (!c->gates) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->ngates = n;
    u32_list bits = {0}, fields = {0};
    cuzk_r1cs_builder b;
    cuzk_status st = cuzk_r1cs_builder_init(&b, NUM_INPUTS);
    if (st) return st;
    uint32_t naux = 0;
    for (size_t i = 0; i < n && !st; i++) {
        random_gate g = {0, 0, 0, 0, 0};
        if (i >= n - RANDOM_INPUTS) {
            g.op = OP_OUT;
            g.x = fields.n ? pick(&rng, &fields) : pick(&rng, &bits);
            g.k = (uint32_t)(1 + i - (n - RANDOM_INPUTS));
        } else {
            unsigned roll = (unsigned)(cuzk_rng_next(&rng) % 100);
            if (bits.n < 2 || roll < 35) g.op = OP_BIT;
            else if (roll < 55) g.op = OP_AND;
            else if (roll < 75) g.op = OP_XOR;
            else if (roll < 85) g.op = bits.n >= PACK_MAX ? OP_PACK : OP_BIT;
            else if (roll < 93 || fields.n == 0) g.op = OP_SQR;
            else g.op = OP_MUL;
            switch (g.op) {
            case OP_BIT: g.z = naux++; break;
            case OP_AND:
            case OP_XOR:
                g.x = pick(&rng, &bits);
                g.y = pick(&rng, &bits);
                if (g.x == g.y) g.y = bits.v[(cuzk_rng_next(&rng) % bits.n)];
                g.z = naux++;
                break;
            case OP_PACK:
                g.k = 2 + (uint32_t)(cuzk_rng_next(&rng) % (PACK_MAX - 1));
                g.x = (uint32_t)(cuzk_rng_next(&rng) % (bits.n - g.k + 1));
                g.z = naux++;
                break;
            case OP_SQR:
                g.x = naux++;
                g.z = naux++;
                break;
            case OP_MUL:
                g.x = pick(&rng, &fields);
                g.y = pick(&rng, &fields);
                g.z = naux++;
                break;
            }
        }
        c->gates[i] = g;
        st = emit(&b, &g, &bits);
        if (st) break;
        int push = 0;
        if (g.op == OP_BIT || g.op == OP_AND || g.op == OP_XOR) push = list_push(&bits, g.z);
        else if (g.op == OP_PACK || g.op == OP_MUL) push = list_push(&fields, g.z);
        else if (g.op == OP_SQR) push = list_push(&fields, g.x) || list_push(&fields, g.z);
        if (push) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    free(bits.v);
    free(fields.v);
    if (!st) st = cuzk_r1cs_builder_finish(&b, naux, &c->r1cs);
    if (st) {
        cuzk_r1cs_builder_free(&b);
        return st;
    }
    c->witness = random_witness;
    return CUZK_OK;
}

static cuzk_status random_open(cuzk_circuit *c, const char *args)
{
    char *end;
    unsigned long long n = strtoull(args, &end, 10);
    if (*args < '0' || *args > '9' || *end || n < 8 || n > (1ull << 28))
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': N must be a number of constraints from 8 to 2^28", c->name);
    matrix_circuit *mc = calloc(1, sizeof *mc);
    if (!mc) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = mc;
    return random_build(mc, (size_t)n);
}

const cuzk_circuit_def cuzk_circuit_random = {
    .prefix = "random:",
    .help = "random:N       a random satisfiable R1CS of N constraints, 4 public inputs, mostly-bit witness",
    .example = "random:3000",
    .open = random_open,
    .synthesize = matrix_circuit_synthesize,
    .free_state = matrix_circuit_free,
};

/* random-parts:K:N — K independent instances of random:N (each with its own 4 inputs and a
 * witness from its own seed): a circuit of parts, for the parallel witness path. */
typedef struct {
    matrix_circuit *mc;
    size_t k;
} parts_state;

static void parts_free(void *state)
{
    parts_state *ps = state;
    matrix_circuit_free(ps->mc);
    free(ps);
}

static cuzk_status parts_open(cuzk_circuit *c, const char *args)
{
    char *end;
    unsigned long long k = strtoull(args, &end, 10);
    if (*args < '0' || *args > '9' || *end != ':' || k < 1 || k > 4096)
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': expected random-parts:K:N with 1 <= K <= 4096", c->name);
    const char *nstr = end + 1;
    unsigned long long n = strtoull(nstr, &end, 10);
    if (*nstr < '0' || *nstr > '9' || *end || n < 8 || n > (1ull << 28) / k) /* n * k could wrap */
        return cuzk_fail(CUZK_EINVAL, "circuit '%s': N must be at least 8 and K*N at most 2^28", c->name);
    parts_state *ps = calloc(1, sizeof *ps);
    if (!ps || !(ps->mc = calloc(1, sizeof *ps->mc))) {
        free(ps);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    ps->k = (size_t)k;
    c->state = ps;
    return random_build(ps->mc, (size_t)n);
}

static size_t parts_count(const cuzk_circuit *c) { return ((const parts_state *)c->state)->k; }

static void *parts_header(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed) { return NULL; }

static void parts_part(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *ctx, size_t i)
{
    const matrix_circuit *mc = ((const parts_state *)c->state)->mc;
    cuzk_fr *input = NULL, *aux = NULL;
    if (cs->values) {
        input = calloc(mc->r1cs.num_inputs, sizeof(cuzk_fr));
        aux = calloc(mc->r1cs.num_aux + 1, sizeof(cuzk_fr));
        cuzk_status st = !input || !aux ? cuzk_fail(CUZK_ENOMEM, "out of memory")
                                        : mc->witness(mc, seed * 0x9e3779b97f4a7c15ull + i, input, aux);
        if (st) {
            cuzk_cs_fail(cs, st);
            free(input);
            free(aux);
            return;
        }
    }
    cuzk_cs_push(cs, "part %zu", i);
    cuzk_cs_emit_r1cs(cs, &mc->r1cs, input, aux);
    cuzk_cs_pop(cs);
    free(input);
    free(aux);
}

const cuzk_circuit_def cuzk_circuit_random_parts = {
    .prefix = "random-parts:",
    .help = "random-parts:K:N  K independent random:N circuits (a circuit of parts: parallel witness)",
    .example = "random-parts:5:700",
    .open = parts_open,
    .free_state = parts_free,
    .nparts = parts_count,
    .header = parts_header,
    .part = parts_part,
};
