/* cuzk bench gpu-prove --circuit NAME --pce FILE [--partitions K]: partitions of a real
 * circuit's shape proved on the GPU through its resident precompiled circuit. The witness
 * is made on the CPU (porep:SIZE is fed synthetic vanilla data, as in bench synth
 * --synthetic), a, b, c by the device SpMV; the parameters are synthetic, generated on the
 * device to the circuit's shape (no trapdoor is known, so the proofs are timed, not
 * verified). First single proofs (stage times), then K partitions through the pipeline that
 * makes the next witness while the current partition is proved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/gpu.h"
#include "cuzk/testcircuits.h"

typedef struct {
    const char *name;
    cuzk_c1 *c1; /* synthetic vanilla data for porep:SIZE, else NULL */
} circuit_src;

static cuzk_status open_circuit(void *ctx, unsigned k, cuzk_circuit **out)
{
    const circuit_src *src = ctx;
    (void)k; /* every partition has the same shape; timing only */
    return src->c1 ? cuzk_porep_circuit_open(out, src->c1, 0) : cuzk_circuit_open(out, src->name);
}

int cli_bench_gpu_prove_circuit(const char *name, const char *pce_path, unsigned partitions, int reps, int json)
{
    const char *me = "cuzk bench gpu-prove";
    circuit_src src = {name, NULL};
    cuzk_circuit *c = NULL;
    cuzk_pce pce = {0};
    cuzk_prove_buffers b;
    memset(&b, 0, sizeof b);
    cuzk_gpu_device *dev = NULL;
    cuzk_gpu_prover *pr = NULL;
    cuzk_gpu_pce *gpce = NULL;
    cuzk_groth16_proof *proofs = NULL;
    cuzk_fr *inputs = NULL;
    cuzk_timeline *setup = cuzk_timeline_create("setup"), *keep = NULL;
    int rc = 1;
    bool pinned = false;
    double t_witness = 0, t_pin = 0, t_params = 0, t_upload = 0, t_pipeline = 0, times[3] = {0, 0, 0};

    cuzk_status st =
        !strncmp(name, "porep:", 6) ? cuzk_porep_synthetic_open(&c, &src.c1, name, 1) : cuzk_circuit_open(&c, name);
    if (!st) st = cuzk_pce_load_or_record(pce_path, c, &pce, setup);
    if (!st) st = cli_gpu_open(&dev);
    if (st) goto out;
    const size_t ni = pce.num_inputs, na = pce.num_aux, n = pce.num_constraints + ni;
    const unsigned lg = cuzk_log2_ceil(n);
    cuzk_gpu_synthetic_shape sh = {
        ((size_t)1 << lg) - 1, na, ni + pce.a_aux.popcount, pce.b_input.popcount + pce.b_aux.popcount, ni, 5};

    /* the single proofs' witness, in page-locked memory */
    double t0 = cuzk_now();
    if ((st = cuzk_prove_buffers_reserve(&b, &pce, false))) goto out;
    if ((st = cuzk_gpu_host_register(b.w.input, b.w.input_cap * sizeof(cuzk_fr)))) goto out;
    if ((st = cuzk_gpu_host_register(b.w.aux, b.w.aux_cap * sizeof(cuzk_fr)))) {
        cuzk_gpu_host_unregister(b.w.input);
        goto out;
    }
    pinned = true;
    t_pin = cuzk_now() - t0;
    t0 = cuzk_now();
    st = cuzk_prove_buffers_fill_witness(&b, c, 0, &pce, NULL, "");
    t_witness = cuzk_now() - t0;
    t0 = cuzk_now();
    if (!st) st = cuzk_gpu_prover_create_synthetic(dev, &pr, &sh);
    t_params = cuzk_now() - t0;
    t0 = cuzk_now();
    if (!st) st = cuzk_gpu_pce_create(dev, &gpce, &pce);
    t_upload = cuzk_now() - t0;

    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, 3);
    cuzk_fr_from_u64(&s, 4);
    cuzk_groth16_proof pf;
    double best = 1e30;
    for (int i = 0; i < reps && !st; i++) {
        cuzk_timeline *tl = cuzk_timeline_create("gpu-prove (one partition, witness ready)");
        double t1 = cuzk_now();
        st = cuzk_gpu_prove_pce(pr, gpce, &pf, b.w.input, ni, b.w.aux, na, &r, &s, tl);
        times[i] = cuzk_now() - t1;
        if (!st && i > 0 && times[i] < best) {
            best = times[i];
            cuzk_timeline_destroy(keep);
            keep = tl;
        } else {
            cuzk_timeline_destroy(tl);
        }
    }
    /* device memory in use with everything resident; then the pipeline uploads the circuit
     * itself, so this copy goes first */
    size_t free1 = 0, total = 0, pce_bytes = cuzk_gpu_pce_bytes(gpce);
    if (!st) st = cuzk_gpu_mem_info(dev, &free1, &total);
    cuzk_gpu_pce_destroy(gpce);
    gpce = NULL;

    cuzk_timeline *ptl = NULL;
    if (!st && partitions) {
        proofs = calloc(partitions, sizeof *proofs);
        inputs = calloc((size_t)partitions * ni + 1, sizeof *inputs);
        ptl = cuzk_timeline_create("partitions through the pipeline");
        t0 = cuzk_now();
        if (!proofs || !inputs) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        else st = cuzk_prove_partitions(partitions, open_circuit, &src, &pce, NULL, pr, proofs, inputs, ni - 1, ptl);
        t_pipeline = cuzk_now() - t0;
    }
    if (st) {
        cuzk_timeline_destroy(ptl);
        goto out;
    }
    size_t dev_used = total - free1;
    long hwm = cli_rss_kib("VmHWM:");
    char devname[256];
    cuzk_gpu_describe(dev, devname, sizeof devname);
    if (json) {
        printf("{\"bench\":\"gpu-prove\",\"circuit\":\"%s\",\"log2\":%u,\"n\":%zu,\"num_aux\":%zu,\"num_inputs\":%zu,"
               "\"b_points\":%zu,\"first_s\":%.4f,\"best_s\":%.4f,\"witness_s\":%.4f,\"params_generation_s\":%.3f,"
               "\"pce_upload_s\":%.3f,\"partitions\":%u,\"pipeline_s\":%.4f,\"device_bytes_used\":%zu,"
               "\"pce_device_bytes\":%zu,\"peak_rss_kib\":%ld,\"device\":\"%s\",\"timeline\":",
               name, lg, n, na, ni, sh.n_b, times[0], best, t_witness, t_params, t_upload, partitions, t_pipeline,
               dev_used, pce_bytes, hwm, devname);
        cuzk_timeline_print_json(keep, stdout);
        printf("}\n");
    } else {
        printf("device: %s\n", devname);
        printf(
            "circuit %s: domain 2^%u, %zu constraints + %zu inputs, %zu aux, A %zu, B %zu points; terms %zu/%zu/%zu\n",
            name, lg, pce.num_constraints, ni, na, sh.n_a, sh.n_b, pce.nnz[0], pce.nnz[1], pce.nnz[2]);
        cuzk_timeline_print(setup, stdout);
        printf("witness (CPU, %u threads) %.3f s; page-locking it %.2f s; synthetic parameters on the device %.2f s; "
               "precompiled circuit uploaded in %.2f s\n",
               cuzk_threads(), t_witness, t_pin, t_params, t_upload);
        cuzk_timeline_print(keep, stdout);
        if (ptl) cuzk_timeline_print(ptl, stdout);
        printf("%-14s %8s %8s %11s %12s %16s %16s %13s\n", "circuit", "first s", "best s", "partitions", "s/partition",
               "device GiB used", "of it circuit", "peak RSS GiB");
        printf("%-14s %8.3f %8.3f %11u %12.3f %16.2f %16.2f %13.2f\n", name, times[0], best, partitions,
               partitions ? t_pipeline / partitions : 0.0, (double)dev_used / (1 << 30), (double)pce_bytes / (1 << 30),
               (double)hwm / (1 << 20));
    }
    cuzk_timeline_destroy(ptl);
    rc = 0;
out:
    if (rc) fprintf(stderr, "%s: %s\n", me, cuzk_last_error());
    if (pinned) {
        cuzk_gpu_host_unregister(b.w.input);
        cuzk_gpu_host_unregister(b.w.aux);
    }
    cuzk_timeline_destroy(keep);
    cuzk_timeline_destroy(setup);
    free(proofs);
    free(inputs);
    cuzk_gpu_pce_destroy(gpce);
    cuzk_gpu_prover_destroy(pr);
    cuzk_gpu_device_close(dev);
    cuzk_prove_buffers_free(&b);
    cuzk_pce_free(&pce);
    cuzk_circuit_free(c);
    cuzk_c1_free(src.c1);
    return rc;
}
