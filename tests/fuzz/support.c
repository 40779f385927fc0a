#include "support.h"

#include <pthread.h>
#include <string.h>

#include "cuzk/testcircuits.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static fuzz_fixture fixture;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void make_fixture(void)
{
    cuzk_circuit *c = NULL;
    cuzk_r1cs m;
    cuzk_prove_result pr;
    if (cuzk_circuit_open(&c, "cubic") || cuzk_circuit_record(c, &m) || cuzk_circuit_prove_input(c, 3, &pr)) {
        fprintf(stderr, "fuzz fixture: %s\n", cuzk_last_error());
        abort();
    }
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 11);
    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, 1234);
    cuzk_fr_from_u64(&s, 5678);
    cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
    if (cuzk_groth16_setup(&fixture.params, &m, &rng, NULL) ||
        cuzk_groth16_prove(&fixture.proof, &fixture.params, &w, &r, &s, NULL)) {
        fprintf(stderr, "fuzz fixture: %s\n", cuzk_last_error());
        abort();
    }
    fixture.input = pr.input[1];
    cuzk_groth16_proof_encode(fixture.proof_bytes, &fixture.proof);
    cuzk_groth16_proof neg = fixture.proof;
    blst_p1 a;
    blst_p2 b;
    blst_p1_from_affine(&a, &neg.a);
    blst_p1_cneg(&a, 1);
    blst_p1_to_affine(&neg.a, &a);
    blst_p2_from_affine(&b, &neg.b);
    blst_p2_cneg(&b, 1);
    blst_p2_to_affine(&neg.b, &b);
    cuzk_groth16_proof_encode(fixture.neg_bytes, &neg);
    cuzk_prove_result_free(&pr);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
}

const fuzz_fixture *fuzz_fixture_get(void)
{
    pthread_once(&once, make_fixture);
    return &fixture;
}

void fuzz_pce_reseal(uint8_t *data, size_t size)
{
    XXH64_state_t *h = XXH64_createState();
    XXH64_reset(h, 0);
    XXH64_update(h, data, 56);
    XXH64_update(h, data + 64, size - 64);
    uint64_t sum = XXH64_digest(h);
    XXH64_freeState(h);
    memcpy(data + 56, &sum, 8);
}
