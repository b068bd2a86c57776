# The two set-up commands of the README. Each installs what it needs (scripts/install-deps.sh),
# configures with CMake presets, builds and runs.
#   make demo   - install, build, run the demo
#   make test   - install, build (with -Werror), run the test suite (labels slow and gpu skipped)
# Other targets: make build, make bench, make test-slow, make asan, make format, make clean.

PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: deps node-tools build demo test test-slow bench asan format clean

deps:
	bash scripts/install-deps.sh

# The independent checkers' npm packages (@noble/curves, snarkjs): best effort, tests skip without.
node-tools:
	bash scripts/install-node-tools.sh

build: deps
	cmake --preset $(PRESET)
	cmake --build --preset $(PRESET) -j $(JOBS)

DEMO_N ?= 65533
DEMO_DIR ?= build/demo
DEMO_SHAPE ?= small
Z = ./build/$(PRESET)/apps/zkpipe/zkpipe

# The demo: self-checks; a PoRep-shaped job (the `small` preset: a 64-node SDR sector with SHA-256
# labels, 4 partitions of 437,416 constraints) from a generated sector: development keys (about 10 s),
# its input file, a 4-partition proof and its verification against public inputs derived
# from the commitments and the seed; then 3 jobs of 2 synthetic partitions (2^16 domain) through the
# engine's pipeline with self-verification, a report and a timeline plot.
demo: build
	$(Z) selftest
	$(Z) setup --circuit porep --shape $(DEMO_SHAPE) --out $(DEMO_DIR)
	$(Z) gen-input --shape $(DEMO_SHAPE) --seed 1 --out $(DEMO_DIR)/c1.json
	$(Z) prove --params $(DEMO_DIR)/porep-$(DEMO_SHAPE).params --circuit porep --shape $(DEMO_SHAPE) \
	    --input $(DEMO_DIR)/c1.json --out $(DEMO_DIR)/porep-proof.bin --public-out $(DEMO_DIR)/porep-public.json
	$(Z) verify --vk $(DEMO_DIR)/porep-$(DEMO_SHAPE).vk --circuit porep --shape $(DEMO_SHAPE) \
	    --input $(DEMO_DIR)/c1.json --proof $(DEMO_DIR)/porep-proof.bin
	$(Z) bench --circuit synthetic --constraints $(DEMO_N) --jobs 3 --partitions 2 \
	    --verify --plot $(DEMO_DIR)/timeline.svg

test: deps node-tools
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
