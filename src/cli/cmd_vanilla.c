/* cuzk prove / cuzk verify window-post | winning-post | snap: the PoSt and SnapDeals SNARKs of
 * a folder of vanilla proofs as Curio sends them (`cuzk post vanilla`, `cuzk snap encode`),
 * proved through the engine (the same path the daemon's requests take) and verified against
 * public inputs recomputed from the folder. */
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
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/groth16.h"

#define EXAMPLE_RANDOMNESS "0101010101010101010101010101010101010101010101010101010101010101"

/* The help texts of the three kinds. */
static const char *vanilla_about(const char *what, bool prove)
{
    if (!strcmp(what, "snap"))
        return prove ? "The SnapDeals (EmptySectorUpdate) proofs of every partition of a cuzk snap encode folder\n"
                       "(what Curio sends: one bincode PartitionProof per partition, and update.json).\n"
                     : "Verifies SnapDeals proofs against public inputs recomputed from a cuzk snap encode folder\n"
                       "(comm_r_old, comm_r_new, comm_d_new of update.json), or given as JSON.\n";
    if (!strcmp(what, "winning-post"))
        return prove ? "The WinningPoSt proof of a cuzk post vanilla --kind winning folder (what Curio sends: one\n"
                       "bincode vanilla proof of one sector, and post.json).\n"
                     : "Verifies a WinningPoSt proof against public inputs recomputed from a cuzk post vanilla\n"
                       "--kind winning folder (randomness, sectors, comm_r of post.json), or given as JSON.\n";
    return prove ? "The WindowPoSt proof of one partition from a cuzk post vanilla --kind window folder (what\n"
                   "Curio sends: one bincode vanilla proof per sector, and post.json).\n"
                 : "Verifies a WindowPoSt proof against public inputs recomputed from a cuzk post vanilla --kind\n"
                   "window folder (randomness, sectors, comm_r of post.json), or given as JSON.\n";
}

static const char *vanilla_dir(const char *what)
{
    return !strcmp(what, "snap") ? "u" : !strcmp(what, "winning-post") ? "n" : "w";
}

static const char *vanilla_key(const char *what)
{
    return !strcmp(what, "snap") ? "snap-2KiB" : !strcmp(what, "winning-post") ? "winning-2KiB" : "window-2KiB";
}

/* The command lines that make the folder and the parameters. */
static const char *vanilla_example(const char *what)
{
    if (!strcmp(what, "snap"))
        return "  cuzk seal --sector-size 2KiB --out s\n"
               "  cuzk snap encode --sector s --random-data 1 --out u\n"
               "  cuzk setup --circuit snap:2KiB --params snap-2KiB.params --vk snap-2KiB.vk\n";
    if (!strcmp(what, "winning-post"))
        return "  cuzk seal --sector-size 2KiB --out s\n"
               "  cuzk post vanilla --kind winning --sector s --randomness " EXAMPLE_RANDOMNESS " --out n\n"
               "  cuzk setup --circuit winning-post:2KiB --params winning-2KiB.params --vk winning-2KiB.vk\n";
    return "  cuzk seal --sector-size 2KiB --out s\n"
           "  cuzk post vanilla --kind window --sector s --randomness " EXAMPLE_RANDOMNESS " --out w\n"
           "  cuzk setup --circuit window-post:2KiB --params window-2KiB.params --vk window-2KiB.vk\n";
}

