# cuzk: a root Makefile that installs what is missing, drives CMake and runs the jobs.
#   make demo   - build the cuzk binary only, then set up (once, cached), prove and verify the
#                 built-in demo job, printing each step with its time
#   make test   - build and run every test (unit, CLI, interop)
#   make check  - build and run the fast tier only (ctest -L fast): minutes, not the slow tier's
#                 PoRep proofs and daemon suites (the README gives each tier's time)
#   make build-cuda - compile everything with the CUDA prover forced on (CUZK_CUDA=ON, in
#                 build-cuda), GPU or not, for sm_90, plus the device code of the other
#                 architectures (not linked), and run the GPU tests (host emulation of the kernels)
#   make build-cuda-all - the same for every architecture of a release (sm_80 to sm_120 +
#                 PTX), in build-cuda-all: what a binary for any NVIDIA GPU is built with
#   make soak   - the daemon under SOAK_SECONDS (default 600) of hostile traffic beside a steady
#                 stream of test proofs (tests/daemon/daemon_soak.sh); not part of make test,
#                 which runs it for 20 s
#   make asan   - the same tests built with AddressSanitizer and UBSan
#   make tsan   - the tests of the threaded layers (pools, engine, server, daemon) built with
#                 ThreadSanitizer in build-tsan; any report fails it (kept in build-tsan/tsan/)
#   make fuzz   - the libFuzzer targets (tests/fuzz) built with clang in build-fuzz, each run for
#                 FUZZ_SECONDS (default 60) on its seed corpus; fails when one finds a crash
#   make install - build, then install under PREFIX (default /usr/local; DESTDIR stages it):
#                 bin/cuzk, lib/libcuzk.a, include/cuzk/, lib/pkgconfig/cuzk.pc, share/doc/cuzk/
# BLST_DIR=/path uses an installed blst instead of fetching it; JOBS=n sets build parallelism.

BUILD    ?= build
ASAN     ?= build-asan
TSAN     ?= build-tsan
CUDA_BUILD ?= build-cuda
CUDA_ALL_BUILD ?= build-cuda-all
FUZZ     ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC  ?= $(shell command -v clang-14 || command -v clang)
JOBS     ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX   ?= /usr/local
DESTDIR  ?=

.PHONY: all deps build build-cuda build-cuda-all demo test check soak asan tsan fuzz interop-deps install clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	@t0=$$(date +%s); echo "cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)"; \
	  cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) && \
	  echo "configured $(BUILD) (blst fetched and built when missing) in $$(( $$(date +%s) - t0 )) s"

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

interop-deps:
	@scripts/install-interop.sh

# The demo needs the cuzk binary only (not the tests); its parameters go to the parameter cache
# folder (FIL_PROOFS_PARAMETER_CACHE, default /var/tmp/filecoin-proof-parameters, under
# cuzk-test-* names; README "The demo"), which `make clean` leaves alone.
demo: deps $(BUILD)/CMakeCache.txt
	@t0=$$(date +%s); echo "make demo: building the cuzk binary in $(BUILD) (-j $(JOBS))"; \
	  cmake --build $(BUILD) -j $(JOBS) --target cuzk && \
	  echo "make demo: cuzk built in $$(( $$(date +%s) - t0 )) s"
	$(BUILD)/cuzk demo $(DEMO_FLAGS)

# CUDA kernels compile on any machine with nvcc, GPU or not (nothing here runs them); blst comes
# from the main build when that has made it.
CUDA_BLST = $(if $(BLST_DIR),,$(if $(wildcard $(BUILD)/_deps/blst/lib/libblst.a),-DBLST_DIR=$(CURDIR)/$(BUILD)/_deps/blst))
# The tests of GPU code then run there: test_gpu_emu runs the kernels' code in host emulation,
# test_gpu skips without a device.
# Architectures (cmake/cuda_targets.cmake): build-cuda, CI's, builds and tests the kernels for
# CUDA_ARCHS only (sm_90 + compute_90 PTX, about 6 min on 2 cores), and compiles the device
# code of CUDA_CHECK_ARCHS into objects nothing links (CUZK_CUDA_CHECK_ARCHS: compute_80 PTX
# once per file, then SASS for each; about 8 more minutes on 2 cores, against about 15 for
# five more full compiles), so that CI shows every architecture of a release compiles.
# build-cuda-all builds the release set (CUZK_CUDA_ARCHS' default: SASS for each, compute_120
# PTX; on 2 cores about 6 times build-cuda's CUDA compile).
CUDA_ARCHS ?= 90
CUDA_CHECK_ARCHS ?= 80;86;89;100;120
build-cuda: deps
	cmake -S . -B $(CUDA_BUILD) -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCUZK_CUDA_ARCHS='$(CUDA_ARCHS)' \
	  -DCUZK_CUDA_CHECK_ARCHS='$(CUDA_CHECK_ARCHS)' $(CUDA_BLST) $(CMAKE_FLAGS)
	cmake --build $(CUDA_BUILD) -j $(JOBS)
	cd $(CUDA_BUILD) && { ctest --output-on-failure -j $(JOBS) -R gpu; rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; exit $$rc; }

