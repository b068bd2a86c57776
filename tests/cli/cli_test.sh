#!/bin/sh
# End-to-end CLI check: setup, prove (2 partitions), verify, inspect, and the exit codes for an
# invalid proof (1) and malformed input (2). Usage: cli_test.sh path/to/zkpipe
set -u
Z="$1"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for curve in bls12-381 bn254; do
  "$Z" setup --constraints 300 --curve $curve --seed 9 --out "$D" > "$D/setup.txt" || fail "setup $curve"
  P="$D/synthetic-$curve-n300"
  "$Z" prove --curve $curve --params "$P.params" --constraints 300 --seed 4 --partitions 2 \
      --out "$D/proof.bin" --public-out "$D/public.json" > /dev/null || fail "prove $curve"
  "$Z" verify --curve $curve --vk "$P.vk" --proof "$D/proof.bin" --public "$D/public.json" || fail "verify $curve"
  "$Z" inspect --json "$D/proof.bin" | grep -q '"partitions":2' || fail "inspect proof $curve"
  "$Z" inspect "$P.params" | grep -q "parameters" || fail "inspect params $curve"
  # A .params with bytes after b_g2 (not an MPC transcript), or a damaged point: inspect and prove
  # refuse it alike, naming why (issue 47).
  { cat "$P.params"; printf 'trailing'; } > "$D/trailing.params"
  "$Z" inspect "$D/trailing.params" > /dev/null 2> "$D/err.txt"
  [ $? -eq 2 ] && grep -q "8 bytes follow the b_g2 section" "$D/err.txt" || fail "inspect trailing params ($curve): $(cat "$D/err.txt")"
  "$Z" prove --curve $curve --params "$D/trailing.params" --constraints 300 --out "$D/x.bin" 2> "$D/err.txt"
  [ $? -eq 2 ] && grep -q "8 bytes follow the b_g2 section" "$D/err.txt" || fail "prove with trailing params ($curve): $(cat "$D/err.txt")"
  # Wrong public input: exit 1.
  sed 's/"4"/"5"/' "$D/public.json" > "$D/wrong.json"
  "$Z" verify --curve $curve --vk "$P.vk" --proof "$D/proof.bin" --public "$D/wrong.json" > /dev/null
  [ $? -eq 1 ] || fail "wrong input must exit 1 ($curve)"
  # Malformed inputs: exit 2.
  head -c 100 "$D/proof.bin" > "$D/short.bin"
  "$Z" verify --curve $curve --vk "$P.vk" --proof "$D/short.bin" --public "$D/public.json" 2> /dev/null
  [ $? -eq 2 ] || fail "truncated proof must exit 2 ($curve)"
  "$Z" verify --curve $curve --vk "$D/public.json" --proof "$D/proof.bin" --public "$D/public.json" 2> /dev/null
  [ $? -eq 2 ] || fail "bad vk must exit 2 ($curve)"
  # A .params file serves as the key; a .vk with anything after it does not.
  "$Z" verify --curve $curve --vk "$P.params" --proof "$D/proof.bin" --public "$D/public.json" > /dev/null \
      || fail "params as --vk ($curve)"
  { cat "$P.vk"; printf 'trailing'; } > "$D/trailing.vk"
  "$Z" verify --curve $curve --vk "$D/trailing.vk" --proof "$D/proof.bin" --public "$D/public.json" 2> "$D/err.txt"
  [ $? -eq 2 ] && grep -q "after the verifying key" "$D/err.txt" || fail "trailing bytes after a vk must exit 2 ($curve)"
  echo '["x"]' > "$D/bad.json"
  "$Z" verify --curve $curve --vk "$P.vk" --proof "$D/proof.bin" --public "$D/bad.json" 2> /dev/null
  [ $? -eq 2 ] || fail "bad public.json must exit 2 ($curve)"
  # A key for another size: a clear error, not a wrong proof.
  "$Z" prove --curve $curve --params "$P.params" --constraints 301 --out "$D/x.bin" 2> "$D/err.txt"
  [ $? -eq 2 ] && grep -q "mismatch" "$D/err.txt" || fail "mismatched key must be refused ($curve)"
