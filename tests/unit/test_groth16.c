/* Groth16: setup, prove, verify on the built-in circuits; completeness and soundness;
 * parameter and key files round trip; bad files are rejected with a clear message. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/params_writer.h"
#include "harness.h"
#include "support_cancel.h"
#include "support_job.h"

static int same_params(const cuzk_groth16_params *x, const cuzk_groth16_params *y)
{
    if (x->h_len != y->h_len || x->l_len != y->l_len || x->a_len != y->a_len || x->b_g1_len != y->b_g1_len ||
        x->b_g2_len != y->b_g2_len || x->vk.ic_len != y->vk.ic_len)
        return 0;
    return !memcmp(&x->vk.alpha_g1, &y->vk.alpha_g1, sizeof x->vk.alpha_g1) &&
        !memcmp(&x->vk.delta_g2, &y->vk.delta_g2, sizeof x->vk.delta_g2) &&
        !memcmp(x->vk.ic, y->vk.ic, x->vk.ic_len * sizeof *x->vk.ic) && !memcmp(x->h, y->h, x->h_len * sizeof *x->h) &&
        !memcmp(x->l, y->l, x->l_len * sizeof *x->l) && !memcmp(x->a, y->a, x->a_len * sizeof *x->a) &&
        !memcmp(x->b_g1, y->b_g1, x->b_g1_len * sizeof *x->b_g1) &&
        !memcmp(x->b_g2, y->b_g2, x->b_g2_len * sizeof *x->b_g2);
}

static void test_cubic(void)
{
    job j;
    job_open(&j, "cubic", 3);
    char dec[CUZK_FR_DECIMAL_MAX];
    cuzk_fr_to_decimal(dec, &j.input[1]);
    CHECK(strcmp(dec, "35") == 0); /* 3^3 + 3 + 5 */

    cuzk_rng rng;
    cuzk_rng_seed(&rng, 11);
    cuzk_groth16_params p, other;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    CHECK_OK(cuzk_groth16_setup(&other, j.m, &rng, NULL));
    CHECK(p.vk.ic_len == 2 && p.l_len == 4 && p.h_len == 7);

    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, 1234);
    cuzk_fr_from_u64(&s, 5678);
    cuzk_groth16_proof pr, pr2;
    CHECK_OK(cuzk_groth16_prove(&pr, &p, &j.w, &r, &s, NULL));
    CHECK_OK(cuzk_groth16_prove(&pr2, &p, &j.w, &r, &s, NULL));
    uint8_t e1[192], e2[192];
    cuzk_groth16_proof_encode(e1, &pr);
    cuzk_groth16_proof_encode(e2, &pr2);
    CHECK(memcmp(e1, e2, 192) == 0); /* deterministic for given r, s */
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr, &j.input[1], 1));

    /* random r, s still verify and differ */
    CHECK_OK(cuzk_groth16_prove(&pr2, &p, &j.w, NULL, NULL, NULL));
    cuzk_groth16_proof_encode(e2, &pr2);
    CHECK(memcmp(e1, e2, 192) != 0);
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr2, &j.input[1], 1));

    /* soundness */
    cuzk_fr wrong;
    cuzk_fr_from_u64(&wrong, 36);
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &pr, &wrong, 1), CUZK_EVERIFY);
    cuzk_groth16_proof sw = pr;
    sw.a = pr.c;
    sw.c = pr.a;
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &sw, &j.input[1], 1), CUZK_EVERIFY);
    CHECK_FAILS(cuzk_groth16_verify(&other.vk, &pr, &j.input[1], 1), CUZK_EVERIFY);
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &pr, &j.input[1], 2), CUZK_EINVAL);
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &pr, &j.input[1], 0), CUZK_EINVAL);
    /* every single flipped bit of the encoding: either not a valid point or not verifying */
    int flips = 0, caught = 0;
    for (int bit = 0; bit < 192 * 8; bit += 7) {
        uint8_t f[192];
        memcpy(f, e1, 192);
        f[bit / 8] ^= (uint8_t)(1 << (bit % 8));
        cuzk_groth16_proof fp;
        flips++;
        if (cuzk_groth16_proof_decode(&fp, f) != CUZK_OK ||
            cuzk_groth16_verify(&p.vk, &fp, &j.input[1], 1) == CUZK_EVERIFY)
            caught++;
    }
    CHECK(flips == caught);
    /* decode round trip */
    cuzk_groth16_proof back;
    CHECK_OK(cuzk_groth16_proof_decode(&back, e1));
    CHECK(!memcmp(&back, &pr, sizeof back));
    /* identity A rejected */
    uint8_t z[192];
    memcpy(z, e1, 192);
    memset(z, 0, 48);
    z[0] = 0xc0;
    CHECK_FAILS(cuzk_groth16_proof_decode(&back, z), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "proof A") != NULL);

    /* shape mismatch: parameters of another circuit */
    job rj;
    job_open(&rj, "random:64", 1);
    CHECK_FAILS(cuzk_groth16_prove(&pr2, &p, &rj.w, &r, &s, NULL), CUZK_EINVAL);
    job_close(&rj);

    cuzk_groth16_params_free(&p);
    cuzk_groth16_params_free(&other);
    job_close(&j);
}

