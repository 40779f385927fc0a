/* Boolean gadgets against bellpepper-core 0.2's case analysis.
 *
 * For xor, and, sha256_ch and sha256_maj, every combination of operand shapes (constant
 * false, constant true, Is, Not) and every consistent value: the number of constraints and
 * aux variables the matching arm emits, the value, and TEST satisfaction. The counts follow
 * from the arms: xor/and cost one constraint when both operands are allocated; ch costs one
 * when at least two operands are allocated and `a` is not constant false (constant-true `a`
 * takes the general path upstream); maj costs two when all three are allocated (maj, then
 * b AND c) and one when exactly two are. Exact rows (variables and coefficients) for the
 * arms whose operand order matters; every mode agreeing; a flipped value named by path. */
#include "cuzk/gadgets/boolean.h"
#include "gadget_modes.h"

enum { K_F, K_T, K_IS, K_NOT, NKINDS };
static const char *KIND_NAME[NKINDS] = {"false", "true", "Is", "Not"};

static bool kind_is_var(int k) { return k == K_IS || k == K_NOT; }

/* An operand of the given shape whose Boolean value is v. */
static cuzk_bool make(cuzk_cs *cs, int kind, bool v)
{
    switch (kind) {
    case K_F: return cuzk_bool_constant(false);
    case K_T: return cuzk_bool_constant(true);
    case K_IS: return cuzk_bool_is(cuzk_abit_alloc(cs, v));
    default: return cuzk_bool_not(cuzk_bool_is(cuzk_abit_alloc(cs, !v)));
    }
}

static bool consistent(int kind, bool v) { return kind_is_var(kind) || (kind == K_T) == v; }

enum { OP_XOR, OP_AND, OP_CH, OP_MAJ, NOPS };
static const char *OP_NAME[NOPS] = {"xor", "and", "ch", "maj"};
static const int OP_ARITY[NOPS] = {2, 2, 3, 3};

static cuzk_bool run_op(cuzk_cs *cs, int op, const cuzk_bool *x)
{
    switch (op) {
    case OP_XOR: return cuzk_bool_xor(cs, x[0], x[1]);
    case OP_AND: return cuzk_bool_and(cs, x[0], x[1]);
    case OP_CH: return cuzk_bool_sha256_ch(cs, x[0], x[1], x[2]);
    default: return cuzk_bool_sha256_maj(cs, x[0], x[1], x[2]);
    }
}

static bool native(int op, const bool *v)
{
    switch (op) {
    case OP_XOR: return v[0] ^ v[1];
    case OP_AND: return v[0] & v[1];
    case OP_CH: return (v[0] & v[1]) ^ (!v[0] & v[2]);
    default: return (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    }
}

static size_t expected_cost(int op, const int *k)
{
    int nvars = 0;
    for (int i = 0; i < OP_ARITY[op]; i++) nvars += kind_is_var(k[i]);
    switch (op) {
    case OP_XOR:
    case OP_AND: return nvars == 2;
    case OP_CH: return nvars >= 2 && k[0] != K_F;
    default: return nvars == 3 ? 2 : nvars == 2;
    }
}

/* Decodes combination number `combo` into kinds (base 4) and values (base 2). */
static bool decode(int op, int combo, int *k, bool *v)
{
    int ar = OP_ARITY[op];
    for (int i = 0; i < ar; i++) {
        k[i] = combo % NKINDS;
        combo /= NKINDS;
    }
    for (int i = 0; i < ar; i++) {
        v[i] = combo & 1;
        combo >>= 1;
        if (!consistent(k[i], v[i])) return false;
    }
    return true;
}

static int ncombos(int op) { return OP_ARITY[op] == 2 ? 16 * 4 : 64 * 8; }

static void test_arms(void)
{
    for (int op = 0; op < NOPS; op++)
        for (int combo = 0; combo < ncombos(op); combo++) {
            int k[3];
            bool v[3];
            if (!decode(op, combo, k, v)) continue;
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            cuzk_bool x[3];
            for (int i = 0; i < OP_ARITY[op]; i++) x[i] = make(cs, k[i], v[i]);
            size_t c0 = cs->num_constraints, a0 = cs->num_aux;
            cuzk_cs_push(cs, "%s", OP_NAME[op]);
            cuzk_bool r = run_op(cs, op, x);
            cuzk_cs_pop(cs);
            size_t dc = cs->num_constraints - c0, da = cs->num_aux - a0;
            size_t want = expected_cost(op, k);
            bool ok = dc == want && da == want && cuzk_bool_value(r) == native(op, v);
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "    %s(%s=%d, %s=%d, %s=%d): %zu constraints, %zu aux (want %zu), value %d\n",
                        OP_NAME[op], KIND_NAME[k[0]], v[0], KIND_NAME[k[1]], v[1],
                        OP_ARITY[op] > 2 ? KIND_NAME[k[2]] : "-", OP_ARITY[op] > 2 ? v[2] : 0, dc, da, want,
                        cuzk_bool_value(r));
            CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
            if (r.kind != CUZK_BOOL_CONSTANT) {
                /* the tracked bit value is the assigned one */
                const cuzk_fr *val = cuzk_cs_value(cs, r.bit.var);
                CHECK(cuzk_fr_eq(val, r.bit.value ? &CUZK_FR_ONE : &CUZK_FR_ZERO));
                /* a free arm returns an operand's own bit */
                if (want == 0) CHECK(cuzk_var_index(r.bit.var) < a0);
            }
            cuzk_cs_destroy(cs);
        }
}

