/* cuzk prove: proofs of a built-in circuit with its own witness, through an in-process engine
 * (the one proving path: witness, precompiled circuit, prover, batch verification before
 * anything is written). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/hints.h"
#include "cli/outputs.h"
#include "cli/progress_term.h"
#include "cli/settings.h"
#include "cli/trace_out.h"
#include "cli/vanilla_set.h"
#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/testcircuits.h"

cuzk_status cli_open_named(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                           cuzk_circuit **out)
{
    (void)input;
    (void)input_len;
    (void)seed;
    (void)k;
    return cuzk_circuit_open(out, ctx);
}

int cli_prove(int argc, char **argv)
{
    char name[64];
    if (argc > 1 && !strcmp(argv[1], "porep"))
        return cli_prove_porep(argc - 1, cli_subcommand(argv, name, sizeof name));
    cuzk_job_kind vkind;
    if (argc > 1 && vanilla_kind_of(argv[1], &vkind)) {
        const char *what = argv[1];
        return cli_prove_vanilla(what, argc - 1, cli_subcommand(argv, name, sizeof name));
    }
    const char *circuit = NULL, *params = NULL, *proof = NULL, *inputs_path = NULL, *seed_s = NULL, *count_s = NULL,
               *threads = NULL, *pce_path = NULL, *trace = NULL;
    bool checked = false, quiet = false, use_gpu = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (required; cuzk circuit-info --list)", &circuit, NULL},
        {"params", "FILE", "its parameters, from cuzk setup (required; bellperson layout)", &params, NULL},
        {"proof", "OUT.proof", "where to write the proofs (required; 192 bytes each)", &proof, NULL},
        {"inputs", "OUT.json", "where to write the public inputs (required; decimal strings, ONE omitted)",
         &inputs_path, NULL},
        {"seed", "S", "witness seed (default 3); proof k uses S + k", &seed_s, NULL},
        {"count", "K", "make K proofs, back to back in one file (default 1)", &count_s, NULL},
        {"pce", "FILE", "keep the precompiled circuit there (recorded on first use; default: in memory)", &pce_path,
         NULL},
        {"checked", NULL, "subgroup-check every parameter point while reading (default: on-curve checks only)", NULL,
         &checked},
        {"gpu", NULL, "prove on the GPUs of a CUDA build (the [engine] gpus key says how many; default: the CPU)", NULL,
         &use_gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"trace", "FILE",
         "write the job's timeline there as a trace (Chrome trace event format: Perfetto, chrome://tracing; "
         "default: none)",
         &trace, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc =
        cli_parse(argc, argv,
                  "cuzk prove --circuit NAME --params FILE --proof OUT.proof --inputs OUT.json [options]\n"
                  "       cuzk prove porep | window-post | winning-post | snap ...   (cuzk prove porep --help)\n\n"
                  "Proves a built-in circuit with its own witness (from --seed), verifies the proofs and writes\n"
                  "them with their public inputs. The verbs prove Filecoin's proofs: prove porep (PoRep C2) from a\n"
                  "C1 output, prove window-post, winning-post and snap from a folder of vanilla proofs.\n\n"
                  "examples:\n"
                  "  cuzk setup --circuit cubic --params cubic.params --vk cubic.vk\n"
                  "  cuzk prove --circuit cubic --params cubic.params --proof cubic.proof --inputs cubic.json\n"
                  "  cuzk prove porep --c1 s/c1.json --params porep-2KiB.params --out s.proof",
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
    if (count < 1 || count > 100000) {
        fprintf(stderr, "cuzk prove: --count must be from 1 to 100000\n");
        return 2;
    }
    /* the name must open and the outputs be writable before the engine starts (a typo fails at
     * once) */
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("prove");
    cuzk_circuit_free(c);
    if (cli_check_key_kind("params", params, CUZK_KEY_PARAMS)) return cli_error("prove");
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error("prove");
    cli_outputs_input(outs, "params", params);
    cli_outputs_cache(outs, "pce", pce_path);
    int out_proof = cli_outputs_add(outs, "proof", proof), out_inputs = cli_outputs_add(outs, "inputs", inputs_path);
    cli_trace tr;
    if (cli_trace_begin(&tr, trace, outs) || cli_outputs_check(outs)) {
        rc = cli_error("prove");
        cli_trace_free(&tr);
        cli_outputs_free(outs);
        return rc;
    }

    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    cuzk_status st = cli_engine_create_progress(&e, use_gpu, NULL, cli_progress(quiet, false));
    cuzk_engine_circuit reg = {circuit, cli_open_named, (void *)circuit, params, NULL, pce_path, false, checked};
    if (!st) st = cuzk_engine_register_circuit(e, &reg);
    uint64_t id = 0;
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = circuit, .partitions = (unsigned)count, .seed = seed};
    if (!st) st = cuzk_engine_submit(e, &req, &id, NULL);
    if (!st) st = cuzk_engine_await(e, id, -1, &r);
    /* the trace whether the job completed or not: a failed job's is the one to look at */
    if (!st) st = cli_trace_end(&tr, e, &id, 1, "cuzk prove");
    if (!st && r.state != CUZK_JOB_COMPLETED) st = cuzk_fail(CUZK_EVERIFY, "%s (nothing written)", r.error);
    if (!st) st = cli_outputs_write(outs, out_proof, r.proof, r.proof_len);
    if (!st) st = cli_outputs_write_inputs(outs, out_inputs, r.inputs, count, r.ninputs, false);
    if (!st) st = cli_outputs_commit(outs);
    if (!st) {
        fprintf(stderr, "%s: %llu proof(s) written to %s, inputs to %s\n", circuit, (unsigned long long)count, proof,
                inputs_path);
        if (!quiet) cli_print_timeline_json("prove", r.timeline_json, stderr);
    }
    rc = st ? cli_error("prove") : 0;
    cli_trace_free(&tr);
    cli_outputs_free(outs);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    return rc;
}