static void test_random_and_files(void)
{
    job j, j2, j3;
    job_open(&j, "random:3000", 1);
    job_open(&j2, "random:3000", 2);
    job_open(&j3, "random:3000", 3);
    CHECK(j.m->num_inputs == 5);
    /* the witness is mostly bits */
    size_t bits = 0;
    for (size_t i = 0; i < j.m->num_aux; i++) bits += cuzk_fr_is_zero(&j.pr.aux[i]) || cuzk_fr_is_one(&j.pr.aux[i]);
    CHECK(bits * 10 >= j.m->num_aux * 6);

    cuzk_rng rng;
    cuzk_rng_seed(&rng, 12);
    cuzk_groth16_params p, q;
    cuzk_timeline *tl = cuzk_timeline_create("setup");
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, tl));
    cuzk_timeline_destroy(tl);

    cuzk_groth16_proof pr[3];
    CHECK_OK(cuzk_groth16_prove(&pr[0], &p, &j.w, NULL, NULL, NULL));
    CHECK_OK(cuzk_groth16_prove(&pr[1], &p, &j2.w, NULL, NULL, NULL));
    CHECK_OK(cuzk_groth16_prove(&pr[2], &p, &j3.w, NULL, NULL, NULL));
    cuzk_fr inputs[12];
    memcpy(inputs, j.input + 1, 4 * sizeof(cuzk_fr));
    memcpy(inputs + 4, j2.input + 1, 4 * sizeof(cuzk_fr));
    memcpy(inputs + 8, j3.input + 1, 4 * sizeof(cuzk_fr));
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr[0], inputs, 4));
    CHECK_OK(cuzk_groth16_verify_batch(&p.vk, pr, 3, inputs, 4));
    cuzk_fr_add(&inputs[9], &inputs[9], &CUZK_FR_ONE);
    CHECK_FAILS(cuzk_groth16_verify_batch(&p.vk, pr, 3, inputs, 4), CUZK_EVERIFY);
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &pr[2], inputs + 8, 4), CUZK_EVERIFY);
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr[1], inputs + 4, 4));

    /* files round trip */
    char dir[] = "/tmp/cuzk-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], vkpath[256];
    snprintf(path, sizeof path, "%s/p.params", dir);
    snprintf(vkpath, sizeof vkpath, "%s/p.vk", dir);
    CHECK_OK(cuzk_groth16_params_write(&p, path));
    CHECK_OK(cuzk_groth16_vk_write(&p.vk, vkpath));
    CHECK_OK(cuzk_groth16_params_read(&q, path, CUZK_PARAMS_CHECKED));
    CHECK(same_params(&p, &q));
    cuzk_groth16_params_free(&q);
    CHECK_OK(cuzk_groth16_params_read(&q, path, CUZK_PARAMS_UNCHECKED));
    CHECK(same_params(&p, &q));
    cuzk_groth16_params_free(&q);
    cuzk_groth16_vk vk;
    CHECK_OK(cuzk_groth16_vk_read(&vk, vkpath));
    CHECK(vk.ic_len == 5 && !memcmp(vk.ic, p.vk.ic, 5 * sizeof *vk.ic));
    CHECK_OK(cuzk_groth16_verify(&vk, &pr[1], inputs + 4, 4));
    cuzk_groth16_vk_free(&vk);
    /* the file layout: 864-byte fixed part, then u32 BE counts */
    uint8_t *data;
    size_t size;
    CHECK_OK(cuzk_read_file(path, &data, &size));
    size_t expect = 864 + 4 + 96 * p.vk.ic_len + 4 + 96 * p.h_len + 4 + 96 * p.l_len + 4 + 96 * p.a_len + 4 +
        96 * p.b_g1_len + 4 + 192 * p.b_g2_len;
    CHECK(size == expect);
    CHECK(data[864] == 0 && data[865] == 0 && data[866] == 0 && data[867] == 5);

    /* truncations at many places: each one a clear error, never a crash */
    size_t cuts[] = {0, 1, 95, 96, 500, 864, 866, 868, 900, 868 + 96 * 5 + 2, size / 2, size - 193, size - 1};
    char tpath[256];
    snprintf(tpath, sizeof tpath, "%s/t.params", dir);
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        CHECK_OK(cuzk_write_file_atomic(tpath, data, cuts[k]));
        CHECK_FAILS(cuzk_groth16_params_read(&q, tpath, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
        CHECK(strstr(cuzk_last_error(), "t.params") != NULL);
    }
    /* trailing garbage */
    uint8_t *longer = malloc(size + 3);
    memcpy(longer, data, size);
    memset(longer + size, 7, 3);
    CHECK_OK(cuzk_write_file_atomic(tpath, longer, size + 3));
    CHECK_FAILS(cuzk_groth16_params_read(&q, tpath, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "unexpected bytes") != NULL);
    free(longer);
    /* a huge count does not allocate, it fails */
    uint8_t saved = data[864 + 4 + 96 * 5];
    data[864 + 4 + 96 * 5] = 0xff;
    CHECK_OK(cuzk_write_file_atomic(tpath, data, size));
    CHECK_FAILS(cuzk_groth16_params_read(&q, tpath, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "section h") != NULL);
    data[864 + 4 + 96 * 5] = saved;
    /* a corrupted point in l: named with its index and offset */
    size_t l_off = 864 + 4 + 96 * 5 + 4 + 96 * p.h_len + 4 + 96 * 10;
    data[l_off + 47] ^= 0x01;
    CHECK_OK(cuzk_write_file_atomic(tpath, data, size));
    CHECK_FAILS(cuzk_groth16_params_read(&q, tpath, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "l[10]") != NULL);
    data[l_off + 47] ^= 0x01;
    /* vk: truncated and with trailing bytes */
    uint8_t *vkdata;
    size_t vksize;
    CHECK_OK(cuzk_read_file(vkpath, &vkdata, &vksize));
    CHECK(vksize == 864 + 4 + 96 * 5);
    CHECK_OK(cuzk_write_file_atomic(tpath, vkdata, vksize - 1));
    CHECK_FAILS(cuzk_groth16_vk_read(&vk, tpath), CUZK_EFORMAT);
    CHECK_OK(cuzk_write_file_atomic(tpath, data, 2000)); /* a params prefix is not a vk file */
    CHECK_FAILS(cuzk_groth16_vk_read(&vk, tpath), CUZK_EFORMAT);
    CHECK_FAILS(cuzk_groth16_vk_read(&vk, "/nonexistent/x.vk"), CUZK_EIO);
    free(vkdata);
    free(data);
    unlink(tpath);
    unlink(path);
    unlink(vkpath);
    rmdir(dir);

    cuzk_groth16_params_free(&p);
    job_close(&j);
    job_close(&j2);
    job_close(&j3);
}

