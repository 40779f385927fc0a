/* SHA-256 gadget against bellperson 0.27's tests and the native SHA-256.
 *
 * Counts asserted upstream: one compression of 512 allocated bits from the constant IV
 * costs 25,840 constraints beyond the 512 bit constraints (test_full_block); the full hash
 * of 512 allocated bits 44,874 (test_full_hash); an all-constant block 0 (test_blank_hash,
 * whose output is SHA-256 of the empty string); storage-proofs-core's hash_leaf_bits_circuit
 * (two 256-bit LE byte strings, bits reversed per byte, SHA-256, reversed back, pack_bits of
 * 254) 45,387 in total. Each of these in every constraint-system mode. storage-proofs-porep's
 * create_label test shape, 532,025; and the PoRep circuit's tree-D and label hash counts,
 * derived by counting the upstream code.
 * Values: digests of random allocated inputs of many lengths (all of 0..300 bytes with
 * CUZK_TEST_FULL set) and the NIST vectors equal the native SHA-256; TEST mode holds, and a
 * flipped input bit or maj bit is named by its namespace path. */
#include <string.h>

#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/sha256.h"
#include "cuzk/gadgets/uint64.h"
#include "cuzk/hash.h"
#include "gadget_modes.h"

static void bytes_to_bits_msb(const uint8_t *in, size_t n, bool *out)
{
    for (size_t i = 0; i < 8 * n; i++) out[i] = (in[i / 8] >> (7 - i % 8)) & 1;
}

static bool bits_equal_digest(const cuzk_bool out[256], const uint8_t d[32])
{
    bool want[256];
    bytes_to_bits_msb(d, 32, want);
    for (int i = 0; i < 256; i++)
        if (cuzk_bool_value(out[i]) != want[i]) return false;
    return true;
}

/* Each Boolean's tracked value is the value assigned to its variable. */
static bool tracked_values_assigned(const cuzk_cs *cs, const cuzk_bool *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (b[i].kind == CUZK_BOOL_CONSTANT) continue;
        if (!cuzk_fr_eq(cuzk_cs_value(cs, b[i].bit.var), b[i].bit.value ? &CUZK_FR_ONE : &CUZK_FR_ZERO)) return false;
    }
    return true;
}

/* ---------------------------------------------------------------- upstream counts */

typedef struct {
    uint8_t block[64];
    int which; /* 0: compression from the IV; 1: full hash of 512 bits */
    uint8_t digest[32];
    bool digest_ok;
} block_ctx;

static void synth_block(cuzk_cs *cs, void *vctx)
{
    block_ctx *ctx = vctx;
    cuzk_bool in[512], out[256];
    cuzk_cs_push(cs, "input");
    cuzk_bits_alloc_bytes_be(cs, ctx->block, 64, in);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sha256");
    if (ctx->which == 0) cuzk_sha256_block_no_padding_gadget(cs, in, out);
    else cuzk_sha256_gadget(cs, in, 512, out);
    cuzk_cs_pop(cs);
    if (cs->values) ctx->digest_ok = bits_equal_digest(out, ctx->digest) && tracked_values_assigned(cs, out, 256);
}

static void test_full_block_and_hash(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 1);
    block_ctx ctx;
    cuzk_rng_bytes(&rng, ctx.block, 64);

    /* the compression alone: the native compression of the block from the IV */
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    cuzk_sha256_compress(st, ctx.block);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) ctx.digest[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
    ctx.which = 0;
    ctx.digest_ok = false;
    gm_counts c = gm_check_all_modes(synth_block, &ctx);
    CHECK(c.constraints - 512 == 25840);
    CHECK(ctx.digest_ok);
    printf("sha256 compression, allocated input: %zu constraints beyond the input (upstream 25840), %zu aux\n",
           c.constraints - 512, c.aux - 512);

    cuzk_sha256(ctx.digest, ctx.block, 64);
    ctx.which = 1;
    ctx.digest_ok = false;
    c = gm_check_all_modes(synth_block, &ctx);
    CHECK(c.constraints - 512 == 44874);
    CHECK(ctx.digest_ok);
    printf("sha256 of 512 allocated bits: %zu constraints beyond the input (upstream 44874), %zu aux\n",
           c.constraints - 512, c.aux - 512);
}

