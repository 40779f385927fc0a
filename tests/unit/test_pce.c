/* The precompiled circuit and the witness paths: for every built-in circuit, PROVE,
 * WITNESS + PCE evaluation and the parallel witness give bit-identical a, b, c, assignments
 * and densities; a PCE file round-trips and a damaged one is rejected; a proof made through
 * the PCE path verifies. (Partitions of a job, and one of another shape refused, are proved
 * through the engine: test_engine.) */
#include <string.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "cuzk/testcircuits.h"
#include "cuzk/engine.h"
#include "cuzk/prove_path.h"
#include "cuzk/groth16.h"
#include "cuzk/pce.h"
#include "harness.h"
#include "support_pce.h"

static int same_density(const cuzk_density *a, const cuzk_density *b)
{
    return a->bits == b->bits && a->popcount == b->popcount && !memcmp(a->words, b->words, (a->bits + 7) / 8);
}

/* The parts recorded in parallel (a pool of 3: batches of 12 parts) give the PCE of one part
 * after another, byte for byte. */
static void check_parallel_record(const cuzk_circuit *c)
{
    cuzk_pce pce[2];
    uint8_t *bytes[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    cuzk_pool *pool = NULL;
    CHECK_OK(cuzk_pool_create(&pool, 3));
    for (int parallel = 0; parallel < 2; parallel++) {
        cuzk_pool *prev = cuzk_pool_bind(parallel ? pool : NULL);
        cuzk_cs *rec;
        CHECK_OK(cuzk_cs_create(&rec, CUZK_CS_RECORD, false));
        CHECK_OK(parallel ? cuzk_circuit_synthesize_record(c, rec) : cuzk_circuit_synthesize(c, rec, 0));
        CHECK_OK(cuzk_cs_finish_record_pce(rec, &pce[parallel]));
        cuzk_cs_destroy(rec);
        cuzk_pool_bind(prev);
        CHECK_OK(cuzk_pce_encode(&pce[parallel], &bytes[parallel], &len[parallel]));
    }
    CHECK(len[0] == len[1] && len[0] && !memcmp(bytes[0], bytes[1], len[0]));
    CHECK(pce[0].nmarks == pce[1].nmarks && pce[0].ncoeffs == pce[1].ncoeffs);
    for (int k = 0; k < 2; k++) {
        free(bytes[k]);
        cuzk_pce_free(&pce[k]);
    }
    cuzk_pool_destroy(pool);
}

static void check_circuit(const char *name, const char *dir)
{
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, name));
    if (!c) return;
    cuzk_prove_result pr;
    CHECK_OK(cuzk_circuit_prove_input(c, 11, &pr));

    cuzk_cs *rec;
    CHECK_OK(cuzk_cs_create(&rec, CUZK_CS_RECORD, false));
    CHECK_OK(cuzk_circuit_synthesize(c, rec, 0));
    cuzk_r1cs m;
    cuzk_cs_mark_t *marks;
    size_t nmarks;
    CHECK_OK(cuzk_cs_finish_record(rec, &m, &marks, &nmarks));
    cuzk_cs_destroy(rec);
    cuzk_pce pce;
    CHECK_OK(cuzk_pce_from_r1cs(&pce, &m, marks, nmarks));
    CHECK(pce.num_inputs == pr.num_inputs && pce.num_aux == pr.num_aux);
    CHECK(same_density(&pce.a_aux, &pr.a_aux) && same_density(&pce.b_input, &pr.b_input) &&
          same_density(&pce.b_aux, &pr.b_aux));
    check_parallel_record(c);

    for (int parallel = 0; parallel < 2; parallel++) {
        cuzk_witness w = {0};
        CHECK_OK(cuzk_circuit_witness(c, 11, parallel, &w));
        CHECK(w.num_inputs == pr.num_inputs && w.num_aux == pr.num_aux);
        CHECK(!memcmp(w.input, pr.input, w.num_inputs * sizeof(cuzk_fr)));
        CHECK(!memcmp(w.aux, pr.aux, w.num_aux * sizeof(cuzk_fr)));
        size_t n = pr.n;
        cuzk_fr *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *cc = calloc(n, sizeof *cc);
        cuzk_pce_evaluate(&pce, w.input, w.aux, a, b, cc);
        CHECK(!memcmp(a, pr.a, n * sizeof *a) && !memcmp(b, pr.b, n * sizeof *b) && !memcmp(cc, pr.c, n * sizeof *cc));
        free(a);
        free(b);
        free(cc);
        cuzk_witness_free(&w);
    }

    /* file round trip, then damage */
    char path[512];
    snprintf(path, sizeof path, "%s/c.pce", dir);
    CHECK_OK(cuzk_pce_save(&pce, path));
    cuzk_pce back;
    CHECK_OK(cuzk_pce_load(&back, path));
    CHECK(back.ncoeffs == pce.ncoeffs && back.nmarks == pce.nmarks && back.num_constraints == pce.num_constraints);
    for (int k = 0; k < 3; k++)
        CHECK(back.nnz[k] == pce.nnz[k] && !memcmp(back.col[k], pce.col[k], pce.nnz[k] * 4) &&
              !memcmp(back.coeff[k], pce.coeff[k], pce.nnz[k] * 4));
    CHECK(same_density(&back.b_aux, &pce.b_aux));
    cuzk_pce_free(&back);
    uint8_t *data;
    size_t size;
    CHECK_OK(cuzk_read_file(path, &data, &size));
    data[size / 2] ^= 0x10;
    CHECK_OK(cuzk_write_file_atomic(path, data, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "checksum") != NULL);
    data[size / 2] ^= 0x10;
    CHECK_OK(cuzk_write_file_atomic(path, data, size - 5));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "truncated") != NULL);
    data[0] = 'X';
    CHECK_OK(cuzk_write_file_atomic(path, data, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "magic") != NULL);
    CHECK_OK(cuzk_write_file_atomic(path, data, 10));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    free(data);
    unlink(path);

    /* a proof through setup from the PCE and WITNESS + PCE evaluation verifies (for circuits
     * of a size a test setup takes seconds for; the PoRep CLI test proves porep:2KiB) */
    if (pce.num_constraints > 200000) {
        printf("%s: %zu constraints, proof through the PCE left to the CLI tests\n", name, pce.num_constraints);
        cuzk_pce_free(&pce);
        cuzk_prove_result_free(&pr);
        cuzk_circuit_free(c);
        return;
    }
    cuzk_r1cs m2;
    CHECK_OK(cuzk_pce_to_r1cs(&pce, &m2));
    cuzk_groth16_params p;
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 4);
    CHECK_OK(cuzk_groth16_setup(&p, &m2, &rng, NULL));
    cuzk_witness w = {0};
    CHECK_OK(cuzk_circuit_witness(c, 12, true, &w));
    size_t n = pce.num_constraints + pce.num_inputs;
    cuzk_fr *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *cc = calloc(n, sizeof *cc);
    cuzk_pce_evaluate(&pce, w.input, w.aux, a, b, cc);
    cuzk_groth16_witness gw = {a,         b,          cc,           n,         w.input, w.num_inputs, w.aux,
                               w.num_aux, &pce.a_aux, &pce.b_input, &pce.b_aux};
    cuzk_groth16_proof proof;
    CHECK_OK(cuzk_groth16_prove(&proof, &p, &gw, NULL, NULL, NULL));
    CHECK_OK(cuzk_groth16_verify(&p.vk, &proof, w.input + 1, w.num_inputs - 1));
    free(a);
    free(b);
    free(cc);
    cuzk_witness_free(&w);
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m2);

    cuzk_pce_free(&pce);
    cuzk_prove_result_free(&pr);
    cuzk_circuit_free(c);
}