static void test_unconstrained(void)
{
    /* an aux variable no constraint mentions: setup must refuse, as bellperson does */
    cuzk_r1cs_builder b;
    cuzk_r1cs m;
    CHECK_OK(cuzk_r1cs_builder_init(&b, 1));
    CHECK_OK(cuzk_r1cs_builder_term(&b, CUZK_MAT_A, 1, &CUZK_FR_ONE));
    CHECK_OK(cuzk_r1cs_builder_term(&b, CUZK_MAT_B, 1, &CUZK_FR_ONE));
    CHECK_OK(cuzk_r1cs_builder_term(&b, CUZK_MAT_C, 1, &CUZK_FR_ONE));
    CHECK_OK(cuzk_r1cs_builder_row(&b));
    CHECK_OK(cuzk_r1cs_builder_finish(&b, 2, &m));
    cuzk_groth16_params p;
    CHECK_FAILS(cuzk_groth16_setup(&p, &m, NULL, NULL), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "aux variable 1") != NULL);
    cuzk_r1cs_free(&m);
}

/* One workspace across proofs of several shapes (it grows, and a smaller circuit after a
 * larger one reuses the larger buffers, whose tail must not leak into the H polynomial):
 * the same proofs as with fresh memory. */
static void test_workspace(void)
{
    static const char *names[] = {"random:300", "random:5000", "cubic", "random:5000", "sha256:32"};
    cuzk_groth16_workspace ws;
    memset(&ws, 0, sizeof ws);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        job j;
        job_open(&j, names[i], 40 + i);
        cuzk_rng rng;
        cuzk_rng_seed(&rng, 50 + i);
        cuzk_groth16_params p;
        CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
        cuzk_fr r, s;
        cuzk_fr_random(&r, &rng);
        cuzk_fr_random(&s, &rng);
        cuzk_groth16_proof fresh, reused;
        CHECK_OK(cuzk_groth16_prove(&fresh, &p, &j.w, &r, &s, NULL));
        CHECK_OK(cuzk_groth16_prove_ws(&ws, &reused, &p, &j.w, &r, &s, NULL));
        CHECK(proofs_same_bytes(&fresh, &reused));
        CHECK_OK(cuzk_groth16_verify(&p.vk, &reused, &j.input[1], p.vk.ic_len - 1));
        cuzk_groth16_params_free(&p);
        job_close(&j);
    }
    CHECK(ws.v_cap >= 8192 && ws.domain.twiddles != NULL);
    cuzk_groth16_workspace_free(&ws);
    CHECK(ws.v_cap == 0 && ws.v[0] == NULL);
}