/* Every arm of every operation in one system, in every mode. */
static void synth_all_arms(cuzk_cs *cs, void *ctx)
{
    (void)ctx;
    for (int op = 0; op < NOPS; op++)
        for (int combo = 0; combo < ncombos(op); combo++) {
            int k[3];
            bool v[3];
            if (!decode(op, combo, k, v)) continue;
            cuzk_bool x[3];
            for (int i = 0; i < OP_ARITY[op]; i++) x[i] = make(cs, k[i], v[i]);
            cuzk_bool r = run_op(cs, op, x);
            /* pin the result so folded results are used in a constraint too */
            cuzk_bool_enforce_equal(cs, r, cuzk_bool_constant(native(op, v)));
        }
}

static void test_all_modes(void)
{
    gm_counts c = gm_check_all_modes(synth_all_arms, NULL);
    CHECK(c.constraints > 0 && c.inputs == 1);
}

/* ---------------------------------------------------------------- exact rows */

typedef struct {
    uint32_t col;
    int coeff;
} term;

static void fr_int(cuzk_fr *out, int v)
{
    cuzk_fr_from_u64(out, (uint64_t)(v < 0 ? -v : v));
    if (v < 0) cuzk_fr_neg(out, out);
}

/* Row `row` of matrix k holds exactly the given terms (columns: 0 = ONE, 1 + i = aux i). */
static bool row_is(const cuzk_r1cs *m, size_t row, int k, const term *t, size_t n)
{
    uint32_t b = m->row_ptr[k][row], e = m->row_ptr[k][row + 1];
    if (e - b != n) return false;
    for (size_t i = 0; i < n; i++) {
        cuzk_fr want;
        fr_int(&want, t[i].coeff);
        bool found = false;
        for (uint32_t j = b; j < e; j++) found |= m->col[k][j] == t[i].col && cuzk_fr_eq(&m->val[k][j], &want);
        if (!found) return false;
    }
    return true;
}

#define ROW(m, r, k, ...)                                     \
    do {                                                      \
        static const term t_[] = {__VA_ARGS__};               \
        CHECK(row_is(m, r, k, t_, sizeof t_ / sizeof t_[0])); \
    } while (0)
#define ROW_EMPTY(m, r, k) CHECK(row_is(m, r, k, NULL, 0))

typedef enum { S_XOR_NOT_IS, S_AND_NOT_IS, S_AND_NOT_NOT, S_CH_TRUE, S_CH_MIXED, S_MAJ_IS, S_MAJ_NOT, S_EQ } shape;

static cuzk_bool var(cuzk_cs *cs, bool is) { return make(cs, is ? K_IS : K_NOT, true); }

