/* Merkle gadgets: pick and insert (storage-proofs-core gadgets/insertion.rs), the node hashes
 * and the PoR circuit (gadgets/por.rs) over Poseidon and SHA-256 trees of every shape, with
 * the constraint counts that upstream's tests assert, honest paths satisfied, wrong ones
 * caught by name, the same R1CS in every mode, and the built-in por / por-private circuits. */
#include <string.h>

#include "testcircuits/merkle_tree.h"
#include "cuzk/testcircuits.h"
#include "cuzk/gadgets/insertion.h"
#include "cuzk/gadgets/merkle.h"
#include "cuzk/hash.h"
#include "gadget_modes.h"

/* ---------------------------------------------------------------- pick, insert */

typedef struct {
    unsigned k;     /* index bits */
    unsigned index; /* insertion position */
    cuzk_fr vals[8];
    cuzk_num out[8];
} insert_ctx;

static void synth_insert(cuzk_cs *cs, void *p)
{
    insert_ctx *c = p;
    unsigned size = 1u << c->k;
    cuzk_bool bits[3];
    cuzk_num elems[8];
    for (unsigned b = 0; b < c->k; b++) bits[b] = cuzk_bool_is(cuzk_abit_alloc(cs, (c->index >> b) & 1));
    cuzk_num x = cuzk_num_alloc(cs, &c->vals[0]);
    for (unsigned i = 1; i < size; i++) elems[i - 1] = cuzk_num_alloc(cs, &c->vals[i]);
    cuzk_insert(cs, x, bits, c->k, elems, c->out);
}

static void test_insert(void)
{
    /* insert_2: 2 picks; insert_4: 8 picks; insert_8: nor, and, 20 picks */
    static const size_t cost[4] = {0, 2, 8, 22};
    for (unsigned k = 1; k <= 3; k++) {
        unsigned size = 1u << k;
        for (unsigned n = 0; n < size; n++) {
            insert_ctx c = {.k = k, .index = n};
            for (unsigned i = 0; i < size; i++) cuzk_fr_from_u64(&c.vals[i], 100 + i);
            gm_counts cnt = gm_check_all_modes(synth_insert, &c);
            CHECK(cnt.constraints == k + cost[k] && cnt.aux == k + size + cost[k] && cnt.inputs == 1);
            /* the element lands at position n, the others keep their order around it */
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
            synth_insert(cs, &c);
            bool ok = true;
            for (unsigned pos = 0, s = 1; pos < size; pos++) {
                const cuzk_fr *want = pos == n ? &c.vals[0] : &c.vals[s++];
                ok &= cuzk_fr_eq(&c.out[pos].value, want) && cuzk_fr_eq(cuzk_cs_value(cs, c.out[pos].var), want);
            }
            CHECK(ok);
            cuzk_cs_destroy(cs);
        }
    }
    /* insert_8 wants allocated, unnegated bits; sizes other than 2, 4, 8 are refused */
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_abit b = cuzk_abit_alloc(cs, false);
    cuzk_bool bits[4] = {cuzk_bool_not(cuzk_bool_is(b)), cuzk_bool_is(b), cuzk_bool_is(b), cuzk_bool_is(b)};
    cuzk_num e[15], out[16];
    for (int i = 0; i < 15; i++) e[i] = cuzk_num_alloc(cs, NULL);
    cuzk_insert(cs, e[0], bits, 3, e + 1, out);
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_cs_destroy(cs);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_insert(cs, e[0], bits, 4, e, out);
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_cs_destroy(cs);
}

/* pick's row: A = b - a, B = the condition's combination, C = b - c; values for every kind
 * of condition. */