done
# --device: cpu always works; gpu without a device is a clear refusal (exit 2), with one a proof
# that verifies; `devices` says which.
P="$D/synthetic-bn254-n300"
"$Z" prove --curve bn254 --params "$P.params" --constraints 300 --device cpu --out "$D/cpu.bin" \
    --public-out "$D/public.json" | grep -q "prove_start on the CPU" || fail "prove --device cpu"
"$Z" verify --curve bn254 --vk "$P.vk" --proof "$D/cpu.bin" --public "$D/public.json" || fail "verify --device cpu"
"$Z" devices --json > "$D/devices.json" || fail "devices"
if grep -q '"devices":\[\]' "$D/devices.json"; then
  "$Z" prove --curve bn254 --params "$P.params" --constraints 300 --device gpu --out "$D/gpu.bin" 2> "$D/err.txt"
  [ $? -eq 2 ] && grep -q "device gpu was asked for" "$D/err.txt" || fail "--device gpu without a GPU must exit 2"
  "$Z" devices | grep -q "no GPU" || fail "devices must say there is no GPU"
else
  "$Z" prove --curve bn254 --params "$P.params" --constraints 300 --device gpu --out "$D/gpu.bin" \
      --public-out "$D/public.json" > /dev/null || fail "prove --device gpu"
  "$Z" verify --curve bn254 --vk "$P.vk" --proof "$D/gpu.bin" --public "$D/public.json" || fail "verify --device gpu"
fi
"$Z" prove --curve bn254 --params "$P.params" --constraints 300 --device tpu --out "$D/x.bin" 2> "$D/err.txt"
[ $? -eq 2 ] && grep -q "unknown prover device" "$D/err.txt" || fail "--device tpu must exit 2"
"$Z" setup --constraints 1 --out "$D" 2> /dev/null
[ $? -eq 2 ] || fail "--constraints 1 must exit 2"
"$Z" setup --constraints 10 --curve nope --out "$D" 2> /dev/null
[ $? -eq 2 ] || fail "unknown curve must exit 2"
# The engine in-process: real proofs through the pipeline, a trace that parses as JSON.
"$Z" bench --constraints 500 --jobs 2 --partitions 2 --synthesis-workers 2 --verify --json --trace "$D/trace.json" \
  --plot "$D/plot.svg" > "$D/bench.json" || fail "bench"
python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$D/plot.svg" || fail "plot is not valid SVG"
"$Z" bench --constraints 300 --jobs 1 --partitions 2 --sweep synthesis-workers=1..2 --json > "$D/sweep.json" || fail "sweep"
grep -q '"synthesis_workers":2' "$D/sweep.json" || fail "sweep table"
"$Z" bench --sweep workers=3 2> /dev/null
[ $? -eq 2 ] || fail "bad --sweep must exit 2"
"$Z" bench --constraints 300 --device cpu --gpu-resident lots 2> "$D/err"
[ $? -eq 2 ] && grep -q "gpu-resident" "$D/err" || fail "a bad --gpu-resident must exit 2 naming it: $(cat "$D/err")"
grep -q "development setup" "$D/err" && fail "a bad --gpu-resident must be refused before the setup: $(cat "$D/err")"
grep -q '"ok":true' "$D/bench.json" || fail "bench reports failure"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert any(e.get('name')=='prove_start' for e in d['traceEvents'])" \
  "$D/trace.json" || fail "trace is not valid Chrome trace JSON"
# The planner: the reference profile, and a profile written by bench.
"$Z" plan --reference porep-32g --memory-gib 256 | grep -q "recommended" || fail "plan reference"
"$Z" bench --constraints 300 --jobs 2 --partitions 2 --json > "$D/profile.json" || fail "bench profile"
"$Z" plan --profile "$D/profile.json" --memory-gib 8 --synthesis-workers 1 --json | grep -q '"s_per_proof"' || fail "plan profile"
"$Z" plan --memory-gib 8 2> /dev/null
[ $? -eq 2 ] || fail "plan without a profile must exit 2"
echo "cli ok"
