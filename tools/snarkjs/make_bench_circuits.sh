#!/usr/bin/env bash
# Build the BN254 (circom "bn128") benchmark circuits used to compare provers:
# chains of circomlib Poseidon(2) hashes sized to fill a 2^16 and a 2^18
# evaluation domain.
#
# Usage: make_bench_circuits.sh OUTDIR
#
# Produces in OUTDIR:
#   p16.circom p16.r1cs p16.wtns p16-input.json p16_js/   (domain 2^16)
#   p18.circom p18.r1cs p18.wtns p18-input.json p18_js/   (domain 2^18)
#   chain.circom   (the shared PoseidonChain template)
#
# Sizing: with --O2, circomlib's Poseidon(2) is exactly 240 constraints and the
# chain adds none, so nConstraints = 240*N. snarkjs adds nPublic+1 rows to the
# QAP (here nPublic = 2: the output `out` and the public input `x0`), so the
# domain stays 2^k as long as 240*N + 3 <= 2^k:
#   2^16: N = 273  -> 65,520 constraints (+3 = 65,523)
#   2^18: N = 1092 -> 262,080 constraints (+3 = 262,083)
# The script checks this bound after compiling and fails if it is exceeded.
#
# Requirements: node + npm (the npm registry must be reachable on first run).
# Pinned tool versions: circom2 0.2.19 (WASM build of circom 2.1.9),
# circomlib 2.0.5, snarkjs 0.7.5.
#
# Environment overrides: N16, N18 (chain lengths), JOBS_NICE (nice level, default 0).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

OUT=$1
N16=${N16:-273}
N18=${N18:-1092}
NICE=${JOBS_NICE:-0}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$OUT"

run() { nice -n "$NICE" "$@"; }

# 1. Tools, installed locally with exact versions.
if [ ! -f package.json ]; then
    echo '{ "name": "zkpipe-bench-circuits", "private": true }' > package.json
fi
run npm install --no-audit --no-fund --save-exact \
    circom2@0.2.19 circomlib@2.0.5 snarkjs@0.7.5

CIRCOM="$OUT/node_modules/.bin/circom2"
SNARKJS="$OUT/node_modules/.bin/snarkjs"
"$CIRCOM" --version

# 2. Circuit sources.
cat > chain.circom <<'EOF'
pragma circom 2.1.9;

include "circomlib/circuits/poseidon.circom";

// h[0] = x0, h[i+1] = Poseidon(h[i], y), out = h[N].
template PoseidonChain(N) {
    signal input x0;
    signal input y;
    signal output out;

    signal h[N + 1];
    component p[N];

    h[0] <== x0;
    for (var i = 0; i < N; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== h[i];
        p[i].inputs[1] <== y;
        h[i + 1] <== p[i].out;
    }
    out <== h[N];
}
EOF

build() {
    local name=$1 n=$2 logn=$3
    cat > "$name.circom" <<EOF
pragma circom 2.1.9;

include "chain.circom";

component main {public [x0]} = PoseidonChain($n);
EOF
    echo "== compiling $name (N=$n)"
    local t0=$SECONDS
    run "$CIRCOM" "$name.circom" --r1cs --wasm --O2 --prime bn128 \
        -l "$OUT/node_modules" -o "$OUT"
    echo "   compiled in $((SECONDS - t0)) s"

    cat > "$name-input.json" <<EOF
{ "x0": "1", "y": "2" }
EOF
    echo "== witness $name"
    run node "${name}_js/generate_witness.js" "${name}_js/$name.wasm" \
        "$name-input.json" "$name.wtns"

    echo "== r1cs info $name"
    local info
    info=$("$SNARKJS" r1cs info "$name.r1cs" | sed 's/\x1b\[[0-9;]*m//g')
    echo "$info"
    local ncons npub nout
    ncons=$(echo "$info" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
    npub=$(echo "$info" | sed -n 's/.*# of Public Inputs: *\([0-9]*\).*/\1/p')
    nout=$(echo "$info" | sed -n 's/.*# of Outputs: *\([0-9]*\).*/\1/p')
    local rows=$((ncons + npub + nout + 1))
    echo "   constraints + nPublic + 1 = $rows (limit $((1 << logn)))"
    if [ "$rows" -gt $((1 << logn)) ]; then
        echo "error: $name does not fit a 2^$logn domain" >&2
        exit 1
    fi
}

build p16 "$N16" 16
build p18 "$N18" 18

echo "done: $OUT/p16.r1cs $OUT/p16.wtns $OUT/p18.r1cs $OUT/p18.wtns"
