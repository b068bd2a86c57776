#!/usr/bin/env bash
# Reproduce the circom/snarkjs Groth16 test vectors for zkpipe from scratch.
# Produces <curve>/{mul.*, chain*} for curve in bn128, bls12381.
# Note: snarkjs mixes OS randomness into every contribution, so the ptau/zkey/proof
# bytes differ between runs; the r1cs, witness and public.json are deterministic.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

CIRCOM2_VERSION=0.2.19   # circom2 0.2.18 is not published on npm; 0.2.19 bundles circom 2.1.9
SNARKJS_VERSION=0.7.5

[ -f package.json ] || npm init -y >/dev/null
npm install --save-exact "circom2@${CIRCOM2_VERSION}" "snarkjs@${SNARKJS_VERSION}"

cat > mul.circom <<'CIRCOM'
pragma circom 2.0.0;
template Mul() {
  signal input a; signal input b; signal input c; signal input k;
  signal output out;
  signal ab;
  ab <== a * b;
  out <== ab * c + k;
}
component main {public [k]} = Mul();
CIRCOM

cat > chain.circom <<'CIRCOM'
pragma circom 2.0.0;
// x_{i+1} = x_i * x_i + i for N steps; public signals: [out (= x_N), x0]
template Chain(N) {
  signal input x0;
  signal output out;
  signal x[N + 1];
  x[0] <== x0;
  for (var i = 0; i < N; i++) {
    x[i + 1] <== x[i] * x[i] + i;
  }
  out <== x[N];
}
component main {public [x0]} = Chain(100);
CIRCOM

echo '{"a": "3", "b": "11", "c": "7", "k": "5"}' > input.json
echo '{"x0": "2"}' > chain-input.json

SNARKJS="npx --no-install snarkjs"
CIRCOM="npx --no-install circom2"

# build_one <prime> <ptau-curve> <circuit> <power> <input> <dest-prefix-for-r1cs/zkey> <dest-prefix-for-rest>
build_one() {
  local prime=$1 pcurve=$2 circ=$3 power=$4 input=$5 keyname=$6 pfx=$7
  local out="$ROOT/out-$prime" dest="$ROOT/$prime" w="$ROOT/out-$prime/work-$circ"
  mkdir -p "$out" "$dest" "$w"
  $CIRCOM "$ROOT/$circ.circom" --r1cs --wasm --prime "$prime" -o "$out"
  pushd "$w" >/dev/null
  $SNARKJS powersoftau new "$pcurve" "$power" pot_0.ptau
  $SNARKJS powersoftau contribute pot_0.ptau pot_1.ptau --name=x -e="some entropy"
  $SNARKJS powersoftau prepare phase2 pot_1.ptau pot_final.ptau
  $SNARKJS groth16 setup "$out/$circ.r1cs" pot_final.ptau "${circ}_0.zkey"
  $SNARKJS zkey contribute "${circ}_0.zkey" "$circ.zkey" --name=x -e="more entropy"
  $SNARKJS zkey export verificationkey "$circ.zkey" verification_key.json
  node "$out/${circ}_js/generate_witness.js" "$out/${circ}_js/$circ.wasm" "$ROOT/$input" witness.wtns
  $SNARKJS groth16 prove "$circ.zkey" witness.wtns proof.json public.json
  $SNARKJS groth16 verify verification_key.json public.json proof.json | tee verify.log
  grep -q "OK!" verify.log || { echo "verify failed: $prime $circ" >&2; exit 1; }
  popd >/dev/null
  cp "$out/$circ.r1cs"          "$dest/$keyname.r1cs"
  cp "$w/$circ.zkey"            "$dest/$keyname.zkey"
  cp "$w/witness.wtns"          "$dest/${pfx}witness.wtns"
  cp "$w/verification_key.json" "$dest/${pfx}verification_key.json"
  cp "$w/proof.json"            "$dest/${pfx}proof.json"
  cp "$w/public.json"           "$dest/${pfx}public.json"
}

for prime in bn128 bls12381; do
  case $prime in bn128) pcurve=bn128;; bls12381) pcurve=bls12-381;; esac
  build_one "$prime" "$pcurve" mul   4 input.json       mul   ""
  build_one "$prime" "$pcurve" chain 8 chain-input.json chain chain-
done

# Cross-check public signals against an independent BigInt computation.
node - <<'JS'
const fs = require('fs');
const P = {
  bn128:    21888242871839275222246405745257275088548364400416034343698204186575808495617n,
  bls12381: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
};
for (const [c, p] of Object.entries(P)) {
  const mul = JSON.parse(fs.readFileSync(`${c}/public.json`));
  if (JSON.stringify(mul) !== JSON.stringify(["236", "5"])) throw new Error(`${c} mul public ${mul}`);
  let x = 2n;
  for (let i = 0n; i < 100n; i++) x = (x * x + i) % p;
  const ch = JSON.parse(fs.readFileSync(`${c}/chain-public.json`));
  if (JSON.stringify(ch) !== JSON.stringify([x.toString(), "2"])) throw new Error(`${c} chain public ${ch}`);
  console.log(`${c}: public signals check OK`);
}
JS
echo "All vectors built and verified."