static cuzk_r1cs record(shape s, cuzk_bool *result)
{
    cuzk_cs *cs;
    cuzk_r1cs m;
    memset(&m, 0, sizeof m);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    cuzk_bool x, y, z, r = cuzk_bool_constant(false);
    switch (s) {
    case S_XOR_NOT_IS: /* AllocatedBit::xor(is, not): the Is operand is "a" */
        x = var(cs, false), y = var(cs, true);
        r = cuzk_bool_xor(cs, x, y);
        break;
    case S_AND_NOT_IS: /* and_not(is, not) */
        x = var(cs, false), y = var(cs, true);
        r = cuzk_bool_and(cs, x, y);
        break;
    case S_AND_NOT_NOT: /* nor */
        x = var(cs, false), y = var(cs, false);
        r = cuzk_bool_and(cs, x, y);
        break;
    case S_CH_TRUE: /* a constant true: the general path with B = ONE */
        y = var(cs, true), z = var(cs, true);
        r = cuzk_bool_sha256_ch(cs, cuzk_bool_constant(true), y, z);
        break;
    case S_CH_MIXED:
        x = var(cs, true), y = var(cs, false), z = var(cs, true);
        r = cuzk_bool_sha256_ch(cs, x, y, z);
        break;
    case S_MAJ_IS:
        x = var(cs, true), y = var(cs, true), z = var(cs, true);
        r = cuzk_bool_sha256_maj(cs, x, y, z);
        break;
    case S_MAJ_NOT:
        x = var(cs, false), y = var(cs, false), z = var(cs, false);
        r = cuzk_bool_sha256_maj(cs, x, y, z);
        break;
    case S_EQ:
        x = var(cs, true), y = var(cs, false);
        cuzk_bool_enforce_equal(cs, x, y);
        cuzk_bool_enforce_equal(cs, cuzk_bool_constant(true), y);
        cuzk_bool_enforce_equal(cs, x, cuzk_bool_constant(false));
        break;
    }
    *result = r;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    return m;
}

static void test_rows(void)
{
    cuzk_bool r;
    cuzk_r1cs m;
    /* aux i is column 1 + i */
    m = record(S_XOR_NOT_IS, &r); /* x = aux0 (Not), y = aux1 (Is), result aux2 */
    ROW(&m, 0, CUZK_MAT_A, {0, 1}, {1, -1});
    ROW(&m, 0, CUZK_MAT_B, {1, 1});
    ROW_EMPTY(&m, 0, CUZK_MAT_C);
    ROW(&m, 2, CUZK_MAT_A, {2, 2});
    ROW(&m, 2, CUZK_MAT_B, {1, 1});
    ROW(&m, 2, CUZK_MAT_C, {1, 1}, {2, 1}, {3, -1});
    CHECK(r.kind == CUZK_BOOL_NOT && cuzk_var_index(r.bit.var) == 2 && m.num_constraints == 3);
    cuzk_r1cs_free(&m);

    m = record(S_AND_NOT_IS, &r);
    ROW(&m, 2, CUZK_MAT_A, {2, 1});
    ROW(&m, 2, CUZK_MAT_B, {0, 1}, {1, -1});
    ROW(&m, 2, CUZK_MAT_C, {3, 1});
    CHECK(r.kind == CUZK_BOOL_IS && m.num_constraints == 3);
    cuzk_r1cs_free(&m);

    m = record(S_AND_NOT_NOT, &r);
    ROW(&m, 2, CUZK_MAT_A, {0, 1}, {1, -1});
    ROW(&m, 2, CUZK_MAT_B, {0, 1}, {2, -1});
    ROW(&m, 2, CUZK_MAT_C, {3, 1});
    CHECK(r.kind == CUZK_BOOL_IS && m.num_constraints == 3);
    cuzk_r1cs_free(&m);

    m = record(S_CH_TRUE, &r); /* b = aux0, c = aux1, ch = aux2: (b - c) * ONE = ch - c */
    ROW(&m, 2, CUZK_MAT_A, {1, 1}, {2, -1});
    ROW(&m, 2, CUZK_MAT_B, {0, 1});
    ROW(&m, 2, CUZK_MAT_C, {3, 1}, {2, -1});
    CHECK(r.kind == CUZK_BOOL_IS && m.num_constraints == 3 && m.num_aux == 3);
    cuzk_r1cs_free(&m);

    m = record(S_CH_MIXED, &r); /* a = Is aux0, b = Not aux1, c = Is aux2, ch = aux3 */
    ROW(&m, 3, CUZK_MAT_A, {0, 1}, {2, -1}, {3, -1});
    ROW(&m, 3, CUZK_MAT_B, {1, 1});
    ROW(&m, 3, CUZK_MAT_C, {4, 1}, {3, -1});
    cuzk_r1cs_free(&m);

    /* maj = aux3 allocated first, then bc = aux4 with its and row, then the maj row */
    m = record(S_MAJ_IS, &r);
    CHECK(m.num_constraints == 5 && m.num_aux == 5 && cuzk_var_index(r.bit.var) == 3);
    ROW(&m, 3, CUZK_MAT_A, {2, 1});
    ROW(&m, 3, CUZK_MAT_B, {3, 1});
    ROW(&m, 3, CUZK_MAT_C, {5, 1});
    ROW(&m, 4, CUZK_MAT_A, {5, 2}, {2, -1}, {3, -1});
    ROW(&m, 4, CUZK_MAT_B, {1, 1});
    ROW(&m, 4, CUZK_MAT_C, {5, 1}, {4, -1});
    cuzk_r1cs_free(&m);

    m = record(S_MAJ_NOT, &r); /* bc = nor(b, c); 2bc - (1 - b) - (1 - c) */
    ROW(&m, 3, CUZK_MAT_A, {0, 1}, {2, -1});
    ROW(&m, 3, CUZK_MAT_B, {0, 1}, {3, -1});
    ROW(&m, 4, CUZK_MAT_A, {0, -2}, {2, 1}, {3, 1}, {5, 2});
    ROW(&m, 4, CUZK_MAT_B, {0, 1}, {1, -1});
    ROW(&m, 4, CUZK_MAT_C, {5, 1}, {4, -1});
    cuzk_r1cs_free(&m);

    m = record(S_EQ, &r); /* x Is aux0, y Not aux1 */
    CHECK(m.num_constraints == 5);
    ROW_EMPTY(&m, 2, CUZK_MAT_A);
    ROW_EMPTY(&m, 2, CUZK_MAT_B);
    ROW(&m, 2, CUZK_MAT_C, {1, 1}, {0, -1}, {2, 1}); /* x - (1 - y) */
    ROW(&m, 3, CUZK_MAT_C, {2, 1});                  /* ONE - (ONE - y) = y: ONE cancels to zero, dropped */
    ROW(&m, 4, CUZK_MAT_C, {1, 1});
    cuzk_r1cs_free(&m);
}