static void synth_blank(cuzk_cs *cs, void *vctx)
{
    bool *ok = vctx;
    cuzk_bool in[512], out[256];
    for (int i = 0; i < 512; i++) in[i] = cuzk_bool_constant(i == 0);
    cuzk_sha256_block_no_padding_gadget(cs, in, out);
    uint8_t d[32];
    cuzk_sha256(d, NULL, 0);
    bool constant = true;
    for (int i = 0; i < 256; i++) constant &= out[i].kind == CUZK_BOOL_CONSTANT;
    ok[0] = constant && bits_equal_digest(out, d);
    /* the full hash of constant bits ("abc") folds to a constant digest too */
    cuzk_bool abc[24];
    bool abits[24];
    bytes_to_bits_msb((const uint8_t *)"abc", 3, abits);
    for (int i = 0; i < 24; i++) abc[i] = cuzk_bool_constant(abits[i]);
    cuzk_sha256_gadget(cs, abc, 24, out);
    cuzk_sha256(d, "abc", 3);
    constant = true;
    for (int i = 0; i < 256; i++) constant &= out[i].kind == CUZK_BOOL_CONSTANT;
    ok[1] = constant && bits_equal_digest(out, d);
}

static void test_blank_hash(void)
{
    bool ok[2] = {false, false};
    gm_counts c = gm_check_all_modes(synth_blank, ok);
    CHECK(c.constraints == 0 && c.aux == 0 && c.inputs == 1);
    CHECK(ok[0] && ok[1]);
}

typedef struct {
    uint8_t left[32], right[32];
    cuzk_fr want;
    bool ok;
} leaf_ctx;

static void synth_leaf(cuzk_cs *cs, void *vctx)
{
    leaf_ctx *ctx = vctx;
    cuzk_bool l[256], r[256], pre[512], digest[256], le[256];
    cuzk_cs_push(cs, "left");
    cuzk_bits_alloc_bytes_le(cs, ctx->left, 32, l);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "right");
    cuzk_bits_alloc_bytes_le(cs, ctx->right, 32, r);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "hash_leaf_circuit");
    cuzk_reverse_bit_numbering(l, 256, pre);
    cuzk_reverse_bit_numbering(r, 256, pre + 256);
    cuzk_cs_push(cs, "hash");
    cuzk_sha256_gadget(cs, pre, 512, digest);
    cuzk_cs_pop(cs);
    cuzk_reverse_bit_numbering(digest, 256, le);
    cuzk_cs_push(cs, "pack_le");
    cuzk_num x = cuzk_multipack_pack_bits(cs, le, 254);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    if (cs->values) ctx->ok = cuzk_fr_eq(&x.value, &ctx->want) && cuzk_fr_eq(cuzk_cs_value(cs, x.var), &ctx->want);
}

static void test_hash_leaf_bits(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 2);
    leaf_ctx ctx;
    cuzk_fr l, r;
    cuzk_fr_random(&l, &rng);
    cuzk_fr_random(&r, &rng);
    cuzk_fr_to_bytes_le(ctx.left, &l);
    cuzk_fr_to_bytes_le(ctx.right, &r);
    /* the vanilla hash: Sha256(l || r) with the top two bits cleared, read little-endian */
    uint8_t pre[64], d[32];
    memcpy(pre, ctx.left, 32);
    memcpy(pre + 32, ctx.right, 32);
    cuzk_sha256(d, pre, 64);
    d[31] &= 0x3f;
    CHECK_OK(cuzk_fr_from_bytes_le(&ctx.want, d));
    ctx.ok = false;
    gm_counts c = gm_check_all_modes(synth_leaf, &ctx);
    CHECK(c.constraints == 45387);
    CHECK(ctx.ok);
    printf("hash_leaf_bits_circuit: %zu constraints (upstream 45387)\n", c.constraints);
}

/* ---------------------------------------------------------------- PoRep shapes */

/* A 255-bit decomposition laid out as SHA input: byte-LE, bits MSB-first, bit 255 constant. */
static size_t node_bits(cuzk_cs *cs, cuzk_bool *dst)
{
    cuzk_bool b[255];
    for (int i = 0; i < 255; i++) b[i] = cuzk_bool_is(cuzk_abit_alloc(cs, false));
    return cuzk_reverse_bit_numbering(b, 255, dst);
}