build-cuda-all: deps
	cmake -S . -B $(CUDA_ALL_BUILD) -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -UCUZK_CUDA_ARCHS \
	  -DCUZK_CUDA_CHECK_ARCHS= $(CUDA_BLST) $(CMAKE_FLAGS)
	cmake --build $(CUDA_ALL_BUILD) -j $(JOBS)
	cd $(CUDA_ALL_BUILD) && { ctest --output-on-failure -j $(JOBS) -R gpu; rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; exit $$rc; }

# ctest says only "Skipped"; the reasons the tests printed follow its summary.
test: build interop-deps
	cd $(BUILD) && { ctest --output-on-failure -j $(JOBS); rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; exit $$rc; }

# The fast tier (the ctest label `fast`; cmake/tests.cmake says which tests, and why): the run
# to make after each change.
check: build interop-deps
	cd $(BUILD) && { ctest --output-on-failure -j $(JOBS) -L fast; rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; exit $$rc; }

# The soak (cmake/tests.cmake: the ctest configuration `soak`, left out of every other run),
# verbose: its summary block is the point of the run.
SOAK_SECONDS ?= 600
soak: build interop-deps
	cd $(BUILD) && SOAK_SECONDS=$(SOAK_SECONDS) ctest -V -C soak -L soak

asan: deps interop-deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && { CUZK_TEST_QUICK=1 CUZK_TEST_CACHE=$(CURDIR)/$(BUILD)/test-cache \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp ctest --output-on-failure -j $(JOBS); \
	  rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; exit $$rc; }

# ThreadSanitizer: the unit tests of the pools, engine and server, and the daemon's CLI and
# hostile-client suites (the proving-heavy suites would take hours under TSan). A race is written
# to $(TSAN)/tsan/report.PID and fails the run even where the process went on (a daemon a
# script started); blst comes from the main build when that has made it.
TSAN_TESTS ?= ^(test_pool|test_progress|test_engine_lock|test_engine|test_engine_progress|test_server|test_http|cli_daemon_cli|daemon_hostile)$$
TSAN_BLST = $(if $(BLST_DIR),,$(if $(wildcard $(BUILD)/_deps/blst/lib/libblst.a),-DBLST_DIR=$(CURDIR)/$(BUILD)/_deps/blst))
tsan: deps interop-deps
	cmake -S . -B $(TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_TSAN=ON -DCUZK_CUDA=OFF $(TSAN_BLST) $(CMAKE_FLAGS)
	cmake --build $(TSAN) -j $(JOBS)
	rm -rf $(TSAN)/tsan && mkdir -p $(TSAN)/tsan
	cd $(TSAN) && { TSAN_OPTIONS="log_path=$(CURDIR)/$(TSAN)/tsan/report suppressions=$(CURDIR)/tests/tsan.supp second_deadlock_stack=1 history_size=4" \
	  CUZK_TEST_TSAN=1 CUZK_TEST_QUICK=1 CUZK_TEST_CACHE=$(CURDIR)/$(BUILD)/test-cache ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)'; \
	  rc=$$?; $(CURDIR)/scripts/ctest-skips.sh .; \
	  if ls tsan/report.* >/dev/null 2>&1; then cat tsan/report.*; \
	    echo "make tsan: $$(ls tsan/report.* | wc -l) ThreadSanitizer report(s) above ($(TSAN)/tsan)"; exit 1; fi; \
	  echo "make tsan: no ThreadSanitizer report"; exit $$rc; }

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

# The build folders only: the parameter cache folder (the demo's files) stays.
clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ) $(CUDA_BUILD) $(CUDA_ALL_BUILD)
