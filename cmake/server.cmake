# The daemon's layer (src/server): the cuzk.v1 gRPC service over the engine, its client, and the
# HTTP /metrics and /status endpoint. gRPC's C core, protobuf-c, libmicrohttpd and libssl (TLS on
# the TCP listen, src/server/tls_*.c) are Debian's; the message code is generated at build time
# from proto/cuzk/v1/proving.proto.
pkg_check_modules(GRPC REQUIRED IMPORTED_TARGET grpc)
pkg_check_modules(LIBSSL REQUIRED IMPORTED_TARGET libssl)
pkg_check_modules(PROTOBUF_C REQUIRED IMPORTED_TARGET libprotobuf-c)
pkg_check_modules(MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
find_program(PROTOC_C protoc-c REQUIRED)

set(CUZK_PROTO_OUT ${CMAKE_BINARY_DIR}/proto)
set(CUZK_PROTO_C ${CUZK_PROTO_OUT}/cuzk/v1/proving.pb-c.c)
add_custom_command(
  OUTPUT ${CUZK_PROTO_C} ${CUZK_PROTO_OUT}/cuzk/v1/proving.pb-c.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CUZK_PROTO_OUT}
  COMMAND ${PROTOC_C} --proto_path=${CMAKE_SOURCE_DIR}/proto --c_out=${CUZK_PROTO_OUT} cuzk/v1/proving.proto
  DEPENDS ${CMAKE_SOURCE_DIR}/proto/cuzk/v1/proving.proto
  COMMENT "protoc-c: cuzk/v1/proving.proto")
# generated code: not held to the project's warning flags
set_source_files_properties(${CUZK_PROTO_C} PROPERTIES COMPILE_OPTIONS "-w")

file(GLOB CUZK_SERVER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/server/*.c)
cuzk_layer(server PUBLIC engine PRIVATE filecoin SOURCES ${CUZK_SERVER_SOURCES} ${CUZK_PROTO_C})
target_include_directories(cuzk_server PRIVATE ${CUZK_PROTO_OUT})
target_link_libraries(cuzk_server PRIVATE PkgConfig::GRPC PkgConfig::PROTOBUF_C PkgConfig::MHD PkgConfig::JANSSON
                                          PkgConfig::LIBSSL)
