#!/usr/bin/env bash
# The GPU check of issue 8, in two halves, because the device machine (the `device` tool) is bare:
# it has the CUDA toolkit but none of zkpipe's libraries, and nothing can be fetched there.
#
#   bash scripts/gpu-check.sh prepare [BUILD_DIR]   # here: build the GPU tests and benchmark (with
#        # CUDA; the `gpu` preset compiles sm_90 machine code, the H200's — the ci preset stops at PTX to
#        # save CI ~6 min of ptxas) in BUILD_DIR (default build/gpu) and copy them, stripped, with every
#        # shared library they need beyond glibc and the CUDA driver, into .gpu-carry/
#   bash scripts/gpu-check.sh run                    # there (device tool, carry [".gpu-carry"]):
#        # nvidia-smi, the kernels' differential tests (gpu_test), the device code on the CPU,
#        # the arithmetic rates (IMAD per SM per clock, Fq and Fr products per second),
#        # bench_gpu (MSM G1 2^20/2^22/2^24 random, bits-heavy and with resident bases, G2 2^22 bits-heavy, 2^24 streamed in 4 passes with
#        # its K/U for cards that cannot hold the key; 1 GiB
#        # uploads, the driver's against the staged copy; NTT 2^24/2^26 with kernel/copy
#        # split, quotient 2^20/2^24, prove_start 2^20 on both backends and PoRep-shaped partitions
#        # of 2^22/2^24), compute-sanitizer memcheck on the whole-proof tests, then prove_start of a
#        # 2^27 partition, then the MSMs of 2^26 and 2^27 points (random and bits-heavy, bases
#        # resident; G2 2^25, B_G2's size) and the NTT of 2^27; everything goes to $OUT (default .gpu-carry/out):
#        # gpu-check.txt, bench_gpu_rates.json, bench_gpu.json, bench_gpu_2p27.json,
#        # bench_gpu_large.json. Sections are ordered by value: a run cut short still brings back
#        # what it finished.
#
#        # Last, the whole 32 GiB PoRep C2 through the engine (`c2` runs only that): 3 proofs with
#        # a synthetic C1 and a benchmark key (random points; the proofs do not verify).
#
#   bash scripts/gpu-check.sh c2                     # there, like run: the whole C2 alone (~3 min)
#
#   bash scripts/gpu-check.sh profile                # there, like run: Nsight Compute's per-kernel
#        # times, occupancy and throughput for the MSM, NTT and quotient, and one sub-run launch in full
#
# One device call: run { command: "bash scripts/gpu-check.sh run", carry: [".gpu-carry"],
# timeout_s: 540 }. The targets of issue 8 (H200): MSM 2^24 < 150 ms, NTT 2^26 < 30 ms, a 2^27
# partition's prove_start < 1.0 s.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
CARRY=.gpu-carry

