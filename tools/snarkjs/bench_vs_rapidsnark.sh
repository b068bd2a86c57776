#!/usr/bin/env bash
# Side-by-side: zkpipe and another prover with rapidsnark's command line (`prover zkey wtns proof
# public`) on the same zkey and witness, with 2 threads (the whole machine here) and with one core
# (taskset -c 0: rapidsnark's thread pool ignores affinity, so it time-slices on that core).
# Reports hyperfine means, their ratio and peak RSS (/usr/bin/time), and checks both proofs with
# zkpipe verify (and snarkjs when tools/snarkjs has node_modules).
#
# Usage: bench_vs_rapidsnark.sh ZKPIPE PROVER DIR NAME...   e.g. ... build/release/apps/zkpipe/zkpipe
#        /tmp/rs/prover /tmp/circ p16 p18  (DIR from make_bench_circuits.sh; NAME.zkey is made by
#        `zkpipe setup --r1cs` when absent). Nothing here builds or fetches the other prover.
set -euo pipefail
Z=$(realpath "$1"); P=$(realpath "$2"); DIR=$3; shift 3
RUNS=${RUNS:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SNARKJS="$ROOT/tools/snarkjs/node_modules/.bin/snarkjs"
cd "$DIR"
for name in "$@"; do
  [ -f "$name.zkey" ] || "$Z" setup --r1cs "$name.r1cs" --seed 1 --zkey-out "$name.zkey" --vk-out "$name-vk.json"
  for mode in 2threads 1core; do
    pre=""; [ $mode = 1core ] && pre="taskset -c 0"
    hyperfine --runs "$RUNS" --warmup 1 --export-json "hf-$name-$mode.json" \
      -n zkpipe "$pre $Z prove $name.zkey $name.wtns z-proof.json z-public.json" \
      -n other "$pre $P $name.zkey $name.wtns o-proof.json o-public.json" > /dev/null
    rss_z=$( { /usr/bin/time -f "%M" $pre "$Z" prove "$name.zkey" "$name.wtns" z-proof.json z-public.json > /dev/null; } 2>&1 | tail -1)
    rss_o=$( { /usr/bin/time -f "%M" $pre "$P" "$name.zkey" "$name.wtns" o-proof.json o-public.json > /dev/null; } 2>&1 | tail -1)
    python3 - "$name" "$mode" "hf-$name-$mode.json" "$rss_z" "$rss_o" <<'PY'
import json, sys
name, mode, path, rz, ro = sys.argv[1:]
r = {x["command"]: x for x in json.load(open(path))["results"]}
z, o = r["zkpipe"], r["other"]
print(f"{name} {mode}: zkpipe {z['mean']:.3f} s ± {z['stddev']:.3f}, other {o['mean']:.3f} s ± {o['stddev']:.3f}, "
      f"ratio {z['mean'] / o['mean']:.2f}; peak RSS zkpipe {int(rz) / 1024:.0f} MiB, other {int(ro) / 1024:.0f} MiB "
      f"({int(rz) / int(ro):.2f})")
PY
    "$Z" verify --vk "$name-vk.json" --proof z-proof.json --public z-public.json > /dev/null
    "$Z" verify --vk "$name-vk.json" --proof o-proof.json --public o-public.json > /dev/null
    if [ -x "$SNARKJS" ]; then
      "$SNARKJS" groth16 verify "$name-vk.json" z-public.json z-proof.json | grep -q OK
    fi
  done
done
echo "both provers' proofs verified"
