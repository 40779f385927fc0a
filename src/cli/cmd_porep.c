/* cuzk prove porep / cuzk verify porep: PoRep C2 for a C1 output, partition by partition,
 * and its verification against public inputs recomputed from the sector's public data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/engine.h"
#include "cuzk/gpu.h"

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

/* One partition: synthesis (PROVE), a check that synthesis made the recomputed public
 * inputs, and the Groth16 proof. With check, TEST mode first names a failing constraint. */
static cuzk_status prove_partition(const cuzk_porep_shape *shape, const cuzk_c1 *c1, unsigned k,
                                   const cuzk_groth16_params *p, cuzk_gpu_prover *gpu, const cuzk_fr *want_inputs,
                                   size_t ni, bool check, cuzk_groth16_proof *out, cuzk_timeline *tl)
{
    cuzk_cs *cs;
    cuzk_status st;
    if (check) {
        int span = cuzk_span_begin(tl, "check (TEST mode)");
        if ((st = cuzk_cs_create(&cs, CUZK_CS_TEST, true))) return st;
        cuzk_stacked_synthesize(cs, shape, c1, k);
        const char *path = NULL;
        long bad = cs->status ? -1 : cuzk_cs_which_unsatisfied(cs, &path);
        st = cs->status ? cs->status
            : bad >= 0  ? cuzk_fail(CUZK_EVERIFY, "partition %u: constraint %ld is not satisfied: %s", k, bad, path)
                        : CUZK_OK;
        cuzk_cs_destroy(cs);
        cuzk_span_end(tl, span);
        if (st) return st;
    }
    int span = cuzk_span_begin(tl, "synthesize");
    if ((st = cuzk_cs_create(&cs, CUZK_CS_PROVE, true))) return st;
    cuzk_stacked_synthesize(cs, shape, c1, k);
    cuzk_prove_result pr;
    st = cuzk_cs_finish_prove(cs, &pr);
    cuzk_cs_destroy(cs);
    cuzk_span_end(tl, span);
    if (st) return st;
    if (pr.num_inputs != ni + 1 || memcmp(pr.input + 1, want_inputs, ni * sizeof(cuzk_fr)))
        st = cuzk_fail(CUZK_EINTERNAL, "partition %u: the circuit's public inputs differ from the recomputed ones", k);
    cuzk_groth16_witness w = cuzk_groth16_witness_of(&pr);
    if (!st) st = cuzk_groth16_check_shape(p, &w);
    if (st == CUZK_EINVAL) cuzk_fail_context(st, "the parameters do not fit a %s partition", c1->info->name);
    if (!st) st = gpu ? cuzk_gpu_prove(gpu, out, &w, NULL, NULL, tl) : cuzk_groth16_prove(out, p, &w, NULL, NULL, tl);
    cuzk_prove_result_free(&pr);
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

/* Partition k of the C1 as a circuit, for the pipeline. */
static cuzk_status open_partition(void *ctx, unsigned k, cuzk_circuit **out)
{
    return cuzk_porep_circuit_open(out, ctx, k);
}

int cli_prove_porep(int argc, char **argv)
{
    const char *c1_path = NULL, *params_path = NULL, *out_path = NULL, *vk_path = NULL, *inputs_path = NULL,
               *threads = NULL, *pce_path = NULL;
    bool check = false, quiet = false, use_gpu = false, done;
    cli_opt opts[] = {
        {"pce", "FILE",
         "precompiled circuit: parallel witness + matrices instead of PROVE synthesis (recorded and "
         "saved there on first use)",
         &pce_path, NULL},
        {"c1", "FILE", "C1 output: SealCommitPhase1Output JSON, or lotus-bench/curio's base64 wrapper", &c1_path, NULL},
        {"params", "FILE", "Groth16 parameters of the proof type (official .params or cuzk setup)", &params_path, NULL},
        {"out", "PROOF", "where to write the proofs (192 bytes per partition, in order)", &out_path, NULL},
        {"vk", "FILE", "verifying key to check the proofs with before writing (default: the parameters' own)", &vk_path,
         NULL},
        {"inputs", "FILE", "also write the partitions' public inputs (JSON, an array per partition)", &inputs_path,
         NULL},
        {"check", NULL, "run TEST mode first and name the first unsatisfied constraint", NULL, &check},
        {"gpu", NULL,
         "prove on the GPU (parameters uploaded once); with --pce the precompiled circuit is "
         "uploaded too, a, b, c are computed on the GPU and the next partition's witness is made "
         "on the CPU meanwhile",
         NULL, &use_gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv, "cuzk prove porep --c1 FILE --params FILE --out PROOF [--vk FILE] [--inputs FILE]",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!c1_path) return cli_missing("prove porep", "c1");
    if (!params_path) return cli_missing("prove porep", "params");
    if (!out_path) return cli_missing("prove porep", "out");
    if (cli_threads("prove porep", threads)) return 2;

    cuzk_timeline *tl = cuzk_timeline_create("prove porep");
    cuzk_c1 *c1 = NULL;
    cuzk_groth16_params p = {0};
    cuzk_groth16_vk vk = {0};
    cuzk_groth16_proof *proofs = NULL;
    cuzk_fr *inputs = NULL;
    size_t nparts = 0, ni = 0;
    cuzk_porep_shape shape;
    int span = cuzk_span_begin(tl, "read c1");
    cuzk_status st = cuzk_c1_parse_file(&c1, c1_path, NULL);
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "check vanilla proofs");
        st = cuzk_c1_verify(c1, NULL, 0);
        if (st) cuzk_fail_context(st, "%s", c1_path);
        cuzk_span_end(tl, span);
        if (st && check) st = pinpoint(c1, st); /* --check: also name the constraint it breaks */
    }
    if (!st) st = cuzk_porep_shape_for_proof(&shape, c1->proof);
    if (!st) st = recompute_inputs(c1->proof, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, &inputs, &nparts, &ni);
    if (!st && nparts != c1->partitions)
        st = cuzk_fail(CUZK_EINVAL, "%s: %u partitions, a %s proof has %zu", c1_path, c1->partitions, c1->info->name,
                       nparts);
    if (!st) {
        span = cuzk_span_begin(tl, "read params");
        st = cuzk_groth16_params_read(&p, params_path, CUZK_PARAMS_UNCHECKED);
        cuzk_span_end(tl, span);
    }
    if (!st && p.vk.ic_len != ni + 1)
        st = cuzk_fail(CUZK_EINVAL,
                       "%s: parameters for %zu public inputs, but a %s partition has %zu (wrong sector size "
                       "or proof type for these parameters?)",
                       params_path, p.vk.ic_len ? p.vk.ic_len - 1 : 0, c1->info->name, ni);
    if (!st && vk_path) st = cuzk_groth16_vk_read(&vk, vk_path);
    if (!st && !(proofs = calloc(nparts, sizeof *proofs))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_pce pce = {0};
    cuzk_gpu_prover *gpu = NULL;
    cuzk_gpu_device *dev = NULL;
    if (!st && use_gpu) {
        span = cuzk_span_begin(tl, "upload params to the GPU");
        st = cli_gpu_open(&dev);
        if (!st) st = cuzk_gpu_prover_create(dev, &gpu, &p);
        cuzk_span_end(tl, span);
    }
    if (!st && pce_path && !check) {
        cuzk_circuit *c0;
        st = cuzk_porep_circuit_open(&c0, c1, 0);
        if (!st) {
            st = cuzk_pce_load_or_record(pce_path, c0, &pce, tl);
            cuzk_circuit_free(c0);
        }
        cuzk_fr *made = st ? NULL : calloc((size_t)nparts * ni + 1, sizeof *made);
        if (!st && !made) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        if (!st) st = cuzk_prove_partitions(nparts, open_partition, c1, &pce, &p, gpu, proofs, made, ni, tl);
        if (st == CUZK_EINVAL) cuzk_fail_context(st, "the parameters do not fit a %s partition", c1->info->name);
        if (!st && memcmp(made, inputs, (size_t)nparts * ni * sizeof(cuzk_fr)))
            st = cuzk_fail(CUZK_EINTERNAL, "the circuit's public inputs differ from the recomputed ones");
        free(made);
    } else {
        for (unsigned k = 0; k < nparts && !st; k++) {
            char name[32];
            snprintf(name, sizeof name, "partition %u", k);
            span = cuzk_span_begin(tl, name);
            st = prove_partition(&shape, c1, k, &p, gpu, inputs + k * ni, ni, check, &proofs[k], tl);
            cuzk_span_end(tl, span);
        }
    }
    cuzk_gpu_prover_destroy(gpu);
    cuzk_gpu_device_close(dev);
    cuzk_pce_free(&pce);
    if (!st) {
        span = cuzk_span_begin(tl, "verify");
        st = cuzk_groth16_verify_batch(vk_path ? &vk : &p.vk, proofs, nparts, inputs, ni);
        if (st)
            cuzk_fail_context(st, "the proofs do not verify against %s (nothing written)",
                              vk_path ? vk_path : params_path);
        cuzk_span_end(tl, span);
    }
    if (!st) {
        uint8_t *bytes = calloc(nparts, CUZK_GROTH16_PROOF_BYTES);
        if (!bytes) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (size_t k = 0; k < nparts && bytes; k++)
            cuzk_groth16_proof_encode(bytes + k * CUZK_GROTH16_PROOF_BYTES, &proofs[k]);
        if (!st) st = cuzk_write_file_atomic(out_path, bytes, nparts * CUZK_GROTH16_PROOF_BYTES);
        if (!st && inputs_path) st = cuzk_inputs_json_write(inputs_path, inputs, nparts, ni, true);
        free(bytes);
    }
    if (!st) {
        fprintf(stderr, "%s: %zu partition proof(s) written to %s\n", c1->info->name, nparts, out_path);
        if (!quiet) cuzk_timeline_print(tl, stderr);
    }
    rc = st ? cli_error("prove porep") : 0;
    free(proofs);
    free(inputs);
    cuzk_groth16_vk_free(&vk);
    cuzk_groth16_params_free(&p);
    cuzk_c1_free(c1);
    cuzk_timeline_destroy(tl);
    return rc;
}

int cli_verify_porep(int argc, char **argv)
{
    const char *c1_path = NULL, *public_path = NULL, *vk_path = NULL, *proof_path = NULL, *inputs_path = NULL;
    bool done;
    cli_opt opts[] = {
        {"c1", "FILE", "take the public data (replica id, comm_d, comm_r, seed) from a C1 output", &c1_path, NULL},
        {"public", "JSON", "take it from sector.json (prover id, sector id, ticket, seed, comm_d, comm_r)",
         &public_path, NULL},
        {"vk", "FILE", "verifying key", &vk_path, NULL},
        {"proof", "FILE", "the partition proofs (192 bytes each)", &proof_path, NULL},
        {"inputs", "FILE", "the partitions' public inputs (JSON); with --c1 or --public they must agree", &inputs_path,
         NULL},
    };
    int rc = cli_parse(argc, argv, "cuzk verify porep --c1 FILE | --public JSON | --inputs FILE --vk FILE --proof FILE",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
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
        st = cuzk_c1_parse_file(&c1, c1_path, NULL);
        if (!st) {
            st = recompute_inputs(c1->proof, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, &inputs, &np, &ni);
            cuzk_c1_free(c1);
        }
    } else if (public_path) {
        sector_public s;
        st = sector_public_read(public_path, &s);
        if (!st) st = recompute_inputs(s.proof, s.replica_id, s.comm_d, s.comm_r, s.seed, &inputs, &np, &ni);
    }
    if (!st && inputs_path) {
        st = cuzk_inputs_json_read(inputs_path, &given, &gp, &gi);
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
    if (!st) st = cuzk_groth16_verify_batch(&vk, proofs, np, inputs, ni);
    if (st == CUZK_EVERIFY) {
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
