/* Field and curve layer: known answers, encodings, MSM against naive sums, NTT against a
 * naive DFT. Known answers: the ZCash/IETF BLS12-381 generator encodings, the bls12_381
 * crate's 2^32-th root of unity, and k*G values computed independently with @noble/curves. */
#include <string.h>

#include "cuzk/ff.h"
#include "harness.h"

static void from_hex(uint8_t *out, size_t n, const char *hex)
{
    if (cuzk_hex_decode(out, n, hex) != CUZK_OK) {
        fprintf(stderr, "bad hex in test: %s\n", hex);
        exit(1);
    }
}

static const char *G1_GEN =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char *G1_2GEN =
    "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e";
static const char *G2_GEN =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a9126"
    "0805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
/* k = 0x0123456789abcdef0123456789abcdef */
static const char *G1_K =
    "925df9dcf3357068877c0d54bc6c844d9a20368a8e1d315c7523b3fd1ddd3a58b5b8eff43995197eafa61e9a5d7c319e";
static const char *G1_K_UNCOMPRESSED =
    "125df9dcf3357068877c0d54bc6c844d9a20368a8e1d315c7523b3fd1ddd3a58b5b8eff43995197eafa61e9a5d7c319e0148a99a3df00015fe"
    "b3e7576c4b949ac98dda61a9969b0f8bf84332191e2691e6ee44dc0dff06eff4fa548eaabca355";
static const char *G2_K =
    "847e8f05106c0629b853f35a3a2f0cde3fa99e5998ee2e771b9a60eac38aacc449c601d40bd865834f71a5d0cffc817f01ad8fc0ae560cb33a"
    "ac47aae06899ed3dd4c40eb60b9b4a1f66d46cc53f5a6fd7d38647090aabad47c8e02a9e55ce29";
static const char *G1_RM1 =
    "b7f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char *ROOT32 = "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";
static const char *R_MINUS_1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
static const char *R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

static void test_fr(void)
{
    cuzk_fr one, a, b, c;
    cuzk_fr_from_u64(&one, 1);
    CHECK(cuzk_fr_eq(&one, &CUZK_FR_ONE));

    char dec[CUZK_FR_DECIMAL_MAX];
    CHECK_OK(cuzk_fr_from_decimal(&a, R_MINUS_1));
    cuzk_fr_to_decimal(dec, &a);
    CHECK(strcmp(dec, R_MINUS_1) == 0);
    cuzk_fr_add(&b, &a, &one);
    CHECK(cuzk_fr_is_zero(&b));
    CHECK_FAILS(cuzk_fr_from_decimal(&a, R_DEC), CUZK_EINVAL);
    CHECK_FAILS(cuzk_fr_from_decimal(&a, ""), CUZK_EINVAL);
    CHECK_FAILS(cuzk_fr_from_decimal(&a, "12x"), CUZK_EINVAL);
    CHECK_FAILS(cuzk_fr_from_decimal(&a, "-1"), CUZK_EINVAL);
    CHECK_FAILS(
        cuzk_fr_from_decimal(&a, "1157920892373161954235709850086879078532699846656405640394575840079131296399360"),
        CUZK_EINVAL);
    CHECK_OK(cuzk_fr_from_decimal(&a, "0"));
    CHECK(cuzk_fr_is_zero(&a));
    cuzk_fr_to_decimal(dec, &a);
    CHECK(strcmp(dec, "0") == 0);

    uint8_t bytes[32], back[32];
    CHECK_FAILS(cuzk_fr_from_bytes_le(&a, CUZK_FR_MODULUS_LE), CUZK_EINVAL);
    memcpy(bytes, CUZK_FR_MODULUS_LE, 32);
    bytes[0] -= 1; /* r - 1 */
    CHECK_OK(cuzk_fr_from_bytes_le(&a, bytes));
    cuzk_fr_to_bytes_le(back, &a);
    CHECK(memcmp(bytes, back, 32) == 0);
    cuzk_fr_to_decimal(dec, &a);
    CHECK(strcmp(dec, R_MINUS_1) == 0);

    /* root of unity of order 2^32 */
    uint8_t root_be[32], got_be[32];
    from_hex(root_be, 32, ROOT32);
    cuzk_fr w;
    cuzk_fr_root_of_unity(&w, 32);
    cuzk_fr_to_bytes_be(got_be, &w);
    CHECK(memcmp(root_be, got_be, 32) == 0);
    for (int i = 0; i < 31; i++) cuzk_fr_sqr(&w, &w);
    CHECK(!cuzk_fr_is_one(&w)); /* order exactly 2^32 */
    cuzk_fr_sqr(&w, &w);
    CHECK(cuzk_fr_is_one(&w));

    /* inverse, pow */
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 1);
    for (int i = 0; i < 100; i++) {
        cuzk_fr_random(&a, &rng);
        cuzk_fr_inv(&b, &a);
        cuzk_fr_mul(&c, &a, &b);
        CHECK(cuzk_fr_is_one(&c));
        cuzk_fr_to_decimal(dec, &a);
        CHECK_OK(cuzk_fr_from_decimal(&b, dec));
        CHECK(cuzk_fr_eq(&a, &b));
    }
    cuzk_fr seven;
    cuzk_fr_from_u64(&seven, 7);
    cuzk_fr_pow_u64(&a, &seven, 3);
    cuzk_fr_from_u64(&b, 343);
    CHECK(cuzk_fr_eq(&a, &b));
}

