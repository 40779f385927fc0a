# The gpu layer from src/gpu/*.cu, and cuzk_cuda_target(), which gives a CUDA library the
# layer's compile settings (used as well by the emulation tests and the field benchmark).
#
# CUZK_CUDA_ARCHS, in CMake's CUDA_ARCHITECTURES syntax, names the architectures the kernels
# are compiled for. The default makes one build for every NVIDIA GPU since Ampere: SASS for
# sm_80 (A100), sm_86 (A10, A40, RTX 30xx; sm_87 runs it), sm_89 (L4, L40, RTX 40xx), sm_90
# (H100, H200), sm_100 (B200; sm_103 runs it) and sm_120 (RTX 50xx, RTX PRO 6000; sm_121
# runs it), plus compute_120 PTX, which the driver compiles at load for a later GPU. No
# kernel needs a feature of one architecture (docs/GPU.md, "Architectures"). Every real
# architecture costs a device compile of its own of every .cu file (minutes on a small
# machine), so a build for one GPU should name it alone: -DCUZK_CUDA_ARCHS=90 (or native, on
# a machine with the GPU). "80-virtual" embeds compute_80 PTX only: the driver compiles it for
# whatever GPU loads it (slower first start, one image for every architecture). CUZK_CUDA_ARCH,
# the setting of older trees (one architecture), is still taken, as CUZK_CUDA_ARCHS.
set(CUZK_CUDA_ARCHS "80-real;86-real;89-real;90-real;100-real;120" CACHE STRING
    "CUDA architectures for src/gpu (CMake CUDA_ARCHITECTURES syntax, e.g. 90 or 80-virtual)")
if(DEFINED CUZK_CUDA_ARCH)
  message(WARNING "CUZK_CUDA_ARCH is deprecated: taken as CUZK_CUDA_ARCHS=${CUZK_CUDA_ARCH}")
  set(CUZK_CUDA_ARCHS "${CUZK_CUDA_ARCH}" CACHE STRING "" FORCE)
  unset(CUZK_CUDA_ARCH CACHE)
endif()
# Further real architectures whose device code is compiled, never linked (empty: none): the
# object library cuzk_gpu_archs, every src/gpu/*.cu (and the field benchmark's kernels)
# compiled once to PTX for the lowest of them and from that PTX to SASS for each, so that a
# build for one architecture (CI's, `make build-cuda`) shows that the others compile too, at
# the cost of one front end (cicc) pass per file rather than one per architecture.
set(CUZK_CUDA_CHECK_ARCHS "" CACHE STRING
    "More real CUDA architectures (numbers, e.g. 80;86;89;100;120) whose device code is compiled but not linked")
find_package(CUDAToolkit REQUIRED)

# Every number named must be one this nvcc compiles for (nvcc 13 dropped everything below
# sm_75): said at configure time, not as an nvcc error in the middle of the build.
execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE cuzk_nvcc_archs ERROR_QUIET)
string(REGEX MATCHALL "compute_[0-9]+" cuzk_nvcc_archs "${cuzk_nvcc_archs}")
function(cuzk_cuda_check_arch number var)
  if(cuzk_nvcc_archs AND NOT "compute_${number}" IN_LIST cuzk_nvcc_archs)
    string(REPLACE ";" " " known "${cuzk_nvcc_archs}")
    message(FATAL_ERROR "${var}: ${CMAKE_CUDA_COMPILER} does not compile for architecture ${number} (it knows ${known})")
  endif()
endfunction()

# The architectures as text for `cuzk --version` ("sm_80 sm_90 + compute_90 PTX"): no ';',
# which would split the compile definition that carries it.
set(cuzk_sass "")
set(cuzk_ptx "")
foreach(arch IN LISTS CUZK_CUDA_ARCHS)
  if(arch MATCHES "^([0-9]+)(-real|-virtual)?$")
    cuzk_cuda_check_arch(${CMAKE_MATCH_1} CUZK_CUDA_ARCHS)
    if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
      list(APPEND cuzk_sass "sm_${CMAKE_MATCH_1}")
    endif()
    if(NOT CMAKE_MATCH_2 STREQUAL "-real")
      list(APPEND cuzk_ptx "compute_${CMAKE_MATCH_1}")
    endif()
  else()
    list(APPEND cuzk_sass "${arch}") # all, all-major, native: CMake's to expand
  endif()
