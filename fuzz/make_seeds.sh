#!/bin/sh
# Makes the small seed inputs of fuzz/seeds/ with zkpipe itself (the snarkjs targets also read
# tests/data/snarkjs directly): bellman params / vk / proof and public.json of tiny synthetic
# circuits on both curves, a tiny PoRep-shaped C1 input, 2 KiB Filecoin C1s (plain and wrapped), 2 KiB PoSt inputs (window, winning), the example daemon configuration.
# Usage: fuzz/make_seeds.sh path/to/zkpipe
set -eu
Z="$1"
S="$(dirname "$0")/seeds"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for curve in bls12-381 bn254; do
  "$Z" setup --circuit synthetic --constraints 4 --curve "$curve" --seed 1 --out "$T" > /dev/null
  "$Z" prove --params "$T/synthetic-$curve-n4.params" --circuit synthetic --constraints 4 --curve "$curve" \
      --partitions 2 --out "$T/proof-$curve.bin" --public-out "$T/public-$curve.json" > /dev/null
  cp "$T/synthetic-$curve-n4.params" "$S/bellman_params/$curve.params"
  cp "$T/synthetic-$curve-n4.vk" "$S/bellman_vk/$curve.vk"
  cp "$T/proof-$curve.bin" "$S/bellman_proof/$curve.bin"
  cp "$T/public-$curve.json" "$S/public_json/$curve.json"
done
"$Z" gen-c1 --sector-size 2KiB --data-seed 1 --out "$S/filecoin_c1/2kib.json" > /dev/null
"$Z" gen-c1 --sector-size 2KiB --data-seed 2 --wrap --out "$S/filecoin_c1/2kib-wrapped.json" > /dev/null
mkdir -p "$S/filecoin_post_input"
"$Z" gen-vanilla --kind window-post --sectors 2 --data-seed 1 --out "$S/filecoin_post_input/window-2kib.json" > /dev/null
"$Z" gen-vanilla --kind winning-post --data-seed 2 --out "$S/filecoin_post_input/winning-2kib.json" > /dev/null
cp "$(dirname "$0")/../zkpipe.example.toml" "$S/config/example.toml"
# seeds/snarkpack_srs/dev-4-2.srs (kept, not remade here): write_srs(development_srs(1, 4, 2)),
# src/snarkpack/srs.hpp, from a one-off program; no command writes an SRS yet.
# A real SnarkPack V2 aggregate (NI-PoRep, 8 MiB, 16 proofs; rust-fil-proofs' seal regression
# records, via the team's shared testdata: ../shared/testdata/filecoin/snarkpack/README.md).
AGG="$(dirname "$0")/../../shared/testdata/filecoin/snarkpack/ni-8388608-line5.json"
if [ -f "$AGG" ]; then
  mkdir -p "$S/snarkpack_aggregate"
  python3 -c 'import json,sys; sys.stdout.buffer.write(bytes.fromhex(json.load(open(sys.argv[1]))["aggregate_proof_hex"]))' \
      "$AGG" > "$S/snarkpack_aggregate/ni-8mib-16.bin"
fi
# verify's PoSt arguments: byte 0 the registered proof, byte 1 the partition (0xff none), then sectors.
mkdir -p "$S/post_verify_args"
printf '\n\37740:%064d\n41:%064d\n42:%064d\n' 0 0 0 > "$S/post_verify_args/three_sectors"
printf '\0\0-18446744073709551615:%064d\n 1:%064d\n+1:%064d\n1:%064d\n' 0 0 0 0 > "$S/post_verify_args/lenient_numbers"