static void test_points(void)
{
    uint8_t enc[192], want[192], out[192];
    blst_p1_affine p1;
    blst_p2_affine p2;

    from_hex(want, 48, G1_GEN);
    cuzk_g1_encode(out, blst_p1_affine_generator(), true);
    CHECK(memcmp(out, want, 48) == 0);
    CHECK_OK(cuzk_g1_decode(&p1, want, 48, CUZK_POINT_CHECKED));
    CHECK(blst_p1_affine_is_equal(&p1, blst_p1_affine_generator()));

    from_hex(want, 96, G2_GEN);
    cuzk_g2_encode(out, blst_p2_affine_generator(), true);
    CHECK(memcmp(out, want, 96) == 0);

    /* 2G, kG, (r-1)G against independent values */
    blst_p1 p;
    blst_p1_double(&p, blst_p1_generator());
    blst_p1_to_affine(&p1, &p);
    cuzk_g1_encode(out, &p1, true);
    from_hex(want, 48, G1_2GEN);
    CHECK(memcmp(out, want, 48) == 0);

    blst_scalar k;
    uint8_t kbe[32] = {0};
    from_hex(kbe + 16, 16, "0123456789abcdef0123456789abcdef");
    blst_scalar_from_bendian(&k, kbe);
    blst_p1_mult(&p, blst_p1_generator(), k.b, 255);
    blst_p1_to_affine(&p1, &p);
    cuzk_g1_encode(out, &p1, true);
    from_hex(want, 48, G1_K);
    CHECK(memcmp(out, want, 48) == 0);
    cuzk_g1_encode(out, &p1, false);
    from_hex(want, 96, G1_K_UNCOMPRESSED);
    CHECK(memcmp(out, want, 96) == 0);
    CHECK_OK(cuzk_g1_decode(&p1, want, 96, CUZK_POINT_CHECKED));

    blst_p2 q;
    blst_p2_mult(&q, blst_p2_generator(), k.b, 255);
    blst_p2_to_affine(&p2, &q);
    cuzk_g2_encode(out, &p2, true);
    from_hex(want, 96, G2_K);
    CHECK(memcmp(out, want, 96) == 0);
    blst_p2_affine p2b;
    CHECK_OK(cuzk_g2_decode(&p2b, out, 96, CUZK_POINT_CHECKED));
    CHECK(blst_p2_affine_is_equal(&p2, &p2b));
    cuzk_g2_encode(enc, &p2, false);
    CHECK_OK(cuzk_g2_decode(&p2b, enc, 192, CUZK_POINT_CHECKED));
    CHECK(blst_p2_affine_is_equal(&p2, &p2b));

    cuzk_fr rm1;
    CHECK_OK(cuzk_fr_from_decimal(&rm1, R_MINUS_1));
    blst_scalar s;
    cuzk_fr_to_scalar(&s, &rm1);
    blst_p1_mult(&p, blst_p1_generator(), s.b, 255);
    blst_p1_to_affine(&p1, &p);
    cuzk_g1_encode(out, &p1, true);
    from_hex(want, 48, G1_RM1);
    CHECK(memcmp(out, want, 48) == 0);

    /* bad encodings */
    from_hex(enc, 48, G1_GEN);
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 47, 0), CUZK_EFORMAT);
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 96, 0), CUZK_EFORMAT); /* compressed flag with 96 bytes */
    enc[47] ^= 1; /* x+1: not on the curve (with high probability; this one is not) */
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 48, 0), CUZK_EFORMAT);
    memset(enc, 0, 48);
    enc[0] = 0xc0; /* compressed infinity */
    CHECK_OK(cuzk_g1_decode(&p1, enc, 48, 0));
    CHECK(blst_p1_affine_is_inf(&p1));
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 48, CUZK_POINT_NO_INFINITY), CUZK_EFORMAT);
    enc[5] = 1; /* infinity with garbage */
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 48, 0), CUZK_EFORMAT);
    memset(enc, 0xff, 48); /* x >= p */
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 48, 0), CUZK_EFORMAT);

    /* points on the curve but outside the subgroup: (0, 2) has order 3; and the first
     * x = 1, 2, ... with x^3 + 4 a square (the cofactor is large, so it is not in G1) */
    memset(enc, 0, 96);
    enc[95] = 2;
    CHECK_FAILS(cuzk_g1_decode(&p1, enc, 96, CUZK_POINT_CHECKED), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "subgroup") != NULL);
    CHECK_OK(cuzk_g1_decode(&p1, enc, 96, CUZK_POINT_UNCHECKED));
    for (uint64_t x = 1; x < 100; x++) {
        blst_p1_affine q1;
        uint64_t xl[6] = {x, 0, 0, 0, 0, 0}, four[6] = {4, 0, 0, 0, 0, 0};
        blst_fp rhs, b;
        blst_fp_from_uint64(&q1.x, xl);
        blst_fp_from_uint64(&b, four);
        blst_fp_sqr(&rhs, &q1.x);
        blst_fp_mul(&rhs, &rhs, &q1.x);
        blst_fp_add(&rhs, &rhs, &b);
        if (!blst_fp_sqrt(&q1.y, &rhs)) continue;
        CHECK(blst_p1_affine_on_curve(&q1) && !blst_p1_affine_in_g1(&q1));
        cuzk_g1_encode(enc, &q1, false);
        CHECK_FAILS(cuzk_g1_decode(&p1, enc, 96, CUZK_POINT_CHECKED), CUZK_EFORMAT);
        CHECK(strstr(cuzk_last_error(), "subgroup") != NULL);
        CHECK_OK(cuzk_g1_decode(&p1, enc, 96, CUZK_POINT_UNCHECKED));
        cuzk_g1_encode(enc, &q1, true);
        CHECK_FAILS(cuzk_g1_decode(&p1, enc, 48, CUZK_POINT_CHECKED), CUZK_EFORMAT);
        break;
    }
    /* G2: a twist point outside the subgroup, from x = 1 + u, 2 + u, ... */
    for (uint64_t x = 1; x < 100; x++) {
        blst_p2_affine q2;
        uint64_t xl[6] = {x, 0, 0, 0, 0, 0}, one[6] = {1, 0, 0, 0, 0, 0}, four[6] = {4, 0, 0, 0, 0, 0};
        blst_fp2 rhs, b;
        blst_fp_from_uint64(&q2.x.fp[0], xl);
        blst_fp_from_uint64(&q2.x.fp[1], one);
        blst_fp_from_uint64(&b.fp[0], four); /* b' = 4(1 + u) */
        blst_fp_from_uint64(&b.fp[1], four);
        blst_fp2_sqr(&rhs, &q2.x);
        blst_fp2_mul(&rhs, &rhs, &q2.x);
        blst_fp2_add(&rhs, &rhs, &b);
        if (!blst_fp2_sqrt(&q2.y, &rhs)) continue;
        CHECK(blst_p2_affine_on_curve(&q2) && !blst_p2_affine_in_g2(&q2));
        uint8_t e2[192];
        cuzk_g2_encode(e2, &q2, true);
        blst_p2_affine r2;
        CHECK_FAILS(cuzk_g2_decode(&r2, e2, 96, CUZK_POINT_CHECKED), CUZK_EFORMAT);
        CHECK(strstr(cuzk_last_error(), "subgroup") != NULL);
        break;
    }
}

