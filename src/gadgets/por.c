/* Proof-of-retrievability circuit (storage-proofs-core gadgets/por.rs): SubPath::synthesize
 * for the base, sub and top paths, then PoRCircuit::synthesize's packing and root check. */
#include "cuzk/gadgets/insertion.h"
#include "cuzk/gadgets/merkle.h"
#include "cuzk/gadgets/multipack.h"

#define MAX_ARITY 8
#define MAX_LEVELS 64

static bool arity_ok(unsigned a) { return a == 2 || a == 4 || a == 8; }

static unsigned log2u(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : 3; }

cuzk_status cuzk_tree_shape_check(const cuzk_tree_shape *s)
{
    if (!arity_ok(s->base_arity))
        return cuzk_fail(CUZK_EINVAL, "tree shape: base arity %u is not 2, 4 or 8", s->base_arity);
    if (s->sub_arity && !arity_ok(s->sub_arity))
        return cuzk_fail(CUZK_EINVAL, "tree shape: sub-tree arity %u is not 0, 2, 4 or 8", s->sub_arity);
    if (s->top_arity && !arity_ok(s->top_arity))
        return cuzk_fail(CUZK_EINVAL, "tree shape: top-tree arity %u is not 0, 2, 4 or 8", s->top_arity);
    if (s->top_arity && !s->sub_arity) return cuzk_fail(CUZK_EINVAL, "tree shape: a top tree needs a sub tree");
    if (s->base_levels < 1) return cuzk_fail(CUZK_EINVAL, "tree shape: the base trees need at least one level");
    if (s->base_levels > MAX_LEVELS - 2 || cuzk_tree_shape_index_bits(s) > 63)
        return cuzk_fail(CUZK_EINVAL, "tree shape: more than 2^63 leaves");
    return CUZK_OK;
}

unsigned cuzk_tree_shape_levels(const cuzk_tree_shape *s)
{
    return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

unsigned cuzk_tree_shape_level_arity(const cuzk_tree_shape *s, unsigned level)
{
    if (level < s->base_levels) return s->base_arity;
    return level == s->base_levels ? s->sub_arity : s->top_arity;
}

unsigned cuzk_tree_shape_index_bits(const cuzk_tree_shape *s)
{
    unsigned n = s->base_levels * log2u(s->base_arity);
    if (s->sub_arity) n += log2u(s->sub_arity);
    if (s->top_arity) n += log2u(s->top_arity);
    return n;
}

size_t cuzk_tree_shape_siblings(const cuzk_tree_shape *s)
{
    size_t n = 0;
    for (unsigned l = 0; l < cuzk_tree_shape_levels(s); l++) n += cuzk_tree_shape_level_arity(s, l) - 1;
    return n;
}

uint64_t cuzk_tree_shape_leaves(const cuzk_tree_shape *s) { return (uint64_t)1 << cuzk_tree_shape_index_bits(s); }

cuzk_num cuzk_por_auth_path(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, cuzk_num leaf,
                            const cuzk_fr *siblings, uint64_t index, cuzk_bool *bits_out)
{
    cuzk_num cur = leaf;
    cuzk_status st = cuzk_tree_shape_check(shape);
    if (st) {
        cuzk_cs_fail(cs, st);
        return cur;
    }
    static const char *const PART[3] = {"base", "sub", "top"};
    const unsigned levels = cuzk_tree_shape_levels(shape);
    unsigned bit = 0, level = 0;
    size_t sib = 0;
    for (int part = 0; part < 3; part++) {
        unsigned n = part == 0 ? shape->base_levels : part == 1 ? (shape->sub_arity != 0) : (shape->top_arity != 0);
        cuzk_cs_push(cs, "%s", PART[part]);
        for (unsigned i = 0; i < n && level < levels; i++, level++) {
            const unsigned arity = cuzk_tree_shape_level_arity(shape, level), k = log2u(arity);
            cuzk_cs_push(cs, "merkle tree hash %u", i);
            cuzk_bool *bits = &bits_out[bit];
            for (unsigned b = 0; b < k; b++) {
                cuzk_cs_push(cs, "index bit %u", b);
                bits[b] = cuzk_bool_is(cuzk_abit_alloc(cs, cs->values && ((index >> (bit + b)) & 1)));
                cuzk_cs_pop(cs);
            }
            cuzk_num path[MAX_ARITY - 1], inserted[MAX_ARITY];
            for (unsigned j = 0; j + 1 < arity; j++) {
                cuzk_cs_push(cs, "path element %u", j);
                path[j] = cuzk_num_alloc(cs, cs->values ? &siblings[sib + j] : NULL);
                cuzk_cs_pop(cs);
            }
            cuzk_insert(cs, cur, bits, k, path, inserted);
            cuzk_cs_push(cs, "computation of commitment hash");
            cur = cuzk_merkle_hash_node(cs, h, arity, inserted);
            cuzk_cs_pop(cs);
            cuzk_cs_pop(cs);
            bit += k;
            sib += arity - 1;
        }
        cuzk_cs_pop(cs);
    }
    return cur;
}

void cuzk_por_circuit(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, cuzk_root leaf, cuzk_root root,
                      bool private_root, const cuzk_fr *siblings, uint64_t index)
{
    cuzk_status st = cuzk_tree_shape_check(shape);
    if (st) {
        cuzk_cs_fail(cs, st);
        return;
    }
    cuzk_num value = leaf.num;
    if (!leaf.is_var) {
        cuzk_cs_push(cs, "value");
        value = cuzk_num_alloc(cs, cs->values ? &leaf.value : NULL);
        cuzk_cs_pop(cs);
    }
    cuzk_bool bits[64];
    cuzk_num computed = cuzk_por_auth_path(cs, h, shape, value, siblings, index, bits);

    cuzk_cs_push(cs, "path");
    cuzk_multipack_pack_into_inputs(cs, bits, cuzk_tree_shape_index_bits(shape));
    cuzk_cs_pop(cs);

    cuzk_num rt = root.num;
    if (!root.is_var) {
        cuzk_cs_push(cs, "root_value");
        rt = cuzk_num_alloc(cs, cs->values ? &root.value : NULL);
        cuzk_cs_pop(cs);
    }
    /* constraint::equal: computed * ONE = root */
    cuzk_lc_add_one(cs, &cs->lc[0], computed.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], rt.var);
    cuzk_cs_enforce(cs, "enforce root is correct");
    if (!private_root) {
        cuzk_cs_push(cs, "root");
        cuzk_num_inputize(cs, rt);
        cuzk_cs_pop(cs);
    }
}

