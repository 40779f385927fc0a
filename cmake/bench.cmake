# Benchmark code beside the library (bench/): the GPU field benchmark behind
# `cuzk bench gpu-field`, linked by the cli only. Without CUDA a stub reports that.
if(CUZK_HAVE_CUDA)
  add_library(cuzk_bench_gpu_field STATIC bench/gpu_field/field_bench.cu)
  cuzk_cuda_target(cuzk_bench_gpu_field)
else()
  add_library(cuzk_bench_gpu_field STATIC bench/gpu_field/field_bench_stub.c)
endif()
target_include_directories(cuzk_bench_gpu_field PUBLIC bench/gpu_field)
target_link_libraries(cuzk_bench_gpu_field PRIVATE cuzk_gpu)
