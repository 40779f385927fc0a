# The libFuzzer targets (tests/fuzz/fuzz_*.c, one per parser) and the program that writes their
# seed corpus (tests/fuzz/corpus_gen.c), for a build configured with -DCUZK_FUZZ=ON and clang
# (CMakeLists.txt instruments every library for it). `make fuzz` configures build-fuzz, builds
# the target fuzz_all and runs tests/fuzz/run.sh; see tests/fuzz/README.md.
file(GLOB CUZK_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
set(CUZK_FUZZ_SUPPORT ${CMAKE_SOURCE_DIR}/tests/fuzz/support.c)
add_custom_target(fuzz_all)

function(cuzk_fuzz_program name)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/tests/fuzz
                                             ${CUZK_PROTO_OUT} ${XXHASH_INCLUDE})
  target_link_libraries(${name} PRIVATE cuzk_all PkgConfig::JANSSON PkgConfig::GRPC PkgConfig::PROTOBUF_C)
  add_dependencies(fuzz_all ${name})
endfunction()

foreach(src ${CUZK_FUZZ_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} ${CUZK_FUZZ_SUPPORT})
  # sector.json is the CLI's: its reader is compiled in
  if(name STREQUAL "fuzz_sector_json")
    target_sources(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/cli/sector_json.c)
  endif()
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  cuzk_fuzz_program(${name})
endforeach()

add_executable(fuzz_corpus_gen ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus_gen.c ${CUZK_FUZZ_SUPPORT}
                               ${CMAKE_SOURCE_DIR}/src/cli/sector_json.c)
cuzk_fuzz_program(fuzz_corpus_gen)
