/* A GPU whose memory another process takes while the engine runs (the engine measured its
 * budget at start): the job is not lost. This program stands in for the other process, taking
 * the device's memory itself after the engine started:
 *  1. during a proof: the circuit resident, then all but a sliver of the free memory taken, so
 *     the first proof's workspace cannot be had; the partition ends out of device memory, the
 *     engine cuts the budget, takes the circuit off the device, places it again (streamed) and
 *     proves the partition again from the same witness: the job completes, verified, with one
 *     retry counted;
 *  2. before the load: the memory taken down to less than the parameters need resident but
 *     more than streamed needs; the load runs out of device memory, the budget is cut, the
 *     circuit placed again streamed, the job completes, verified;
 *  3. as 1, with a reserve so large that the cut budget holds the circuit in no placement: the
 *     job FAILS at once, naming the sizes (it waited for ever before: its made witness stayed
 *     on the ready list of a device that could no longer take it).
 * The reserve is engine.device_reserve's default (1 GiB; argv[1] in MiB overrides it): with 64
 * and 512 MiB the streamed retry's first kernel launch (the SpMV of a, b, c) ran out of memory on
 * an H100, the CUDA runtime needing more beside the placement's own buffers (what the reserve is
 * for). A fresh process, case 1 first, so that the memory pool holds no workspace of earlier
 * proofs that would serve the proof case 1 must starve. Skips (exit 77) where no CUDA device is. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/testcircuits.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "harness.h"
#include "support_named.h"
#include "support_pce.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define CIRCUIT "random:8388608" /* parameters of about 4 GiB: room for a 1 GiB reserve in case 1 */
static uint64_t RESERVE;         /* engine.device_reserve: its default, or argv[1] in MiB */

static cuzk_gpu_device *D; /* this program's own context: the "other process" */

/* Memory taken from the device until the driver reports `leave` bytes free. */
typedef struct {
    void *p[4096];
    size_t n;
} held_memory;

static void take_memory(held_memory *h, uint64_t leave)
{
    size_t fr = 0, tot = 0;
    h->n = 0;
    for (uint64_t piece = 1ull << 30; piece >= MIB && h->n < 4096; piece >>= 1)
        while (h->n < 4096 && !cuzk_gpu_mem_info(D, &fr, &tot) && fr >= leave + piece) {
            if (cuzk_gpu_malloc(D, &h->p[h->n], piece)) break;
            h->n++;
        }
    if (cuzk_gpu_mem_info(D, &fr, &tot)) fr = 0;
    printf("  taken: %zu pieces, %.1f MiB left free (asked %.1f)\n", h->n, fr / (double)MIB, leave / (double)MIB);
}

static void give_back(held_memory *h)
{
    for (size_t i = 0; i < h->n; i++) cuzk_gpu_free(h->p[i]);
    h->n = 0;
}

static cuzk_engine *engine_on_gpu(uint64_t reserve)
{
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.gpus = 1;
    cfg.cpu_worker = false; /* a partition the GPU cannot prove must not go to the CPU */
    cfg.device_reserve = reserve;
    cfg.threads = 4;
    cuzk_engine *e = NULL;
    CHECK_OK(cuzk_engine_create(&e, &cfg, NULL));
    return e;
}

static void register_circuit(cuzk_engine *e, const char *params_path)
{
    cuzk_engine_circuit c = {
        .id = "shrink", .open = named_circuit_open, .ctx = (void *)CIRCUIT, .params_path = params_path};
    CHECK_OK(cuzk_engine_register_circuit(e, &c));
}

/* One job of the circuit, which must end in `want` (completed: verified, its proof decoded) within
 * `most` seconds; the status's placement of the circuit into placement, the error into error. */
static void prove_one(cuzk_engine *e, const cuzk_groth16_params *p, cuzk_job_state want, double most, char *placement,
                      size_t n, char *error, size_t error_n)
{
    const double t0 = cuzk_now();
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = "shrink", .partitions = 1};
    uint64_t id = 0;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    CHECK_OK(cuzk_engine_submit(e, &req, &id, NULL));
    CHECK_OK(cuzk_engine_await(e, id, 600, &r));
    if (r.state != want) printf("  job %s: %s\n", cuzk_job_state_name(r.state), r.error);
    CHECK(r.state == want && (want != CUZK_JOB_COMPLETED || r.verified));
    CHECK(cuzk_now() - t0 < most);
    snprintf(error, error_n, "%s", r.error);
    if (r.state == CUZK_JOB_COMPLETED) {
        cuzk_groth16_proof pf;
        CHECK_OK(cuzk_groth16_proof_decode(&pf, r.proof));
        CHECK(r.ninputs == p->vk.ic_len - 1);
    }
    cuzk_job_result_free(&r);
    circuit_placement(e, "shrink", placement, n);
}

static uint64_t retries(cuzk_engine *e)
{
    char *m = cuzk_engine_metrics(e);
    const char *at = m ? strstr(m, "\ncuzk_partition_retries_total ") : NULL;
    uint64_t v = at ? strtoull(at + strlen("\ncuzk_partition_retries_total "), NULL, 10) : UINT64_MAX;
    free(m);
    return v;
}

