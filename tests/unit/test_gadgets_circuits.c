/* The SHA-256 built-in circuits: sha256-compress has bellperson test_full_block's count
 * (512 + 25,840, no input but ONE); sha256:BYTES has 8 BYTES bit constraints, the hash and
 * two packing rows, and its two public inputs are the native digest's bits packed 254 + 2;
 * both satisfy their matrices; bad arguments are refused; a Groth16 proof of a small one
 * verifies with its inputs and not with others. */
#include <string.h>

#include "cuzk/testcircuits.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/groth16.h"
#include "cuzk/hash.h"
#include "harness.h"

static void counts(const char *name, size_t constraints, size_t inputs)
{
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, name));
    if (!c) return;
    cuzk_circuit_counts n;
    CHECK_OK(cuzk_circuit_count(c, &n));
    CHECK(n.constraints == constraints && n.inputs == inputs);
    if (n.constraints != constraints || n.inputs != inputs)
        fprintf(stderr, "    %s: %zu constraints, %zu inputs (want %zu, %zu)\n", name, n.constraints, n.inputs,
                constraints, inputs);
    printf("%s: %zu constraints, %zu inputs, %zu aux\n", name, n.constraints, n.inputs, n.aux);
    cuzk_circuit_free(c);
}

/* The public inputs of sha256:n for a seed: the native digest of the seed's bytes, packed. */
static void expected_inputs(size_t n, uint64_t seed, cuzk_fr out[2])
{
    uint8_t *msg = malloc(n + 1), d[32];
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    cuzk_rng_bytes(&rng, msg, n);
    cuzk_sha256(d, msg, n);
    free(msg);
    bool bits[256];
    for (int i = 0; i < 256; i++) bits[i] = (d[i / 8] >> (7 - i % 8)) & 1;
    cuzk_multipack_compute(bits, 256, out);
}

static void test_inputs(void)
{
    static const size_t lengths[] = {0, 3, 64, 100};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "sha256:%zu", lengths[i]);
        cuzk_circuit *c;
        CHECK_OK(cuzk_circuit_open(&c, name));
        if (!c) continue;
        cuzk_prove_result pr;
        CHECK_OK(cuzk_circuit_prove_input(c, 42 + i, &pr));
        cuzk_fr want[2];
        expected_inputs(lengths[i], 42 + i, want);
        CHECK(pr.num_inputs == 3 && cuzk_fr_eq(&pr.input[1], &want[0]) && cuzk_fr_eq(&pr.input[2], &want[1]));
        cuzk_r1cs m;
        CHECK_OK(cuzk_circuit_record(c, &m));
        CHECK(cuzk_r1cs_first_unsatisfied(&m, pr.input, pr.aux) == -1);
        cuzk_r1cs_free(&m);
        cuzk_prove_result_free(&pr);
        cuzk_circuit_free(c);
    }
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, "sha256-compress"));
    if (c) {
        cuzk_prove_result pr;
        cuzk_r1cs m;
        CHECK_OK(cuzk_circuit_prove_input(c, 9, &pr));
        CHECK_OK(cuzk_circuit_record(c, &m));
        CHECK(cuzk_r1cs_first_unsatisfied(&m, pr.input, pr.aux) == -1);
        cuzk_r1cs_free(&m);
        cuzk_prove_result_free(&pr);
        cuzk_circuit_free(c);
    }
}

static void test_bad_names(void)
{
    /* numbers in names are exact: 4294967298 once read as 2 through sscanf's %u, and in
     * random-parts:2:2^63 the bound K * N wrapped to 0 */
    static const char *bad[] = {"sha256:",
                                "sha256:x",
                                "sha256:-1",
                                "sha256:12x",
                                "sha256:1048577",
                                "sha256: 5",
                                "post-test:8-0-0:64:4294967298:5",
                                "post-test:8-0-0:64:3:4294967301",
                                "post-test:8-0-0:18446744073709551680:3:5",
                                "porep-test:8-0-0:8:4294967298:1",
                                "porep-test:8-0-0:8:2:4294967297",
                                "porep-test:8-4294967296-0:8:2:1",
                                "porep-test:8-0-0-0:8:2:1",
                                "porep-test::8:2:1",
                                "porep-test:8-0-0:8:2",
                                "random-parts:2:9223372036854775808"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_circuit *c = NULL;
        CHECK_FAILS(cuzk_circuit_open(&c, bad[i]), CUZK_EINVAL);
        CHECK(c == NULL);
    }
    CHECK(strstr(cuzk_circuit_names(), "sha256-compress") && strstr(cuzk_circuit_names(), "sha256:BYTES"));
}

/* Setup, prove and verify sha256:3 (one block, 24 allocated bits). */
static void test_groth16(void)
{
    cuzk_circuit *c;
    CHECK_OK(cuzk_circuit_open(&c, "sha256:3"));
    if (!c) return;
    cuzk_r1cs m;
    cuzk_prove_result pr;
    CHECK_OK(cuzk_circuit_record(c, &m));
    CHECK_OK(cuzk_circuit_prove_input(c, 77, &pr));
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 5);
    cuzk_groth16_params p;
    CHECK_OK(cuzk_groth16_setup(&p, &m, &rng, NULL));
    cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
    cuzk_groth16_proof proof;
    CHECK_OK(cuzk_groth16_prove(&proof, &p, &w, NULL, NULL, NULL));
    CHECK_OK(cuzk_groth16_verify(&p.vk, &proof, &pr.input[1], 2));
    cuzk_fr wrong[2] = {pr.input[1], pr.input[2]};
    cuzk_fr_add(&wrong[1], &wrong[1], &CUZK_FR_ONE);
    CHECK_FAILS(cuzk_groth16_verify(&p.vk, &proof, wrong, 2), CUZK_EVERIFY);
    cuzk_groth16_params_free(&p);
    cuzk_prove_result_free(&pr);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

int main(void)
{
    counts("sha256-compress", 512 + 25840, 1);
    counts("sha256:64", 512 + 44874 + 2, 3);
    counts("sha256:0", 2, 3); /* a constant digest: only the packing rows */
    test_inputs();
    test_bad_names();
    test_groth16();
    return harness_finish("test_gadgets_circuits");
}