static void test_pick(void)
{
    cuzk_fr va, vb, minus1;
    cuzk_fr_from_u64(&va, 3);
    cuzk_fr_from_u64(&vb, 4);
    cuzk_fr_neg(&minus1, &CUZK_FR_ONE);
    for (int kind = 0; kind < 4; kind++) {
        for (int bit = 0; bit < 2; bit++) {
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            cuzk_abit ab = cuzk_abit_alloc(cs, bit);
            cuzk_bool cond = kind == 0 ? cuzk_bool_is(ab)
                : kind == 1            ? cuzk_bool_not(cuzk_bool_is(ab))
                                       : cuzk_bool_constant(kind == 3);
            cuzk_num a = cuzk_num_alloc(cs, &va), b = cuzk_num_alloc(cs, &vb);
            cuzk_num c = cuzk_pick(cs, cond, a, b);
            bool take_a = cuzk_bool_value(cond);
            CHECK(cuzk_fr_eq(&c.value, take_a ? &va : &vb));
            CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
            cuzk_cs_destroy(cs);
        }
    }
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    cuzk_abit ab = cuzk_abit_alloc(cs, false);                           /* aux 0, row 0 */
    cuzk_num a = cuzk_num_alloc(cs, NULL), b = cuzk_num_alloc(cs, NULL); /* aux 1, 2 */
    cuzk_pick(cs, cuzk_bool_not(cuzk_bool_is(ab)), a, b);                /* aux 3, row 1 */
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    /* columns: ONE 0, bit 1, a 2, b 3, c 4 */
    uint32_t *col[3] = {&m.col[0][m.row_ptr[0][1]], &m.col[1][m.row_ptr[1][1]], &m.col[2][m.row_ptr[2][1]]};
    cuzk_fr *val[3] = {&m.val[0][m.row_ptr[0][1]], &m.val[1][m.row_ptr[1][1]], &m.val[2][m.row_ptr[2][1]]};
    CHECK(m.row_ptr[0][2] - m.row_ptr[0][1] == 2 && m.row_ptr[1][2] - m.row_ptr[1][1] == 2 &&
          m.row_ptr[2][2] - m.row_ptr[2][1] == 2);
    bool ok = true;
    for (int j = 0; j < 2; j++) {
        ok &= col[0][j] == 2 ? cuzk_fr_eq(&val[0][j], &minus1) : col[0][j] == 3 && cuzk_fr_is_one(&val[0][j]);
        ok &= col[1][j] == 0 ? cuzk_fr_is_one(&val[1][j]) : col[1][j] == 1 && cuzk_fr_eq(&val[1][j], &minus1);
        ok &= col[2][j] == 3 ? cuzk_fr_is_one(&val[2][j]) : col[2][j] == 4 && cuzk_fr_eq(&val[2][j], &minus1);
    }
    CHECK(ok);
    cuzk_r1cs_free(&m);
}

/* ---------------------------------------------------------------- PoR */

typedef struct {
    cuzk_hasher h;
    cuzk_tree_shape shape;
    bool private_root;
    cuzk_fr *leaves, root, siblings[64 * 7];
    uint64_t index;
} por_ctx;

static void synth_por(cuzk_cs *cs, void *p)
{
    por_ctx *c = p;
    cuzk_por_circuit(cs, c->h, &c->shape, cuzk_root_val(&c->leaves[c->index]), cuzk_root_val(&c->root), c->private_root,
                     c->siblings, c->index);
}

static cuzk_tree_shape shape_of(unsigned base, unsigned sub, unsigned top, uint64_t leaves)
{
    cuzk_tree_shape s = {base, 0, sub, top};
    uint64_t per = leaves / ((sub ? sub : 1) * (top ? top : 1));
    while (per > 1) per /= base, s.base_levels++;
    return s;
}

/* A random tree over `leaves` leaves and the path of a random leaf. */
static void por_setup(por_ctx *c, cuzk_hasher h, cuzk_tree_shape s, bool private_root, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->h = h;
    c->shape = s;
    c->private_root = private_root;
    uint64_t n = cuzk_tree_shape_leaves(&s);
    c->leaves = calloc(n, sizeof(cuzk_fr));
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    for (uint64_t i = 0; i < n; i++) cuzk_fr_random(&c->leaves[i], &rng);
    c->index = cuzk_rng_next(&rng) % n;
    CHECK_OK(cuzk_merkle_tree_path(h, &s, c->leaves, c->index, &c->root, c->siblings));
}

/* Synthesizes in TEST mode; returns the first failing constraint (-1: satisfied) and its path. */
static long por_test(por_ctx *c, const char **path, cuzk_fr *input1, cuzk_fr *input2)
{
    static char buf[512];
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth_por(cs, c);
    CHECK_OK(cuzk_cs_status(cs));
    const char *p = NULL;
    long bad = cuzk_cs_which_unsatisfied(cs, &p);
    snprintf(buf, sizeof buf, "%s", p ? p : "");
    if (path) *path = buf;
    if (input1 && cs->num_inputs > 1) *input1 = cs->input_vals[1];
    if (input2 && cs->num_inputs > 2) *input2 = cs->input_vals[2];
    cuzk_cs_destroy(cs);
    return bad;
}

