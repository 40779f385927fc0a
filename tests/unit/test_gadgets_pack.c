/* UInt64, multipack and the bit helpers against storage-proofs-core / bellperson 0.27.
 *
 * UInt64: 64 bits allocated least significant first, to_bits_be reversed, pack_into_input
 * one public input equal to the value with one row. pack_into_inputs: chunks of 254 bits,
 * one input and one row each, values as compute_multipacking, constants folded into ONE.
 * pack_bits: only the first 254 bits. reverse_bit_numbering: constant-false padding to whole
 * bytes, bits reversed per byte. Byte allocation in both bit orders. Every mode agreeing. */
#include <string.h>

#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/uint64.h"
#include "gadget_modes.h"

static void test_uint64(void)
{
    cuzk_cs *cs;
    uint64_t v = 0x8000000000001235ull;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    cuzk_u64 x;
    cuzk_cs_push(cs, "node");
    cuzk_u64_alloc(cs, &x, v);
    cuzk_cs_pop(cs);
    bool ok = x.value == v;
    for (int i = 0; i < 64; i++)
        ok &= x.bits[i].kind == CUZK_BOOL_IS && x.bits[i].bit.value == ((v >> i) & 1) &&
            cuzk_var_index(x.bits[i].bit.var) == (uint32_t)i;
    CHECK(ok);
    cuzk_bool be[64], le[64];
    cuzk_u64_to_bits_be(&x, be);
    cuzk_u64_to_bits_le(&x, le);
    CHECK(be[0].bit.var == x.bits[63].bit.var && be[63].bit.var == x.bits[0].bit.var &&
          le[5].bit.var == x.bits[5].bit.var);
    cuzk_u64 y;
    cuzk_u64_from_bits_be(&y, be);
    CHECK(y.value == v && y.bits[0].bit.var == x.bits[0].bit.var);
    cuzk_var in = cuzk_u64_pack_into_input(cs, &x);
    cuzk_fr want;
    cuzk_fr_from_u64(&want, v);
    CHECK(in == 1 && cs->num_inputs == 2 && cuzk_fr_eq(cuzk_cs_value(cs, in), &want));
    CHECK(cs->num_constraints == 65 && cs->num_aux == 64);
    CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
    cs->aux_vals[0] = CUZK_FR_ZERO; /* bit 0 of v is 1 */
    const char *path = NULL;
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) == 64);
    CHECK(path && !strcmp(path, "/chunk 0/packing constraint"));
    cuzk_cs_destroy(cs);

    cuzk_u64_constant(&y, v);
    CHECK(y.value == v && y.bits[63].kind == CUZK_BOOL_CONSTANT && y.bits[63].constant && !y.bits[1].constant);
}

/* 300 bits of every shape packed into inputs (two) and by pack_bits (first 254 only). */
typedef struct {
    bool vals[300];
    cuzk_fr want[2];
    bool ok;
} pack_ctx;

static void synth_pack(cuzk_cs *cs, void *vctx)
{
    pack_ctx *ctx = vctx;
    cuzk_bool bits[300];
    for (int i = 0; i < 300; i++) {
        bool v = ctx->vals[i];
        switch (i % 4) {
        case 0: bits[i] = cuzk_bool_constant(v); break;
        case 1: bits[i] = cuzk_bool_is(cuzk_abit_alloc(cs, v)); break;
        default: bits[i] = cuzk_bool_not(cuzk_bool_is(cuzk_abit_alloc(cs, !v))); break;
        }
    }
    size_t in0 = cs->num_inputs;
    cuzk_var first = cuzk_multipack_pack_into_inputs(cs, bits, 300);
    cuzk_num packed = cuzk_multipack_pack_bits(cs, bits, 300);
    CHECK(first == in0 && cs->num_inputs == in0 + 2);
    if (cs->values)
        ctx->ok = cuzk_fr_eq(cuzk_cs_value(cs, first), &ctx->want[0]) &&
            cuzk_fr_eq(cuzk_cs_value(cs, first + 1), &ctx->want[1]) && cuzk_fr_eq(&packed.value, &ctx->want[0]) &&
            cuzk_fr_eq(cuzk_cs_value(cs, packed.var), &ctx->want[0]);
}