/* Public inputs JSON: both forms round trip; a ragged document is refused by its row before
 * anything is sized from it (a first row of 2^18 inputs and 2^18 empty rows once asked for
 * 2^36 values, 2 TB, and failed as "out of memory" naming nothing). */
static void test_inputs_json(void)
{
    cuzk_fr v[6];
    for (int i = 0; i < 6; i++) cuzk_fr_from_u64(&v[i], (uint64_t)i * 1000 + 7);
    char *text;
    size_t len, np, ni;
    cuzk_fr *back;
    CHECK_OK(cuzk_inputs_json_format(&text, &len, v, 2, 3, false));
    CHECK(len == strlen(text) && text[len - 1] == '\n');
    CHECK(!strcmp(text, "[[\"7\",\"1007\",\"2007\"],[\"3007\",\"4007\",\"5007\"]]\n"));
    CHECK_OK(cuzk_inputs_json_parse(text, len, "x.json", &back, &np, &ni));
    CHECK(np == 2 && ni == 3 && back && !memcmp(back, v, sizeof v));
    free(back);
    free(text);
    CHECK_OK(cuzk_inputs_json_format(&text, &len, v, 1, 2, false));
    CHECK(!strcmp(text, "[\"7\",\"1007\"]\n"));
    free(text);

    static const struct {
        const char *doc, *msg;
    } bad[] = {
        {"[[\"1\"],[\"1\",\"2\"]]", "x.json: [1] has 2 inputs but [0] has 1"},
        {"[[\"1\"],\"1\"]", "x.json: [1]: expected an array"},
        {"[\"1\",[\"2\"]]", "x.json: [1]: expected a decimal string"},
        {"[[\"1\"],[\"01\"]]", "x.json: [1][0]: '01' has leading zeros"},
        {"{}", "x.json: expected an array"},
        {"[", "x.json: not valid JSON"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CHECK_FAILS(cuzk_inputs_json_parse(bad[k].doc, strlen(bad[k].doc), "x.json", &back, &np, &ni), CUZK_EINVAL);
        CHECK(strstr(cuzk_last_error(), bad[k].msg) != NULL);
        CHECK(back == NULL && np == 0 && ni == 0);
    }

    /* the ragged document that asked for 2 TB: refused at its second row, quickly */
    size_t rows = (size_t)1 << 18, cap = rows * 4 + rows * 3 + 16, o = 0;
    char *doc = malloc(cap);
    doc[o++] = '[';
    doc[o++] = '[';
    for (size_t i = 0; i < rows; i++) o += (size_t)snprintf(doc + o, cap - o, i ? ",\"1\"" : "\"1\"");
    doc[o++] = ']';
    for (size_t i = 1; i < rows; i++) o += (size_t)snprintf(doc + o, cap - o, ",[]");
    doc[o++] = ']';
    char dir[] = "/tmp/cuzk-inputs-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/ragged.json", dir);
    CHECK_OK(cuzk_write_file_atomic(path, doc, o));
    CHECK_FAILS(cuzk_inputs_json_read(path, (uint64_t)o, &back, &np, &ni), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "ragged.json: [1] has 0 inputs but [0] has 262144") != NULL);
    CHECK(back == NULL);
    /* a file beyond the caller's bound is not read */
    CHECK_FAILS(cuzk_inputs_json_read(path, (uint64_t)o - 1, &back, &np, &ni), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "more than the") != NULL);
    CHECK(back == NULL);
    unlink(path);
    rmdir(dir);
    free(doc);
}

