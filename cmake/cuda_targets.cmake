# The GPU layer (src/gpu/*.cu): a static library cuzk_gpu, linked into cuzk_core's users.
# Code for sm_90 (H100/H200) plus compute_90 PTX by default; CUZK_CUDA_ARCH overrides.
set(CUZK_CUDA_ARCH "90" CACHE STRING "CUDA architectures for src/gpu (CMake CUDA_ARCHITECTURES syntax)")
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES "${CUZK_CUDA_ARCH}")
set_property(TARGET cuzk_core PROPERTY CUDA_ARCHITECTURES "${CUZK_CUDA_ARCH}")
file(GLOB CUZK_GPU_CU CONFIGURE_DEPENDS src/gpu/*.cu)
add_library(cuzk_gpu STATIC ${CUZK_GPU_CU})
# The C warning flags of the directory are not nvcc's: start from a clean list.
set_target_properties(cuzk_gpu PROPERTIES COMPILE_OPTIONS "" CUDA_ARCHITECTURES "${CUZK_CUDA_ARCH}"
                                          CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
target_compile_options(cuzk_gpu PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3 -lineinfo -Xcompiler=-Wall,-Wno-unknown-pragmas,-fno-strict-aliasing>)
target_include_directories(cuzk_gpu PUBLIC include PRIVATE src)
target_link_libraries(cuzk_gpu PUBLIC blst CUDA::cudart_static Threads::Threads)
# cuzk_gpu uses cuzk_core (errors, Fr helpers) and cuzk_core's users get cuzk_gpu: a cycle
# of static libraries, which CMake repeats on the link line.
target_link_libraries(cuzk_gpu PRIVATE cuzk_core)
target_link_libraries(cuzk_core PUBLIC cuzk_gpu)
set_target_properties(cuzk_core PROPERTIES LINK_INTERFACE_MULTIPLICITY 3)
target_compile_definitions(cuzk_core PUBLIC CUZK_HAVE_CUDA=1)
