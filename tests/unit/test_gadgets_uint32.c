/* UInt32 and MultiEq against bellperson 0.27 uint32.rs / multieq.rs.
 *
 * addmany: values and result bits for 2..10 operands of mixed allocated/constant/negated
 * words; bitlen(n (2^32 - 1)) allocated result bits; the all-constant shortcut (no
 * constraints, no variables). MultiEq: 2-operand sums (33 bits) pack seven to a row, the
 * eighth reaching 254 bits emits the pending row right after its own result bits, rows are
 * lhs * ONE = rhs with the k-th sum shifted by 2^(33 k); the flush emits the rest.
 * rotr/shr/bit orders move bits only; xor/ch/maj values; every mode agreeing. */
#include <string.h>

#include "cuzk/gadgets/uint32.h"
#include "gadget_modes.h"

/* A word of value v, in one of four shapes: allocated, constant, negated bits (Not of an
 * allocated complement), or mixed (low half allocated, high half constant). */
static void make_word(cuzk_cs *cs, cuzk_u32 *w, uint32_t v, int shape)
{
    switch (shape) {
    case 0: cuzk_u32_alloc(cs, w, v); break;
    case 1: cuzk_u32_constant(w, v); break;
    case 2:
        cuzk_u32_alloc(cs, w, ~v);
        for (int i = 0; i < 32; i++) w->bits[i] = cuzk_bool_not(w->bits[i]);
        w->value = v;
        break;
    default:
        cuzk_u32_constant(w, v);
        for (int i = 0; i < 16; i++) w->bits[i] = cuzk_bool_is(cuzk_abit_alloc(cs, (v >> i) & 1));
        break;
    }
}

static bool word_is(const cuzk_u32 *w, uint32_t v)
{
    if (w->value != v) return false;
    for (int i = 0; i < 32; i++)
        if (cuzk_bool_value(w->bits[i]) != ((v >> i) & 1)) return false;
    return true;
}

static unsigned nbits_for(size_t n) { return n == 2 ? 33 : n <= 4 ? 34 : n <= 8 ? 35 : 36; }

static void test_addmany(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 11);
    for (size_t n = 2; n <= 10; n++)
        for (int trial = 0; trial < 12; trial++) {
            cuzk_cs *cs;
            CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
            cuzk_u32 w[10];
            const cuzk_u32 *ops[10];
            uint32_t sum = 0;
            bool all_const = true;
            for (size_t k = 0; k < n; k++) {
                uint32_t v = (uint32_t)cuzk_rng_next(&rng);
                int shape = trial == 0 ? 1 : trial == 1 ? 0 : (int)(cuzk_rng_next(&rng) % 4);
                all_const &= shape == 1;
                make_word(cs, &w[k], v, shape);
                ops[k] = &w[k];
                sum += v;
            }
            cuzk_multieq me;
            cuzk_multieq_init(&me);
            size_t c0 = cs->num_constraints, a0 = cs->num_aux;
            cuzk_u32 r;
            cuzk_u32_addmany(cs, &me, &r, ops, n);
            size_t dc = cs->num_constraints - c0, da = cs->num_aux - a0;
            CHECK(word_is(&r, sum));
            if (all_const) {
                CHECK(dc == 0 && da == 0 && cuzk_u32_is_constant(&r) && me.bits_used == 0);
            } else {
                CHECK(dc == nbits_for(n) && da == nbits_for(n) && me.bits_used == nbits_for(n));
                if (dc != nbits_for(n) || da != dc || me.bits_used != dc)
                    fprintf(stderr, "    %zu operands: %zu constraints, %zu aux, %u bits\n", n, dc, da, me.bits_used);
                for (int i = 0; i < 32; i++) CHECK(r.bits[i].kind == CUZK_BOOL_IS);
            }
            cuzk_multieq_flush(cs, &me);
            CHECK(cs->num_constraints - c0 == dc + !all_const);
            const char *path = NULL;
            CHECK(cuzk_cs_which_unsatisfied(cs, &path) == -1);
            if (!all_const) { /* a wrong carry bit breaks the packed row */
                uint32_t top = cuzk_var_index(r.bits[31].bit.var) + 1;
                cs->aux_vals[top] = cuzk_fr_is_zero(&cs->aux_vals[top]) ? CUZK_FR_ONE : CUZK_FR_ZERO;
                CHECK(cuzk_cs_which_unsatisfied(cs, &path) == (long)cs->num_constraints - 1);
                CHECK(path && !strcmp(path, "/multieq 0/packed equality"));
            }
            cuzk_multieq_free(&me);
            cuzk_cs_destroy(cs);
        }
}

