/* C1 JSON: sealer output verifies and round-trips byte for byte; the serde layout of the
 * writer; the base64 wrapper; strict parsing with JSON-path errors; robustness against
 * truncated and corrupted input; parse speed and memory on a synthetic 32 GiB C1. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin_seal.h"
#include "filecoin/c1_internal.h"
#include "harness.h"
#include "support_sector.h"

/* The devnet sector of test_fil_seal, with its real seed. */
static cuzk_c1 *devnet_c1(cuzk_seal_proof proof, uint8_t **json, size_t *len)
{
    cuzk_seal_params p;
    uint8_t seed[32];
    test_sector_devnet(&p, proof, seed);
    cuzk_c1 *c1 = test_sector_c1(&p, seed);
    if (!c1) return NULL;
    CHECK_OK(cuzk_c1_write(c1, json, len));
    return c1;
}

static char *dup_str(const uint8_t *b, size_t n)
{
    char *s = malloc(n + 1);
    memcpy(s, b, n);
    s[n] = 0;
    return s;
}

/* Replaces the first occurrence of `from` (after `after`, when given) by `to`. */
static char *replace(const char *s, const char *after, const char *from, const char *to)
{
    const char *base = after ? strstr(s, after) : s;
    if (!base) return NULL;
    const char *at = strstr(base, from);
    if (!at) return NULL;
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *o = malloc(n + 1);
    size_t pre = (size_t)(at - s);
    memcpy(o, s, pre);
    strcpy(o + pre, to);
    strcat(o, at + strlen(from));
    return o;
}

static void expect_error(const char *json, cuzk_status want, const char *msg_part)
{
    cuzk_c1 *c1 = NULL;
    if (!json) {
        CHECK(!"test setup: pattern not found");
        return;
    }
    CHECK_FAILS(cuzk_c1_parse(&c1, (const uint8_t *)json, strlen(json)), want);
    CHECK(c1 == NULL);
    if (!strstr(cuzk_last_error(), msg_part)) {
        CHECK(!"error message");
        fprintf(stderr, "    wanted \"%s\" in: %s\n", msg_part, cuzk_last_error());
    }
}

