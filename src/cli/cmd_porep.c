/* cuzk prove porep / cuzk verify porep: PoRep C2 for a C1 output, partition by partition,
 * and its verification against public inputs recomputed from the sector's public data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/hints.h"
#include "cli/outputs.h"
#include "cli/progress_term.h"
#include "cli/settings.h"
#include "cli/sector_json.h"
#include "cli/trace_out.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/engine.h"

/* Public inputs of every partition, recomputed natively: out[partitions * ninputs]. */
static cuzk_status recompute_inputs(cuzk_seal_proof proof, const uint8_t replica_id[32], const uint8_t comm_d[32],
                                    const uint8_t comm_r[32], const uint8_t seed[32], cuzk_fr **out, size_t *nparts,
                                    size_t *ninputs)
{
    const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get(proof);
    if (!info) return CUZK_EINVAL;
    size_t ni = cuzk_seal_proof_num_inputs(proof);
    cuzk_fr *v = calloc((size_t)info->partitions * ni, sizeof *v);
    if (!v) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (unsigned k = 0; k < info->partitions; k++) {
        cuzk_status st = cuzk_porep_public_inputs(v + k * ni, ni, proof, replica_id, comm_d, comm_r, seed, k);
        if (st) {
            free(v);
            return st;
        }
    }
    *out = v;
    *nparts = info->partitions;
    *ninputs = ni;
    return CUZK_OK;
}

/* --check: each partition in TEST mode, naming the first unsatisfied constraint. */
static cuzk_status check_partitions(const cuzk_c1 *c1)
{
    cuzk_porep_shape shape;
    cuzk_status st = cuzk_porep_shape_for_proof(&shape, c1->proof);
    for (unsigned k = 0; k < c1->partitions && !st; k++) {
        cuzk_cs *cs;
        if ((st = cuzk_cs_create(&cs, CUZK_CS_TEST, true))) return st;
        cuzk_stacked_synthesize(cs, &shape, c1, k);
        const char *path = NULL;
        long bad = cs->status ? -1 : cuzk_cs_which_unsatisfied(cs, &path);
        st = cs->status ? cs->status
            : bad >= 0  ? cuzk_fail(CUZK_EVERIFY, "partition %u: constraint %ld is not satisfied: %s", k, bad, path)
                        : CUZK_OK;
        cuzk_cs_destroy(cs);
    }
    return st;
}

/* For --check on a C1 whose vanilla proofs fail: runs each partition in TEST mode and adds the
 * first unsatisfied constraint's path to the message. Returns st. */
static cuzk_status pinpoint(const cuzk_c1 *c1, cuzk_status st)
{
    char vanilla[1024];
    snprintf(vanilla, sizeof vanilla, "%s", cuzk_last_error());
    cuzk_porep_shape shape;
    if (cuzk_porep_shape_for_proof(&shape, c1->proof)) return cuzk_fail(st, "%s", vanilla);
    for (unsigned k = 0; k < c1->partitions; k++) {
        cuzk_cs *cs;
        if (cuzk_cs_create(&cs, CUZK_CS_TEST, true)) break;
        cuzk_stacked_synthesize(cs, &shape, c1, k);
        const char *path = NULL;
        long bad = cs->status ? -1 : cuzk_cs_which_unsatisfied(cs, &path);
        if (bad >= 0) {
            st = cuzk_fail(st, "%s; in the circuit, partition %u constraint %ld is not satisfied: %s", vanilla, k, bad,
                           path);
            cuzk_cs_destroy(cs);
            return st;
        }
        cuzk_cs_destroy(cs);
    }
    return cuzk_fail(st, "%s", vanilla);
}

