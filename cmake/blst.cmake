# blst: an installed copy named by BLST_DIR, otherwise fetched from the npm package
# @chainsafe/blst@0.2.11 (integrity-checked) and built into the build tree, never the source tree.
if(BLST_DIR)
  find_library(BLST_LIB NAMES blst PATHS ${BLST_DIR} ${BLST_DIR}/lib NO_DEFAULT_PATH REQUIRED)
  find_path(BLST_INCLUDE blst.h PATHS ${BLST_DIR} ${BLST_DIR}/include ${BLST_DIR}/bindings NO_DEFAULT_PATH REQUIRED)
else()
  set(BLST_BUILD_DIR ${CMAKE_BINARY_DIR}/_deps/blst)
  execute_process(COMMAND ${CMAKE_SOURCE_DIR}/scripts/fetch-blst.sh ${BLST_BUILD_DIR}
                  RESULT_VARIABLE BLST_RC)
  if(NOT BLST_RC EQUAL 0)
    message(FATAL_ERROR "could not fetch and build blst (scripts/fetch-blst.sh); set BLST_DIR to an installed blst instead")
  endif()
  set(BLST_LIB ${BLST_BUILD_DIR}/lib/libblst.a)
  set(BLST_INCLUDE ${BLST_BUILD_DIR}/include)
endif()
add_library(blst STATIC IMPORTED GLOBAL)
set_target_properties(blst PROPERTIES IMPORTED_LOCATION ${BLST_LIB}
                                      INTERFACE_INCLUDE_DIRECTORIES ${BLST_INCLUDE})
message(STATUS "blst: ${BLST_LIB}")