static void test_msm(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 7);
    size_t sizes[] = {1, 2, 3, 7, 31, 64, 100, 257, 1000, 4099};
    size_t maxn = 4099;
    blst_p1_affine *pts = calloc(maxn, sizeof *pts);
    blst_p2_affine *pts2 = calloc(maxn, sizeof *pts2);
    cuzk_fr *sc = calloc(maxn, sizeof *sc);
    cuzk_fr rm1;
    CHECK_OK(cuzk_fr_from_decimal(&rm1, R_MINUS_1));
    for (size_t i = 0; i < maxn; i++) {
        cuzk_fr k;
        cuzk_fr_random(&k, &rng);
        blst_scalar s;
        cuzk_fr_to_scalar(&s, &k);
        blst_p1 p;
        blst_p1_mult(&p, blst_p1_generator(), s.b, 255);
        blst_p1_to_affine(&pts[i], &p);
        if (i < 300) {
            blst_p2 q;
            blst_p2_mult(&q, blst_p2_generator(), s.b, 255);
            blst_p2_to_affine(&pts2[i], &q);
        }
        /* adversarial scalars mixed in: 0, 1, r-1, repeats */
        switch (i % 7) {
        case 0: sc[i] = CUZK_FR_ZERO; break;
        case 1: sc[i] = CUZK_FR_ONE; break;
        case 2: sc[i] = rm1; break;
        default: cuzk_fr_random(&sc[i], &rng);
        }
        if (i % 11 == 5) memset(&pts[i], 0, sizeof pts[i]); /* infinity */
        if (i % 13 == 6 && i > 0) pts[i] = pts[i - 1];      /* repeated point */
    }
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        blst_p1 want, got, term;
        memset(&want, 0, sizeof want);
        for (size_t i = 0; i < n; i++) {
            blst_scalar s;
            cuzk_fr_to_scalar(&s, &sc[i]);
            blst_p1 p;
            blst_p1_from_affine(&p, &pts[i]);
            blst_p1_mult(&term, &p, s.b, 255);
            blst_p1_add_or_double(&want, &want, &term);
        }
        CHECK_OK(cuzk_g1_msm(&got, pts, sc, n));
        CHECK(blst_p1_is_equal(&got, &want));
        if (!blst_p1_is_equal(&got, &want)) fprintf(stderr, "  G1 MSM mismatch at n=%zu\n", n);
    }
    /* all scalars equal to r-1 */
    for (size_t i = 0; i < 300; i++) sc[i] = rm1;
    blst_p1 sum, got;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < 300; i++) blst_p1_add_or_double_affine(&sum, &sum, &pts[i]);
    blst_p1_cneg(&sum, 1);
    CHECK_OK(cuzk_g1_msm(&got, pts, sc, 300));
    CHECK(blst_p1_is_equal(&got, &sum));

    /* G2 */
    size_t sizes2[] = {1, 5, 64, 300};
    for (size_t t = 0; t < 4; t++) {
        size_t n = sizes2[t];
        for (size_t i = 0; i < n; i++)
            if (i % 5 == 0) sc[i] = CUZK_FR_ONE;
            else if (i % 5 == 1) sc[i] = CUZK_FR_ZERO;
            else cuzk_fr_random(&sc[i], &rng);
        if (n > 3) memset(&pts2[3], 0, sizeof pts2[3]);
        blst_p2 want, got2, term;
        memset(&want, 0, sizeof want);
        for (size_t i = 0; i < n; i++) {
            blst_scalar s;
            cuzk_fr_to_scalar(&s, &sc[i]);
            blst_p2 q;
            blst_p2_from_affine(&q, &pts2[i]);
            blst_p2_mult(&term, &q, s.b, 255);
            blst_p2_add_or_double(&want, &want, &term);
        }
        CHECK_OK(cuzk_g2_msm(&got2, pts2, sc, n));
        CHECK(blst_p2_is_equal(&got2, &want));
    }
    free(pts);
    free(pts2);
    free(sc);
}