/* A verifying key whose gamma_g2 is the point at infinity accepts a proof made from the key
 * alone for any public input (A = alpha, B = beta + delta, C = alpha); such keys and the other
 * degenerate ones are refused on load, naming the field. */
static void test_degenerate_vk(void)
{
    job j;
    job_open(&j, "cubic", 3);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 21);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    size_t n = cuzk_groth16_vk_size(&p.vk);
    uint8_t *enc = malloc(n), *bad = malloc(n);
    cuzk_groth16_vk_encode(enc, &p.vk);
    cuzk_groth16_vk vk;
    size_t used;
    CHECK_OK(cuzk_groth16_vk_parse(&vk, enc, n, &used));
    CHECK(used == n);
    cuzk_groth16_vk_free(&vk);

    /* why: the forgery against gamma_g2 = infinity, for an input the circuit never gives */
    cuzk_groth16_vk weak = p.vk;
    memset(&weak.gamma_g2, 0, sizeof weak.gamma_g2);
    blst_p2 bd;
    blst_p2_from_affine(&bd, &weak.beta_g2);
    blst_p2_add_or_double_affine(&bd, &bd, &weak.delta_g2);
    cuzk_groth16_proof forged;
    forged.a = forged.c = weak.alpha_g1;
    blst_p2_to_affine(&forged.b, &bd);
    cuzk_fr any;
    cuzk_fr_from_u64(&any, 12345);
    CHECK_OK(cuzk_groth16_verify(&weak, &forged, &any, 1));
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &forged, &any, 1), CUZK_EVERIFY);

    /* each element at infinity (uncompressed: flag byte 0x40, zeros) is refused by name */
    static const struct {
        const char *name;
        size_t off, len;
    } fields[] = {{"alpha_g1", 0, 96},    {"beta_g1", 96, 96},   {"beta_g2", 192, 192},
                  {"gamma_g2", 384, 192}, {"delta_g1", 576, 96}, {"delta_g2", 672, 192}};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        memcpy(bad, enc, n);
        memset(bad + fields[k].off, 0, fields[k].len);
        bad[fields[k].off] = 0x40;
        CHECK_FAILS(cuzk_groth16_vk_parse(&vk, bad, n, &used), CUZK_EFORMAT);
        CHECK(strstr(cuzk_last_error(), fields[k].name) != NULL);
    }
    /* delta_g2 = gamma_g2 (a phase-2 setup nobody contributed to) or its negation */
    memcpy(bad, enc, n);
    memcpy(bad + 672, enc + 384, 192);
    CHECK_FAILS(cuzk_groth16_vk_parse(&vk, bad, n, &used), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "delta_g2") != NULL && strstr(cuzk_last_error(), "gamma_g2") != NULL);
    blst_p2_affine neg = p.vk.gamma_g2;
    blst_p2 t;
    blst_p2_from_affine(&t, &neg);
    blst_p2_cneg(&t, 1);
    blst_p2_to_affine(&neg, &t);
    cuzk_g2_encode(bad + 672, &neg, false);
    CHECK_FAILS(cuzk_groth16_vk_parse(&vk, bad, n, &used), CUZK_EFORMAT);
    /* no IC points at all (not even ONE's) */
    memcpy(bad, enc, 868);
    memset(bad + 864, 0, 4);
    CHECK_FAILS(cuzk_groth16_vk_parse(&vk, bad, 868, &used), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "ic has no points") != NULL);
    /* the same key inside a parameter file */
    char dir[] = "/tmp/cuzk-vk-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/weak.params", dir);
    p.vk.gamma_g2 = weak.gamma_g2;
    CHECK_OK(cuzk_groth16_params_write(&p, path));
    cuzk_groth16_params q;
    CHECK_FAILS(cuzk_groth16_params_read(&q, path, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "weak.params") != NULL && strstr(cuzk_last_error(), "gamma_g2") != NULL);
    unlink(path);
    rmdir(dir);
    free(enc);
    free(bad);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* The streamed reader over a file of several pieces (a piece is 48 MiB: 524288 G1 points):
 * every point lands where it belongs, a bad point in a later piece is named by its index and
 * offset, the layout is known before any point is read, and a sink can stop the stream. */
static cuzk_status count_points(void *ctx, int section, size_t first, size_t n, const void *pts)
{
    size_t *seen = ctx;
    (void)first, (void)pts;
    seen[section] += n;
    return seen[5] && seen[0] >= seen[5] ? cuzk_fail(CUZK_EUNSUPPORTED, "enough") : CUZK_OK;
}

