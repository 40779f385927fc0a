/* Number gadgets against bellpepper-core 0.2: to_bits_le (255 bits LE, then one unpacking
 * row with coefficients 2^i and -1 on x), inputize, mul, square, Num::add_bool_with_coeff for
 * every Boolean shape; every mode agreeing; a wrong bit named by path. */
#include "cuzk/gadgets/num.h"
#include "gadget_modes.h"

typedef struct {
    cuzk_fr x, y;
} num_ctx;

static void synth_nums(cuzk_cs *cs, void *vctx)
{
    num_ctx *ctx = vctx;
    cuzk_num x = cuzk_num_alloc(cs, &ctx->x), y = cuzk_num_alloc(cs, &ctx->y);
    cuzk_bool bits[255];
    cuzk_cs_push(cs, "x bits");
    cuzk_num_to_bits_le(cs, x, bits);
    cuzk_cs_pop(cs);
    cuzk_num p = cuzk_num_mul(cs, x, y);
    cuzk_num s = cuzk_num_square(cs, p);
    cuzk_num_inputize(cs, s);
    cuzk_num_inputize(cs, x);
}

static void test_nums(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    num_ctx ctx;
    cuzk_fr_random(&ctx.x, &rng);
    cuzk_fr_random(&ctx.y, &rng);
    gm_counts c = gm_check_all_modes(synth_nums, &ctx);
    /* x, y, 255 bits, p, s; 255 boolean + unpacking + mul + square + 2 inputize */
    CHECK(c.aux == 2 + 255 + 2 && c.constraints == 255 + 1 + 1 + 1 + 2 && c.inputs == 3);

    /* the values and the unpacking row */
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    cuzk_num x = cuzk_num_alloc(cs, &ctx.x), y = cuzk_num_alloc(cs, &ctx.y);
    cuzk_bool bits[255];
    cuzk_num_to_bits_le(cs, x, bits);
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, &ctx.x);
    bool bits_ok = true;
    for (int i = 0; i < 255; i++) {
        bool want = (le[i / 8] >> (i % 8)) & 1;
        bits_ok &= bits[i].kind == CUZK_BOOL_IS && bits[i].bit.value == want &&
            cuzk_fr_eq(cuzk_cs_value(cs, bits[i].bit.var), want ? &CUZK_FR_ONE : &CUZK_FR_ZERO) &&
            cuzk_var_index(bits[i].bit.var) == 2u + (unsigned)i;
    }
    CHECK(bits_ok);
    cuzk_num p = cuzk_num_mul(cs, x, y), s = cuzk_num_square(cs, p);
    cuzk_fr want;
    cuzk_fr_mul(&want, &ctx.x, &ctx.y);
    CHECK(cuzk_fr_eq(&p.value, &want) && cuzk_fr_eq(cuzk_cs_value(cs, p.var), &want));
    cuzk_fr_sqr(&want, &want);
    CHECK(cuzk_fr_eq(&s.value, &want));
    cuzk_var in = cuzk_num_inputize(cs, s);
    CHECK(in == 1 && cuzk_fr_eq(cuzk_cs_value(cs, in), &want));
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    x = cuzk_num_alloc(cs, NULL);
    cuzk_num_to_bits_le(cs, x, bits);
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    size_t row = 255;
    CHECK(m.num_constraints == 256);
    CHECK(m.row_ptr[0][row] == m.row_ptr[0][row + 1] && m.row_ptr[1][row] == m.row_ptr[1][row + 1]);
    CHECK(m.row_ptr[2][row + 1] - m.row_ptr[2][row] == 256);
    bool row_ok = true;
    cuzk_fr minus1;
    cuzk_fr_neg(&minus1, &CUZK_FR_ONE);
    for (uint32_t j = m.row_ptr[2][row]; j < m.row_ptr[2][row + 1]; j++) {
        uint32_t col = m.col[2][j];
        if (col == 1) row_ok &= cuzk_fr_eq(&m.val[2][j], &minus1);
        else row_ok &= col >= 2 && col < 257 && cuzk_fr_eq(&m.val[2][j], cuzk_fr_pow2(col - 2));
    }
    CHECK(row_ok);
    cuzk_r1cs_free(&m);
}

/* A wrong bit fails the unpacking row, named by path. */
static void test_flip(void)
{
    cuzk_cs *cs;
    cuzk_fr v;
    cuzk_fr_from_u64(&v, 0x1234);
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    cuzk_num x = cuzk_num_alloc(cs, &v);
    cuzk_bool bits[255];
    cuzk_cs_push(cs, "node");
    cuzk_num_to_bits_le(cs, x, bits);
    cuzk_cs_pop(cs);
    CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
    cs->aux_vals[cuzk_var_index(bits[3].bit.var)] = CUZK_FR_ONE; /* bit 3 of 0x1234 is 0 */
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 255);
    CHECK(path && !strcmp(path, "/node/unpacking constraint"));
    cuzk_cs_destroy(cs);
}

/* Num::add_bool_with_coeff: Constant(true) adds coeff ONE, Constant(false) nothing, Is coeff v,
 * Not coeff ONE - coeff v; the value follows the Boolean's value. */
static void test_lcnum(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_PROVE, true));
    cuzk_abit b0 = cuzk_abit_alloc(cs, false), b1 = cuzk_abit_alloc(cs, true);
    cuzk_lcnum n;
    cuzk_lcnum_init(&n);
    cuzk_fr three;
    cuzk_fr_from_u64(&three, 3);
    cuzk_lcnum_add_bool_with_coeff(cs, &n, cuzk_bool_constant(true), cuzk_fr_pow2(0));  /* +1 */
    cuzk_lcnum_add_bool_with_coeff(cs, &n, cuzk_bool_constant(false), cuzk_fr_pow2(1)); /* +0 */
    cuzk_lcnum_add_bool_with_coeff(cs, &n, cuzk_bool_is(b1), cuzk_fr_pow2(2));          /* +4 */
    cuzk_lcnum_add_bool_with_coeff(cs, &n, cuzk_bool_not(cuzk_bool_is(b0)), &three);    /* +3 */
    cuzk_lcnum_add_bool_with_coeff(cs, &n, cuzk_bool_not(cuzk_bool_is(b1)), NULL);      /* +0 */
    cuzk_fr want;
    cuzk_fr_from_u64(&want, 8);
    CHECK(cuzk_fr_eq(&n.value, &want));
    cuzk_fr ev;
    cuzk_lc_eval(cs, &n.lc, &ev);
    CHECK(cuzk_fr_eq(&ev, &want));
    /* terms: ONE (1 + 3 + 1 = 5), b0 (-3), b1 (4 - 1 = 3) */
    CHECK(n.lc.n == 3);
    cuzk_fr five, m3;
    cuzk_fr_from_u64(&five, 5);
    cuzk_fr_neg(&m3, &three);
    CHECK(n.lc.t[0].var == CUZK_VAR_ONE && cuzk_fr_eq(&n.lc.t[0].coeff, &five));
    CHECK(n.lc.t[1].var == b0.var && cuzk_fr_eq(&n.lc.t[1].coeff, &m3));
    CHECK(n.lc.t[2].var == b1.var && cuzk_fr_eq(&n.lc.t[2].coeff, &three));
    cuzk_lcnum_free(&n);
    cuzk_cs_destroy(cs);
}

int main(void)
{
    test_nums();
    test_flip();
    test_lcnum();
    return harness_finish("test_gadgets_num");
}