/* The 0/1 split (cuzk_g*_msm_split) equals the plain MSM for every scalar profile: PoRep-like
 * (mostly 0 and 1: the split path), mostly uniform (the fallback), all zero, all one, r-1,
 * small sizes, and sizes crossing the split's chunks; points include infinity and repeats. */
static void test_msm_split(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 21);
    const size_t maxn = 70001, maxn2 = 20000;
    blst_p1 *pj = calloc(maxn, sizeof *pj);
    blst_p2 *qj = calloc(maxn2, sizeof *qj);
    blst_p1_affine *pts = calloc(maxn, sizeof *pts);
    blst_p2_affine *pts2 = calloc(maxn2, sizeof *pts2);
    cuzk_fr *sc = calloc(maxn, sizeof *sc);
    cuzk_fr rm1;
    CHECK_OK(cuzk_fr_from_decimal(&rm1, R_MINUS_1));
    blst_p1 step1;
    blst_p2 step2;
    blst_p1_double(&step1, blst_p1_generator());
    blst_p2_double(&step2, blst_p2_generator());
    pj[0] = *blst_p1_generator();
    qj[0] = *blst_p2_generator();
    for (size_t i = 1; i < maxn; i++) blst_p1_add_or_double(&pj[i], &pj[i - 1], &step1);
    for (size_t i = 1; i < maxn2; i++) blst_p2_add_or_double(&qj[i], &qj[i - 1], &step2);
    cuzk_g1_batch_to_affine(pts, pj, maxn);
    cuzk_g2_batch_to_affine(pts2, qj, maxn2);
    for (size_t i = 5; i < maxn; i += 1009) memset(&pts[i], 0, sizeof pts[i]); /* infinity */
    for (size_t i = 7; i < maxn; i += 997) pts[i] = pts[i - 1];                /* repeats */
    for (size_t i = 5; i < maxn2; i += 1009) memset(&pts2[i], 0, sizeof pts2[i]);
    /* profiles: percent zero, percent one (the rest uniform; every 50th r-1) */
    const int prof[][2] = {{40, 55}, {10, 10}, {100, 0}, {0, 100}, {0, 0}, {50, 50}};
    const size_t sizes[] = {0, 1, 2, 17, 16384, 16385, 70001};
    for (size_t pi = 0; pi < sizeof prof / sizeof prof[0]; pi++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            if (n > 17 && n < 70001 && pi > 1) continue; /* the big sizes for the main profiles */
            for (size_t i = 0; i < n; i++) {
                uint64_t r = cuzk_rng_next(&rng) % 100;
                if (r < (uint64_t)prof[pi][0]) sc[i] = CUZK_FR_ZERO;
                else if (r < (uint64_t)(prof[pi][0] + prof[pi][1])) sc[i] = CUZK_FR_ONE;
                else if (i % 50 == 0) sc[i] = rm1;
                else cuzk_fr_random(&sc[i], &rng);
            }
            blst_p1 want, got;
            CHECK_OK(cuzk_g1_msm(&want, pts, sc, n));
            CHECK_OK(cuzk_g1_msm_split(&got, pts, sc, n));
            if (!blst_p1_is_equal(&got, &want)) {
                CHECK(0);
                fprintf(stderr, "  G1 split MSM differs: %d%% zero, %d%% one, n=%zu\n", prof[pi][0], prof[pi][1], n);
            }
            size_t n2 = n < maxn2 ? n : maxn2;
            blst_p2 want2, got2;
            CHECK_OK(cuzk_g2_msm(&want2, pts2, sc, n2));
            CHECK_OK(cuzk_g2_msm_split(&got2, pts2, sc, n2));
            if (!blst_p2_is_equal(&got2, &want2)) {
                CHECK(0);
                fprintf(stderr, "  G2 split MSM differs: %d%% zero, %d%% one, n=%zu\n", prof[pi][0], prof[pi][1], n2);
            }
        }
    /* the cancellable forms: the same sums with a token not set; CUZK_ECANCELLED with it set */
    for (size_t i = 0; i < maxn; i++) {
        if (i % 3) cuzk_fr_random(&sc[i], &rng); /* a tail for Pippenger beside zeros and ones */
        else sc[i] = i % 2 ? CUZK_FR_ONE : CUZK_FR_ZERO;
    }
    cuzk_cancel token = {0};
    blst_p1 want1, got1;
    blst_p2 want2, got2;
    CHECK_OK(cuzk_g1_msm(&want1, pts, sc, maxn));
    CHECK_OK(cuzk_g1_msm_cancellable(&got1, pts, sc, maxn, &token));
    CHECK(blst_p1_is_equal(&got1, &want1));
    CHECK_OK(cuzk_g1_msm_split_cancellable(&got1, pts, sc, maxn, &token));
    CHECK(blst_p1_is_equal(&got1, &want1));
    CHECK_OK(cuzk_g2_msm(&want2, pts2, sc, maxn2));
    CHECK_OK(cuzk_g2_msm_cancellable(&got2, pts2, sc, maxn2, NULL));
    CHECK(blst_p2_is_equal(&got2, &want2));
    CHECK_OK(cuzk_g2_msm_split_cancellable(&got2, pts2, sc, maxn2, &token));
    CHECK(blst_p2_is_equal(&got2, &want2));
    cuzk_cancel_set(&token);
    CHECK_FAILS(cuzk_g1_msm_cancellable(&got1, pts, sc, maxn, &token), CUZK_ECANCELLED);
    CHECK_FAILS(cuzk_g1_msm_split_cancellable(&got1, pts, sc, maxn, &token), CUZK_ECANCELLED);
    CHECK_FAILS(cuzk_g2_msm_cancellable(&got2, pts2, sc, maxn2, &token), CUZK_ECANCELLED);
    CHECK_FAILS(cuzk_g2_msm_split_cancellable(&got2, pts2, sc, maxn2, &token), CUZK_ECANCELLED);
    CHECK(strstr(cuzk_last_error(), "cancelled") != NULL);

    /* all ones: the plain sum of the points */
    blst_p1 sum, got;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < 40000; i++) {
        sc[i] = CUZK_FR_ONE;
        blst_p1_add_or_double_affine(&sum, &sum, &pts[i]);
    }
    CHECK_OK(cuzk_g1_msm_split(&got, pts, sc, 40000));
    CHECK(blst_p1_is_equal(&got, &sum));
    free(pj);
    free(qj);
    free(pts);
    free(pts2);
    free(sc);
}

