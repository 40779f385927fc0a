# cuzk: a root Makefile that installs what is missing, drives CMake and runs the jobs.
#   make demo   - set up, prove and verify the built-in demo job, printing its timeline
#   make test   - build and run every test (unit, CLI, interop)
#   make asan   - the same tests built with AddressSanitizer and UBSan
#   make fuzz   - the libFuzzer targets (tests/fuzz) built with clang in build-fuzz, each run for
#                 FUZZ_SECONDS (default 60) on its seed corpus; fails when one finds a crash
#   make install - build, then install under PREFIX (default /usr/local; DESTDIR stages it):
#                 bin/cuzk, lib/libcuzk.a, include/cuzk/, lib/pkgconfig/cuzk.pc, share/doc/cuzk/
# BLST_DIR=/path uses an installed blst instead of fetching it; JOBS=n sets build parallelism.

BUILD    ?= build
ASAN     ?= build-asan
FUZZ     ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC  ?= $(shell command -v clang-14 || command -v clang)
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX   ?= /usr/local
DESTDIR  ?=

.PHONY: all deps build demo test asan fuzz interop-deps install clean

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

# The fuzz build is clang's (libFuzzer), in a folder of its own; blst comes from the main build
# when that has made it. FUZZ_TARGETS="fuzz_c1 fuzz_pce" runs only those.
FUZZ_BLST = $(if $(BLST_DIR),,$(if $(wildcard $(BUILD)/_deps/blst/lib/libblst.a),-DBLST_DIR=$(CURDIR)/$(BUILD)/_deps/blst))
fuzz:
	@scripts/install-deps.sh fuzz
	@test -n "$(FUZZ_CC)" || { echo "make fuzz: clang is not installed (FUZZ_CC=...)"; exit 1; }
	cmake -S . -B $(FUZZ) -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCMAKE_BUILD_TYPE=Debug -DCUZK_FUZZ=ON -DCUZK_CUDA=OFF $(FUZZ_BLST) $(CMAKE_FLAGS)
	cmake --build $(FUZZ) -j $(JOBS) --target fuzz_all
	tests/fuzz/run.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The install rules are CMake's (cmake/install.cmake); the prefix is given at install time, so
# one build installs anywhere. -DCUZK_INSTALL_SYSTEMD=ON in CMAKE_FLAGS adds the systemd unit.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)
