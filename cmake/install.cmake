# Installation (`make install`, or `cmake --install BUILD --prefix P`, DESTDIR honoured): the
# cuzk binary, one static library libcuzk.a, the public headers under include/cuzk/, the
# pkg-config file cuzk.pc, the example configuration, and (CUZK_INSTALL_SYSTEMD) the unit.
include(GNUInstallDirs)
option(CUZK_INSTALL_SYSTEMD "Install contrib/cuzk.service into lib/systemd/system" OFF)

# The layers of the library users link; testcircuits and the cli are not part of it. A user
# names one library, not a dozen in link order, so the layer archives and blst's (which the ff
# layer's code calls, and which ff.h includes) go into one archive.
set(CUZK_LIBRARY_LAYERS base ff hash r1cs gadgets circuits groth16 filecoin gpu engine server)
set(CUZK_ARCHIVE ${CMAKE_BINARY_DIR}/libcuzk.a)
set(archive_inputs)
set(archive_deps)
foreach(layer ${CUZK_LIBRARY_LAYERS})
  list(APPEND archive_inputs $<TARGET_FILE:cuzk_${layer}>)
  list(APPEND archive_deps cuzk_${layer})
endforeach()
list(APPEND archive_inputs ${BLST_LIB})
# Only the API's names leave the archive (cuzk_*: merge_archives.cmake); without a linker and
# objcopy (neither found) it is a plain merge, and the install test says what it exports.
set(localize)
if(CMAKE_LINKER AND CMAKE_OBJCOPY)
  set(localize -DLD=${CMAKE_LINKER} -DOBJCOPY=${CMAKE_OBJCOPY} "-DKEEP=cuzk_*")
endif()
list(JOIN archive_inputs "$<SEMICOLON>" archive_inputs_arg)
add_custom_command(
  OUTPUT ${CUZK_ARCHIVE}
  COMMAND ${CMAKE_COMMAND} -DAR=${CMAKE_AR} -DRANLIB=${CMAKE_RANLIB} -DOUT=${CUZK_ARCHIVE}
          -DWORK=${CMAKE_BINARY_DIR}/libcuzk.parts "-DINPUTS=${archive_inputs_arg}" ${localize}
          -P ${CMAKE_SOURCE_DIR}/cmake/merge_archives.cmake
  DEPENDS ${archive_deps} ${BLST_LIB} ${CMAKE_SOURCE_DIR}/cmake/merge_archives.cmake
  COMMENT "libcuzk.a: the library's layers and blst in one archive"
  VERBATIM)
add_custom_target(cuzk_archive ALL DEPENDS ${CUZK_ARCHIVE})

install(TARGETS cuzk RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CUZK_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Headers: the API alone (docs/API.md), into include/cuzk/: the engine, the server and its
# client, verification, configuration, status codes, progress and the version. The layers'
# other headers are internal: they change with the code and are not installed.
set(CUZK_PUBLIC_HEADERS
    base/cuzk/status.h base/cuzk/version.h base/cuzk/progress.h base/cuzk/config.h engine/cuzk/engine.h
    server/cuzk/server.h groth16/cuzk/verify.h)
foreach(h ${CUZK_PUBLIC_HEADERS})
  install(FILES ${CMAKE_SOURCE_DIR}/include/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cuzk)
endforeach()
get_filename_component(blst_root ${BLST_INCLUDE} DIRECTORY)
foreach(lic ${blst_root}/LICENSE.blst ${blst_root}/LICENSE)
  if(EXISTS ${lic})
    install(FILES ${lic} DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME LICENSE.blst)
    break()
  endif()
endforeach()

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}), so the same
# file works under any --prefix, moved, or read from a DESTDIR staging tree.
set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR} OR IS_ABSOLUTE ${CMAKE_INSTALL_INCLUDEDIR})
  set(CUZK_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
  set(CUZK_PC_LIBDIR ${CMAKE_INSTALL_FULL_LIBDIR})
  set(CUZK_PC_INCLUDEDIR ${CMAKE_INSTALL_FULL_INCLUDEDIR})
else()
  file(RELATIVE_PATH up /p/${pc_dir} /p)
  string(REGEX REPLACE "/$" "" up "${up}")
  set(CUZK_PC_PREFIX "\${pcfiledir}/${up}")
  set(CUZK_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(CUZK_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# What the archive's code calls beyond itself, for `pkg-config --libs --static cuzk`: the
# libraries of the layers' pkg-config packages (groth16: jansson; filecoin: libcrypto; server:
# grpc, libprotobuf-c, libmicrohttpd, libssl) as the cuzk binary links them, base's threads and libm,
# and with CUDA the gpu layer's static CUDA runtime (which needs dl and rt) and the C++ runtime
# its host code uses (std::vector, std::mutex). Named in Libs.private rather than as
# Requires.private packages: with those, --static also asks for each package's own static
# dependencies (libmicrohttpd's gnutls, libunistring, ...), which a system holding only their
# shared libraries does not have, and which libcuzk.a does not need.
set(pc_libs)
foreach(dep JANSSON LIBCRYPTO GRPC PROTOBUF_C MHD LIBSSL)
  list(APPEND pc_libs ${${dep}_LDFLAGS})
endforeach()
list(APPEND pc_libs -lpthread -lm)
if(CUZK_HAVE_CUDA)
  list(PREPEND pc_libs -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lstdc++)
endif()
# a sanitized build's archive calls the sanitizers' runtimes: a program links them too
if(CUZK_SANITIZE)
  list(PREPEND pc_libs -fsanitize=address,undefined)
endif()
list(JOIN pc_libs " " CUZK_PC_LIBS_PRIVATE)
configure_file(${CMAKE_SOURCE_DIR}/cmake/cuzk.pc.in ${CMAKE_BINARY_DIR}/cuzk.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cuzk.pc DESTINATION ${pc_dir})

install(FILES ${CMAKE_SOURCE_DIR}/contrib/cuzk.ini.example DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The systemd unit is its own component, installed with the rest only when CUZK_INSTALL_SYSTEMD
# is ON (`cmake --install BUILD --component systemd` installs it alone either way). Its
# ExecStart names the binary where this install puts it, so it is written at install time,
# when the prefix (`--prefix`) is known: see cmake/install_unit.cmake.
if(CUZK_INSTALL_SYSTEMD)
  set(unit_exclude)
else()
  set(unit_exclude EXCLUDE_FROM_ALL)
endif()
install(CODE "set(CUZK_UNIT_SOURCE [[${CMAKE_SOURCE_DIR}/contrib/cuzk.service]])
set(CUZK_UNIT_BINDIR [[${CMAKE_INSTALL_BINDIR}]])
include([[${CMAKE_SOURCE_DIR}/cmake/install_unit.cmake]])"
        COMPONENT systemd ${unit_exclude})