endforeach()
string(REPLACE ";" " " CUZK_CUDA_ARCHS_TEXT "${cuzk_sass}")
if(cuzk_ptx)
  string(REPLACE ";" " " cuzk_ptx "${cuzk_ptx}")
  if(CUZK_CUDA_ARCHS_TEXT)
    string(APPEND CUZK_CUDA_ARCHS_TEXT " + ")
  endif()
  string(APPEND CUZK_CUDA_ARCHS_TEXT "${cuzk_ptx} PTX")
endif()
if(NOT CUZK_CUDA_ARCHS_TEXT)
  message(FATAL_ERROR "CUZK_CUDA_ARCHS is empty: name at least one architecture (e.g. 90)")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${CUZK_CUDA_ARCHS}")
message(STATUS "CUDA architectures: ${CUZK_CUDA_ARCHS_TEXT} (CUZK_CUDA_ARCHS=${CUZK_CUDA_ARCHS})")

# The C warning flags of the directory are not nvcc's: start from a clean list. The device
# code spells its private headers "gpu/...", from src/. With several architectures nvcc
# compiles them in parallel threads (--threads 0: one per CPU): msm_g2.cu alone takes minutes
# per architecture, and make's jobs run file against file only.
function(cuzk_cuda_target target)
  set_target_properties(${target} PROPERTIES COMPILE_OPTIONS "" CUDA_ARCHITECTURES "${CUZK_CUDA_ARCHS}"
                                             CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3 -lineinfo -Xcompiler=-Wall,-Wno-unknown-pragmas,-fno-strict-aliasing>)
  list(LENGTH CUZK_CUDA_ARCHS n)
  if(n GREATER 1)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--threads=0>)
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/src)
endfunction()

# the tuning keys (gpu_config.c) and the placement (placement.c) are plain C, the same with and
# without CUDA
cuzk_layer(gpu PUBLIC groth16 r1cs SOURCES ${CUZK_GPU_SOURCES} ${CMAKE_SOURCE_DIR}/src/gpu/gpu_config.c ${CMAKE_SOURCE_DIR}/src/gpu/placement.c)
cuzk_cuda_target(cuzk_gpu)
target_link_libraries(cuzk_gpu PUBLIC CUDA::cudart_static)
target_compile_definitions(cuzk_gpu PUBLIC CUZK_HAVE_CUDA=1)

# The check of further architectures (CUZK_CUDA_CHECK_ARCHS, above): built with the rest, but
# nothing links it.
if(CUZK_CUDA_CHECK_ARCHS)
  set(cuzk_low "")
  set(cuzk_codes "")
  foreach(arch IN LISTS CUZK_CUDA_CHECK_ARCHS)
    if(NOT arch MATCHES "^[0-9]+$")
      message(FATAL_ERROR "CUZK_CUDA_CHECK_ARCHS: '${arch}' is not an architecture number (e.g. 86)")
    endif()
    cuzk_cuda_check_arch(${arch} CUZK_CUDA_CHECK_ARCHS)
    if(NOT cuzk_low OR arch LESS cuzk_low)
      set(cuzk_low ${arch})
    endif()
    list(APPEND cuzk_codes sm_${arch})
  endforeach()
  string(REPLACE ";" "," cuzk_codes "${cuzk_codes}")
  add_library(cuzk_gpu_archs OBJECT ${CUZK_GPU_SOURCES} ${CMAKE_SOURCE_DIR}/bench/gpu_field/field_bench.cu)
  cuzk_cuda_target(cuzk_gpu_archs)
  set_target_properties(cuzk_gpu_archs PROPERTIES CUDA_ARCHITECTURES OFF)
  target_compile_options(cuzk_gpu_archs PRIVATE --generate-code=arch=compute_${cuzk_low},code=[${cuzk_codes}]
                                                --threads=0)
  # cuzk_gpu's includes and definitions, without linking it: linked, the check would wait for
  # the whole library to be built before its first compile
  target_include_directories(cuzk_gpu_archs PRIVATE $<TARGET_PROPERTY:cuzk_gpu,INCLUDE_DIRECTORIES>
                                                    ${CMAKE_SOURCE_DIR}/bench/gpu_field)
  target_compile_definitions(cuzk_gpu_archs PRIVATE $<TARGET_PROPERTY:cuzk_gpu,COMPILE_DEFINITIONS>)
  message(STATUS "CUDA device code also compiled (not linked) for ${cuzk_codes} from compute_${cuzk_low} PTX")
endif()