/* Honest paths hold, the inputs are the leaf index and the root; a wrong sibling or a flipped
 * index bit breaks the root check, a wrong pick breaks its own row; all named by path. */
static void test_por_values(cuzk_hasher h, cuzk_tree_shape s, uint64_t seed)
{
    por_ctx c;
    por_setup(&c, h, s, false, seed);
    cuzk_fr in1, in2, idx;
    const char *path;
    CHECK(por_test(&c, &path, &in1, &in2) == -1);
    cuzk_fr_from_u64(&idx, c.index);
    CHECK(cuzk_fr_eq(&in1, &idx) && cuzk_fr_eq(&in2, &c.root));

    /* the computed root equals the native root (the circuit's last aux before the root) */
    cuzk_bool bits[64];
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    cuzk_num leaf = cuzk_num_alloc(cs, &c.leaves[c.index]);
    cuzk_num r = cuzk_por_auth_path(cs, h, &s, leaf, c.siblings, c.index, bits);
    CHECK(cuzk_fr_eq(&r.value, &c.root));
    bool bits_ok = true;
    for (unsigned b = 0; b < cuzk_tree_shape_index_bits(&s); b++)
        bits_ok &= bits[b].kind == CUZK_BOOL_IS && bits[b].bit.value == ((c.index >> b) & 1);
    CHECK(bits_ok);
    cuzk_cs_destroy(cs);

    size_t nsib = cuzk_tree_shape_siblings(&s);
    cuzk_fr save = c.siblings[nsib - 1];
    cuzk_fr_add(&c.siblings[nsib - 1], &c.siblings[nsib - 1], &CUZK_FR_ONE);
    CHECK(por_test(&c, &path, NULL, NULL) >= 0);
    CHECK(strcmp(path, "/enforce root is correct") == 0);
    c.siblings[nsib - 1] = save;

    unsigned nbits = cuzk_tree_shape_index_bits(&s);
    c.index ^= (uint64_t)1 << (nbits - 1);
    CHECK(por_test(&c, &path, NULL, NULL) >= 0);
    CHECK(strcmp(path, "/enforce root is correct") == 0);
    c.index ^= (uint64_t)1 << (nbits - 1);
    CHECK(por_test(&c, NULL, NULL, NULL) == -1);
    free(c.leaves);
}

/* A tampered aux value inside a level is named down to its gadget. */
static void test_por_tampered(void)
{
    por_ctx c;
    por_setup(&c, CUZK_HASHER_POSEIDON, shape_of(8, 0, 0, 64), true, 3);
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth_por(cs, &c);
    /* aux: leaf 0, bits 1..3, siblings 4..10, nor 11, and 12, p0_xx0 13 */
    cuzk_fr_add(&cs->aux_vals[13], &cs->aux_vals[13], &CUZK_FR_ONE);
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 5); /* 3 bits, nor, and, then the pick */
    CHECK(path && strcmp(path, "/base/merkle tree hash 0/p0_xx0/pick") == 0);
    cuzk_cs_destroy(cs);
    free(c.leaves);
}

/* filecoin-hashers test_poseidon_hasher: the binary tree over 1, 0, 0, 1 has root
 * [0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb]. */
static void test_por_known_root(void)
{
    static const uint64_t ROOT[4] = {0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb};
    uint8_t want[32];
    for (int i = 0; i < 32; i++) want[i] = (uint8_t)(ROOT[i / 8] >> (8 * (i % 8)));
    cuzk_fr leaves[4] = {CUZK_FR_ONE, CUZK_FR_ZERO, CUZK_FR_ZERO, CUZK_FR_ONE};
    cuzk_tree_shape s = shape_of(2, 0, 0, 4);
    for (uint64_t idx = 0; idx < 4; idx++) {
        cuzk_fr root, sib[2];
        CHECK_OK(cuzk_merkle_tree_path(CUZK_HASHER_POSEIDON, &s, leaves, idx, &root, sib));
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        cuzk_bool bits[2];
        cuzk_num leaf = cuzk_num_alloc(cs, &leaves[idx]);
        cuzk_num r = cuzk_por_auth_path(cs, CUZK_HASHER_POSEIDON, &s, leaf, sib, idx, bits);
        uint8_t got[32];
        cuzk_fr_to_bytes_le(got, &r.value);
        CHECK(!memcmp(got, want, 32));
        CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
        cuzk_cs_destroy(cs);
    }
}