/* Larger MSM: our tiled MSM equals blst's own single-call Pippenger. Windows 15 and 17
 * divide 255, the case where the top Booth carry needs its own row. */
static void test_msm_vs_blst(void)
{
    size_t sizes[] = {(size_t)1 << 14, (size_t)1 << 17, ((size_t)1 << 20) + 3};
    int count = getenv("CUZK_TEST_QUICK") ? 1 : 3;
    size_t maxn = sizes[count - 1];
    blst_p1_affine *pts = malloc(maxn * sizeof *pts);
    blst_scalar *sc = malloc(maxn * sizeof *sc);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 9);
    /* points: a running sum of a random point, cheap to make */
    blst_p1 acc, step;
    blst_scalar k;
    cuzk_fr kf;
    cuzk_fr_random(&kf, &rng);
    cuzk_fr_to_scalar(&k, &kf);
    blst_p1_mult(&step, blst_p1_generator(), k.b, 255);
    acc = step;
    blst_p1 *proj = malloc(maxn * sizeof *proj);
    for (size_t i = 0; i < maxn; i++) {
        proj[i] = acc;
        blst_p1_add_or_double(&acc, &acc, &step);
        cuzk_fr f;
        cuzk_fr_random(&f, &rng);
        if (i % 3 == 0) cuzk_fr_from_decimal(&f, R_MINUS_1) == CUZK_OK ? (void)0 : abort();
        cuzk_fr_to_scalar(&sc[i], &f);
    }
    cuzk_g1_batch_to_affine(pts, proj, maxn);
    free(proj);
    for (int t = 0; t < count; t++) {
        size_t n = sizes[t];
        blst_p1 want, got;
        void *scratch = malloc(blst_p1s_mult_pippenger_scratch_sizeof(n));
        const blst_p1_affine *pp[2] = {pts, NULL};
        const byte *ss[2] = {sc[0].b, NULL};
        blst_p1s_mult_pippenger(&want, pp, n, ss, 255, scratch);
        free(scratch);
        CHECK_OK(cuzk_g1_msm_scalars(&got, pts, sc, n));
        CHECK(blst_p1_is_equal(&got, &want));
        if (!blst_p1_is_equal(&got, &want)) fprintf(stderr, "  MSM vs blst mismatch at n=%zu\n", n);
    }
    free(pts);
    free(sc);
}

