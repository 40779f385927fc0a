/* The GPU field benchmarks behind `cuzk bench gpu-field`: throughput of the device
 * arithmetic of src/gpu, and of the multiplier pipes. Benchmark code beside the library: the
 * cli links it; without CUDA every call reports "built without CUDA support". */
#ifndef CUZK_BENCH_FIELD_BENCH_H
#define CUZK_BENCH_FIELD_BENCH_H

#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field multiplication throughput of each multiplication form the GPU layer uses, muls/s;
 * cuzk_gpu_field_bench_name(i) names form i (NULL past the last). */
#define CUZK_GPU_FIELD_FORMS 6
cuzk_status cuzk_gpu_field_bench(double muls_per_s[CUZK_GPU_FIELD_FORMS]) CUZK_WARN_UNUSED;
const char *cuzk_gpu_field_bench_name(int i);
/* Multiplier pipes: 32-bit IMAD alone, FP64 DFMA alone, and one of each per step
 * (independent chains on every SM), in operations per second: whether the double-precision
 * pipe multiplies beside the integer one. */
#define CUZK_GPU_PIPE_FORMS 3
cuzk_status cuzk_gpu_pipe_bench(double ops_per_s[CUZK_GPU_PIPE_FORMS]) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