/* Counts of the PoRep circuit's two SHA-256 shapes, derived by counting the upstream gadget
 * code (not asserted by an upstream test): a tree-D node hash (two 255-bit nodes, so two
 * constant input bits) costs 44,866 constraints; a label (replica id, constant layer, the
 * 64-bit node, 160 constant zeros, 37 parents: 9,984 bits, 20 blocks) plus its pack_bits
 * costs 522,269 constraints and 521,749 aux. And create_label.rs's test shape, whose
 * 532,025 is asserted upstream. */
static void test_porep_shapes(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_bool pre[512], out[256];
    node_bits(cs, pre);
    node_bits(cs, pre + 256);
    size_t c0 = cs->num_constraints;
    cuzk_sha256_gadget(cs, pre, 512, out);
    CHECK(cs->num_constraints - c0 == 44866);
    cuzk_cs_destroy(cs);

    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_bool *label = malloc(9984 * sizeof *label), le[256];
    size_t n = node_bits(cs, label);
    cuzk_u32 layer;
    cuzk_u32_constant(&layer, 5);
    cuzk_u32_into_bits_be(&layer, label + n);
    n += 32;
    cuzk_u64 node;
    cuzk_u64_alloc(cs, &node, 0);
    cuzk_u64_to_bits_be(&node, label + n);
    n += 64;
    while (n < 512) label[n++] = cuzk_bool_constant(false);
    for (int p = 0; p < 37; p++) n += node_bits(cs, label + n);
    CHECK(n == 9984);
    c0 = cs->num_constraints;
    size_t a0 = cs->num_aux;
    cuzk_sha256_gadget(cs, label, n, out);
    cuzk_reverse_bit_numbering(out, 256, le);
    cuzk_multipack_pack_bits(cs, le, 256);
    CHECK(cs->num_constraints - c0 == 522269 && cs->num_aux - a0 == 521749);
    printf("PoRep label: %zu constraints, %zu aux (derived 522269, 521749)\n", cs->num_constraints - c0,
           cs->num_aux - a0);
    cuzk_cs_destroy(cs);

    /* storage-proofs-porep create_label.rs test_create_label (asserted upstream: 532,025):
     * 37 parents of 256 allocated bits, a 256-bit allocated id, constant layer 3 and node 22 */
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_bool *parents = malloc(37 * 256 * sizeof *parents);
    for (int p = 0; p < 37; p++) cuzk_bits_alloc_bytes_be(cs, NULL, 32, parents + 256 * p);
    cuzk_bits_alloc_bytes_be(cs, NULL, 32, label);
    n = 256;
    cuzk_u32_constant(&layer, 3);
    cuzk_u32_into_bits_be(&layer, label + n);
    n += 32;
    cuzk_u64_constant(&node, 22);
    cuzk_u64_to_bits_be(&node, label + n);
    n += 64;
    while (n < 512) label[n++] = cuzk_bool_constant(false);
    memcpy(label + n, parents, 37 * 256 * sizeof *parents);
    cuzk_sha256_gadget(cs, label, 9984, out);
    cuzk_reverse_bit_numbering(out, 256, le);
    cuzk_multipack_pack_bits(cs, le, 254);
    CHECK(cs->num_constraints == 532025);
    printf("create_label test shape: %zu constraints (upstream 532025)\n", cs->num_constraints);
    free(parents);
    free(label);
    cuzk_cs_destroy(cs);
}

/* ---------------------------------------------------------------- values */

/* SHA-256 of n allocated bytes in cs; true when the digest is the native one. */
static bool hash_matches(cuzk_cs *cs, const uint8_t *msg, size_t n)
{
    cuzk_bool *in = malloc((8 * n + 1) * sizeof *in), out[256];
    if (!in) return false;
    cuzk_cs_push(cs, "input");
    cuzk_bits_alloc_bytes_be(cs, msg, n, in);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sha256");
    cuzk_sha256_gadget(cs, in, 8 * n, out);
    cuzk_cs_pop(cs);
    free(in);
    uint8_t d[32];
    cuzk_sha256(d, msg, n);
    return cuzk_cs_status(cs) == CUZK_OK && bits_equal_digest(out, d) && tracked_values_assigned(cs, out, 256);
}