int cli_prove_porep(int argc, char **argv)
{
    const char *c1_path = NULL, *params_path = NULL, *out_path = NULL, *vk_path = NULL, *inputs_path = NULL,
               *threads = NULL, *pce_path = NULL, *trace = NULL;
    bool check = false, quiet = false, use_gpu = false, done;
    cli_opt opts[] = {
        {"pce", "FILE", "keep the precompiled circuit there (recorded on first use; default: in memory)", &pce_path,
         NULL},
        {"c1", "FILE",
         "C1 output (required): SealCommitPhase1Output JSON (cuzk seal's c1.json), or lotus-bench/curio's base64 "
         "wrapper",
         &c1_path, NULL},
        {"params", "FILE", "Groth16 parameters of the C1's proof type (required): official .params or cuzk setup's",
         &params_path, NULL},
        {"out", "PROOF", "where to write the proofs (required; 192 bytes per partition, in order)", &out_path, NULL},
        {"vk", "FILE", "verifying key to check the proofs with before writing (default: the parameters' own)", &vk_path,
         NULL},
        {"inputs", "FILE",
         "also write the partitions' public inputs (JSON, an array per partition; default: not written)", &inputs_path,
         NULL},
        {"check", NULL, "run TEST mode first and name the first unsatisfied constraint (default: off)", NULL, &check},
        {"gpu", NULL,
         "prove on the GPUs of a CUDA build (parameters and the precompiled circuit resident there; the next "
         "partition's witness is made on the CPU meanwhile; default: the CPU)",
         NULL, &use_gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"trace", "FILE",
         "write the job's timeline there as a trace (Chrome trace event format: Perfetto, chrome://tracing; "
         "default: none)",
         &trace, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk prove porep --c1 FILE --params FILE --out PROOF [--vk FILE] [--inputs FILE] [options]\n\n"
                       "PoRep Commit2: the Groth16 proofs of every partition of a C1 output (what lotus and curio's\n"
                       "Commit1 writes; cuzk seal makes test ones). The vanilla proofs are checked first, and every\n"
                       "proof is verified before anything is written.\n\n"
                       "examples:\n"
                       "  cuzk seal --sector-size 2KiB --out s\n"
                       "  cuzk setup --circuit porep:2KiB --params porep-2KiB.params --vk porep-2KiB.vk\n"
                       "  cuzk prove porep --c1 s/c1.json --params porep-2KiB.params --out s.proof",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!c1_path) return cli_missing("prove porep", "c1");
    if (!params_path) return cli_missing("prove porep", "params");
    if (!out_path) return cli_missing("prove porep", "out");
    if (cli_threads("prove porep", threads)) return 2;

    /* the outputs, and the key's shape below, are checked before any work */
    cli_outputs *outs = cli_outputs_new();
    if (!outs) return cli_error("prove porep");
    cli_outputs_input(outs, "c1", c1_path);
    cli_outputs_input(outs, "params", params_path);
    cli_outputs_input(outs, "vk", vk_path);
    cli_outputs_cache(outs, "pce", pce_path);
    int out_proof = cli_outputs_add(outs, "out", out_path);
    int out_inputs = inputs_path ? cli_outputs_add(outs, "inputs", inputs_path) : -1;
    cuzk_mapped_file f = {0};
    cuzk_c1 *c1 = NULL;
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    cli_trace tr;
    cuzk_status st = cli_trace_begin(&tr, trace, outs);
    if (!st) st = cli_outputs_check(outs);
    if (!st) st = cuzk_map_file(&f, c1_path);
    /* the circuit is known from the C1's registered proof; --check's TEST pass runs here, the
     * vanilla checks run in the engine */
    if (!st) st = cuzk_c1_parse_any(&c1, f.data, f.size, NULL, NULL);
    if (st) st = cli_c1_hint(cuzk_fail_context(st, "%s", c1_path), c1_path);
    /* a key file of the wrong kind or parameters of another sector size are named at once */
    if (!st) st = cli_check_key_kind("vk", vk_path, CUZK_KEY_VK);
    if (!st && check) {
        st = cuzk_c1_verify(c1, NULL, 0);
        if (st) st = pinpoint(c1, st);
        else st = check_partitions(c1);
        if (st) cuzk_fail_context(st, "%s", c1_path);
    }
    if (!st && vk_path) st = cli_check_vk(vk_path, cuzk_seal_proof_num_inputs(c1->proof), c1->info->name);
    if (!st) st = cli_check_porep_params(params_path, c1);
    char id[64] = "";
    if (!st) cuzk_porep_circuit_id(id, (uint64_t)c1->proof);
    if (!st) st = cli_engine_create_progress(&e, use_gpu, NULL, cli_progress(quiet, false));
    if (!st) st = cuzk_engine_set_files(e, id, params_path, vk_path, pce_path);
    uint64_t job = 0;
    cuzk_job_request req = {.kind = CUZK_KIND_POREP, .input = f.data, .input_len = f.size};
    if (!st) st = cuzk_engine_submit(e, &req, &job, NULL);
    if (!st) st = cuzk_engine_await(e, job, -1, &r);
    if (!st) st = cli_trace_end(&tr, e, &job, 1, "cuzk prove porep"); /* a failed job's too */
    if (!st && r.state != CUZK_JOB_COMPLETED)
        st = cuzk_fail(CUZK_EVERIFY, "%s: %s (nothing written)", c1_path, r.error);
    if (!st) st = cli_outputs_write(outs, out_proof, r.proof, r.proof_len);
    if (!st && inputs_path) st = cli_outputs_write_inputs(outs, out_inputs, r.inputs, r.partitions, r.ninputs, true);
    if (!st) st = cli_outputs_commit(outs);
    if (!st) {
        fprintf(stderr, "%s: %u partition proof(s) written to %s\n", c1->info->name, r.partitions, out_path);
        if (!quiet) cli_print_timeline_json("prove porep", r.timeline_json, stderr);
    }
    rc = st ? cli_error("prove porep") : 0;
    cli_trace_free(&tr);
    cli_outputs_free(outs);
    cuzk_job_result_free(&r);
    cuzk_engine_destroy(e);
    cuzk_c1_free(c1);
    cuzk_unmap_file(&f);
    return rc;
}

/* --vanilla-only: the C1's vanilla proofs checked natively (paths, columns, labels, encodings,
 * challenges, comm_r), no Groth16 proof or key needed; with sector.json its public data must
 * be the C1's and the replica id is recomputed from prover id, sector id, ticket and comm_d. */
static int verify_vanilla_only(const char *c1_path, const char *public_path)
{
    cuzk_c1 *c1 = NULL;
    sector_public s;
    memset(&s, 0, sizeof s);
    double t0 = cuzk_now();
    cuzk_status st = cli_c1_hint(cuzk_c1_parse_file(&c1, c1_path, NULL), c1_path);
    if (!st && public_path) {
        st = cli_public_hint(sector_public_read(public_path, &s), public_path);
        const char *differs = st                       ? NULL
            : s.proof != c1->proof                     ? "registered_proof"
            : memcmp(s.comm_d, c1->comm_d, 32)         ? "comm_d"
            : memcmp(s.comm_r, c1->comm_r, 32)         ? "comm_r"
            : memcmp(s.seed, c1->seed, 32)             ? "seed"
            : memcmp(s.ticket, c1->ticket, 32)         ? "ticket"
            : memcmp(s.replica_id, c1->replica_id, 32) ? "replica_id"
                                                       : NULL;
        if (differs) st = cuzk_fail(CUZK_EVERIFY, "%s and %s differ in %s", public_path, c1_path, differs);
    }
    if (!st) {
        st = cuzk_c1_verify(c1, public_path ? s.prover_id : NULL, public_path ? s.sector_id : 0);
        if (st) cuzk_fail_context(st, "%s", c1_path);
    }
    int rc;
    if (st == CUZK_EVERIFY) {
        printf("FAILED: %s\n", cuzk_last_error());
        rc = 1;
    } else if (st) {
        rc = cli_error("verify porep");
    } else {
        printf("OK: the vanilla proofs of %u partition(s) of %u challenges hold (%s%s), checked in %.3f s\n",
               c1->partitions, c1->challenges_per_partition, c1->info->name,
               public_path ? ", replica id from sector.json" : "", cuzk_now() - t0);
        rc = 0;
    }
    cuzk_c1_free(c1);
    return rc;
}

int cli_verify_porep(int argc, char **argv)
{
    const char *c1_path = NULL, *public_path = NULL, *vk_path = NULL, *proof_path = NULL, *inputs_path = NULL;
    bool vanilla_only = false, done;
    cli_opt opts[] = {
        {"c1", "FILE", "take the public data (replica id, comm_d, comm_r, seed) from a C1 output (c1.json)", &c1_path,
         NULL},
        {"public", "JSON", "take it from sector.json (prover id, sector id, ticket, seed, comm_d, comm_r)",
         &public_path, NULL},
        {"vk", "FILE", "verifying key of the proof type (required unless --vanilla-only)", &vk_path, NULL},
        {"proof", "FILE", "the partition proofs, 192 bytes each (required unless --vanilla-only)", &proof_path, NULL},
        {"inputs", "FILE", "the partitions' public inputs (JSON); with --c1 or --public they must agree", &inputs_path,
         NULL},
        {"vanilla-only", NULL,
         "check the C1's vanilla proofs natively, no --vk or --proof (with --public: against sector.json; default: "
         "off)",
         NULL, &vanilla_only},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk verify porep (--c1 FILE | --public JSON | --inputs FILE) --vk FILE --proof FILE\n"
                       "       cuzk verify porep --c1 FILE [--public JSON] --vanilla-only\n\n"
                       "Verifies PoRep C2 proofs (cuzk prove porep's) against public inputs recomputed from the\n"
                       "sector's public data: a C1 output, or the sector.json cuzk seal writes beside it, or given as\n"
                       "JSON. Exit status 0 only when every partition's proof verifies. --vanilla-only checks the\n"
                       "C1's vanilla proofs instead, with no key or proof.\n\n"
                       "examples:\n"
                       "  cuzk verify porep --c1 s/c1.json --vk porep-2KiB.vk --proof s.proof\n"
                       "  cuzk verify porep --public s/sector.json --vk porep-2KiB.vk --proof s.proof\n"
                       "  cuzk verify porep --c1 s/c1.json --vanilla-only",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (vanilla_only) {
        if (!c1_path) return cli_missing("verify porep --vanilla-only", "c1");
        if (vk_path || proof_path || inputs_path) {
            fprintf(stderr,
                    "cuzk verify porep: --vanilla-only checks no Groth16 proof: drop --vk, --proof and "
                    "--inputs\n");
            return 2;
        }
        return verify_vanilla_only(c1_path, public_path);
    }
    if (!vk_path) return cli_missing("verify porep", "vk");
    if (!proof_path) return cli_missing("verify porep", "proof");
    if (!c1_path && !public_path && !inputs_path) return cli_missing("verify porep", "c1, --public or --inputs");
    if (c1_path && public_path) {
        fprintf(stderr, "cuzk verify porep: give --c1 or --public, not both\n");
        return 2;
    }
    cuzk_fr *inputs = NULL, *given = NULL;
    size_t np = 0, ni = 0, gp = 0, gi = 0;
    cuzk_status st = CUZK_OK;
    if (c1_path) {
        cuzk_c1 *c1;
        st = cli_c1_hint(cuzk_c1_parse_file(&c1, c1_path, NULL), c1_path);
        if (!st) {
            st = recompute_inputs(c1->proof, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, &inputs, &np, &ni);
            cuzk_c1_free(c1);
        }
    } else if (public_path) {
        sector_public s;
        st = cli_input_check("public", public_path, CLI_SMALL_JSON_MAX);
        if (!st) st = cli_public_hint(sector_public_read(public_path, &s), public_path);
        if (!st) st = recompute_inputs(s.proof, s.replica_id, s.comm_d, s.comm_r, s.seed, &inputs, &np, &ni);
    }
    if (!st && inputs_path) {
        uint64_t inputs_max = inputs ? cli_inputs_json_max(np, ni) : CLI_INPUTS_JSON_ANY;
        st = cli_input_check("inputs", inputs_path, inputs_max);
        if (!st) st = cuzk_inputs_json_read(inputs_path, inputs_max, &given, &gp, &gi);
        if (!st && inputs && (gp != np || gi != ni || memcmp(given, inputs, np * ni * sizeof(cuzk_fr))))
            st = cuzk_fail(CUZK_EVERIFY, "%s: the public inputs differ from the ones recomputed from %s", inputs_path,
                           c1_path ? c1_path : public_path);
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
        printf("FAILED: the PoRep proof does not verify\n");
        rc = 1;
    } else if (st) {
        rc = cli_error("verify porep");
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