/* Constants: unequal ones fail the system, equal ones cost nothing. */
static void test_enforce_equal_constants(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_bool_enforce_equal(cs, cuzk_bool_constant(true), cuzk_bool_constant(true));
    CHECK(cs->num_constraints == 0 && cuzk_cs_status(cs) == CUZK_OK);
    cuzk_bool_enforce_equal(cs, cuzk_bool_constant(true), cuzk_bool_constant(false));
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_cs_destroy(cs);
}

/* A wrong value is reported with its namespace path. */
static void test_flip(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    cuzk_cs_push(cs, "gadget");
    cuzk_cs_push(cs, "a");
    cuzk_bool a = make(cs, K_IS, true);
    cuzk_cs_pop(cs);
    cuzk_bool b = make(cs, K_IS, false), c = make(cs, K_IS, true);
    cuzk_cs_push(cs, "maj");
    cuzk_bool r = cuzk_bool_sha256_maj(cs, a, b, c);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    CHECK(cuzk_bool_value(r) == true && cuzk_cs_which_unsatisfied(cs, NULL) == -1);
    const char *path = NULL;
    cs->aux_vals[cuzk_var_index(r.bit.var)] = CUZK_FR_ZERO; /* maj = 0 instead of 1 */
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 4);
    CHECK(path && !strcmp(path, "/gadget/maj/maj computation"));
    cs->aux_vals[cuzk_var_index(r.bit.var)] = CUZK_FR_ONE;
    cuzk_fr two;
    cuzk_fr_from_u64(&two, 2);
    cs->aux_vals[cuzk_var_index(a.bit.var)] = two; /* not a bit */
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 0);
    CHECK(path && !strcmp(path, "/gadget/a/boolean constraint"));
    cuzk_cs_destroy(cs);
}

int main(void)
{
    test_arms();
    test_all_modes();
    test_rows();
    test_enforce_equal_constants();
    test_flip();
    return harness_finish("test_gadgets_boolean");
}
