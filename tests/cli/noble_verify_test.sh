#!/bin/sh
# zkpipe's proofs checked by an independent verifier (tools/noble/verify_groth16.mjs, @noble/curves).
# Skips (exit 77) when node or the pinned @noble/curves (npm ci in tools/noble) is not installed.
# Usage: noble_verify_test.sh path/to/zkpipe path/to/tools/noble
set -u
Z="$1"
NOBLE="$2"
if ! command -v node > /dev/null 2>&1 || [ ! -d "$NOBLE/node_modules/@noble/curves" ]; then
  echo "SKIPPED: node or @noble/curves missing (run: cd tools/noble && npm ci)"
  exit 77
fi
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
"$Z" setup --constraints 700 --seed 3 --out "$D" > /dev/null || { echo "FAIL: setup"; exit 1; }
"$Z" prove --params "$D/synthetic-bls12-381-n700.params" --constraints 700 --seed 11 --partitions 3 \
    --out "$D/proof.bin" --public-out "$D/public.json" > /dev/null || { echo "FAIL: prove"; exit 1; }
node "$NOBLE/verify_groth16.mjs" "$D/synthetic-bls12-381-n700.vk" "$D/proof.bin" "$D/public.json" || { echo "FAIL: noble rejects zkpipe's proofs"; exit 1; }
sed 's/"12"/"13"/' "$D/public.json" > "$D/wrong.json"
node "$NOBLE/verify_groth16.mjs" "$D/synthetic-bls12-381-n700.vk" "$D/proof.bin" "$D/wrong.json" > /dev/null
[ $? -eq 1 ] || { echo "FAIL: noble accepts a wrong public input"; exit 1; }
echo "noble verifier agrees"