static void test_stream_pieces(void)
{
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    job j;
    job_open(&j, "cubic", 3);
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    enum { DISTINCT = 61, NH = 600000 };
    blst_p1_affine pts[DISTINCT];
    blst_p1 acc = *blst_p1_generator();
    for (int i = 0; i < DISTINCT; i++) {
        blst_p1_to_affine(&pts[i], &acc);
        blst_p1_add_or_double(&acc, &acc, blst_p1_generator());
    }
    cuzk_big_free(p.h, p.h_len * sizeof *p.h);
    p.h = cuzk_big_alloc(NH * sizeof *p.h);
    p.h_len = NH;
    for (size_t i = 0; i < NH; i++) p.h[i] = pts[i % DISTINCT];
    char dir[] = "/tmp/cuzk-stream-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/big.params", dir);
    CHECK_OK(cuzk_groth16_params_write(&p, path));

    cuzk_groth16_params_file f;
    CHECK_OK(cuzk_groth16_params_open(&f, path));
    CHECK(f.count[CUZK_PARAMS_H] == NH && f.count[CUZK_PARAMS_L] == p.l_len && f.count[CUZK_PARAMS_B_G2] == p.b_g2_len);
    CHECK(f.offset[CUZK_PARAMS_H] == 864 + 4 + 96 * p.vk.ic_len + 4);
    CHECK(f.vk.ic_len == p.vk.ic_len && !memcmp(f.vk.ic, p.vk.ic, p.vk.ic_len * sizeof *p.vk.ic));
    size_t seen[6] = {0, 0, 0, 0, 0, 0};
    double read_s = -1;
    CHECK_OK(cuzk_groth16_params_stream(&f, CUZK_PARAMS_UNCHECKED,
                                        &(cuzk_groth16_points_sink){NULL, count_points, seen}, &read_s));
    CHECK(seen[0] == NH && seen[1] == p.l_len && seen[4] == p.b_g2_len && read_s >= 0);
    /* a sink that stops after the first piece: its status comes back */
    memset(seen, 0, sizeof seen);
    seen[5] = 1;
    CHECK_FAILS(cuzk_groth16_params_stream(&f, CUZK_PARAMS_UNCHECKED,
                                           &(cuzk_groth16_points_sink){NULL, count_points, seen}, NULL),
                CUZK_EUNSUPPORTED);
    CHECK(seen[0] == 524288 && seen[1] == 0);
    cuzk_groth16_params_close(&f);

    cuzk_groth16_params q;
    CHECK_OK(cuzk_groth16_params_read(&q, path, CUZK_PARAMS_UNCHECKED));
    CHECK(same_params(&p, &q));
    cuzk_groth16_params_free(&q);

    /* a point off the curve in the second piece */
    uint8_t *data;
    size_t size;
    CHECK_OK(cuzk_read_file(path, &data, &size));
    size_t bad = 524288 + 7, off = 864 + 4 + 96 * p.vk.ic_len + 4 + 96 * bad;
    data[off + 95] ^= 0x01;
    CHECK_OK(cuzk_write_file_atomic(path, data, size));
    CHECK_FAILS(cuzk_groth16_params_read(&q, path, CUZK_PARAMS_UNCHECKED), CUZK_EFORMAT);
    char want[64];
    snprintf(want, sizeof want, "h[%zu] at offset %zu", bad, off);
    CHECK(strstr(cuzk_last_error(), want) != NULL);
    /* a vk as the parameters: refused by its layout, before any point is read */
    CHECK_OK(cuzk_write_file_atomic(path, data, 864 + 4 + 96 * p.vk.ic_len));
    CHECK_FAILS(cuzk_groth16_params_open(&f, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "missing the h count") != NULL);
    CHECK_FAILS(cuzk_groth16_params_open(&f, dir), CUZK_EIO);
    free(data);
    unlink(path);
    rmdir(dir);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* A setup streamed section by section into the writer makes the same file as the setup in
 * memory written whole; the writer refuses sections out of order and leaves nothing. */
typedef struct {
    cuzk_groth16_params_writer *w;
} writer_sink;

static cuzk_status ws_vk(void *ctx, const cuzk_groth16_vk *vk)
{
    return cuzk_groth16_params_writer_vk(((writer_sink *)ctx)->w, vk);
}

static cuzk_status ws_section(void *ctx, int section, void *pts, size_t n)
{
    cuzk_status st = cuzk_groth16_params_writer_section(((writer_sink *)ctx)->w, section, pts, n);
    cuzk_big_free(pts, n * (section == CUZK_PARAMS_B_G2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine)));
    return st;
}