static void test_devnet_roundtrip(void)
{
    uint8_t *json = NULL;
    size_t len = 0;
    cuzk_c1 *c1 = devnet_c1(CUZK_SEAL_2KIB_V1_1, &json, &len);
    if (!c1) return;
    uint8_t prover[32];
    cuzk_prover_id_from_actor(prover, 1002);
    CHECK_OK(cuzk_c1_verify(c1, prover, 1));
    CHECK_FAILS(cuzk_c1_verify(c1, prover, 2), CUZK_EVERIFY); /* wrong sector: replica id differs */
    printf("2 KiB C1: %zu bytes\n", len);

    /* serde layout: struct order, externally tagged enums, the unsuffixed variant, null _h */
    const char *head = "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                       "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[252,126,146,130,";
    CHECK(len > strlen(head) && memcmp(json, head, strlen(head)) == 0);
    char *s = dup_str(json, len);
    CHECK(strstr(s, "\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":[") != NULL);
    CHECK(strstr(s, "\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":") != NULL);
    CHECK(strstr(s, "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":") != NULL);
    CHECK(strstr(s, "],\"layer_index\":1,\"node\":") != NULL);
    CHECK(strstr(s, "\"encoding_proof\":{\"parents\":[[") != NULL);
    CHECK(strstr(s, "]]},\"comm_r\":[183,12,254,118,") != NULL);
    CHECK(strstr(s, ",\"seed\":[98,169,236,135,") != NULL);
    CHECK(strstr(s, ",\"ticket\":[195,161,202,18,") != NULL && s[len - 1] == '}');
    CHECK(strchr(s, ' ') == NULL && strchr(s, '\n') == NULL);

    /* parse -> write reproduces the bytes; the parsed C1 verifies too */
    cuzk_c1 *back = NULL;
    CHECK_OK(cuzk_c1_parse(&back, json, len));
    if (back) {
        uint8_t *again = NULL;
        size_t alen = 0;
        CHECK_OK(cuzk_c1_write(back, &again, &alen));
        CHECK(alen == len && memcmp(again, json, len) == 0);
        free(again);
        CHECK_OK(cuzk_c1_verify(back, prover, 1));
        CHECK(back->proof == CUZK_SEAL_2KIB_V1_1 && back->partitions == 1 && back->challenges_per_partition == 2);
        /* the circuit's public inputs agree with what the C1 carries */
        cuzk_fr in[39], x;
        CHECK_OK(
            cuzk_porep_public_inputs(in, 39, back->proof, back->replica_id, back->comm_d, back->comm_r, back->seed, 0));
        uint8_t seed[32];
        memcpy(seed, back->seed, 32);
        cuzk_fr in2[39];
        CHECK_OK(cuzk_porep_public_inputs_for_sector(in2, 39, back->proof, prover, 1, back->ticket, seed, back->comm_d,
                                                     back->comm_r, 0));
        CHECK(memcmp(in, in2, sizeof in) == 0);
        for (uint32_t i = 0; i < 2; i++) {
            const cuzk_challenge_proof *cp = cuzk_c1_challenge(back, 0, i);
            const cuzk_fr *b = in + 3 + 18 * i;
            cuzk_fr_from_u64(&x, cp->labeling[0].node);
            CHECK(cuzk_fr_eq(&b[0], &x) && cuzk_fr_eq(&b[15], &x) && cuzk_fr_eq(&b[16], &x) && cuzk_fr_eq(&b[17], &x));
            for (int j = 0; j < 6; j++) {
                cuzk_fr_from_u64(&x, cp->drg_parents[j].index);
                CHECK(cuzk_fr_eq(&b[1 + j], &x));
            }
            for (int j = 0; j < 8; j++) {
                cuzk_fr_from_u64(&x, cp->exp_parents[j].index);
                CHECK(cuzk_fr_eq(&b[7 + j], &x));
            }
        }
        CHECK_FAILS(
            cuzk_porep_public_inputs(in, 38, back->proof, back->replica_id, back->comm_d, back->comm_r, back->seed, 0),
            CUZK_EINVAL);
        cuzk_c1_free(back);
    }

    /* whitespace and key order are free on input; the output is serde's again */
    {
        size_t n = 0;
        char *pretty = malloc(len * 3 + 8);
        for (size_t i = 0; i < len; i++) {
            pretty[n++] = s[i];
            if (s[i] == ',' || s[i] == ':' || s[i] == '{') pretty[n++] = i % 3 ? ' ' : '\n';
        }
        pretty[n] = 0;
        cuzk_c1 *p = NULL;
        CHECK_OK(cuzk_c1_parse(&p, (const uint8_t *)pretty, n));
        if (p) {
            uint8_t *again = NULL;
            size_t alen = 0;
            CHECK_OK(cuzk_c1_write(p, &again, &alen));
            CHECK(alen == len && memcmp(again, json, len) == 0);
            free(again);
            cuzk_c1_free(p);
        }
        free(pretty);
        /* registered_proof last instead of first */
        const char *rp = "\"registered_proof\":\"StackedDrg2KiBV1_1\",";
        char *moved = malloc(len + 8);
        strcpy(moved, "{");
        strcat(moved, s + 1 + strlen(rp));
        moved[strlen(moved) - 1] = 0;
        strcat(moved, ",\"registered_proof\":\"StackedDrg2KiBV1_1\"}");
        CHECK_OK(cuzk_c1_parse(&p, (const uint8_t *)moved, strlen(moved)));
        cuzk_c1_free(p);
        free(moved);
    }

    /* the wrapper */
    uint8_t *w = NULL, *inner = NULL;
    size_t wlen = 0, ilen = 0;
    CHECK_OK(cuzk_c1_wrap(&w, &wlen, json, len, 1, 2048));
    CHECK(wlen > 40 && memcmp(w, "{\"SectorNum\":1,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29m", 52) == 0);
    CHECK(memcmp(w + wlen - 19, "\",\"SectorSize\":2048}", 19) == 0 ||
          memcmp(w + wlen - 20, "\",\"SectorSize\":2048}", 20) == 0);
    int64_t num = 0;
    uint64_t size = 0;
    CHECK_OK(cuzk_c1_unwrap(w, wlen, &inner, &ilen, &num, &size));
    CHECK(ilen == len && inner && memcmp(inner, json, len) == 0 && num == 1 && size == 2048);
    free(inner);
    cuzk_c1 *pa = NULL;
    CHECK_OK(cuzk_c1_parse_any(&pa, w, wlen, &num, &size));
    CHECK(pa && num == 1 && size == 2048);
    cuzk_c1_free(pa);
    CHECK_OK(cuzk_c1_parse_any(&pa, json, len, &num, &size));
    CHECK(pa && num == -1 && size == 0);
    cuzk_c1_free(pa);
    free(w);
    CHECK_OK(cuzk_c1_wrap(&w, &wlen, json, len, -7, 4096));
    CHECK_FAILS(cuzk_c1_parse_any(&pa, w, wlen, &num, NULL), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "SectorSize 4096") != NULL);
    /* base64 must be strict */
    char *ws = dup_str(w, wlen);
    ws[40] = '*';
    CHECK_FAILS(cuzk_c1_unwrap((uint8_t *)ws, wlen, &inner, &ilen, &num, &size), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "Phase1Out: invalid base64 character") != NULL);
    free(ws);
    const char *small = "{\"SectorSize\":2048,\"SectorNum\":-3,\"Phase1Out\":\"aGk=\"}";
    CHECK_OK(cuzk_c1_unwrap((const uint8_t *)small, strlen(small), &inner, &ilen, &num, &size));
    CHECK(ilen == 2 && memcmp(inner, "hi", 2) == 0 && num == -3);
    free(inner);
    const char *esc = "{\"SectorNum\":0,\"Phase1Out\":\"a\\/8=\",\"SectorSize\":1}";
    CHECK_OK(cuzk_c1_unwrap((const uint8_t *)esc, strlen(esc), &inner, &ilen, &num, &size));
    CHECK(ilen == 2 && inner[0] == 0x6b && inner[1] == 0xff);
    free(inner);
    const char *badpad = "{\"SectorNum\":0,\"Phase1Out\":\"aGk\",\"SectorSize\":1}";
    CHECK_FAILS(cuzk_c1_unwrap((const uint8_t *)badpad, strlen(badpad), &inner, &ilen, &num, &size), CUZK_EFORMAT);
    const char *missing = "{\"SectorNum\":0,\"Phase1Out\":\"\"}";
    CHECK_FAILS(cuzk_c1_unwrap((const uint8_t *)missing, strlen(missing), &inner, &ilen, &num, &size), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "missing field \"SectorSize\"") != NULL);
    free(w);

    /* ---- strict validation, each error naming its JSON path */
    const char *cd = "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":";
    char *e;
    /* a second sibling hash in a binary path */
    e = replace(s, cd, "\"hashes\":[[",
                "\"hashes\":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,"
                "25,26,27,28,29,30,31,32],[");
    expect_error(e, CUZK_EFORMAT,
                 "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[0].hashes: expected 1 "
                 "element (sibling hash), got 2");
    free(e);
    /* no siblings at all */
    e = replace(s, cd, "\"hashes\":[[", "\"hashes\":[],\"x\":[[");
    expect_error(e, CUZK_EFORMAT, "path.path[0].hashes: expected 1 element (sibling hash), got 0");
    free(e);
    /* index out of the arity */
    e = replace(s, "\"comm_r_last_proof\"", "\"index\":", "\"index\":9");
    expect_error(e, CUZK_EFORMAT, "comm_r_last_proof.data.Single.path.path[0].index: integer 9");
    free(e);
    e = replace(s, NULL, "StackedDrg2KiBV1_1", "StackedDrg2KiBV9");
    expect_error(e, CUZK_EFORMAT,
                 "registered_proof: unknown or unsupported registered seal proof \"StackedDrg2KiBV9\"");
    free(e);
    e = replace(s, NULL, "\"StackedDrg2KiBV1\":[[", "\"StackedDrg4KiBV1\":[[");
    expect_error(e, CUZK_EFORMAT, "vanilla_proofs.StackedDrg4KiBV1: unknown VanillaSealProof variant");
    free(e);
    /* a proof type of another size than the vanilla proofs */
    e = replace(s, NULL, "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1");
    expect_error(e, CUZK_EFORMAT,
                 "vanilla_proofs: variant StackedDrg2KiBV1 does not match registered_proof StackedDrg8MiBV1_1");
    free(e);
    /* NI proofs of this size have 13 partitions */
    e = replace(s, NULL, "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
    expect_error(e, CUZK_EFORMAT,
                 "vanilla_proofs.StackedDrg2KiBV1: expected 13 partitions for "
                 "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep, got 1");
    free(e);
    e = replace(s, "\"comm_r\":[", "[183,", "[256,");
    expect_error(e, CUZK_EFORMAT, "comm_r[0]: integer 256 out of range (at most 255)");
    free(e);
    e = replace(s, "\"comm_r\":[", "[183,", "[183.0,");
    expect_error(e, CUZK_EFORMAT, "comm_r[0]: expected an integer, got a floating point number");
    free(e);
    e = replace(s, "\"comm_r\":[", "[183,", "[-1,");
    expect_error(e, CUZK_EFORMAT, "comm_r[0]: expected an unsigned integer, got a negative number");
    free(e);
    e = replace(s, "\"comm_r\":[", "[183,", "[0183,");
    expect_error(e, CUZK_EFORMAT, "comm_r[0]: invalid number: leading zero");
    free(e);
    e = replace(s, "\"comm_r\":[", "[183,", "[183,1,");
    expect_error(e, CUZK_EFORMAT, "comm_r: expected 32 elements (bytes), got 33");
    free(e);
    /* comm_r above the field modulus */
    e = replace(s, NULL, "\"comm_r\":[183,12,254,118,", "\"comm_r\":[255,255,255,255,");
    if (e) {
        char *t = strstr(e, "\"comm_r\":[");
        /* make every byte 255 */
        char *end = strchr(t, ']');
        char buf[200] = "\"comm_r\":[255";
        for (int i = 1; i < 32; i++) strcat(buf, ",255");
        strcat(buf, "]");
        size_t tail = strlen(end + 1);
        char *o = malloc((size_t)(t - e) + strlen(buf) + tail + 1);
        memcpy(o, e, (size_t)(t - e));
        strcpy(o + (t - e), buf);
        strcat(o, end + 1);
        expect_error(o, CUZK_EFORMAT, "comm_r: not a canonical field element");
        free(o);
    }
    free(e);
    e = replace(s, NULL, "\"_h\":null", "\"_h\":0");
    expect_error(e, CUZK_EFORMAT, "replica_column_proofs.c_x.column._h: expected null, got a number");
    free(e);
    e = replace(s, NULL, "\"_h\":null", "\"_h\":null,\"extra\":1");
    expect_error(e, CUZK_EFORMAT, "c_x.column.extra: unknown field (expected one of: index, rows, _h)");
    free(e);
    e = replace(s, NULL, ",\"_h\":null", "");
    expect_error(e, CUZK_EFORMAT, "c_x.column: missing field \"_h\"");
    free(e);
    e = replace(s, NULL, "\"ticket\":", "\"seed\":");
    expect_error(e, CUZK_EFORMAT, "seed: duplicate field");
    free(e);
    e = replace(s, NULL, "{\"Single\":", "{\"Sub\":");
    expect_error(e, CUZK_EFORMAT, "comm_d_proofs.data.Sub: expected Single for a 2-0-0 tree, got Sub");
    free(e);
    e = replace(s, NULL, "{\"Single\":", "{\"Double\":");
    expect_error(e, CUZK_EFORMAT, "comm_d_proofs.data.Double: unknown variant");
    free(e);
    /* one DRG parent column too few */
    e = replace(s, "\"drg_parents\":[", "{\"column\"", "{}, {\"column\"");
    expect_error(e, CUZK_EFORMAT, "[0][0].replica_column_proofs.drg_parents[0]: missing field \"column\"");
    free(e);
    e = replace(s, NULL, "\"labeling_proofs\":[{",
                "\"labeling_proofs\":[{\"parents\":[],\"layer_index\":1,\"node\":1},{");
    expect_error(e, CUZK_EFORMAT, "labeling_proofs[0].parents: expected 37 parents, got 0");
    free(e);
    e = replace(s, NULL, "\"layer_index\":1", "\"layer_index\":2");
    expect_error(e, CUZK_EFORMAT,
                 "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0]: layer_index 2, expected 1");
    free(e);
    /* the tree R root of challenge 1 differs from challenge 0's */
    {
        const char *key = "\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":[";
        char *t = strdup(s);
        char *second = strstr(strstr(t, key) + 1, key);
        CHECK(second != NULL);
        if (second) {
            /* another first byte (still canonical): the number becomes 7, or 8 if it was 7 */
            char *digit = second + strlen(key), *comma = strchr(digit, ',');
            bool was7 = comma == digit + 1 && digit[0] == '7';
            memmove(digit + 1, comma, strlen(comma) + 1);
            digit[0] = was7 ? '8' : '7';
            expect_error(t, CUZK_EFORMAT,
                         "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.root: differs from the "
                         "tree R root of the first challenge");
        }
        free(t);
    }
    expect_error("", CUZK_EFORMAT, "(top): expected an object, got end of input");
    expect_error("[]", CUZK_EFORMAT, "expected an object, got an array");
    {
        char *t = malloc(len + 3);
        memcpy(t, s, len);
        strcpy(t + len, " x");
        expect_error(t, CUZK_EFORMAT, "trailing characters");
        free(t);
    }

    /* every truncation fails cleanly, and random corruption never crashes */
    int ok = 1;
    for (size_t cut = 0; cut < len; cut += 37) {
        cuzk_c1 *p = NULL;
        if (cuzk_c1_parse(&p, json, cut) == CUZK_OK || p) ok = 0;
    }
    CHECK(ok);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 42);
    uint8_t *mut = malloc(len);
    int parsed = 0, verified = 0;
    for (int iter = 0; iter < 400; iter++) {
        memcpy(mut, json, len);
        int flips = 1 + (int)(cuzk_rng_next(&rng) % 3);
        for (int f = 0; f < flips; f++) {
            size_t at = cuzk_rng_next(&rng) % len;
            static const char alphabet[] = "0123456789,[]{}\":nul- x";
            mut[at] = (uint8_t)alphabet[cuzk_rng_next(&rng) % (sizeof alphabet - 1)];
        }
        cuzk_c1 *p = NULL;
        if (cuzk_c1_parse(&p, mut, len) == CUZK_OK) {
            parsed++;
            if (cuzk_c1_verify(p, NULL, 0) == CUZK_OK) verified++;
            cuzk_c1_free(p);
        }
    }
    printf("corruption: %d of 400 still parse, %d of those verify\n", parsed, verified);
    free(mut);
    free(s);
    free(json);
    cuzk_c1_free(c1);
}

static void test_other_proof_types(void)
{
    /* V1 (old graph rules), synthetic and NI challenges: the vanilla proofs verify and round-trip */
    static const cuzk_seal_proof types[] = {CUZK_SEAL_2KIB_V1, CUZK_SEAL_2KIB_V1_1_SYNTH, CUZK_SEAL_2KIB_V1_2_NI};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        uint8_t *json = NULL;
        size_t len = 0;
        cuzk_c1 *c1 = devnet_c1(types[t], &json, &len);
        if (!c1) continue;
        uint8_t prover[32];
        cuzk_prover_id_from_actor(prover, 1002);
        CHECK_OK(cuzk_c1_verify(c1, prover, 1));
        CHECK(c1->partitions == (types[t] == CUZK_SEAL_2KIB_V1_2_NI ? 13u : 1u));
        cuzk_c1 *back = NULL;
        CHECK_OK(cuzk_c1_parse(&back, json, len));
        if (back) {
            uint8_t *again = NULL;
            size_t alen = 0;
            CHECK_OK(cuzk_c1_write(back, &again, &alen));
            CHECK(alen == len && memcmp(again, json, len) == 0);
            free(again);
            cuzk_c1_free(back);
        }
        /* a label changed anywhere is caught by verify */
        c1->proofs[0].labeling[1].parents[3].b[0] ^= 1;
        CHECK_FAILS(cuzk_c1_verify(c1, NULL, 0), CUZK_EVERIFY);
        CHECK(strstr(cuzk_last_error(), "[0][0]: labeling_proofs[1]: parents differ") != NULL);
        c1->proofs[0].labeling[1].parents[3].b[0] ^= 1;
        c1->proofs[c1->partitions * 2 - 1].exp_parents[5].rows[1].b[2] ^= 4;
        CHECK_FAILS(cuzk_c1_verify(c1, NULL, 0), CUZK_EVERIFY);
        CHECK(strstr(cuzk_last_error(), "exp_parents[5]: inclusion leaf is not the column hash") != NULL);
        free(json);
        cuzk_c1_free(c1);
    }
}

/* ---------------------------------------------------------------- a synthetic 32 GiB C1 */
/* Structurally valid but not a real proof (cuzk_c1_synthetic): it exercises the parser at full
 * size, not the verifier. */
static void test_large_synthetic(cuzk_seal_proof proof)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(proof);
    cuzk_c1 *c1 = NULL;
    CHECK_OK(cuzk_c1_synthetic(&c1, proof, pi->partitions, 7));
    if (!c1) return;
    uint8_t *json = NULL;
    size_t len = 0;
    double t0 = cuzk_now();
    CHECK_OK(cuzk_c1_write(c1, &json, &len));
    double t_write = cuzk_now() - t0;
    cuzk_c1 *back = NULL;
    t0 = cuzk_now();
    CHECK_OK(cuzk_c1_parse(&back, json, len));
    double t_parse = cuzk_now() - t0;
    if (back) {
        uint8_t *again = NULL;
        size_t alen = 0;
        CHECK_OK(cuzk_c1_write(back, &again, &alen));
        CHECK(alen == len && memcmp(again, json, len) == 0);
        printf("%s synthetic C1: %.1f MB, write %.3f s, parse %.3f s (%.0f MB/s), parsed size %.1f MB\n", pi->name,
               len / 1e6, t_write, t_parse, len / 1e6 / t_parse, c1_arena_bytes(back->arena) / 1e6);
        free(again);
        cuzk_c1_free(back);
    }
    /* the form lotus-bench and Curio hand over: base64 inside the wrapper */
    uint8_t *w = NULL;
    size_t wlen = 0;
    CHECK_OK(cuzk_c1_wrap(&w, &wlen, json, len, 3, pi->sector_size));
    t0 = cuzk_now();
    CHECK_OK(cuzk_c1_parse_any(&back, w, wlen, NULL, NULL));
    printf("  wrapped: %.1f MB, decode + parse %.3f s\n", wlen / 1e6, cuzk_now() - t0);
    cuzk_c1_free(back);
    free(w);
    free(json);
    cuzk_c1_free(c1);
}

int main(void)
{
    test_devnet_roundtrip();
    test_other_proof_types();
    test_large_synthetic(CUZK_SEAL_64GIB_V1_1);
    test_large_synthetic(CUZK_SEAL_32GIB_V1_1);
    return harness_finish("test_fil_c1");
}