/* Recomputes a file's checksum as its own format version defines it (1: the body after the
 * 64-byte header; 2: the header up to the checksum at byte 56, then the body), so that the
 * checks behind the checksum are what a test reaches. */
static void reseal(uint8_t *d, size_t size)
{
    uint32_t version;
    memcpy(&version, d + 8, 4);
    uint64_t sum;
    if (version == 1) sum = XXH64(d + 64, size - 64, 0);
    else {
        XXH64_state_t *h = XXH64_createState();
        XXH64_reset(h, 0);
        XXH64_update(h, d, 56);
        XXH64_update(h, d + 64, size - 64);
        sum = XXH64_digest(h);
        XXH64_freeState(h);
    }
    memcpy(d + 56, &sum, 8);
}

static void put64(uint8_t *d, size_t off, uint64_t v) { memcpy(d + off, &v, 8); }

/* A precompiled circuit file is believed only as far as it is checked: the header is under the
 * checksum, counts are bounded one by one (num_inputs + num_aux once wrapped, so
 * num_inputs = 2^64 - 1 loaded), densities must be the matrices' (a stray bit beyond num_aux
 * once loaded and the later error blamed the parameters), and an older format version is
 * refused by name, then recorded again by cuzk_pce_load_or_record. */
static void check_file_bounds(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/b.pce", dir);
    pce_job j;
    pce_job_open(&j, "cubic", 3, 0);
    CHECK_OK(cuzk_pce_save(&j.pce, path));
    uint8_t *data, *d;
    size_t size;
    CHECK_OK(cuzk_read_file(path, &data, &size));
    uint32_t version;
    memcpy(&version, data + 8, 4);
    CHECK(version == 2);
    cuzk_pce back;
    d = malloc(size);

    /* a header count changed, checksum not: num_inputs 2 -> 3 keeps the file's length (its
     * density still takes one word) and every index in range, so only the checksum sees it */
    CHECK(j.pce.num_inputs == 2);
    memcpy(d, data, size);
    put64(d, 24, 3);
    CHECK_OK(cuzk_write_file_atomic(path, d, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "checksum") != NULL);
    /* the reserved word must be zero */
    memcpy(d, data, size);
    d[12] = 1;
    reseal(d, size);
    CHECK_OK(cuzk_write_file_atomic(path, d, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "out of range") != NULL);

    /* a stray density bit beyond num_aux (cubic: 4 aux variables), resealed */
    size_t off = 64 + 24;
    for (int k = 0; k < 3; k++) off += (j.pce.num_constraints + 1) * 4 + j.pce.nnz[k] * 8;
    off += j.pce.ncoeffs * sizeof(cuzk_fr);
    CHECK(j.pce.num_aux == 4);
    memcpy(d, data, size);
    d[off] |= 0x20; /* a_aux bit 5 */
    reseal(d, size);
    CHECK_OK(cuzk_write_file_atomic(path, d, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "density of A's aux variables has bit 5 set, beyond its 4") != NULL);
    /* a used variable cleared from B's input density */
    memcpy(d, data, size);
    size_t b_in = off + 8;
    CHECK(d[b_in] != 0);
    d[b_in] = 0;
    reseal(d, size);
    CHECK_OK(cuzk_write_file_atomic(path, d, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "density of B's input variables") != NULL);

    /* num_inputs = 2^64 - 1 and num_aux = 1: no constraints, no terms, the table 1, -1; the
     * file as long as the wrapped sum and density sizes made it (180 bytes) */
    uint8_t w[180];
    memset(w, 0, sizeof w);
    memcpy(w, data, 16); /* magic, version, reserved */
    put64(w, 16, 0);
    put64(w, 24, UINT64_MAX);
    put64(w, 32, 1);
    put64(w, 40, 2);
    put64(w, 48, 0);
    cuzk_fr minus_one;
    cuzk_fr_neg(&minus_one, &CUZK_FR_ONE);
    memcpy(w + 64 + 24 + 12, &CUZK_FR_ONE, 32);
    memcpy(w + 64 + 24 + 12 + 32, &minus_one, 32);
    reseal(w, sizeof w);
    CHECK_OK(cuzk_write_file_atomic(path, w, sizeof w));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "out of range") != NULL);
    /* in range on their own, not together */
    put64(w, 24, UINT32_MAX);
    reseal(w, sizeof w);
    CHECK_OK(cuzk_write_file_atomic(path, w, sizeof w));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "out of range") != NULL);

    /* the bytes in memory are the file's, and parse back */
    uint8_t *enc;
    size_t enc_len;
    CHECK_OK(cuzk_pce_encode(&j.pce, &enc, &enc_len));
    CHECK(enc_len == size && !memcmp(enc, data, size));
    CHECK_OK(cuzk_pce_parse(&back, enc, enc_len, "mem"));
    cuzk_pce_free(&back);
    free(enc);

    /* format version 1: refused by name; load_or_record records it again */
    memcpy(d, data, size);
    d[8] = 1;
    reseal(d, size);
    CHECK_OK(cuzk_write_file_atomic(path, d, size));
    CHECK_FAILS(cuzk_pce_load(&back, path), CUZK_EUNSUPPORTED);
    CHECK(strstr(cuzk_last_error(), "version 1") != NULL);
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, "cubic"));
    CHECK_OK(cuzk_pce_load_or_record(path, c, &back, NULL));
    cuzk_pce_free(&back);
    cuzk_circuit_free(c);
    free(data);
    CHECK_OK(cuzk_read_file(path, &data, &size));
    CHECK(data[8] == 2);
    CHECK_OK(cuzk_pce_load(&back, path));
    cuzk_pce_free(&back);

    free(data);
    free(d);
    unlink(path);
    pce_job_close(&j);
}

int main(void)
{
    char dir[] = "/tmp/cuzk-pce-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    /* the example instance of every registered circuit family, and a one-part circuit */
    for (size_t i = 0; i < cuzk_circuit_family_count(); i++)
        if (cuzk_circuit_example(i)) check_circuit(cuzk_circuit_example(i), dir);
    check_circuit("random-parts:1:64", dir);
    check_circuit("random-parts:40:16", dir); /* more parts than a batch holds */
    check_file_bounds(dir);
    rmdir(dir);
    return harness_finish("test_pce");
}
