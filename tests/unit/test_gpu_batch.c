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
 * - a, b, c from the CPU with 3 witness buffers: none batched;
 * - a CRITICAL job made ready while the GPU holds a partition and waits for its partner (the
 *   partner's witness slowed down) is proved before the held partition.
 * The first partition is held back a little (the test hook) so that witnesses are waiting when
 * the GPU next looks. Skips (exit 77) where no CUDA device is. */
#include <pthread.h>
#include <stdatomic.h>
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

/* an engine of one GPU, no CPU backend, 4 threads; the parameters streamed in chunks of 2^12 */
static void streamed_configs(cuzk_engine_config *cfg, cuzk_gpu_config *g)
{
    cuzk_engine_config_default(cfg);
    cfg->gpus = 1;
    cfg->cpu_worker = false;
    cfg->threads = 4;
    cuzk_gpu_config_default(g);
    snprintf(g->placement, sizeof g->placement, "streamed");
    g->stream_chunk_log = 12;
}

/* One job of PARTS partitions on an engine with `buffers` witness buffers (0: the default), a,
 * b, c as abc says, L, A and B apart (on their own executor and thread) or not; returns the
 * partitions the GPU proved in batches. */
static uint64_t run_job(const char *params_path, const cuzk_groth16_vk *vk, unsigned buffers, int abc, bool hold,
                        bool apart)
{
    cuzk_engine_config cfg;
    cuzk_gpu_config g;
    streamed_configs(&cfg, &g);
    cfg.witness_buffers = buffers;
    g.pce_on_device = abc == ABC_DEVICE;
    g.pce_stream = abc == ABC_STREAMED;
    g.stream_lab_concurrent = apart;
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

/* ------------------------------------------------------------ urgent work during the wait */
#define SLOW_SEED 70   /* the job whose partition 1 is slow to make */
#define URGENT_SEED 90 /* the CRITICAL job */
static atomic_bool slow_started;
static pthread_mutex_t order_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t order_job[8];
static unsigned order_part[8], order_n;

/* named_circuit_open, the slow job's partition 1 taking 5 s to open (its witness being made) */
static cuzk_status slow_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                             cuzk_circuit **out)
{
    if (partition == 1 && seed == SLOW_SEED + 1) {
        atomic_store(&slow_started, true);
        usleep(5000 * 1000);
    }
    return named_circuit_open(ctx, input, input_len, seed, partition, out);
}

/* the partitions in the order the GPU starts them */
static cuzk_status record_order(void *ctx, uint64_t job, unsigned partition, int device)
{
    (void)ctx;
    (void)device;
    pthread_mutex_lock(&order_mu);
    if (order_n < 8) {
        order_job[order_n] = job;
        order_part[order_n++] = partition;
    }
    pthread_mutex_unlock(&order_mu);
    return CUZK_OK;
}

static bool circuit_on_gpu(cuzk_engine *e, const char *id)
{
    bool on = false;
    cuzk_engine_status *st = calloc(1, sizeof *st);
    if (!st) return false;
    cuzk_engine_get_status(e, st);
    for (unsigned i = 0; i < st->ncircuits; i++)
        if (!strcmp(st->circuits[i].id, id)) on = st->circuits[i].device[0] && !st->circuits[i].loading;
    free(st);
    return on;
}

/* A job of two partitions whose second witness is slow: the GPU takes the first and waits for
 * it (engine.batch_wait_ms long enough that only other work ends the wait). A CRITICAL job
 * submitted then ends the wait, and the held partition goes back to the ready list, so the
 * CRITICAL partition is proved first (before, the held one was proved alone, then it). */
static void test_urgent_during_wait(const char *params_path)
{
    cuzk_engine_config cfg;
    cuzk_gpu_config g;
    streamed_configs(&cfg, &g);
    cfg.batch_wait_ms = 30000;
    cuzk_engine *e = NULL;
    CHECK_OK(cuzk_engine_create(&e, &cfg, &g));
    if (!e) return;
    cuzk_engine_set_test_hook(e, record_order, NULL);
    cuzk_engine_circuit c = {.id = "batch", .open = slow_open, .ctx = (void *)CIRCUIT, .params_path = params_path};
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
    cuzk_job_request slow = {.kind = CUZK_KIND_CIRCUIT, .circuit = "batch", .partitions = 2, .seed = SLOW_SEED};
    cuzk_job_request urgent = {.kind = CUZK_KIND_CIRCUIT,
                               .circuit = "batch",
                               .partitions = 1,
                               .seed = URGENT_SEED,
                               .priority = CUZK_PRIORITY_CRITICAL};
    uint64_t slow_id = 0, urgent_id = 0;
    CHECK_OK(cuzk_engine_submit(e, &slow, &slow_id, NULL));
    /* the circuit on the GPU and the second witness being made: the GPU holds the first */
    for (int i = 0; i < 600 && !(atomic_load(&slow_started) && circuit_on_gpu(e, "batch")); i++) usleep(50 * 1000);
    usleep(700 * 1000);
    CHECK_OK(cuzk_engine_submit(e, &urgent, &urgent_id, NULL));
    cuzk_job_result r;
    const uint64_t ids[2] = {urgent_id, slow_id};
    for (int k = 0; k < 2; k++) {
        memset(&r, 0, sizeof r);
        CHECK_OK(cuzk_engine_await(e, ids[k], 600, &r));
        CHECK(r.state == CUZK_JOB_COMPLETED && r.verified);
        cuzk_job_result_free(&r);
    }
    pthread_mutex_lock(&order_mu);
    printf("  a CRITICAL job during the wait for a batch partner: started first: job %s partition %u (of %u "
           "started)\n",
           order_n && order_job[0] == urgent_id ? "CRITICAL" : "held", order_n ? order_part[0] : 0, order_n);
    CHECK(order_n >= 2 && order_job[0] == urgent_id && order_part[0] == 0);
    pthread_mutex_unlock(&order_mu);
    cuzk_engine_destroy(e);
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
    CHECK(run_job(path, &p.vk, 5, ABC_DEVICE, true, false) >= 2);
    /* the same with the circuit's matrices streamed for the SpMV */
    CHECK(run_job(path, &p.vk, 5, ABC_STREAMED, true, false) >= 2);
    /* a, b, c from the CPU, the default buffers: batches of 2 */
    CHECK(run_job(path, &p.vk, 0, ABC_CPU, true, false) >= 2);
    /* nothing held back, the default buffers: the GPU, given the first partition alone, waits for
     * the second (engine.batch_wait_ms), and then each batch's partner is ready or being made:
     * every partition in a batch of 2 */
    CHECK(run_job(path, &p.vk, 0, ABC_DEVICE, false, false) == PARTS);
    /* 3 buffers: one at a time */
    CHECK(run_job(path, &p.vk, 3, ABC_CPU, true, false) == 0);
    /* L, A and B apart: batches as before, every proof verified (a, b, c on the device and from
     * the CPU) */
    CHECK(run_job(path, &p.vk, 5, ABC_DEVICE, true, true) >= 2);
    CHECK(run_job(path, &p.vk, 0, ABC_CPU, true, true) >= 2);
    test_urgent_during_wait(path);

    unlink(path);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
    return harness_finish("gpu_batch");
}