/* Eight 2-operand sums through one MultiEq: the packed row comes after the eighth sum's
 * result bits; its A holds the k-th sum's operand bit i at 2^(33 k + i). */
static void test_multieq_packing(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    cuzk_u32 x[9], y[9], r[9];
    for (int k = 0; k < 9; k++) {
        cuzk_u32_alloc(cs, &x[k], 0);
        cuzk_u32_alloc(cs, &y[k], 0);
    }
    size_t base = cs->num_constraints; /* 9 * 64 */
    cuzk_multieq me;
    cuzk_multieq_init(&me);
    for (int k = 0; k < 9; k++) {
        const cuzk_u32 *ops[2] = {&x[k], &y[k]};
        cuzk_u32_addmany(cs, &me, &r[k], ops, 2);
        size_t want = base + 33 * (size_t)(k + 1) + (k >= 7);
        CHECK(cs->num_constraints == want);
    }
    CHECK(me.bits_used == 66 && me.ops == 1);
    cuzk_multieq_flush(cs, &me);
    CHECK(me.bits_used == 0 && me.ops == 2);
    cuzk_multieq_flush(cs, &me); /* nothing pending: nothing emitted */
    cuzk_multieq_free(&me);
    size_t total = cs->num_constraints;
    CHECK(total == base + 9 * 33 + 2);
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);

    size_t row = base + 8 * 33; /* the first packed row */
    /* A: 7 sums x 2 operands x 32 bits; B: ONE; C: 7 x 33 result bits */
    CHECK(m.row_ptr[0][row + 1] - m.row_ptr[0][row] == 7 * 64);
    CHECK(m.row_ptr[1][row + 1] - m.row_ptr[1][row] == 1 && m.col[1][m.row_ptr[1][row]] == 0);
    CHECK(m.row_ptr[2][row + 1] - m.row_ptr[2][row] == 7 * 33);
    /* y[3] bit 5 (aux 64*3 + 32 + 5, column 1 + that) at 2^(99 + 5) */
    uint32_t col = 1 + 64 * 3 + 32 + 5;
    bool found = false;
    for (uint32_t j = m.row_ptr[0][row]; j < m.row_ptr[0][row + 1]; j++)
        if (m.col[0][j] == col) found = cuzk_fr_eq(&m.val[0][j], cuzk_fr_pow2(33 * 3 + 5));
    CHECK(found);
    /* the last packed row holds sums 7 and 8 */
    CHECK(m.row_ptr[0][total] - m.row_ptr[0][total - 1] == 2 * 64);
    cuzk_r1cs_free(&m);
}

/* MultiEq::enforce_equal on caller LCs. */
static void test_multieq_enforce_equal(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    cuzk_fr v;
    cuzk_fr_from_u64(&v, 5);
    cuzk_var a = cuzk_cs_alloc(cs, &v), b = cuzk_cs_alloc(cs, &v);
    cuzk_lc l, r;
    cuzk_lc_init(&l);
    cuzk_lc_init(&r);
    cuzk_lc_add_one(cs, &l, a);
    cuzk_lc_add_one(cs, &r, b);
    cuzk_multieq me;
    cuzk_multieq_init(&me);
    for (int i = 0; i < 3; i++) cuzk_multieq_enforce_equal(cs, &me, 100, &l, &r);
    CHECK(cs->num_constraints == 1 && me.bits_used == 100); /* 200 + 100 >= 254: one row out */
    cuzk_multieq_flush(cs, &me);
    CHECK(cs->num_constraints == 2 && cuzk_cs_which_unsatisfied(cs, NULL) == -1);
    cuzk_multieq_enforce_equal(cs, &me, 254, &l, &r); /* never fits: upstream asserts */
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_multieq_free(&me);
    cuzk_lc_free(&l);
    cuzk_lc_free(&r);
    cuzk_cs_destroy(cs);
}