case "$mode" in
  prepare)
    B=${2:-build/gpu}
    if [ "$B" = build/gpu ]; then cmake --preset gpu >/dev/null || exit 1; fi
    cmake --build "$B" --target gpu_test gpu_device_code_test bench_gpu zkpipe -j "$(nproc)" || exit 1
    rm -rf "$CARRY" && mkdir -p "$CARRY/bin" "$CARRY/lib"
    for t in tests/gpu_test tests/gpu_device_code_test bench/bench_gpu apps/zkpipe/zkpipe; do
      cp "$B/$t" "$CARRY/bin/" && strip "$CARRY/bin/$(basename "$t")"
    done
    # Shared libraries beyond glibc and the CUDA driver (libcuda comes with the device's driver).
    for bin in "$CARRY"/bin/*; do
      ldd "$bin" | awk '/=> \// {print $3}'
    done | sort -u | while read -r lib; do
      case "$(basename "$lib")" in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libcuda.so*) ;;
        *) cp -L "$lib" "$CARRY/lib/" ;;
      esac
    done
    # One gzip archive (unpacked by `run`): the binaries and libraries are ~60 MB as files, and the
    # carry must stay under 64 MiB with the working tree.
    tar -czf "$CARRY/carry.tar.gz" -C "$CARRY" bin lib && rm -rf "$CARRY/bin" "$CARRY/lib" || exit 1
    du -sh "$CARRY"
    echo "ready: carry $CARRY (must stay under 64 MiB with the working tree)"
    ;;
  run | c2)
    OUT=${OUT:-$CARRY/out}
    mkdir -p "$OUT"
    [ -d "$CARRY/bin" ] || tar -xzf "$CARRY/carry.tar.gz" -C "$CARRY" || exit 1
    export LD_LIBRARY_PATH="$PWD/$CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export ZKPIPE_TEST_DATA_DIR="$PWD/tests/data"  # the binaries were built against another path
    SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2> /dev/null || true)
    LARGE='BM_Msm<Bls1, true, (false|true), true>/(26|27)|BM_Msm<Bls2, true, true, true>/25|BM_Ntt<BlsFr, true>/27'
    bench() {  # $1: seconds at most, $2: the benchmark filter, $3: the JSON file under $OUT
      timeout "$1" "$CARRY/bin/bench_gpu" --benchmark_filter="$2" --benchmark_out="$OUT/$3" \
        --benchmark_out_format=json 2>&1
    }
    whole_c2() {
      # PoRep C2 of 32 GiB sectors through the engine as a storage provider runs it: a consistent
      # synthetic C1 (gen-c1 --synthetic), 3 proofs of 10 partitions, 12 synthesis workers and 2
      # prover workers per GPU, the key a BENCHMARK KEY of the real key's sizes (random points: the
      # proofs do not verify, and the report says so). ~51 GB of key and ~40 GB of partitions.
      echo "== whole 32 GiB PoRep C2 through the engine (synthetic C1; benchmark key: proofs do not verify)"
      timeout 30 "$CARRY/bin/zkpipe" gen-c1 --synthetic --sector-size 32GiB --out "$OUT/c1-32g.json" 2>&1 | tail -2
      timeout "${C2_TIMEOUT:-300}" "$CARRY/bin/zkpipe" bench --circuit porep --shape 32GiB --input "$OUT/c1-32g.json" \
        --params benchmark-key --device gpu --jobs 3 --synthesis-workers 12 --prover-workers 2 --plot "$OUT/c2-32g.svg" 2>&1 | tail -30
      echo "c2 exit ${PIPESTATUS[0]}"
      rm -f "$OUT/c1-32g.json"
    }
    if [ "$mode" = c2 ]; then
      { echo "== $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1; whole_c2; } | tee "$OUT/c2.txt"
      exit 0
    fi
    {
      echo "== $(date -u +%FT%TZ) $(uname -m)"
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
      echo "== gpu_test (kernels vs CPU)"
      timeout 150 "$CARRY/bin/gpu_test" 2>&1
      echo "gpu_test exit $?"
      echo "== device code on the CPU"
      timeout 30 "$CARRY/bin/gpu_device_code_test" --gtest_brief=1 2>&1
      echo "gpu_device_code_test exit $?"
      echo "== arithmetic rates (32-bit multiply-adds per SM per clock; Fq, Fr products)"
      bench 60 'BM_ImadRate|BM_FieldProductRate' bench_gpu_rates.json
      echo "rates exit $?"
      echo "== bench_gpu (all but the 2^26-2^27 MSMs and NTT, and the 2^27 partition)"
      bench 200 "-$LARGE|BM_ProveStart2p27|BM_ImadRate|BM_FieldProductRate" bench_gpu.json
      echo "bench_gpu exit $?"
      if [ -n "$SAN" ]; then
        echo "== compute-sanitizer memcheck (the small whole-proof cases)"
        timeout 90 "$SAN" --tool memcheck --error-exitcode 9 "$CARRY/bin/gpu_test" --gtest_filter='GpuGroth16.*' 2>&1 | tail -40
        echo "memcheck exit ${PIPESTATUS[0]}"
      else
        echo "== compute-sanitizer not found: memcheck skipped"
      fi
      echo "== prove_start of a 2^27 partition (PoRep-32G's domain; ~70 GB of host memory)"
      bench 150 BM_ProveStart2p27 bench_gpu_2p27.json
      echo "bench_gpu 2^27 exit $?"
      echo "== MSM 2^26 / 2^27 (random, bits-heavy; bases resident) and NTT 2^27: issue 42's table"
      bench 150 "$LARGE" bench_gpu_large.json
      echo "bench_gpu large exit $?"
      C2_TIMEOUT=200 whole_c2
    } | tee "$OUT/gpu-check.txt"
    ;;
  profile)
    # Where the device time goes (after `prepare`; one device call like `run`): Nsight Compute's
    # per-kernel duration, occupancy and throughput for the MSM (random 2^22, bits 2^20), the NTT
    # and the quotient (2^24), and the full report of one MSM sub-run launch (stall reasons; the
    # first launch is the benchmark's one-point warm-up, skipped).
    OUT=${OUT:-$CARRY/out}
    mkdir -p "$OUT"
    [ -d "$CARRY/bin" ] || tar -xzf "$CARRY/carry.tar.gz" -C "$CARRY" || exit 1
    export LD_LIBRARY_PATH="$PWD/$CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2> /dev/null | head -1)
    [ -n "$NCU" ] || { echo "ncu not found"; exit 1; }
    M=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed
    M=$M,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread
    M=$M,launch__occupancy_limit_registers,launch__grid_size,smsp__inst_executed.sum
    i=0
    for f in 'BM_Msm<Bls1, true>/22' 'BM_Msm<Bls1, true, true>/20' 'BM_Ntt<BlsFr, true>/24' 'BM_Quotient<BlsFr, true>/24'; do
      i=$((i + 1))
      echo "== ncu summary: $f"
      timeout 150 "$NCU" --clock-control none --metrics "$M" --print-summary per-kernel --csv \
        "$CARRY/bin/bench_gpu" --benchmark_filter="$f" > "$OUT/ncu-$i.csv" 2>&1
      echo "ncu exit $?"
      grep -E 'gpu__time_duration|registers_per_thread|warps_active' "$OUT/ncu-$i.csv" | cut -c1-400 | head -60
    done
    echo "== ncu full: one sub-run launch of the 2^22 MSM"
    timeout 150 "$NCU" --clock-control none --set full --kernel-name regex:subrun_kernel --launch-skip 1 --launch-count 1 \
      -o "$OUT/subrun" "$CARRY/bin/bench_gpu" --benchmark_filter='BM_Msm<Bls1, true>/22' > /dev/null 2>&1
    echo "ncu exit $?"
    "$NCU" --import "$OUT/subrun.ncu-rep" --page details > "$OUT/subrun-details.txt" 2>&1
    grep -iE 'stall|issued|eligible|occupancy|registers|spill|local|throughput|duration' "$OUT/subrun-details.txt" | head -60
    ;;
  *)
    echo "usage: gpu-check.sh prepare [BUILD_DIR] | run | c2 | profile" >&2
    exit 2
    ;;
esac