/* SHA-256 node: the native trimmed digest of the children's bytes, in circuit. */
static void test_sha256_node(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 9);
    for (unsigned arity = 2; arity <= 8; arity *= 2) {
        cuzk_fr ch[8], want;
        for (unsigned i = 0; i < arity; i++) cuzk_fr_random(&ch[i], &rng);
        /* an extreme value: the largest field element exercises all 255 bits */
        cuzk_fr_neg(&ch[0], &CUZK_FR_ONE);
        CHECK_OK(cuzk_merkle_node(&want, CUZK_HASHER_SHA256, arity, ch));
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
        cuzk_num n[8];
        for (unsigned i = 0; i < arity; i++) n[i] = cuzk_num_alloc(cs, &ch[i]);
        cuzk_num r = cuzk_merkle_hash_node(cs, CUZK_HASHER_SHA256, arity, n);
        CHECK_OK(cuzk_cs_status(cs));
        CHECK(cuzk_fr_eq(&r.value, &want) && cuzk_fr_eq(cuzk_cs_value(cs, r.var), &want));
        cuzk_cs_destroy(cs);
    }
}

static void test_por_modes(void)
{
    static const struct {
        cuzk_hasher h;
        unsigned base, sub, top;
        uint64_t leaves;
    } cases[] = {
        {CUZK_HASHER_POSEIDON, 2, 0, 0, 64},  {CUZK_HASHER_POSEIDON, 8, 0, 0, 64},
        {CUZK_HASHER_POSEIDON, 8, 8, 0, 512}, {CUZK_HASHER_POSEIDON, 8, 8, 2, 1024},
        {CUZK_HASHER_POSEIDON, 8, 4, 2, 512}, {CUZK_HASHER_SHA256, 2, 0, 0, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int priv = 0; priv < 2; priv++) {
            por_ctx c;
            por_setup(&c, cases[i].h, shape_of(cases[i].base, cases[i].sub, cases[i].top, cases[i].leaves), priv,
                      20 + i);
            gm_counts n = gm_check_all_modes(synth_por, &c);
            CHECK(n.inputs == (priv ? 2u : 3u));
            free(c.leaves);
        }
}

/* ---------------------------------------------------------------- the built-in circuits */

typedef struct {
    const char *name;
    size_t constraints, inputs;
} count_case;

/* Every figure asserted in rust-fil-proofs storage-proofs-core/tests/por_circuit.rs. Leaves are
 * 64 per base tree (64 * get_base_tree_count). Blake2s trees (test_por_circuit_blake2s_base_2
 * 129,135, _base_4 130,296, _base_8 174,503) have no hasher here. */
static const count_case UPSTREAM[] = {
    /* test_por_circuit (root public, 3 inputs) */
    {"por:sha256:2-0-0:64", 272295, 3},   /* test_por_circuit_sha256_base_2 */
    {"por:poseidon:2-0-0:64", 1887, 3},   /* test_por_circuit_poseidon_base_2 */
    {"por:sha256:4-0-0:64", 216258, 3},   /* test_por_circuit_sha256_base_4 */
    {"por:poseidon:4-0-0:64", 1164, 3},   /* test_por_circuit_poseidon_base_4 */
    {"por:sha256:8-0-0:64", 250987, 3},   /* test_por_circuit_sha256_base_8 */
    {"por:poseidon:8-0-0:64", 1063, 3},   /* test_por_circuit_poseidon_base_8 */
    {"por:poseidon:8-2-0:128", 1377, 3},  /* test_por_circuit_poseidon_sub_8_2 */
    {"por:poseidon:8-4-2:512", 1764, 3},  /* test_por_circuit_poseidon_top_8_4_2 */
    {"por:poseidon:8-8-0:512", 1593, 3},  /* test_por_circuit_poseidon_sub_8_8 */
    {"por:poseidon:8-8-2:1024", 1907, 3}, /* test_por_circuit_poseidon_top_8_8_2 */
    {"por:poseidon:8-2-4:512", 1764, 3},  /* test_por_circuit_poseidon_top_8_2_4 */
    /* test_por_circuit_private_root (root private, 2 inputs) */
    {"por-private:poseidon:2-0-0:64", 1886, 2}, /* test_por_circuit_poseidon_base_2_private_root */
    {"por-private:poseidon:4-0-0:64", 1163, 2}, /* test_por_circuit_poseidon_base_4_private_root */
    {"por-private:poseidon:8-0-0:64", 1062, 2}, /* test_por_circuit_poseidon_base_8_private_root */
};

static void test_builtin_counts(void)
{
    for (size_t i = 0; i < sizeof UPSTREAM / sizeof UPSTREAM[0]; i++) {
        cuzk_circuit *c = NULL;
        CHECK_OK(cuzk_circuit_open(&c, UPSTREAM[i].name));
        if (!c) continue;
        cuzk_circuit_counts n;
        CHECK_OK(cuzk_circuit_count(c, &n));
        CHECK(n.constraints == UPSTREAM[i].constraints && n.inputs == UPSTREAM[i].inputs);
        if (n.constraints != UPSTREAM[i].constraints || n.inputs != UPSTREAM[i].inputs)
            fprintf(stderr, "    %s: %zu constraints, %zu inputs\n", UPSTREAM[i].name, n.constraints, n.inputs);
        cuzk_circuit_free(c);
    }
}

/* The built-in witness: satisfied, with the index and (public) root as inputs. */
static void test_builtin_witness(void)
{
    const char *names[] = {"por:poseidon:8-8-2:1024", "por-private:poseidon:8-4-0:256", "por:sha256:2-0-0:4",
                           "por-private:sha256:2-0-0:2"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cuzk_circuit *c = NULL;
        CHECK_OK(cuzk_circuit_open(&c, names[i]));
        if (!c) continue;
        for (uint64_t seed = 1; seed <= 2; seed++) {
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            CHECK_OK(cuzk_circuit_synthesize(c, cs, seed));
            const char *path = NULL;
            long bad = cuzk_cs_which_unsatisfied(cs, &path);
            CHECK(bad == -1);
            if (bad != -1) fprintf(stderr, "    %s: %s\n", names[i], path);
            cuzk_cs_destroy(cs);
        }
        cuzk_circuit_free(c);
    }
}

static void test_builtin_names(void)
{
    static const struct {
        const char *name, *msg;
    } bad[] = {
        {"por:md5:8-0-0:64", "unknown hasher 'md5'"},
        {"por:poseidon:8-0-0:100", "do not fit shape 8-0-0"},
        {"por:poseidon:8-2-0:64", "do not fit shape 8-2-0"},
        {"por:poseidon:8-0-0:1", "do not fit"},
        {"por:sha256:2-0-0:0", "do not fit"},
        {"por:poseidon:3-0-0:27", "base arity 3"},
        {"por:poseidon:8-0-2:128", "top tree needs a sub tree"},
        {"por:poseidon:8-0-0", "want por:HASHER:SHAPE:LEAVES"},
        {"por:poseidon:8-0:64", "bad tree shape"},
        {"por:poseidon:8-0-0:6x", "bad leaf count"},
        {"por-private:poseidon:8-8-0:32", "do not fit shape 8-8-0"},
        {"por:poseidon:2-0-0:16777216", "at most"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_circuit *c = NULL;
        CHECK_FAILS(cuzk_circuit_open(&c, bad[i].name), CUZK_EINVAL);
        CHECK(c == NULL);
        if (!strstr(cuzk_last_error(), bad[i].msg)) {
            CHECK(0);
            fprintf(stderr, "    %s: '%s'\n", bad[i].name, cuzk_last_error());
        }
    }
    CHECK(strstr(cuzk_circuit_names(), "por:HASHER:SHAPE:LEAVES") && strstr(cuzk_circuit_names(), "por-private:"));
}

int main(void)
{
    test_pick();
    test_insert();
    test_por_known_root();
    test_por_tampered();
    static const unsigned shapes[][4] = {{2, 0, 0, 64},  {4, 0, 0, 64},   {8, 0, 0, 64},
                                         {8, 2, 0, 128}, {8, 4, 0, 256},  {8, 8, 0, 512},
                                         {8, 4, 2, 512}, {8, 8, 2, 1024}, {8, 2, 4, 512}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        test_por_values(CUZK_HASHER_POSEIDON, shape_of(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]),
                        100 + i);
    test_sha256_node();
    test_por_values(CUZK_HASHER_SHA256, shape_of(2, 0, 0, 4), 7);
    test_por_modes();
    test_builtin_counts();
    test_builtin_witness();
    test_builtin_names();
    return harness_finish("test_gadgets_merkle");
}
