# Every tests/unit/test_*.c is one test program, run by ctest. The tests link every layer (a
# test may reach the private headers of the layer it tests, from src/); with CUDA,
# test_gpu_emu also links the host emulation of the single kernels (tests/gpu_emu).
if(CUZK_HAVE_CUDA)
  add_library(cuzk_gpu_emu STATIC tests/gpu_emu/emu.cu)
  cuzk_cuda_target(cuzk_gpu_emu)
  target_include_directories(cuzk_gpu_emu PUBLIC tests/gpu_emu)
  target_link_libraries(cuzk_gpu_emu PUBLIC cuzk_gpu)
endif()

file(GLOB CUZK_UNIT_TESTS CONFIGURE_DEPENDS tests/unit/test_*.c)
file(GLOB CUZK_TEST_SUPPORT CONFIGURE_DEPENDS tests/unit/harness.c tests/unit/support_*.c)
foreach(src ${CUZK_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} ${CUZK_TEST_SUPPORT})
  target_include_directories(${name} PRIVATE src tests/unit)
  target_link_libraries(${name} PRIVATE cuzk_all)
  if(name STREQUAL "test_server")
    # the server's handlers are tested directly: its generated messages and gRPC's headers
    target_include_directories(${name} PRIVATE ${CUZK_PROTO_OUT})
    target_link_libraries(${name} PRIVATE PkgConfig::GRPC PkgConfig::PROTOBUF_C PkgConfig::JANSSON)
  endif()
  if(name STREQUAL "test_gpu_emu" AND CUZK_HAVE_CUDA)
    target_link_libraries(${name} PRIVATE cuzk_gpu_emu)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endforeach()

# CLI and interop tests are shell scripts: tests/cli/*.sh and tests/interop/*.sh get the cuzk binary.
file(GLOB CUZK_SCRIPT_TESTS CONFIGURE_DEPENDS tests/cli/*.sh tests/interop/*.sh)
foreach(script ${CUZK_SCRIPT_TESTS})
  get_filename_component(dir ${script} DIRECTORY)
  get_filename_component(dirname ${dir} NAME)
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME ${dirname}_${name} COMMAND bash ${script} $<TARGET_FILE:cuzk>)
  set_tests_properties(${dirname}_${name} PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR}")
endforeach()

# Daemon tests: tests/daemon/*.sh get the cuzk binary, each under its own name (daemon_*) and
# with the time limit its "# TIMEOUT SECONDS" line asks for (they start daemons and clients).
file(GLOB CUZK_DAEMON_TESTS CONFIGURE_DEPENDS tests/daemon/*.sh)
foreach(script ${CUZK_DAEMON_TESTS})
  get_filename_component(name ${script} NAME_WE)
  file(STRINGS ${script} limit REGEX "^# TIMEOUT [0-9]+$" LIMIT_COUNT 1)
  string(REGEX REPLACE "^# TIMEOUT " "" limit "${limit}")
  if(NOT limit)
    set(limit 1200)
  endif()
  add_test(NAME ${name} COMMAND bash ${script} $<TARGET_FILE:cuzk>)
  set_tests_properties(${name} PROPERTIES TIMEOUT ${limit} SKIP_RETURN_CODE 77
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR}")
endforeach()

# The layer table holds: no include reaches a layer the table does not allow (scripts/check-layers.sh).
add_test(NAME check_layers COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/check-layers.sh)
# Every C and CUDA file is as the root .clang-format lays it out (scripts/check-format.sh).
add_test(NAME check_format COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/check-format.sh)
set_tests_properties(check_format PROPERTIES SKIP_RETURN_CODE 77)