static void test_setup_stream(void)
{
    job j;
    job_open(&j, "random:300", 2);
    cuzk_rng rng;
    cuzk_groth16_params p;
    cuzk_rng_seed(&rng, 9);
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    char dir[] = "/tmp/cuzk-setup-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char whole[256], streamed[256];
    snprintf(whole, sizeof whole, "%s/whole.params", dir);
    snprintf(streamed, sizeof streamed, "%s/streamed.params", dir);
    CHECK_OK(cuzk_groth16_params_write(&p, whole));
    writer_sink ws;
    CHECK_OK(cuzk_groth16_params_writer_open(&ws.w, streamed));
    cuzk_rng_seed(&rng, 9);
    CHECK_OK(cuzk_groth16_setup_stream(j.m, &rng, NULL, NULL, &(cuzk_groth16_setup_sink){ws_vk, ws_section, &ws}));
    CHECK_OK(cuzk_groth16_params_writer_commit(ws.w));
    uint8_t *a, *b;
    size_t na, nb;
    CHECK_OK(cuzk_read_file(whole, &a, &na));
    CHECK_OK(cuzk_read_file(streamed, &b, &nb));
    CHECK(na == nb && !memcmp(a, b, na));
    free(a);
    free(b);
    /* out of order: refused, nothing left behind */
    char bad[256];
    snprintf(bad, sizeof bad, "%s/bad.params", dir);
    cuzk_groth16_params_writer *w;
    CHECK_OK(cuzk_groth16_params_writer_open(&w, bad));
    CHECK_FAILS(cuzk_groth16_params_writer_section(w, CUZK_PARAMS_H, p.h, p.h_len), CUZK_EINTERNAL);
    CHECK_OK(cuzk_groth16_params_writer_vk(w, &p.vk));
    CHECK_FAILS(cuzk_groth16_params_writer_section(w, CUZK_PARAMS_L, p.l, p.l_len), CUZK_EINTERNAL);
    CHECK_FAILS(cuzk_groth16_params_writer_commit(w), CUZK_EINTERNAL);
    CHECK(access(bad, F_OK) != 0);
    CHECK_OK(cuzk_groth16_params_writer_open(&w, bad));
    cuzk_groth16_params_writer_abort(w);
    CHECK(access(bad, F_OK) != 0);
    unlink(whole);
    unlink(streamed);
    rmdir(dir);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* Cancellation of the CPU prover: a token set before the proof ends it CUZK_ECANCELLED at
 * once; one set while it runs ends it well within the time a whole proof takes (measured here,
 * so a slow or loaded machine only stretches both); the workspace then proves and verifies as
 * before, and the sanitizer build finds nothing leaked on the way out. */
static void test_cancel(void)
{
    const char *name = getenv("CUZK_TEST_QUICK") ? "random:16384" : "random:65536";
    job j;
    job_open(&j, name, 60);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 61);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    cuzk_groth16_workspace ws;
    memset(&ws, 0, sizeof ws);
    cuzk_groth16_proof pr;
    CHECK_OK(cuzk_groth16_prove_ws(&ws, &pr, &p, &j.w, NULL, NULL, NULL)); /* grows the workspace */
    double t0 = cuzk_now();
    CHECK_OK(cuzk_groth16_prove_ws(&ws, &pr, &p, &j.w, NULL, NULL, NULL));
    double full_s = cuzk_now() - t0;

    cuzk_cancel before = {0};
    cuzk_cancel_set(&before);
    cuzk_groth16_prove_opts o = {.cancel = &before};
    t0 = cuzk_now();
    CHECK_FAILS(cuzk_groth16_prove_with(&ws, &pr, &p, &j.w, &o), CUZK_ECANCELLED);
    double before_s = cuzk_now() - t0;
    CHECK(before_s < full_s / 4);

    /* a quarter of the way in; should the proof end first (a machine suddenly faster), again
     * sooner */
    cuzk_status st = CUZK_OK;
    double after_set_s = 0;
    for (int attempt = 0; attempt < 4 && st != CUZK_ECANCELLED; attempt++) {
        cuzk_cancel running = {0};
        canceller c = {&running, full_s / (4 << attempt), 0};
        o.cancel = &running;
        pthread_t th;
        CHECK(pthread_create(&th, NULL, cancel_later, &c) == 0);
        st = cuzk_groth16_prove_with(&ws, &pr, &p, &j.w, &o);
        double end = cuzk_now();
        pthread_join(th, NULL);
        after_set_s = end - c.set_t;
        if (st == CUZK_OK && end < c.set_t) continue; /* it was done before the cancel */
        CHECK(st == CUZK_ECANCELLED);
        CHECK(after_set_s < full_s / 2);
    }
    CHECK(st == CUZK_ECANCELLED);
    printf("  cancel: a %s proof takes %.0f ms; set before, it ends in %.2f ms; set while it runs, %.1f ms "
           "after\n",
           name, full_s * 1e3, before_s * 1e3, after_set_s * 1e3);

    /* the workspace goes on */
    o.cancel = NULL;
    CHECK_OK(cuzk_groth16_prove_with(&ws, &pr, &p, &j.w, &o));
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr, &j.input[1], p.vk.ic_len - 1));
    cuzk_groth16_workspace_free(&ws);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

