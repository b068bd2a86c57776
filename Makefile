# The two set-up commands of the README. Each installs what it needs (scripts/install-deps.sh),
# configures with CMake presets, builds and runs.
#   make demo   - install, build, run the demo
#   make test   - install, build (with -Werror), run the test suite (labels slow and gpu skipped)
# Other targets: make build, make bench, make test-slow, make asan, make format, make clean.

PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: deps build demo test test-slow bench asan format clean

deps:
	bash scripts/install-deps.sh

build: deps
	cmake --preset $(PRESET)
	cmake --build --preset $(PRESET) -j $(JOBS)

DEMO_N ?= 65533
DEMO_DIR ?= build/demo

# The demo: self-checks; a development setup, a 2-partition proof and its verification for the
# synthetic circuit with DEMO_N constraints (65533 + 3 input rows = a 2^16 domain); then 3 jobs of 2
# partitions through the engine's pipeline with self-verification, a report and a timeline plot.
demo: build
	./build/$(PRESET)/apps/zkpipe/zkpipe selftest
	./build/$(PRESET)/apps/zkpipe/zkpipe setup --circuit synthetic --constraints $(DEMO_N) --out $(DEMO_DIR)
	./build/$(PRESET)/apps/zkpipe/zkpipe prove --params $(DEMO_DIR)/synthetic-bls12-381-n$(DEMO_N).params \
	    --circuit synthetic --constraints $(DEMO_N) --partitions 2 \
	    --out $(DEMO_DIR)/proof.bin --public-out $(DEMO_DIR)/public.json
	./build/$(PRESET)/apps/zkpipe/zkpipe verify --vk $(DEMO_DIR)/synthetic-bls12-381-n$(DEMO_N).vk \
	    --proof $(DEMO_DIR)/proof.bin --public $(DEMO_DIR)/public.json
	./build/$(PRESET)/apps/zkpipe/zkpipe bench --circuit synthetic --constraints $(DEMO_N) --jobs 3 --partitions 2 \
	    --verify --plot $(DEMO_DIR)/timeline.svg

test: deps
	cmake --preset ci
	cmake --build --preset ci -j $(JOBS)
	ctest --preset ci

test-slow: build
	ctest --test-dir build/$(PRESET) --output-on-failure -L slow

bench: build
	./build/$(PRESET)/bench/bench_field
	./build/$(PRESET)/bench/bench_curve
	./build/$(PRESET)/bench/bench_ntt
	./build/$(PRESET)/bench/bench_msm

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf build
