# Runs at install time (install(CODE) of cmake/install.cmake, component systemd): writes
# contrib/cuzk.service to <prefix>/lib/systemd/system/ (under DESTDIR when set) with ExecStart
# naming the binary where this install put it. CMAKE_INSTALL_PREFIX here is the install's own
# prefix (`cmake --install --prefix P`), not the one the build was configured with, so the unit
# names the right binary whatever prefix `make install PREFIX=...` was given.
# Set by the caller: CUZK_UNIT_SOURCE (the unit file) and CUZK_UNIT_BINDIR (relative or absolute).
if(IS_ABSOLUTE "${CUZK_UNIT_BINDIR}")
  set(bindir "${CUZK_UNIT_BINDIR}")
else()
  set(bindir "${CMAKE_INSTALL_PREFIX}/${CUZK_UNIT_BINDIR}")
endif()
file(READ "${CUZK_UNIT_SOURCE}" unit)
# The shipped unit names /usr/local/bin/cuzk (the default prefix); only that word changes.
set(shipped "ExecStart=/usr/local/bin/cuzk ")
string(FIND "${unit}" "${shipped}" at)
if(at LESS 0)
  message(FATAL_ERROR "${CUZK_UNIT_SOURCE}: no '${shipped}' line to point at the installed binary")
endif()
string(REPLACE "${shipped}" "ExecStart=${bindir}/cuzk " unit "${unit}")

# Written directly (file(INSTALL) needs a source file, and staging one in the build tree would
# write there at install time); recorded in the install manifest as file(INSTALL) would.
set(dest "${CMAKE_INSTALL_PREFIX}/lib/systemd/system/cuzk.service")
message(STATUS "Installing: $ENV{DESTDIR}${dest}")
file(WRITE "$ENV{DESTDIR}${dest}" "${unit}")
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${dest}")