/* The least room the streamed placement of sh fits (0: none up to `most`). */
static uint64_t streamed_least(const cuzk_gpu_shape *sh, const cuzk_gpu_config *sc, uint64_t most)
{
    cuzk_gpu_placement pl;
    if (cuzk_gpu_place(sh, most, sc, &pl)) return 0;
    uint64_t lo = 0, hi = most; /* lo does not fit, hi does */
    while (hi - lo > MIB) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (cuzk_gpu_place(sh, mid, sc, &pl)) lo = mid;
        else hi = mid;
    }
    return hi;
}

int main(int argc, char **argv)
{
    skip_without_gpu();
    cuzk_engine_config dflt;
    cuzk_engine_config_default(&dflt);
    RESERVE = argc > 1 ? strtoull(argv[1], NULL, 10) * MIB : dflt.device_reserve;
    if (cuzk_gpu_device_open(&D, 0, NULL)) {
        fprintf(stderr, "opening device 0: %s\n", cuzk_last_error());
        return 1;
    }
    pce_job j;
    pce_job_open(&j, CIRCUIT, 0, 0);
    cuzk_groth16_params p;
    pce_job_setup(&j, &p, 5);
    char path[] = "/tmp/cuzk-gpu-shrink-XXXXXX";
    params_to_tempfile(&p, path);

    /* the sizes the placement gives this circuit: resident (parameters, workspace), streamed */
    cuzk_gpu_shape sh = {p.h_len, p.l_len, p.a_len, p.b_g1_len, p.vk.ic_len, p.l_len, p.h_len + 1, 0, 0, 0, false};
    cuzk_gpu_placement res, str;
    cuzk_gpu_config sc, nophi;
    cuzk_gpu_config_default(&sc);
    cuzk_gpu_config_default(&nophi);
    snprintf(sc.placement, sizeof sc.placement, "streamed");
    nophi.h_glv = false; /* the prover drops phi(H) where it finds no room for it */
    CHECK_OK(cuzk_gpu_place(&sh, 1ull << 40, &nophi, &res));
    /* the streamed placement grows its chunks and windows into the room it is given: its least */
    const uint64_t params = res.params_device_bytes, stream_need = streamed_least(&sh, &sc, params);
    CHECK(stream_need > 0);
    CHECK_OK(cuzk_gpu_place(&sh, stream_need, &sc, &str));
    printf("%s: resident parameters (without phi(H)) %.1f MiB + workspace %.1f MiB; streamed at least %.1f MiB; "
           "reserve %.0f MiB\n",
           CIRCUIT, params / (double)MIB, res.workspace_bytes / (double)MIB, stream_need / (double)MIB,
           RESERVE / (double)MIB);
    /* case 1 needs room for the streamed placement once the resident parameters are freed */
    CHECK(params > RESERVE + stream_need + 128 * MIB);
    char placement[320], error[1024];
    held_memory h;

    /* 1. memory taken between the load and the first proof */
    cuzk_engine *e = engine_on_gpu(RESERVE);
    if (e) register_circuit(e, path);
    double secs = 0;
    if (e) CHECK_OK(cuzk_engine_preload(e, "shrink", &secs));
    take_memory(&h, 16 * MIB);
    if (e) prove_one(e, &p, CUZK_JOB_COMPLETED, 600, placement, sizeof placement, error, sizeof error);
    give_back(&h);
    printf("  1. memory taken before the first proof: placed again \"%.60s...\", %llu partition retried\n", placement,
           e ? (unsigned long long)retries(e) : 0ull);
    CHECK(!strncmp(placement, "streamed", 8));
    CHECK(e && retries(e) >= 1 && retries(e) != UINT64_MAX);
    cuzk_engine_destroy(e);

    /* 2. memory taken before the load */
    e = engine_on_gpu(RESERVE);
    if (e) register_circuit(e, path);
    take_memory(&h, RESERVE + (stream_need + params) / 2); /* a budget between the two */
    if (e) prove_one(e, &p, CUZK_JOB_COMPLETED, 600, placement, sizeof placement, error, sizeof error);
    give_back(&h);
    printf("  2. memory taken before the load: placed \"%.60s...\"\n", placement);
    CHECK(!strncmp(placement, "streamed", 8));
    cuzk_engine_destroy(e);

    /* 3. as 1, but no placement fits the cut budget: the job fails, naming the sizes */
    size_t fr = 0, tot = 0;
    CHECK_OK(cuzk_gpu_mem_info(D, &fr, &tot));
    e = engine_on_gpu(fr > params + res.workspace_bytes + GIB ? fr - params - res.workspace_bytes - MIB * 256 : 0);
    if (e) register_circuit(e, path);
    if (e) CHECK_OK(cuzk_engine_preload(e, "shrink", &secs));
    take_memory(&h, 16 * MIB);
    if (e) prove_one(e, &p, CUZK_JOB_FAILED, 120, placement, sizeof placement, error, sizeof error);
    give_back(&h);
    printf("  3. memory taken before the first proof, no placement left: %.200s\n", error);
    CHECK(strstr(error, "GiB") != NULL);
    cuzk_engine_destroy(e);

    unlink(path);
    cuzk_groth16_params_free(&p);
    pce_job_close(&j);
    cuzk_gpu_device_close(D);
    return harness_finish("gpu_shrink");
}