static void test_shuffles(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    uint32_t v = 0x9b05688c;
    cuzk_u32 x, y;
    cuzk_u32_alloc(cs, &x, v);
    CHECK(cs->num_constraints == 32 && word_is(&x, v));
    for (unsigned by = 0; by < 40; by++) {
        unsigned s = by % 32;
        cuzk_u32_rotr(&y, &x, by);
        uint32_t want = s ? (v >> s) | (v << (32 - s)) : v;
        CHECK(word_is(&y, want));
        CHECK(y.bits[0].bit.var == x.bits[s].bit.var);
        cuzk_u32_shr(&y, &x, by);
        CHECK(word_is(&y, v >> s));
        CHECK(s == 0 || y.bits[31].kind == CUZK_BOOL_CONSTANT);
    }
    y = x;
    cuzk_u32_rotr(&y, &y, 7); /* in place */
    CHECK(word_is(&y, (v >> 7) | (v << 25)));
    cuzk_bool be[32];
    cuzk_u32_into_bits_be(&x, be);
    CHECK(be[0].bit.var == x.bits[31].bit.var && be[31].bit.var == x.bits[0].bit.var);
    cuzk_u32_from_bits_be(&y, be);
    CHECK(word_is(&y, v) && y.bits[0].bit.var == x.bits[0].bit.var);
    CHECK(cs->num_constraints == 32);
    cuzk_cs_destroy(cs);
}

static void test_bitwise(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 12);
    for (int trial = 0; trial < 64; trial++) {
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        uint32_t va = (uint32_t)cuzk_rng_next(&rng), vb = (uint32_t)cuzk_rng_next(&rng),
                 vc = (uint32_t)cuzk_rng_next(&rng);
        cuzk_u32 a, b, c, r;
        make_word(cs, &a, va, trial % 4);
        make_word(cs, &b, vb, (trial / 4) % 4);
        make_word(cs, &c, vc, (trial / 16) % 4);
        cuzk_u32_xor(cs, &r, &a, &b);
        CHECK(word_is(&r, va ^ vb));
        cuzk_u32_sha256_ch(cs, &r, &a, &b, &c);
        CHECK(word_is(&r, (va & vb) ^ (~va & vc)));
        cuzk_u32_sha256_maj(cs, &r, &a, &b, &c);
        CHECK(word_is(&r, (va & vb) ^ (va & vc) ^ (vb & vc)));
        cuzk_u32_xor(cs, &a, &a, &b); /* in place */
        CHECK(word_is(&a, va ^ vb));
        CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
        cuzk_cs_destroy(cs);
    }
}

/* A mix of everything, in every mode. */
static void synth_mix(cuzk_cs *cs, void *ctx)
{
    (void)ctx;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 13);
    cuzk_multieq me;
    cuzk_multieq_init(&me);
    cuzk_u32 w[6];
    for (int k = 0; k < 6; k++) make_word(cs, &w[k], (uint32_t)cuzk_rng_next(&rng), k % 4);
    for (int step = 0; step < 12; step++) {
        cuzk_u32 t, s;
        cuzk_u32_rotr(&t, &w[step % 6], 7);
        cuzk_u32_xor(cs, &t, &t, &w[(step + 1) % 6]);
        cuzk_u32_shr(&s, &w[(step + 2) % 6], 3);
        cuzk_u32_sha256_ch(cs, &s, &s, &w[(step + 3) % 6], &t);
        cuzk_u32_sha256_maj(cs, &t, &t, &w[(step + 4) % 6], &s);
        const cuzk_u32 *ops[5] = {&t, &s, &w[(step + 5) % 6], &w[step % 6], &w[(step + 1) % 6]};
        cuzk_u32_addmany(cs, &me, &w[step % 6], ops, 2 + (size_t)step % 4);
    }
    cuzk_multieq_flush(cs, &me);
    cuzk_multieq_free(&me);
}

static void test_modes(void)
{
    gm_counts c = gm_check_all_modes(synth_mix, NULL);
    CHECK(c.constraints > 0);
}

int main(void)
{
    test_addmany();
    test_multieq_packing();
    test_multieq_enforce_equal();
    test_shuffles();
    test_bitwise();
    test_modes();
    return harness_finish("test_gadgets_uint32");
}
