/* The GPU tuning keys (cuzk_gpu_config in include/cuzk/gpu.h): ranges, defaults and the
 * environment overrides the CLI applies. The defaults are the measured best on the H200;
 * docs/BENCHMARKS.md has the measurements behind each. Built with and without CUDA. */
#include <stddef.h>

#include "cuzk/gpu.h"

#define K(name, type, field, lo, hi, dflt, env, help)                                \
    {                                                                                \
        "gpu", name, type, offsetof(cuzk_gpu_config, field), lo, hi, dflt, env, help \
    }

static const cuzk_config_key gpu_keys[] = {
    K("ntt_pass_bits", CUZK_CFG_UINT, ntt_pass_bits, 3, 11, "11", "CUZK_GPU_NTT_PASS_BITS",
      "most row bits per NTT pass (small values run many passes, for tests)"),
    K("ntt_tile_bits", CUZK_CFG_UINT, ntt_tile_bits, 3, 11, "10", "CUZK_GPU_NTT_TILE_BITS",
      "most elements per NTT block as a power of two (10: 32 KiB of shared memory)"),
    K("ntt_threads", CUZK_CFG_UINT, ntt_threads, 32, 1024, "128", "CUZK_GPU_NTT_THREADS", "threads per NTT block"),
    K("ntt_full_table", CUZK_CFG_BOOL, ntt_full_table, 0, 1, "true", "CUZK_GPU_NTT_FULL_TABLE",
      "the top NTT pass reads a full twiddle table (16 N bytes) where device memory allows"),
    K("ntt_natural_out", CUZK_CFG_BOOL, ntt_natural_out, 0, 1, "true", "CUZK_GPU_NTT_NATURAL_OUT",
      "natural-order NTTs write through a second buffer instead of a bit-reversal pass"),
    K("msm_window_bits", CUZK_CFG_UINT, msm_window_bits, 0, 24, "0", "CUZK_GPU_MSM_C",
      "Pippenger window bits of the MSM objects (0: chosen from the size)"),
    K("msm_s1", CUZK_CFG_UINT, msm_s1, 0, 1u << 20, "0", "CUZK_GPU_MSM_S1",
      "first-round scalars per thread of the MSM objects (0: chosen)"),
    K("msm_accum_reg_cap", CUZK_CFG_BOOL, msm_accum_reg_cap, 0, 1, "true", "CUZK_GPU_MSM_ACCUM_REG_CAP",
      "the G1 bucket accumulation kernel runs capped at 128 registers (16 warps per SM)"),
    K("msm_chunk", CUZK_CFG_U64, msm_chunk, 0, 1ull << 32, "0", "CUZK_GPU_MSM_CHUNK",
      "scalars per MSM chunk (0: 2^25, 2^26 with the scalar split; below 1024 means 0)"),
    K("msm_reduce_bits", CUZK_CFG_UINT, msm_reduce_bits, 2, 6, "4", "CUZK_GPU_MSM_REDUCE_BITS",
      "buckets per group in the bucket reduction, as a power of two"),
    K("msm_first_shift", CUZK_CFG_UINT, msm_first_shift, 0, 8, "3", "CUZK_GPU_MSM_FIRST_SHIFT",
      "the first of several MSM pieces is 2^this smaller, so its sum covers the next upload"),
    K("msm_sum_k", CUZK_CFG_UINT, msm_sum_k, 2, 64, "4", "CUZK_GPU_MSM_SUM_K",
      "points per thread and step when group sums are added down"),
    K("h_glv", CUZK_CFG_BOOL, h_glv, 0, 1, "true", "CUZK_GPU_H_GLV",
      "the H MSM splits its scalars by the endomorphism (phi(H) resident: 96 bytes per point)"),
    K("side_high_priority", CUZK_CFG_BOOL, side_high_priority, 0, 1, "true", "CUZK_GPU_SIDE_PRIORITY",
      "urgent side work (L, A, B beside the NTTs) runs on a high-priority stream"),
    K("placement", CUZK_CFG_STR, placement, 0, 16, "auto", "CUZK_GPU_PLACEMENT",
      "where a prover keeps the parameters: auto (resident where device memory allows, else streamed; "
      "mapped where the host budget cannot hold them either), resident, streamed (page-locked host memory, "
      "copied in chunks during each MSM) or mapped (streamed from a scratch file on disk)"),
    K("stream_chunk_log", CUZK_CFG_UINT, stream_chunk_log, 0, 26, "0", "CUZK_GPU_STREAM_CHUNK_LOG",
      "streamed placement: bases per chunk as a power of two (0: the largest the memory allows; "
      "small values for tests)"),
    K("stream_batch", CUZK_CFG_UINT, stream_batch, 0, 64, "0", "CUZK_GPU_STREAM_BATCH",
      "streamed placement: the most ready partitions of a job one pass over the L, A, B bases serves "
      "(0: as many as the device's memory holds witnesses of, at most 10, and in the engine at most its "
      "engine.witness_buffers less 2; 1: one at a time)"),
    K("stream_beside", CUZK_CFG_BOOL, stream_beside, 0, 1, "false", "CUZK_GPU_STREAM_BESIDE",
      "streamed placement: the L, A, B MSMs run beside the last proof's H MSM where the device's memory holds "
      "both with their full windows, so that their bases cross the link while H's chunks are summed (off: on "
      "an H100's PCIe 5 link they are bound by their sums and it gained nothing; for slower links)"),
    K("stream_witnesses_during_h", CUZK_CFG_BOOL, stream_witnesses_during_h, 0, 1, "true",
      "CUZK_GPU_STREAM_WITNESSES_DURING_H",
      "streamed placement, L, A, B after H: as many of a batch's witnesses as the device's memory holds beside "
      "the last proof's H MSM go to it during that MSM (that proof keeps its SpMV copy; the others cross the link "
      "between H's chunks), not all after it (false: all after it)"),
    K("stream_lab_concurrent", CUZK_CFG_BOOL, stream_lab_concurrent, 0, 1, "false", "CUZK_GPU_STREAM_LAB_CONCURRENT",
      "streamed placement: a batch's L, A, B MSMs run on a thread and streams of their own from the batch's start, "
      "beside its proofs' NTTs and H MSMs, so that their bases cross the link while those compute, where the "
      "device's memory holds both (off: on an H100 it was slower, its L MSM lasting as long as the NTTs and H MSMs "
      "beside it; docs/GPU.md)"),
    K("stream_compact_permille", CUZK_CFG_UINT, stream_compact_permille, 0, 1000, "0",
      "CUZK_GPU_STREAM_COMPACT_PERMILLE",
      "streamed placement with the precompiled circuit: each batch proof may keep its witness for L, A, B on the "
      "device in compact form from its SpMV on (a bit each for not 0 and for neither 0 nor 1, and room for this "
      "many thousandths of its aux values as other values; a 32 GiB PoRep partition has 13), where that gives the "
      "MSMs larger chunks, wider windows, more proofs per pass or the circuit on the device; a witness with more "
      "other values has its values copied from host memory a piece at a time (0: full witnesses, uploaded again "
      "for L, A, B; the default until compact ones are measured against them on a GPU; 40 suits PoRep and "
      "SnapDeals)"),
    K("stream_file_dir", CUZK_CFG_STR, stream_file_dir, 0, 256, "", "CUZK_GPU_STREAM_FILE_DIR",
      "mapped placement: the folder on a disk (not tmpfs) for the parameters' scratch file, unlinked at once "
      "(empty: the engine's cache_dir, else /var/tmp)"),
    K("pce_on_device", CUZK_CFG_BOOL, pce_on_device, 0, 1, "true", "CUZK_GPU_PCE_ON_DEVICE",
      "a circuit's precompiled matrices on the device where they fit, so that a, b, c are made there (false: "
      "the witness lanes make a, b, c on the CPU, and the device's memory goes to windows and batches)"),
    K("pce_stream", CUZK_CFG_BOOL, pce_stream, 0, 1, "true", "CUZK_GPU_PCE_STREAM",
      "where a circuit's precompiled matrices are not on the device, they cross from host memory in chunks "
      "of rows for each proof's a, b, c, made on the device (false: the witness lanes make a, b, c on the CPU)"),
    K("profile", CUZK_CFG_BOOL, profile, 0, 1, "false", "CUZK_GPU_PROFILE",
      "synchronize at each stage mark and print its time to stderr (serializes everything)"),
};

const cuzk_config_key *cuzk_gpu_config_table(size_t *n)
{
    *n = sizeof gpu_keys / sizeof gpu_keys[0];
    return gpu_keys;
}

void cuzk_gpu_config_default(cuzk_gpu_config *cfg)
{
    size_t n;
    const cuzk_config_key *k = cuzk_gpu_config_table(&n);
    cuzk_config_defaults(k, n, cfg);
}
