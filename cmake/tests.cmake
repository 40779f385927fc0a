# Every tests/unit/test_*.c is one test program, run by ctest. The tests link every layer (a
# test may reach the private headers of the layer it tests, from src/); with CUDA,
# test_gpu_emu also links the host emulation of the single kernels (tests/gpu_emu).
if(CUZK_HAVE_CUDA)
  add_library(cuzk_gpu_emu STATIC tests/gpu_emu/emu.cu)
  cuzk_cuda_target(cuzk_gpu_emu)
  target_include_directories(cuzk_gpu_emu PUBLIC tests/gpu_emu)
  target_link_libraries(cuzk_gpu_emu PUBLIC cuzk_gpu)
endif()

# Tiers: every test has the ctest label `fast` or `slow`, and one of its kind (unit, cli,
# interop, daemon, check). `make check` runs `ctest -L fast`, `make test` every test. The split
# is by time, measured alone on a 2-core machine with the test cache warm: fast under 30 s,
# slow 30 s or more (PoRep and SnapDeals proofs, 8 MiB sectors, the daemon suites; the README
# gives each tier's time). A script's tier is its "# TIER fast|slow" line, with its time; the
# unit programs' is this list (the others are fast: test_ff, the longest, 28 s):
set(CUZK_SLOW_UNIT_TESTS
    test_engine          # 1-2 min: engines running many jobs, parameters up to random:262144
    test_fil_post        # 57 s: real 8 MiB sectors sealed, PoSt circuits checked on them
    test_fil_seal_sparse # 32 s: an 8 MiB sparse sector's circuits, 32 and 64 GiB sparse C1s
    test_fil_snap        # 98 s: an 8 MiB sector sealed and encoded, its partitions checked
    test_pce             # 77 s: each circuit family's example (PoRep 2 KiB too) precompiled
    )

# cuzk_script_tier(SCRIPT VAR): VAR = the tier of SCRIPT's "# TIER fast|slow" line; a script
# without one stops the configuration, so that no test is left out of both tiers.
function(cuzk_script_tier script var)
  file(STRINGS ${script} tier REGEX "^# TIER (fast|slow)" LIMIT_COUNT 1)
  string(REGEX REPLACE "^# TIER (fast|slow).*" "\\1" tier "${tier}")
  if(NOT tier)
    message(FATAL_ERROR "${script} has no '# TIER fast' or '# TIER slow' line (cmake/tests.cmake)")
  endif()
  set(${var} ${tier} PARENT_SCOPE)
endfunction()

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
  if(name STREQUAL "test_witness_values")
    target_sources(${name} PRIVATE src/cli/witness_values.c) # the CLI's counts, not in a library
  endif()
  if(name STREQUAL "test_trace")
    target_link_libraries(${name} PRIVATE PkgConfig::JANSSON) # parses the traces back
  endif()
  if(name STREQUAL "test_gpu_emu" AND CUZK_HAVE_CUDA)
    target_link_libraries(${name} PRIVATE cuzk_gpu_emu)
  endif()
  set(tier fast)
  if(name IN_LIST CUZK_SLOW_UNIT_TESTS)
    set(tier slow)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77 LABELS "unit;${tier}"
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endforeach()

# CLI and interop tests are shell scripts: tests/cli/*.sh and tests/interop/*.sh get the cuzk binary.
file(GLOB CUZK_SCRIPT_TESTS CONFIGURE_DEPENDS tests/cli/*.sh tests/interop/*.sh)
foreach(script ${CUZK_SCRIPT_TESTS})
  get_filename_component(dir ${script} DIRECTORY)
  get_filename_component(dirname ${dir} NAME)
  get_filename_component(name ${script} NAME_WE)
  cuzk_script_tier(${script} tier)
  # 1200 s, or what the script's "# TIMEOUT SECONDS" line asks for (the sanitized builds prove
  # several times slower)
  file(STRINGS ${script} limit REGEX "^# TIMEOUT [0-9]+$" LIMIT_COUNT 1)
  string(REGEX REPLACE "^# TIMEOUT " "" limit "${limit}")
  if(NOT limit)
    set(limit 1200)
  endif()
  add_test(NAME ${dirname}_${name} COMMAND bash ${script} $<TARGET_FILE:cuzk>)
  set_tests_properties(${dirname}_${name} PROPERTIES TIMEOUT ${limit} SKIP_RETURN_CODE 77 LABELS "${dirname};${tier}"
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR}")
endforeach()

# Daemon tests: tests/daemon/*.sh get the cuzk binary, each under its own name (daemon_*) and
# with the time limit its "# TIMEOUT SECONDS" line asks for (they start daemons and clients).
file(GLOB CUZK_DAEMON_TESTS CONFIGURE_DEPENDS tests/daemon/*.sh)
list(FILTER CUZK_DAEMON_TESTS EXCLUDE REGEX "/daemon_soak\\.sh$")
foreach(script ${CUZK_DAEMON_TESTS})
  get_filename_component(name ${script} NAME_WE)
  file(STRINGS ${script} limit REGEX "^# TIMEOUT [0-9]+$" LIMIT_COUNT 1)
  string(REGEX REPLACE "^# TIMEOUT " "" limit "${limit}")
  if(NOT limit)
    set(limit 1200)
  endif()
  cuzk_script_tier(${script} tier)
  add_test(NAME ${name} COMMAND bash ${script} $<TARGET_FILE:cuzk>)
  set_tests_properties(${name} PROPERTIES TIMEOUT ${limit} SKIP_RETURN_CODE 77 LABELS "daemon;${tier}"
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR}")
endforeach()

# The soak (tests/daemon/daemon_soak.sh): `make test` runs it for 20 s (daemon_soak_short, about
# 40 s in all alone on 2 cores); the long run, SOAK_SECONDS of traffic (default 600), only when
# asked: `make soak` (ctest -C soak -L soak; a test of configuration `soak` is left out of every
# other ctest run).
set(soak_script ${CMAKE_SOURCE_DIR}/tests/daemon/daemon_soak.sh)
add_test(NAME daemon_soak_short COMMAND bash ${soak_script} $<TARGET_FILE:cuzk>)
set_tests_properties(daemon_soak_short PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS "daemon;slow"
                     ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR};SOAK_SECONDS=20;SOAK_VERIFY_MAX=15")
add_test(NAME daemon_soak COMMAND bash ${soak_script} $<TARGET_FILE:cuzk> CONFIGURATIONS soak)
set_tests_properties(daemon_soak PROPERTIES TIMEOUT 86400 SKIP_RETURN_CODE 77 LABELS "soak"
                     ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUZK_BUILD_DIR=${CMAKE_BINARY_DIR}")

# The layer table holds: no include reaches a layer the table does not allow (scripts/check-layers.sh).
add_test(NAME check_layers COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/check-layers.sh)
# Every C and CUDA file is as the root .clang-format lays it out (scripts/check-format.sh; it
# fails where clang-format is missing: scripts/install-deps.sh installs it). Seconds, both.
add_test(NAME check_format COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/check-format.sh)
add_test(NAME check_api COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/check-api.sh)
set_tests_properties(check_layers check_format check_api PROPERTIES LABELS "check;fast")