static void test_multipack(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 21);
    pack_ctx ctx;
    for (int i = 0; i < 300; i++) ctx.vals[i] = cuzk_rng_next(&rng) & 1;
    cuzk_multipack_compute(ctx.vals, 300, ctx.want);
    /* the first chunk read as a little-endian number */
    uint8_t le[32] = {0};
    for (int i = 0; i < 254; i++) le[i / 8] |= (uint8_t)(ctx.vals[i] << (i % 8));
    cuzk_fr direct;
    CHECK_OK(cuzk_fr_from_bytes_le(&direct, le));
    CHECK(cuzk_fr_eq(&direct, &ctx.want[0]));
    CHECK(cuzk_multipack_num_inputs(300) == 2 && cuzk_multipack_num_inputs(254) == 1 &&
          cuzk_multipack_num_inputs(0) == 0);
    ctx.ok = false;
    gm_counts c = gm_check_all_modes(synth_pack, &ctx);
    CHECK(ctx.ok);
    CHECK(c.inputs == 3 && c.constraints == 225 + 3 && c.aux == 225 + 1);

    /* the first packing row: A has ONE (the constants) and the 254 - 64 allocated bits */
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_RECORD, false));
    synth_pack(cs, &ctx);
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_finish_record(cs, &m, NULL, NULL));
    cuzk_cs_destroy(cs);
    size_t row = 225;
    CHECK(m.row_ptr[0][row + 1] - m.row_ptr[0][row] == 1 + 190);
    CHECK(m.col[0][m.row_ptr[0][row]] == 0);
    CHECK(m.row_ptr[2][row + 1] - m.row_ptr[2][row] == 1 && m.col[2][m.row_ptr[2][row]] == 1);
    cuzk_r1cs_free(&m);

    /* nothing to pack: no input, no row */
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    CHECK(cuzk_multipack_pack_into_inputs(cs, NULL, 0) == CUZK_VAR_ONE && cs->num_inputs == 1 &&
          cs->num_constraints == 0);
    cuzk_cs_destroy(cs);
}

static void test_reverse_bit_numbering(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
    cuzk_bool in[255], out[256];
    for (int i = 0; i < 255; i++) in[i] = cuzk_bool_is(cuzk_abit_alloc(cs, i % 3 == 0));
    CHECK(cuzk_reverse_bit_numbering(in, 255, out) == 256);
    bool ok = true;
    for (int byte = 0; byte < 32; byte++)
        for (int j = 0; j < 8; j++) {
            int src = byte * 8 + 7 - j;
            if (src < 255) ok &= out[byte * 8 + j].kind == CUZK_BOOL_IS && out[byte * 8 + j].bit.var == in[src].bit.var;
            else ok &= out[byte * 8 + j].kind == CUZK_BOOL_CONSTANT && !out[byte * 8 + j].constant;
        }
    CHECK(ok);
    CHECK(out[248].kind == CUZK_BOOL_CONSTANT); /* bit 7 of byte 31 is the padding */
    CHECK(cuzk_reverse_bit_numbering(in, 16, out) == 16 && out[0].bit.var == in[7].bit.var &&
          out[15].bit.var == in[8].bit.var);
    CHECK(cuzk_reverse_bit_numbering(in, 0, out) == 0);

    /* bytes into bits: LE and BE within each byte; reversing one gives the other */
    static const uint8_t bytes[2] = {0x01, 0xc2};
    cuzk_bool le[16], be[16], rev[16];
    cuzk_bits_alloc_bytes_le(cs, bytes, 2, le);
    cuzk_bits_alloc_bytes_be(cs, bytes, 2, be);
    for (int i = 0; i < 16; i++) {
        CHECK(cuzk_bool_value(le[i]) == ((bytes[i / 8] >> (i % 8)) & 1));
        CHECK(cuzk_bool_value(be[i]) == ((bytes[i / 8] >> (7 - i % 8)) & 1));
    }
    cuzk_reverse_bit_numbering(le, 16, rev);
    for (int i = 0; i < 16; i++) CHECK(cuzk_bool_value(rev[i]) == cuzk_bool_value(be[i]));
    CHECK(cs->num_constraints == 255 + 32);
    cuzk_cs_destroy(cs);
}

int main(void)
{
    test_uint64();
    test_multipack();
    test_reverse_bit_numbering();
    return harness_finish("test_gadgets_pack");
}
