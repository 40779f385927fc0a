/* What the por and por-private families share: parsing "HASHER:SHAPE:LEAVES" and one
 * inclusion proof of a random leaf in a random tree, as upstream's por_circuit.rs tests
 * build it (PoRCircuit with Root::Val leaf and root). */
#include <stdlib.h>
#include <string.h>

#include "merkle_tree.h"

#define MAX_LEAVES ((uint64_t)1 << 22) /* the native tree lives in memory */

typedef struct {
    cuzk_hasher h;
    cuzk_tree_shape shape;
    bool private_root;
} por_state;

static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

/* "B-S-T", each a small decimal arity. */
static cuzk_status parse_shape(const char *s, size_t len, unsigned ar[3])
{
    size_t i = 0;
    for (int k = 0; k < 3; k++) {
        size_t j = i;
        while (j < len && s[j] != '-') j++;
        uint64_t v;
        if (parse_u64(s + i, j - i, &v) || v > 64 || (k < 2 ? j == len : j != len))
            return cuzk_fail(CUZK_EINVAL, "bad tree shape '%.*s' (want BASE-SUB-TOP, e.g. 8-8-0)", (int)len, s);
        ar[k] = (unsigned)v;
        i = j + 1;
    }
    return CUZK_OK;
}

cuzk_status por_family_open(cuzk_circuit *c, const char *args, bool private_root)
{
    const char *fam = private_root ? "por-private" : "por";
    const char *c1 = strchr(args, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
        return cuzk_fail(CUZK_EINVAL, "%s: want %s:HASHER:SHAPE:LEAVES (e.g. %s:poseidon:8-0-0:64), got '%s'", fam, fam,
                         fam, c->name);
    por_state *ps = calloc(1, sizeof *ps);
    if (!ps) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    c->state = ps;
    ps->private_root = private_root;
    size_t hl = (size_t)(c1 - args);
    if (hl == 6 && !strncmp(args, "sha256", 6)) ps->h = CUZK_HASHER_SHA256;
    else if (hl == 8 && !strncmp(args, "poseidon", 8)) ps->h = CUZK_HASHER_POSEIDON;
    else return cuzk_fail(CUZK_EINVAL, "%s: unknown hasher '%.*s' (sha256 or poseidon)", fam, (int)hl, args);

    unsigned ar[3];
    cuzk_status st = parse_shape(c1 + 1, (size_t)(c2 - c1 - 1), ar);
    if (st) return cuzk_fail_context(st, "%s", fam);
    uint64_t leaves;
    if (parse_u64(c2 + 1, strlen(c2 + 1), &leaves))
        return cuzk_fail(CUZK_EINVAL, "%s: bad leaf count '%s'", fam, c2 + 1);

    cuzk_tree_shape *s = &ps->shape;
    s->base_arity = ar[0];
    s->sub_arity = ar[1];
    s->top_arity = ar[2];
    s->base_levels = 1; /* for the arity checks; fixed below */
    if ((st = cuzk_tree_shape_check(s))) return cuzk_fail_context(st, "%s", fam);
    /* leaves = base_arity^levels per base tree, times sub * top base trees */
    uint64_t trees = (uint64_t)(ar[1] ? ar[1] : 1) * (ar[2] ? ar[2] : 1), per = leaves / trees;
    unsigned levels = 0;
    while (per > 1 && per % ar[0] == 0) per /= ar[0], levels++;
    if (leaves % trees || per != 1 || levels == 0)
        return cuzk_fail(CUZK_EINVAL,
                         "%s: %llu leaves do not fit shape %u-%u-%u (want %llu base tree(s) of %u^k leaves, k >= 1)",
                         fam, (unsigned long long)leaves, ar[0], ar[1], ar[2], (unsigned long long)trees, ar[0]);
    if (leaves > MAX_LEAVES)
        return cuzk_fail(CUZK_EINVAL, "%s: %llu leaves; at most %llu for the built-in circuit", fam,
                         (unsigned long long)leaves, (unsigned long long)MAX_LEAVES);
    s->base_levels = levels;
    return cuzk_tree_shape_check(s);
}

void por_family_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const por_state *ps = c->state;
    cuzk_fr *leaves = NULL, *siblings = NULL, root = CUZK_FR_ZERO, leaf = CUZK_FR_ZERO;
    uint64_t index = 0;
    if (cs->values) {
        uint64_t n = cuzk_tree_shape_leaves(&ps->shape);
        leaves = cuzk_malloc((size_t)n * sizeof *leaves);
        siblings = cuzk_malloc(cuzk_tree_shape_siblings(&ps->shape) * sizeof *siblings);
        if (!leaves || !siblings) {
            cuzk_cs_fail(cs, CUZK_ENOMEM);
            goto out;
        }
        cuzk_rng rng;
        cuzk_rng_seed(&rng, seed);
        for (uint64_t i = 0; i < n; i++) cuzk_fr_random(&leaves[i], &rng);
        index = cuzk_rng_next(&rng) % n;
        leaf = leaves[index];
        cuzk_status st = cuzk_merkle_tree_path(ps->h, &ps->shape, leaves, index, &root, siblings);
        if (st) {
            cuzk_cs_fail(cs, st);
            goto out;
        }
    }
    cuzk_por_circuit(cs, ps->h, &ps->shape, cuzk_root_val(&leaf), cuzk_root_val(&root), ps->private_root, siblings,
                     index);
out:
    free(leaves);
    free(siblings);
}
