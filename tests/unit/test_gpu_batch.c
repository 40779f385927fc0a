/* The engine's batches on a streamed GPU: with the parameters streamed (forced by the tuning,
 * small chunks), the ready partitions of a job are proved together, one pass over the L, A and
 * B bases serving them all. A job of 8 partitions, each with its own witness (the job's seed +
 * its index) and public inputs: every proof verified by the engine against the key and again
 * here, and the batches counted by the device:
 * - the precompiled circuit on the device, 5 witness buffers: batches of up to 3;
 * - its matrices streamed from host memory for the SpMV (gpu.pce_on_device false), the same;
 * - a, b, c made on the CPU by the witness lanes (gpu.pce_stream false too), the default
 *   buffers (devices + 2, and one a batch may use) and a, b, c buffers: batches of 2, each
 *   a, b, c buffer taken by the next partition once its proof's NTTs have read it;
 * - the circuit on the device, the default buffers, the first partition not held back: every
 *   partition in a batch of 2 (the GPU waits for a partner whose witness is being made);
 * - a, b, c from the CPU with 3 witness buffers: none batched.
 * The first partition is held back a little (the test hook) so that witnesses are waiting when
 * the GPU next looks. Skips (exit 77) where no CUDA device is. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/engine_testing.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/testcircuits.h"
#include "harness.h"
#include "support_named.h"
#include "support_pce.h"
#include "support_result.h"

#define CIRCUIT "random:65536"
#define PARTS 8

/* the first partition waits a little, so that the lanes make the next witnesses meanwhile */
static cuzk_status hold_first(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)ctx;
    (void)job;
    (void)device;
    if (partition == 0) usleep(1500 * 1000);
    return CUZK_OK;
}

/* where a, b, c come from */
enum { ABC_CPU, ABC_DEVICE, ABC_STREAMED };
static const char *const abc_names[] = {"from the CPU", "on the GPU", "on the GPU, the matrices streamed"};

/* One job of PARTS partitions on an engine with `buffers` witness buffers (0: the default), a,
 * b, c as abc says; returns the partitions the GPU proved in batches. */
static uint64_t run_job(const char *params_path, const cuzk_groth16_vk *vk, unsigned buffers, int abc, bool hold)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.gpus = 1;
    cfg.cpu_worker = false;
    cfg.threads = 4;
    cfg.witness_buffers = buffers;
    cuzk_gpu_config g;
    cuzk_gpu_config_default(&g);
    snprintf(g.placement, sizeof g.placement, "streamed");
    g.stream_chunk_log = 12;
    g.pce_on_device = abc == ABC_DEVICE;
    g.pce_stream = abc == ABC_STREAMED;
    cuzk_engine *e = NULL;
    CHECK_OK(cuzk_engine_create(&e, &cfg, &g));
    if (!e) return 0;
    if (hold) cuzk_engine_set_test_hook(e, hold_first, NULL);
    cuzk_engine_circuit c = {
        .id = "batch", .open = named_circuit_open, .ctx = (void *)CIRCUIT, .params_path = params_path};
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = "batch", .partitions = PARTS, .seed = 40};
    uint64_t id = 0;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    CHECK_OK(cuzk_engine_submit(e, &req, &id, NULL));
    CHECK_OK(cuzk_engine_await(e, id, 600, &r));
    if (r.state != CUZK_JOB_COMPLETED) printf("  job %s: %s\n", cuzk_job_state_name(r.state), r.error);
    CHECK(r.state == CUZK_JOB_COMPLETED && r.verified && r.partitions == PARTS);
    /* each proof again, against its own public inputs */
    cuzk_fr *in = r.state == CUZK_JOB_COMPLETED ? result_inputs(r.inputs, (size_t)r.partitions * r.ninputs) : NULL;
    CHECK(r.state != CUZK_JOB_COMPLETED || in);
    for (unsigned k = 0; in && k < r.partitions; k++) {
        cuzk_groth16_proof pf;
        CHECK_OK(cuzk_groth16_proof_decode(&pf, r.proof + (size_t)k * CUZK_GROTH16_PROOF_BYTES));
        CHECK_OK(cuzk_groth16_verify(vk, &pf, in + (size_t)k * r.ninputs, r.ninputs));
    }
    free(in);
    cuzk_job_result_free(&r);
    uint64_t batched = 0, batches = 0;
    cuzk_engine_status *st = calloc(1, sizeof *st);
    if (st) {
        cuzk_engine_get_status(e, st);
        batched = st->devices[0].partitions_batched;
        batches = st->devices[0].batches;
    }
    free(st);
    char placement[320];
    circuit_placement(e, "batch", placement, sizeof placement);
    printf("  placement: %.300s\n", placement);
    printf("  witness buffers %u (0: the default), a, b, c %s, the first partition %s: %llu of %d partitions proved in "
           "%llu batches\n",
           buffers, abc_names[abc], hold ? "held back" : "not held", (unsigned long long)batched, PARTS,
           (unsigned long long)batches);
    /* the placement, chosen at the first load before the circuit was recorded, made again with
     * its size: the circuit on the device, its matrices streamed, or neither (a, b, c from the CPU) */
    CHECK((strstr(placement, "plus the precompiled circuit of") != NULL) == (abc == ABC_DEVICE));
    CHECK((strstr(placement, "matrices streamed") != NULL) == (abc == ABC_STREAMED));
    cuzk_engine_destroy(e);
    return batched;
}

int main(void)
{
    skip_without_gpu();
    pce_job j;
    pce_job_open(&j, CIRCUIT, 0, 0);
    cuzk_groth16_params p;
    pce_job_setup(&j, &p, 6);
    char path[] = "/tmp/cuzk-gpu-batch-XXXXXX";
    params_to_tempfile(&p, path);

    /* 5 buffers: batches of up to 3 (one buffer stays with the lanes, one with urgent work) */
    CHECK(run_job(path, &p.vk, 5, ABC_DEVICE, true) >= 2);
    /* the same with the circuit's matrices streamed for the SpMV */
    CHECK(run_job(path, &p.vk, 5, ABC_STREAMED, true) >= 2);
    /* a, b, c from the CPU, the default buffers: batches of 2 */
    CHECK(run_job(path, &p.vk, 0, ABC_CPU, true) >= 2);
    /* nothing held back, the default buffers: the GPU, given the first partition alone, waits for
     * the second (engine.batch_wait_ms), and then each batch's partner is ready or being made:
     * every partition in a batch of 2 */
    CHECK(run_job(path, &p.vk, 0, ABC_DEVICE, false) == PARTS);
    /* 3 buffers: one at a time */
    CHECK(run_job(path, &p.vk, 3, ABC_CPU, true) == 0);

    unlink(path);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
    return harness_finish("gpu_batch");
}
