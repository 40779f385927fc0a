/* cuzk prove: prove a built-in circuit with its own witness; the proofs are verified
 * against the parameters' key before anything is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cuzk/testcircuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"

static cuzk_status prove_one(const cuzk_circuit *c, const cuzk_groth16_params *p, uint64_t seed,
                             cuzk_groth16_proof *out, cuzk_fr *inputs, cuzk_timeline *tl)
{
    int span = cuzk_span_begin(tl, "synthesize");
    cuzk_prove_result pr;
    cuzk_status st = cuzk_circuit_prove_input(c, seed, &pr);
    cuzk_span_end(tl, span);
    if (st) return st;
    cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
    st = cuzk_groth16_prove(out, p, &w, NULL, NULL, tl);
    if (!st) memcpy(inputs, pr.input + 1, (pr.num_inputs - 1) * sizeof(cuzk_fr));
    cuzk_prove_result_free(&pr);
    return st;
}

int cli_prove(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "porep")) return cli_prove_porep(argc - 1, argv + 1);
    const char *circuit = NULL, *params = NULL, *proof = NULL, *inputs_path = NULL, *seed_s = NULL, *count_s = NULL,
               *threads = NULL, *pce_path = NULL;
    bool checked = false, quiet = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit", &circuit, NULL},
        {"params", "FILE", "parameters from cuzk setup (bellperson layout)", &params, NULL},
        {"proof", "OUT.proof", "where to write the proofs (192 bytes each)", &proof, NULL},
        {"inputs", "OUT.json", "where to write the public inputs (decimal strings, ONE omitted)", &inputs_path, NULL},
        {"seed", "S", "witness seed (default 3); proof k uses S + k", &seed_s, NULL},
        {"count", "K", "make K proofs, back to back in one file (default 1)", &count_s, NULL},
        {"pce", "FILE",
         "prove through the precompiled circuit (parallel witness + matrices); recorded there on first "
         "use",
         &pce_path, NULL},
        {"checked", NULL, "subgroup-check every parameter point while reading", NULL, &checked},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc =
        cli_parse(argc, argv, "cuzk prove --circuit NAME --params FILE --proof OUT.proof --inputs OUT.json [--seed S]",
                  opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!circuit) return cli_missing("prove", "circuit");
    if (!params) return cli_missing("prove", "params");
    if (!proof) return cli_missing("prove", "proof");
    if (!inputs_path) return cli_missing("prove", "inputs");
    uint64_t seed = 3, count = 1;
    if ((seed_s && cli_u64("prove", "seed", seed_s, &seed)) ||
        (count_s && cli_u64("prove", "count", count_s, &count)) || cli_threads("prove", threads))
        return 2;
    if (count < 1 || count > 1000000) {
        fprintf(stderr, "cuzk prove: --count must be from 1 to 1000000\n");
        return 2;
    }

    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("prove");
    cuzk_timeline *tl = cuzk_timeline_create("prove");
    cuzk_groth16_params p;
    int span = cuzk_span_begin(tl, "read params");
    cuzk_status st = cuzk_groth16_params_read(&p, params, checked ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED);
    cuzk_span_end(tl, span);
    if (st) {
        cuzk_timeline_destroy(tl);
        cuzk_circuit_free(c);
        return cli_error("prove");
    }
    size_t ninputs = p.vk.ic_len - 1;
    cuzk_groth16_proof *proofs = calloc(count, sizeof *proofs);
    cuzk_fr *inputs = calloc(count * ninputs + 1, sizeof(cuzk_fr));
    uint8_t *bytes = calloc(count, CUZK_GROTH16_PROOF_BYTES);
    if (!proofs || !inputs || !bytes) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_pce pce = {0};
    cuzk_prove_buffers bufs = {0};
    if (!st && pce_path) st = cuzk_pce_load_or_record(pce_path, c, &pce, tl);
    for (uint64_t k = 0; k < count && !st; k++) {
        span = cuzk_span_begin(tl, "proof");
        if (pce_path) {
            st = cuzk_prove_with_pce(c, seed + k, &pce, &p, &bufs, &proofs[k], tl);
            if (!st) memcpy(inputs + k * ninputs, bufs.w.input + 1, ninputs * sizeof(cuzk_fr));
        } else {
            st = prove_one(c, &p, seed + k, &proofs[k], inputs + k * ninputs, tl);
        }
        cuzk_span_end(tl, span);
    }
    cuzk_prove_buffers_free(&bufs);
    cuzk_pce_free(&pce);
    if (!st) {
        span = cuzk_span_begin(tl, "verify");
        st = cuzk_groth16_verify_batch(&p.vk, proofs, count, inputs, ninputs);
        if (st) cuzk_fail_context(st, "the new proofs do not verify against %s (nothing written)", params);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        for (uint64_t k = 0; k < count; k++)
            cuzk_groth16_proof_encode(bytes + k * CUZK_GROTH16_PROOF_BYTES, &proofs[k]);
        st = cuzk_write_file_atomic(proof, bytes, count * CUZK_GROTH16_PROOF_BYTES);
        if (!st) st = cuzk_inputs_json_write(inputs_path, inputs, count, ninputs, false);
    }
    if (!st) {
        fprintf(stderr, "%s: %llu proof(s) written to %s, inputs to %s\n", circuit, (unsigned long long)count, proof,
                inputs_path);
        if (!quiet) cuzk_timeline_print(tl, stderr);
    }
    rc = st ? cli_error("prove") : 0;
    free(proofs);
    free(inputs);
    free(bytes);
    cuzk_groth16_params_free(&p);
    cuzk_timeline_destroy(tl);
    cuzk_circuit_free(c);
    return rc;
}