/* por_no_challenge_input (gadgets/por.rs): the index bits and the siblings are given (the
 * caller allocated them, the bits as part of a larger decomposition), and the path has as many
 * levels as the shape, base first. A shape of zero base levels (an empty path) is allowed: then
 * only the root check is built, as upstream does for a one-partition TreeD partition path. */
void cuzk_por_no_challenge_input(cuzk_cs *cs, cuzk_hasher h, const cuzk_tree_shape *shape, const cuzk_bool *bits,
                                 size_t nbits, cuzk_num leaf, const cuzk_num *siblings, cuzk_num root)
{
    if (cs->status) return;
    cuzk_tree_shape s = *shape;
    bool empty = s.base_levels == 0 && !s.sub_arity && !s.top_arity;
    if (empty) s.base_levels = 1; /* only to check the arities */
    cuzk_status st = cuzk_tree_shape_check(&s);
    if (!st && !empty && nbits != cuzk_tree_shape_index_bits(&s))
        st = cuzk_fail(CUZK_EINVAL, "por: %zu challenge bits for a tree of %u index bits", nbits,
                       cuzk_tree_shape_index_bits(&s));
    if (!st && empty && nbits != 0) st = cuzk_fail(CUZK_EINVAL, "por: %zu challenge bits for an empty path", nbits);
    if (st) {
        cuzk_cs_fail(cs, st);
        return;
    }
    const unsigned levels = empty ? 0 : cuzk_tree_shape_levels(&s);
    cuzk_num cur = leaf;
    unsigned bit = 0;
    size_t sib = 0;
    for (unsigned l = 0; l < levels; l++) {
        const unsigned arity = cuzk_tree_shape_level_arity(&s, l), k = log2u(arity);
        cuzk_num inserted[MAX_ARITY];
        cuzk_cs_push(cs, "merkle proof insert (height=%u)", l);
        cuzk_insert(cs, cur, &bits[bit], k, &siblings[sib], inserted);
        cuzk_cs_pop(cs);
        cuzk_cs_push(cs, "merkle proof hash (height=%u)", l);
        cur = cuzk_merkle_hash_node(cs, h, arity, inserted);
        cuzk_cs_pop(cs);
        bit += k;
        sib += arity - 1;
    }
    cuzk_lc_add_one(cs, &cs->lc[0], cur.var);
    cuzk_lc_add_one(cs, &cs->lc[1], CUZK_VAR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], root.var);
    cuzk_cs_enforce(cs, "calculated root == provided root");
}