int cli_prove_vanilla(const char *what, int argc, char **argv)
{
    char me[64], usage[1536];
    snprintf(me, sizeof me, "prove %s", what);
    snprintf(
        usage, sizeof usage,
        "cuzk prove %s --vanilla DIR --params FILE --out PROOF [--vk FILE] [--inputs FILE] [options]\n\n"
        "%sThe blobs are checked natively first (paths, commitments, challenges), and every proof is\n"
        "verified before anything is written.\n\nexamples:\n%s  cuzk prove %s --vanilla %s --params %s.params --out "
        "%s.proof",
        what, vanilla_about(what, true), vanilla_example(what), what, vanilla_dir(what), vanilla_key(what),
        vanilla_dir(what));
    cuzk_job_kind kind;
    if (!vanilla_kind_of(what, &kind)) return 2;
    const char *dir = NULL, *params_path = NULL, *out_path = NULL, *vk_path = NULL, *inputs_path = NULL,
               *threads = NULL, *pce_path = NULL, *trace = NULL;
    bool quiet = false, use_gpu = false, done;
    cli_opt opts[] = {
        {"vanilla", "DIR", "the vanilla proofs (required): a cuzk post vanilla or cuzk snap encode output folder", &dir,
         NULL},
        {"params", "FILE", "Groth16 parameters of the proof type (required): official .params or cuzk setup's",
         &params_path, NULL},
        {"out", "PROOF", "where to write the proofs (required; 192 bytes per partition, in order)", &out_path, NULL},
        {"vk", "FILE", "verifying key to check the proofs with before writing (default: the parameters' own)", &vk_path,
         NULL},
        {"inputs", "FILE", "also write the public inputs (JSON, an array per partition; default: not written)",
         &inputs_path, NULL},
        {"pce", "FILE", "keep the precompiled circuit there (recorded on first use; default: in memory)", &pce_path,
         NULL},
        {"gpu", NULL,
         "prove on the GPUs of a CUDA build (parameters and the precompiled circuit resident there; default: the CPU)",
         NULL, &use_gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"trace", "FILE",
         "write the job's timeline there as a trace (Chrome trace event format: Perfetto, chrome://tracing; "
         "default: none)",
         &trace, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv, usage, opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!dir) return cli_missing(me, "vanilla");
    if (!params_path) return cli_missing(me, "params");
    if (!out_path) return cli_missing(me, "out");
    if (cli_threads(me, threads)) return 2;

    /* the outputs, and the key's shape below, are checked before any work */
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error(me);
    cli_outputs_input(outs, "params", params_path);
    cli_outputs_input(outs, "vk", vk_path);
    cli_outputs_cache(outs, "pce", pce_path);
    int out_proof = cli_outputs_add(outs, "out", out_path);
    int out_inputs = inputs_path ? cli_outputs_add(outs, "inputs", inputs_path) : -1;
    vanilla_set v;
    memset(&v, 0, sizeof v);
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    cuzk_job_request req;
    char id[64] = "";
    /* the folder's files are read first (they are small), as the inputs outputs must not be */
    cli_trace tr = {NULL, NULL, -1};
    cuzk_status st = vanilla_set_read(&v, kind, dir);
    if (!st) {
        cli_outputs_input(outs, "vanilla", v.descriptor);
        for (size_t i = 0; i < v.n; i++) cli_outputs_input(outs, "vanilla", v.paths[i]);
        st = cli_trace_begin(&tr, trace, outs);
        if (!st) st = cli_outputs_check(outs);
    }
    if (!st) st = cli_check_key_kind("params", params_path, CUZK_KEY_PARAMS);
    if (!st) st = cli_check_key_kind("vk", vk_path, CUZK_KEY_VK);
    if (!st && vk_path)
        st = cli_check_vk(vk_path,
                          kind == CUZK_KIND_SNAP ? cuzk_update_proof_num_inputs((cuzk_update_proof)v.registered_proof)
                                                 : cuzk_post_proof_num_inputs((cuzk_post_proof)v.registered_proof),
                          v.proof_name);
    if (!st) st = cuzk_engine_builtin_id(id, kind, v.registered_proof);
    if (!st) vanilla_set_request(&v, &req);
    if (!st) st = cli_engine_create_progress(&e, use_gpu, NULL, cli_progress(quiet, false));
    if (!st) st = cuzk_engine_set_files(e, id, params_path, vk_path, pce_path);
    uint64_t job = 0;
    if (!st) st = cuzk_engine_submit(e, &req, &job, NULL);
    if (!st) st = cuzk_engine_await(e, job, -1, &r);
    char title[80];
    snprintf(title, sizeof title, "cuzk %s", me);
    if (!st) st = cli_trace_end(&tr, e, &job, 1, title); /* a failed job's too */
    if (!st && r.state != CUZK_JOB_COMPLETED) st = cuzk_fail(CUZK_EVERIFY, "%s: %s (nothing written)", dir, r.error);
    if (!st) st = cli_outputs_write(outs, out_proof, r.proof, r.proof_len);
    if (!st && inputs_path) st = cli_outputs_write_inputs(outs, out_inputs, r.inputs, r.partitions, r.ninputs, true);
    if (!st) st = cli_outputs_commit(outs);
    if (!st) {
        fprintf(stderr, "%s: %u partition proof(s) written to %s\n", v.proof_name, r.partitions, out_path);
        if (!quiet) cli_print_timeline_json(me, r.timeline_json, stderr);
    }
    rc = st ? cli_error(me) : 0;
    cli_trace_free(&tr);
    cli_outputs_free(outs);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    if (v.blobs) vanilla_set_free(&v);
    return rc;
}

int cli_verify_vanilla(const char *what, int argc, char **argv)
{
    char me[64], usage[1536];
    snprintf(me, sizeof me, "verify %s", what);
    snprintf(usage, sizeof usage,
             "cuzk verify %s (--vanilla DIR | --inputs FILE) --vk FILE --proof FILE\n\n%sExit status 0 only when "
             "every partition's proof verifies.\n\nexample:\n  cuzk verify %s --vanilla %s --vk %s.vk --proof %s.proof",
             what, vanilla_about(what, false), what, vanilla_dir(what), vanilla_key(what), vanilla_dir(what));
    cuzk_job_kind kind;
    if (!vanilla_kind_of(what, &kind)) return 2;
    const char *dir = NULL, *vk_path = NULL, *proof_path = NULL, *inputs_path = NULL;
    bool done;
    cli_opt opts[] = {
        {"vanilla", "DIR", "recompute the public inputs from this folder of vanilla proofs", &dir, NULL},
        {"vk", "FILE", "verifying key of the proof type (required)", &vk_path, NULL},
        {"proof", "FILE", "the partition proofs, 192 bytes each (required)", &proof_path, NULL},
        {"inputs", "FILE", "the public inputs (JSON); with --vanilla they must agree", &inputs_path, NULL},
    };
    int rc = cli_parse(argc, argv, usage, opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!vk_path) return cli_missing(me, "vk");
    if (!proof_path) return cli_missing(me, "proof");
    if (!dir && !inputs_path) return cli_missing(me, "vanilla or --inputs");
    cuzk_fr *inputs = NULL, *given = NULL;
    size_t np = 0, ni = 0, gp = 0, gi = 0;
    cuzk_status st = CUZK_OK;
    if (dir) {
        vanilla_set v;
        st = vanilla_set_read(&v, kind, dir);
        if (!st) {
            st = vanilla_set_public_inputs(&v, &inputs, &np, &ni);
            if (st) cuzk_fail_context(st, "%s", dir); /* as prove names the folder */
            vanilla_set_free(&v);
        }
    }
    if (!st && inputs_path) {
        uint64_t inputs_max = inputs ? cli_inputs_json_max(np, ni) : CLI_INPUTS_JSON_ANY;
        st = cli_input_check("inputs", inputs_path, inputs_max);
        if (!st) st = cuzk_inputs_json_read(inputs_path, inputs_max, &given, &gp, &gi);
        if (!st && inputs && (gp != np || gi != ni || memcmp(given, inputs, np * ni * sizeof(cuzk_fr))))
            st = cuzk_fail(CUZK_EVERIFY, "%s: the public inputs differ from the ones recomputed from %s", inputs_path,
                           dir);
        if (!st && !inputs) {
            inputs = given;
            given = NULL;
            np = gp;
            ni = gi;
        }
    }
    cuzk_groth16_vk vk = {0};
    cuzk_mapped_file f = {0};
    cuzk_groth16_proof *proofs = NULL;
    if (!st) st = cli_check_key_kind("vk", vk_path, CUZK_KEY_VK);
    if (!st) st = cuzk_groth16_vk_read(&vk, vk_path);
    if (!st) st = cuzk_map_file(&f, proof_path);
    if (!st && f.size != np * CUZK_GROTH16_PROOF_BYTES)
        st = cuzk_fail(CUZK_EFORMAT, "%s: %zu bytes, but %zu partition proofs of 192 bytes are expected", proof_path,
                       f.size, np);
    if (!st && !(proofs = calloc(np, sizeof *proofs))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t k = 0; k < np && !st; k++) {
        st = cuzk_groth16_proof_decode(&proofs[k], f.data + k * CUZK_GROTH16_PROOF_BYTES);
        if (st) cuzk_fail_context(st, "%s: partition %zu", proof_path, k);
    }
    bool checked_inputs = !st; /* a mismatch found above is a failure of its own, with its reason */
    if (!st) st = cuzk_groth16_verify_batch(&vk, proofs, np, inputs, ni);
    if (st == CUZK_EVERIFY && checked_inputs) {
        printf("FAILED: the %s proof does not verify\n", what);
        rc = 1;
    } else if (st) {
        rc = cli_error(me);
    } else {
        printf("OK: %zu partition proof(s) verify\n", np);
        rc = 0;
    }
    free(proofs);
    free(inputs);
    free(given);
    cuzk_unmap_file(&f);
    cuzk_groth16_vk_free(&vk);
    return rc;
}