static void test_ntt(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 3);
    for (unsigned log_n = 0; log_n <= 9; log_n++) {
        cuzk_ntt_domain d;
        CHECK_OK(cuzk_ntt_domain_init(&d, log_n));
        size_t n = d.n;
        cuzk_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *want = malloc(n * sizeof *want);
        for (size_t i = 0; i < n; i++) cuzk_fr_random(&a[i], &rng);
        memcpy(b, a, n * sizeof *a);
        /* naive DFT */
        for (size_t k = 0; k < n; k++) {
            cuzk_fr acc = CUZK_FR_ZERO, wk, wkj = CUZK_FR_ONE, t;
            cuzk_fr_pow_u64(&wk, &d.omega, k);
            for (size_t j = 0; j < n; j++) {
                cuzk_fr_mul(&t, &a[j], &wkj);
                cuzk_fr_add(&acc, &acc, &t);
                cuzk_fr_mul(&wkj, &wkj, &wk);
            }
            want[k] = acc;
        }
        cuzk_ntt_forward(&d, b);
        CHECK(memcmp(b, want, n * sizeof *b) == 0);
        cuzk_ntt_inverse(&d, b);
        CHECK(memcmp(b, a, n * sizeof *b) == 0);
        /* coset: evaluations at g*omega^k */
        cuzk_ntt_coset_forward(&d, b);
        for (size_t k = 0; k < n; k += (n > 8 ? n / 8 : 1)) {
            cuzk_fr x, xp = CUZK_FR_ONE, acc = CUZK_FR_ZERO, t;
            cuzk_fr_pow_u64(&x, &d.omega, k);
            cuzk_fr_mul(&x, &x, &d.gen);
            for (size_t j = 0; j < n; j++) {
                cuzk_fr_mul(&t, &a[j], &xp);
                cuzk_fr_add(&acc, &acc, &t);
                cuzk_fr_mul(&xp, &xp, &x);
            }
            CHECK(cuzk_fr_eq(&acc, &b[k]));
        }
        cuzk_ntt_coset_inverse(&d, b);
        CHECK(memcmp(b, a, n * sizeof *b) == 0);
        free(a);
        free(b);
        free(want);
        cuzk_ntt_domain_free(&d);
    }
    /* round trips at larger sizes (past the cache block) */
    unsigned big = getenv("CUZK_TEST_QUICK") ? 16 : 20;
    for (unsigned log_n = 14; log_n <= big; log_n += 2) {
        cuzk_ntt_domain d;
        CHECK_OK(cuzk_ntt_domain_init(&d, log_n));
        cuzk_fr *a = malloc(d.n * sizeof *a), *b = malloc(d.n * sizeof *b);
        for (size_t i = 0; i < d.n; i++) cuzk_fr_random(&a[i], &rng);
        memcpy(b, a, d.n * sizeof *a);
        cuzk_ntt_coset_forward(&d, b);
        cuzk_ntt_coset_inverse(&d, b);
        CHECK(memcmp(b, a, d.n * sizeof *b) == 0);
        /* evaluation at omega^1 by Horner */
        cuzk_ntt_forward(&d, b);
        cuzk_fr acc = CUZK_FR_ZERO;
        for (size_t j = d.n; j-- > 0;) {
            cuzk_fr_mul(&acc, &acc, &d.omega);
            cuzk_fr_add(&acc, &acc, &a[j]);
        }
        CHECK(cuzk_fr_eq(&acc, &b[1]));
        free(a);
        free(b);
        cuzk_ntt_domain_free(&d);
    }
    cuzk_ntt_domain d;
    CHECK_FAILS(cuzk_ntt_domain_init(&d, 29), CUZK_EINVAL);
}

