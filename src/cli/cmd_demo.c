/* cuzk demo: the main job on an embedded default — set up, prove and verify a built-in
 * circuit, printing the per-stage timeline. */
#include <stdio.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cuzk/circuits.h"
#include "cuzk/groth16.h"

#define DEMO_CIRCUIT "random:65536"

int cli_demo(int argc, char **argv)
{
    const char *circuit = DEMO_CIRCUIT, *threads = NULL;
    bool done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (default " DEMO_CIRCUIT ")", &circuit, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc = cli_parse(argc, argv, "cuzk demo [--circuit NAME] [--threads T]", opts, (int)(sizeof opts / sizeof opts[0]),
                       &done);
    if (rc || done) return rc;
    if (cli_threads("demo", threads)) return 2;
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("demo");
    cuzk_timeline *tl = cuzk_timeline_create("demo");
    int job = cuzk_span_begin(tl, circuit);
    cuzk_r1cs m = {0};
    cuzk_groth16_params p = {0};
    cuzk_prove_result pr = {0};
    cuzk_groth16_proof proof;
    int span = cuzk_span_begin(tl, "record circuit");
    cuzk_status st = cuzk_circuit_record(c, &m);
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "setup");
        st = cuzk_groth16_setup(&p, &m, NULL, tl);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        span = cuzk_span_begin(tl, "synthesize");
        st = cuzk_circuit_prove_input(c, 3, &pr);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        cuzk_groth16_witness w = {pr.a, pr.b, pr.c, pr.n, pr.input, pr.num_inputs, pr.aux, pr.num_aux,
                                  &pr.a_aux, &pr.b_input, &pr.b_aux};
        st = cuzk_groth16_prove(&proof, &p, &w, NULL, NULL, tl);
    }
    if (!st) {
        span = cuzk_span_begin(tl, "verify");
        st = cuzk_groth16_verify(&p.vk, &proof, pr.input + 1, pr.num_inputs - 1);
        cuzk_span_end(tl, span);
    }
    cuzk_span_end(tl, job);
    if (!st) {
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        char hex[2 * CUZK_GROTH16_PROOF_BYTES + 1];
        cuzk_groth16_proof_encode(bytes, &proof);
        cuzk_hex_encode(hex, bytes, sizeof bytes);
        printf("cuzk demo: %s, %zu constraints, %zu public inputs, %u threads\n", circuit, m.num_constraints,
               m.num_inputs - 1, cuzk_threads());
        cuzk_timeline_print(tl, stdout);
        printf("proof: %s\nverified: OK\n", hex);
    }
    rc = st ? cli_error("demo") : 0;
    cuzk_prove_result_free(&pr);
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_timeline_destroy(tl);
    cuzk_circuit_free(c);
    return rc;
}
