# cuzk: a root Makefile that installs what is missing, drives CMake and runs the jobs.
#   make demo   - set up, prove and verify the built-in demo job, printing its timeline
#   make test   - build and run every test (unit, CLI, interop)
#   make asan   - the same tests built with AddressSanitizer and UBSan
#   make install - build, then install under PREFIX (default /usr/local; DESTDIR stages it):
#                 bin/cuzk, lib/libcuzk.a, include/cuzk/, lib/pkgconfig/cuzk.pc, share/doc/cuzk/
# BLST_DIR=/path uses an installed blst instead of fetching it; JOBS=n sets build parallelism.

BUILD    ?= build
ASAN     ?= build-asan
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX   ?= /usr/local
DESTDIR  ?=

.PHONY: all deps build demo test asan interop-deps install clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

interop-deps:
	@scripts/install-interop.sh

demo: build
	$(BUILD)/cuzk demo --cache $(BUILD)/test-cache

test: build interop-deps
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: deps interop-deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && CUZK_TEST_QUICK=1 CUZK_TEST_CACHE=$(CURDIR)/$(BUILD)/test-cache ctest --output-on-failure -j $(JOBS)

# The install rules are CMake's (cmake/install.cmake); the prefix is given at install time, so
# one build installs anywhere. -DCUZK_INSTALL_SYSTEMD=ON in CMAKE_FLAGS adds the systemd unit.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(ASAN)
