# The gpu layer from src/gpu/*.cu, and cuzk_cuda_target(), which gives a CUDA library the
# layer's compile settings (used as well by the emulation tests and the field benchmark).
# Code for sm_90 (H100/H200) plus compute_90 PTX by default; CUZK_CUDA_ARCH overrides.
set(CUZK_CUDA_ARCH "90" CACHE STRING "CUDA architectures for src/gpu (CMake CUDA_ARCHITECTURES syntax)")
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES "${CUZK_CUDA_ARCH}")

# The C warning flags of the directory are not nvcc's: start from a clean list. The device
# code spells its private headers "gpu/...", from src/.
function(cuzk_cuda_target target)
  set_target_properties(${target} PROPERTIES COMPILE_OPTIONS "" CUDA_ARCHITECTURES "${CUZK_CUDA_ARCH}"
                                             CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3 -lineinfo -Xcompiler=-Wall,-Wno-unknown-pragmas,-fno-strict-aliasing>)
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/src)
endfunction()

# the tuning keys (gpu_config.c) are plain C, the same with and without CUDA
cuzk_layer(gpu PUBLIC groth16 r1cs SOURCES ${CUZK_GPU_SOURCES} ${CMAKE_SOURCE_DIR}/src/gpu/gpu_config.c)
cuzk_cuda_target(cuzk_gpu)
target_link_libraries(cuzk_gpu PUBLIC CUDA::cudart_static)
target_compile_definitions(cuzk_gpu PUBLIC CUZK_HAVE_CUDA=1)