static void test_fixed_base(void)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 5);
    size_t n = 300;
    cuzk_fr *sc = malloc(n * sizeof *sc);
    blst_p1_affine *o1 = malloc(n * sizeof *o1);
    blst_p2_affine *o2 = malloc(n * sizeof *o2);
    for (size_t i = 0; i < n; i++) cuzk_fr_random(&sc[i], &rng);
    sc[0] = CUZK_FR_ZERO;
    sc[1] = CUZK_FR_ONE;
    CHECK_OK(cuzk_fr_from_decimal(&sc[2], R_MINUS_1));
    CHECK_OK(cuzk_g1_fixed_base_mul(o1, blst_p1_generator(), sc, n));
    CHECK_OK(cuzk_g2_fixed_base_mul(o2, blst_p2_generator(), sc, n));
    for (size_t i = 0; i < n; i++) {
        blst_scalar s;
        cuzk_fr_to_scalar(&s, &sc[i]);
        blst_p1 p;
        blst_p1_affine pa;
        blst_p1_mult(&p, blst_p1_generator(), s.b, 255);
        blst_p1_to_affine(&pa, &p);
        CHECK(blst_p1_affine_is_equal(&pa, &o1[i]));
        blst_p2 q;
        blst_p2_affine qa;
        blst_p2_mult(&q, blst_p2_generator(), s.b, 255);
        blst_p2_to_affine(&qa, &q);
        CHECK(blst_p2_affine_is_equal(&qa, &o2[i]));
    }
    free(sc);
    free(o1);
    free(o2);
}

int main(void)
{
    test_fr();
    test_points();
    test_msm();
    test_msm_split();
    test_msm_vs_blst();
    test_ntt();
    test_fixed_base();
    return harness_finish("test_ff");
}
