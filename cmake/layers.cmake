# The library's layers, one static library each (docs/DESIGN.md, "Layers", is the table these
# follow; scripts/check-layers.sh checks both the includes and the cuzk_layer lines below
# against it). A layer's public headers are under include/<layer>/cuzk/, and a target sees
# only its own root and those of the layers it links: a dependency is PUBLIC when the layer's
# public header includes that layer's header, PRIVATE otherwise, so an include of a layer the
# table does not allow fails to compile. Private headers sit next to their sources (included
# by file name), out of every other layer's reach.

# cuzk_layer(NAME [PUBLIC layer...] [PRIVATE layer...] [SOURCES file...]): the library cuzk_NAME
# from SOURCES, or from src/NAME/*.c when none are given.
function(cuzk_layer name)
  cmake_parse_arguments(L "" "" "PUBLIC;PRIVATE;SOURCES" ${ARGN})
  if(NOT L_SOURCES)
    file(GLOB L_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.c)
  endif()
  add_library(cuzk_${name} STATIC ${L_SOURCES})
  target_include_directories(cuzk_${name} PUBLIC ${CMAKE_SOURCE_DIR}/include/${name})
  foreach(scope PUBLIC PRIVATE)
    foreach(dep ${L_${scope}})
      target_link_libraries(cuzk_${name} ${scope} cuzk_${dep})
    endforeach()
  endforeach()
endfunction()

cuzk_layer(base)
target_link_libraries(cuzk_base PUBLIC Threads::Threads m)
cuzk_layer(ff PUBLIC base)
target_link_libraries(cuzk_ff PUBLIC blst)
cuzk_layer(hash PUBLIC ff)
cuzk_layer(r1cs PUBLIC ff)
target_include_directories(cuzk_r1cs PRIVATE ${XXHASH_INCLUDE})
cuzk_layer(gadgets PUBLIC r1cs PRIVATE hash)
cuzk_layer(circuits PUBLIC r1cs)
cuzk_layer(groth16 PUBLIC r1cs)
target_link_libraries(cuzk_groth16 PRIVATE PkgConfig::JANSSON)
cuzk_layer(filecoin PUBLIC ff circuits gadgets PRIVATE hash)
target_link_libraries(cuzk_filecoin PRIVATE PkgConfig::LIBCRYPTO)
# gpu: cmake/cuda.cmake (the CUDA prover, or the stub without nvcc)
include(cmake/cuda.cmake)
cuzk_layer(engine PUBLIC circuits groth16 r1cs gpu PRIVATE filecoin hash)
target_link_libraries(cuzk_engine PRIVATE PkgConfig::JANSSON) # traces (trace_json.c)

# server: cmake/server.cmake (the daemon: gRPC, protobuf-c, libmicrohttpd)
include(cmake/server.cmake)

# Beside the layers: the named test circuits, which the production path never links.
cuzk_layer(testcircuits PUBLIC circuits PRIVATE gadgets hash filecoin)

# Every layer, for the cli and the tests (which may use them all).
add_library(cuzk_all INTERFACE)
target_link_libraries(cuzk_all INTERFACE cuzk_base cuzk_ff cuzk_hash cuzk_r1cs cuzk_gadgets cuzk_circuits
                      cuzk_groth16 cuzk_filecoin cuzk_gpu cuzk_engine cuzk_server cuzk_testcircuits)