/* What a watcher of the CPU prover sees (cuzk_groth16_prove_opts.stage and .progress): a task
 * "NAME: NTT" that ends with its 7 transforms done, then "NAME: MSM" with its 5 MSMs, each
 * starting at 0; the stage seen while a task reports is that task's, and NONE once it returns. */
typedef struct {
    pthread_mutex_t mu;
    char label[2][CUZK_PROGRESS_WHAT_MAX];
    uint64_t done[2], total[2];
    unsigned ntasks, finished, bad_order;
    int seen_stage[2];
    int *stage;
} stage_log;

static void stage_report(void *ctx, const char *what, uint64_t done, uint64_t total, double elapsed_s, bool finished)
{
    (void)elapsed_s;
    stage_log *l = ctx;
    pthread_mutex_lock(&l->mu);
    unsigned i = l->ntasks && !strcmp(l->label[l->ntasks - 1], what) ? l->ntasks - 1 : l->ntasks;
    if (i == l->ntasks && i < 2) {
        snprintf(l->label[i], sizeof l->label[i], "%s", what);
        l->ntasks++;
        if (done) l->bad_order++; /* the first report comes with 0 done */
    }
    if (i < 2) {
        if (done < l->done[i]) l->bad_order++;
        l->done[i] = done;
        l->total[i] = total;
        l->seen_stage[i] = __atomic_load_n(l->stage, __ATOMIC_RELAXED);
        l->finished += finished;
    }
    pthread_mutex_unlock(&l->mu);
}

static void test_prove_stages(void)
{
    job j;
    job_open(&j, "random:4096", 62);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 62);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, j.m, &rng, NULL));
    cuzk_groth16_workspace ws;
    memset(&ws, 0, sizeof ws);
    int stage = -1;
    stage_log log = {.mu = PTHREAD_MUTEX_INITIALIZER, .stage = &stage};
    cuzk_progress_sink sink = {stage_report, &log};
    cuzk_groth16_prove_opts o = {.stage = &stage, .progress = &sink, .progress_name = "part 0"};
    cuzk_groth16_proof pr;
    CHECK_OK(cuzk_groth16_prove_with(&ws, &pr, &p, &j.w, &o));
    CHECK_OK(cuzk_groth16_verify(&p.vk, &pr, &j.input[1], p.vk.ic_len - 1));
    CHECK(log.ntasks == 2 && log.finished == 2 && !log.bad_order);
    CHECK(!strcmp(log.label[0], "part 0: NTT") && log.total[0] == CUZK_PROVE_NTTS && log.done[0] == CUZK_PROVE_NTTS);
    CHECK(!strcmp(log.label[1], "part 0: MSM") && log.total[1] == CUZK_PROVE_MSMS && log.done[1] == CUZK_PROVE_MSMS);
    CHECK(log.seen_stage[0] == CUZK_PROVE_STAGE_NTT && log.seen_stage[1] == CUZK_PROVE_STAGE_MSM);
    CHECK(stage == CUZK_PROVE_STAGE_NONE);
    CHECK(!strcmp(cuzk_prove_stage_name(CUZK_PROVE_STAGE_MSM), "msm") && !strcmp(cuzk_prove_stage_name(99), ""));
    cuzk_groth16_workspace_free(&ws);
    cuzk_groth16_params_free(&p);
    job_close(&j);
}

int main(void)
{
    test_cubic();
    test_workspace();
    test_random_and_files();
    test_unconstrained();
    test_inputs_json();
    test_degenerate_vk();
    test_stream_pieces();
    test_setup_stream();
    test_cancel();
    test_prove_stages();
    return harness_finish("test_groth16");
}