static void test_lengths(void)
{
    bool full = getenv("CUZK_TEST_FULL") != NULL;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 3);
    uint8_t msg[300];
    int checked = 0;
    for (size_t n = 0; n <= 300; n++) {
        /* by default the lengths around block and padding boundaries, and a spread of others */
        bool boundary = n % 64 <= 1 || (n % 64 >= 54 && n % 64 <= 57) || n % 64 == 63;
        if (!full && !boundary && n % 37 != 0) continue;
        cuzk_rng_bytes(&rng, msg, n);
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_WITNESS, true));
        bool ok = hash_matches(cs, msg, n);
        CHECK(ok);
        if (!ok) fprintf(stderr, "    length %zu: digest differs from the native SHA-256\n", n);
        cuzk_cs_destroy(cs);
        checked++;
    }
    printf("sha256 gadget = native SHA-256 for %d input lengths in 0..300 bytes\n", checked);

    /* TEST mode is satisfied for a few lengths (one to five blocks) */
    static const size_t test_lengths[] = {0, 1, 55, 56, 64, 119, 200, 300};
    for (size_t i = 0; i < sizeof test_lengths / sizeof test_lengths[0]; i++) {
        size_t n = test_lengths[i];
        cuzk_rng_bytes(&rng, msg, n);
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        CHECK(hash_matches(cs, msg, n));
        const char *path = NULL;
        long bad = cuzk_cs_which_unsatisfied(cs, &path);
        CHECK(bad == -1);
        if (bad != -1) fprintf(stderr, "    length %zu: constraint %ld unsatisfied: %s\n", n, bad, path);
        cuzk_cs_destroy(cs);
    }
}

static void test_nist(void)
{
    static const char *msgs[] = {
        "", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
        "mnopqrstnopqrstu"};
    static const char *digests[] = {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                                    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(msgs[i]);
        cuzk_bool in[8 * 112], out[256];
        cuzk_cs *cs;
        CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
        cuzk_bits_alloc_bytes_be(cs, (const uint8_t *)msgs[i], n, in);
        cuzk_sha256_gadget(cs, in, 8 * n, out);
        uint8_t want[32];
        CHECK_OK(cuzk_hex_decode(want, 32, digests[i]));
        CHECK(bits_equal_digest(out, want));
        CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);
        cuzk_cs_destroy(cs);
    }
}

/* Input bits must be whole bytes. */
static void test_bad_length(void)
{
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_COUNT, false));
    cuzk_bool in[12], out[256];
    for (int i = 0; i < 12; i++) in[i] = cuzk_bool_constant(false);
    cuzk_sha256_gadget(cs, in, 12, out);
    CHECK(cuzk_cs_status(cs) == CUZK_EINVAL);
    cuzk_cs_destroy(cs);
}

/* ---------------------------------------------------------------- failing paths */

static void synth_four_blocks(cuzk_cs *cs, const uint8_t *msg, cuzk_bool *in)
{
    cuzk_bool out[256];
    cuzk_cs_push(cs, "input");
    cuzk_bits_alloc_bytes_be(cs, msg, 200, in);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sha256");
    cuzk_sha256_gadget(cs, in, 1600, out); /* 1600 + 65 bits of padding: four blocks */
    cuzk_cs_pop(cs);
}

/* The k-th general sha256_maj row (A has a 2 bc term, C = bc - maj) of m; its maj variable. */
static long find_maj_row(const cuzk_r1cs *m, size_t k, uint32_t *maj_col)
{
    cuzk_fr two, minus1;
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_neg(&minus1, &CUZK_FR_ONE);
    for (size_t r = 0; r < m->num_constraints; r++) {
        uint32_t cb = m->row_ptr[2][r], ce = m->row_ptr[2][r + 1];
        if (ce - cb != 2) continue;
        bool has2 = false;
        for (uint32_t j = m->row_ptr[0][r]; j < m->row_ptr[0][r + 1]; j++) has2 |= cuzk_fr_eq(&m->val[0][j], &two);
        if (!has2) continue;
        if (k-- == 0) {
            *maj_col = cuzk_fr_eq(&m->val[2][cb], &minus1) ? m->col[2][cb] : m->col[2][cb + 1];
            return (long)r;
        }
    }
    return -1;
}

