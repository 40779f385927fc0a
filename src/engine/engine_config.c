/* The engine's configuration keys (section "engine"), and the names of kinds, priorities and
 * job states as the CLI, the status JSON and the metrics spell them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"

#define K(name, type, field, lo, hi, dflt, env, help)                                      \
    {                                                                                      \
        "engine", name, type, offsetof(cuzk_engine_config, field), lo, hi, dflt, env, help \
    }
#define GIB (1ull << 30)

static const cuzk_config_key engine_keys[] = {
    K("gpus", CUZK_CFG_UINT, gpus, 0, CUZK_ENGINE_MAX_DEVICES, "16", "CUZK_ENGINE_GPUS",
      "GPUs the engine proves on, from ordinal 0 (more than are present: all; 0: the CPU backend only)"),
    K("cpu_worker", CUZK_CFG_BOOL, cpu_worker, 0, 1, "false", "CUZK_ENGINE_CPU_WORKER",
      "prove on the CPU backend beside the GPUs too (it always does when no GPU is in service)"),
    K("gpu_contexts", CUZK_CFG_UINT, gpu_contexts, 1, CUZK_ENGINE_MAX_CONTEXTS, "1", "CUZK_ENGINE_GPU_CONTEXTS",
      "contexts per GPU, each a device with its own worker, residents and budget share (more: testing)"),
    K("cpu_workers", CUZK_CFG_UINT, cpu_workers, 1, CUZK_ENGINE_MAX_CPU_WORKERS, "1", "CUZK_ENGINE_CPU_WORKERS",
      "CPU backend workers, each a device of its own on the shared pool (more: testing)"),
    K("keep_host_params", CUZK_CFG_BOOL, keep_host_params, 0, 1, "false", "CUZK_ENGINE_KEEP_HOST_PARAMS",
      "keep a host copy of parameters on a GPU (faster reload; 47 GB at 32 GiB); else they stream from the file"),
    K("threads", CUZK_CFG_UINT, threads, 0, 4096, "0", NULL,
      "threads for witnesses and CPU proving (0: one per CPU; the CLI's --threads sets it)"),
    K("urgent_threads", CUZK_CFG_UINT, urgent_threads, 0, 4096, "0", "CUZK_ENGINE_URGENT_THREADS",
      "threads of the urgent lane, which makes HIGH and CRITICAL witnesses at once (0: a quarter of the CPUs)"),
    K("witness_buffers", CUZK_CFG_UINT, witness_buffers, 0, 64, "0", "CUZK_ENGINE_WITNESS_BUFFERS",
      "witness buffers made ahead of the devices, one kept for urgent work (0: devices + 2, and one more per "
      "GPU that only a circuit proved in batches fills); a streamed GPU's batch takes at most this less 2 "
      "(32 GiB PoRep, 48 GiB free: 5 gave 4 % per sector for 3.9 GiB more host memory)"),
    K("witness_buffer_bytes", CUZK_CFG_U64, witness_buffer_bytes, 0, 1ull << 40, "0",
      "CUZK_ENGINE_WITNESS_BUFFER_BYTES",
      "each witness buffer reserved and page-locked at start (0: at first use, once); 32 GiB PoRep: 4.3e9"),
    K("abc_buffers", CUZK_CFG_UINT, abc_buffers, 0, 10, "0", "CUZK_ENGINE_ABC_BUFFERS",
      "buffers the witness lanes make a, b, c into for GPUs without the circuit's matrices, each given back "
      "once its proof's NTTs have read it (0: the witness buffers less 2, at least 1); a batch takes at most "
      "this many; 12.9 GB each at 32 GiB"),
    K("batch_wait_ms", CUZK_CFG_UINT, batch_wait_ms, 0, 60000, "2000", "CUZK_ENGINE_BATCH_WAIT_MS",
      "a GPU that proves a circuit in batches, holding one ready partition of a job whose next witness is being "
      "made and nothing else to prove, waits up to this long for it, so that the two share a pass over the "
      "parameters (0: never waits)"),
    K("host_budget", CUZK_CFG_U64, host_budget, 0, 1ull << 50, "0", "CUZK_ENGINE_HOST_BUDGET",
      "host bytes for parameters, circuits, witness buffers and job inputs (0: 80 % of the machine's memory)"),
    K("device_budget", CUZK_CFG_U64, device_budget, 0, 1ull << 50, "0", "CUZK_ENGINE_DEVICE_BUDGET",
      "bytes per GPU for parameters, circuits and the provers' workspace (0: its free memory at start less "
      "device_reserve)"),
    K("device_reserve", CUZK_CFG_U64, device_reserve, 0, 1ull << 40, "1073741824", "CUZK_ENGINE_DEVICE_RESERVE",
      "bytes per GPU left to other processes and the runtime beside what the placements count (each circuit's "
      "parameters, precompiled circuit and a proof's workspace)"),
    K("aging_s", CUZK_CFG_UINT, aging_s, 0, 1u << 30, "120", "CUZK_ENGINE_AGING_S",
      "seconds a waiting job takes to rise one priority class, so LOW work is not starved (0: no aging)"),
    K("result_ttl_s", CUZK_CFG_UINT, result_ttl_s, 1, 1u << 30, "3600", "CUZK_ENGINE_RESULT_TTL_S",
      "finished results are kept this long for await"),
    K("result_max", CUZK_CFG_UINT, result_max, 1, 1u << 24, "1024", "CUZK_ENGINE_RESULT_MAX",
      "finished results kept at most (the oldest dropped first)"),
    K("max_queued", CUZK_CFG_UINT, max_queued, 1, 1u << 24, "10000", "CUZK_ENGINE_MAX_QUEUED",
      "jobs queued or running at most; a submit beyond is refused"),
    K("max_input_bytes", CUZK_CFG_U64, max_input_bytes, 1, 1ull << 40, "1073741824", "CUZK_ENGINE_MAX_INPUT_BYTES",
      "largest input one request may carry (a 32 GiB C1 is about 50 MB)"),
};

const cuzk_config_key *cuzk_engine_config_table(size_t *n)
{
    *n = sizeof engine_keys / sizeof engine_keys[0];
    return engine_keys;
}

void cuzk_engine_config_default(cuzk_engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    size_t n;
    const cuzk_config_key *k = cuzk_engine_config_table(&n);
    cuzk_config_defaults(k, n, cfg);
}

static const struct {
    cuzk_job_kind kind;
    const char *name;
} kinds[CUZK_KINDS] = {
    {CUZK_KIND_POREP, "porep"},
    {CUZK_KIND_SNAP, "snap"},
    {CUZK_KIND_WINDOW_POST, "window-post"},
    {CUZK_KIND_WINNING_POST, "winning-post"},
    {CUZK_KIND_CIRCUIT, "circuit"},
};

int cuzk_kind_index(cuzk_job_kind k)
{
    for (int i = 0; i < CUZK_KINDS; i++)
        if (kinds[i].kind == k) return i;
    return -1;
}

const char *cuzk_kind_name(cuzk_job_kind k)
{
    int i = cuzk_kind_index(k);
    return i < 0 ? NULL : kinds[i].name;
}

cuzk_status cuzk_kind_parse(cuzk_job_kind *out, const char *name)
{
    for (int i = 0; i < CUZK_KINDS; i++)
        if (!strcmp(kinds[i].name, name)) {
            *out = kinds[i].kind;
            return CUZK_OK;
        }
    /* the names the gRPC status carries (Curio's daemon's, kept on the wire) */
    if (!strcmp(name, "porep-c2") || !strcmp(name, "snap-update")) {
        *out = name[0] == 'p' ? CUZK_KIND_POREP : CUZK_KIND_SNAP;
        return CUZK_OK;
    }
    return cuzk_fail(CUZK_EINVAL, "unknown proof kind '%s' (porep, snap, window-post, winning-post, circuit)", name);
}

static const char *const prio_names[] = {"default", "low", "normal", "high", "critical"};

const char *cuzk_priority_name(cuzk_priority p)
{
    return (unsigned)p <= CUZK_PRIORITY_CRITICAL ? prio_names[p] : "normal";
}

cuzk_status cuzk_priority_parse(cuzk_priority *out, const char *name)
{
    for (unsigned i = 0; i <= CUZK_PRIORITY_CRITICAL; i++)
        if (!strcmp(prio_names[i], name)) {
            *out = (cuzk_priority)i;
            return CUZK_OK;
        }
    return cuzk_fail(CUZK_EINVAL, "unknown priority '%s' (low, normal, high, critical)", name);
}

const char *cuzk_job_state_name(cuzk_job_state s)
{
    static const char *const names[] = {"QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return (unsigned)s <= CUZK_JOB_TIMEOUT ? names[s] : "UNKNOWN";
}
