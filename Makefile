# The two set-up commands of the README. Each installs what it needs (scripts/install-deps.sh),
# configures with CMake presets, builds and runs.
#   make demo   - install, build the zkpipe binary only (the demo preset), run the demo
#   make test   - install, build (with -Werror), run the test suite (labels slow and gpu skipped)
# Other targets: make build, make bench, make test-slow, make asan, make fuzz, make package, make format,
# make clean.

PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: deps node-tools build demo test test-slow bench asan fuzz package format clean

deps:
	bash scripts/install-deps.sh

# The independent checkers' npm packages (@noble/curves, snarkjs): best effort, tests skip without.
node-tools:
	bash scripts/install-node-tools.sh

build: deps
	cmake --preset $(PRESET)
	cmake --build --preset $(PRESET) -j $(JOBS)

DEMO_DIR ?= build/demo
DEMO_SIZE ?= 2KiB

# The demo (scripts/demo.sh): Filecoin's PoRep C2 for a 2 KiB sector on the exact circuit.
# Self-checks; development keys under Filecoin's file names (made once, ~1 min, then reused) and
# `params check`; a sealed sector's C1; 2 jobs through the engine's pipeline with self-verification
# and the report (stage times, s/proof, peak RSS, ledger high-water marks, a timeline plot); then
# cuzk's wrapped C1 through `zkpipe serve`, verified from the C1's public values, the daemon's
# status, and SIGTERM.
# It builds only the zkpipe binary (the demo preset: no tests, no benchmarks) and CUDA code only
# when this machine has an NVIDIA GPU (for its own architecture) or CUDA=ON asks for it.
CUDA ?= $(shell nvidia-smi -L >/dev/null 2>&1 && echo ON || echo OFF)
DEMO_CUDA_ARCH = $(if $(filter ON,$(CUDA)),$(shell nvidia-smi -L >/dev/null 2>&1 && echo -DCMAKE_CUDA_ARCHITECTURES=native),)
demo: deps
	cmake --preset demo -DZK_ENABLE_CUDA=$(CUDA) $(DEMO_CUDA_ARCH)
	cmake --build --preset demo -j $(JOBS)
	bash scripts/demo.sh ./build/demo-bin/apps/zkpipe/zkpipe $(DEMO_DIR) $(DEMO_SIZE)

# A Debian package (CPack; cmake/packaging.cmake): the binary (CUDA for sm_80 and sm_90 when nvcc
# is found), the systemd unit, /etc/zkpipe/zkpipe.toml, the Grafana dashboard -> build/package/*.deb
package: deps
	cmake --preset package
	cmake --build --preset package -j $(JOBS)
	cd build/package && cpack

test: deps node-tools
	cmake --preset ci
	cmake --build --preset ci -j $(JOBS)
	ctest --preset ci
	$(MAKE) fuzz FUZZ_SECONDS=5

# libFuzzer targets for every parser under ASan + UBSan (clang; docs/fuzzing.md): FUZZ_SECONDS per
# target (`make test` runs 5 s each; e.g. `make fuzz FUZZ_SECONDS=3600` for a long run).
FUZZ_SECONDS ?= 300
fuzz: deps
	cmake --preset fuzz -DZK_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build --preset fuzz -j $(JOBS)
	ctest --preset fuzz

test-slow: build
	ctest --test-dir build/$(PRESET) --output-on-failure -L slow

bench: build
	./build/$(PRESET)/bench/bench_field
	./build/$(PRESET)/bench/bench_curve
	./build/$(PRESET)/bench/bench_ntt
	./build/$(PRESET)/bench/bench_msm
	./build/$(PRESET)/bench/bench_verify

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf build
