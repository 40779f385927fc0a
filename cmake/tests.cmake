# Every tests/unit/test_*.c is one test program, run by ctest.
file(GLOB CUZK_UNIT_TESTS CONFIGURE_DEPENDS tests/unit/test_*.c)
file(GLOB CUZK_TEST_SUPPORT CONFIGURE_DEPENDS tests/unit/harness.c tests/unit/support_*.c)
foreach(src ${CUZK_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} ${CUZK_TEST_SUPPORT})
  target_include_directories(${name} PRIVATE src tests/unit)
  target_link_libraries(${name} PRIVATE cuzk_core)
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