static void test_flips(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 4);
    uint8_t msg[200];
    cuzk_rng_bytes(&rng, msg, sizeof msg);
    cuzk_bool in[1600];
    cuzk_cs *cs;
    CHECK_OK(cuzk_cs_create(&cs, CUZK_CS_TEST, true));
    synth_four_blocks(cs, msg, in);
    CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);

    /* An input bit of word 1 (its bit k, LE) is first used by the first xor of s0 in w[16]:
     * rotr 7 and rotr 18 put it at bits k - 7 and k - 18 (mod 32); the lower one comes first. */
    unsigned k = 9, j1 = (k + 32 - 7) % 32, j2 = (k + 32 - 18) % 32, j = j1 < j2 ? j1 : j2;
    uint32_t idx = cuzk_var_index(in[32 + 31 - k].bit.var);
    cuzk_fr saved = cs->aux_vals[idx];
    cuzk_fr_sub(&cs->aux_vals[idx], &CUZK_FR_ONE, &saved);
    const char *path = NULL;
    char want[160];
    snprintf(want, sizeof want, "/sha256/block 0/w extension 16/first xor for s0/xor of bit %u/xor constraint", j);
    CHECK(cuzk_cs_which_unsatisfied(cs, &path) >= 0);
    CHECK(path && !strcmp(path, want));
    if (path && strcmp(path, want)) fprintf(stderr, "    got %s, want %s\n", path, want);
    cs->aux_vals[idx] = saved;
    CHECK(cuzk_cs_which_unsatisfied(cs, NULL) == -1);

    /* The maj bit 0 of round 17 of block 3. General maj rows: 32 per round from round 3 of
     * block 0 (the IV makes rounds 0-2 fold), then 64 rounds per block. */
    cuzk_cs *rec;
    cuzk_r1cs m;
    CHECK_OK(cuzk_cs_create(&rec, CUZK_CS_RECORD, false));
    synth_four_blocks(rec, msg, in);
    CHECK_OK(cuzk_cs_finish_record(rec, &m, NULL, NULL));
    cuzk_cs_destroy(rec);
    uint32_t col = 0;
    long row = find_maj_row(&m, (61 + 64 + 64 + 17) * 32, &col);
    CHECK(row >= 0 && col >= m.num_inputs);
    if (row >= 0) {
        idx = col - (uint32_t)m.num_inputs;
        saved = cs->aux_vals[idx];
        cuzk_fr_sub(&cs->aux_vals[idx], &CUZK_FR_ONE, &saved);
        long bad = cuzk_cs_which_unsatisfied(cs, &path);
        CHECK(bad == row);
        CHECK(path && !strcmp(path, "/sha256/block 3/round 17/maj/maj 0/maj computation"));
        if (path) printf("flipped maj bit reported at constraint %ld: %s\n", bad, path);
        cs->aux_vals[idx] = saved;
    }
    cuzk_r1cs_free(&m);

    /* Any flipped variable of block 3 is caught inside block 3 (at worst by its packed sum). */
    size_t first_aux = 1600, total = cs->num_aux;
    int caught = 0;
    for (int t = 0; t < 8; t++) {
        idx = (uint32_t)(first_aux + (total - first_aux) * (size_t)(80 + 2 * t) / 100);
        saved = cs->aux_vals[idx];
        cuzk_fr_sub(&cs->aux_vals[idx], &CUZK_FR_ONE, &saved);
        path = NULL;
        if (cuzk_cs_which_unsatisfied(cs, &path) >= 0 && path && !strncmp(path, "/sha256/block 3/", 16)) caught++;
        else fprintf(stderr, "    flipped aux %u: %s\n", idx, path ? path : "not caught");
        cs->aux_vals[idx] = saved;
    }
    CHECK(caught == 8);
    cuzk_cs_destroy(cs);
}

int main(void)
{
    test_full_block_and_hash();
    test_blank_hash();
    test_hash_leaf_bits();
    test_porep_shapes();
    test_lengths();
    test_nist();
    test_bad_length();
    test_flips();
    return harness_finish("test_gadgets_sha");
}
