#!/bin/sh
# zkpipe prove/verify with snarkjs files (tests/data/snarkjs): --zkey/--witness and rapidsnark's
# positional form, verified by zkpipe; and, when the pinned snarkjs is installed
# (cd tools/snarkjs && npm ci), verified by snarkjs itself.
# Usage: snarkjs_cli_test.sh path/to/zkpipe repo-root
set -u
Z="$1"
ROOT="$2"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
SNARKJS="$ROOT/tools/snarkjs/node_modules/.bin/snarkjs"
for c in bn128 bls12381; do
  V="$ROOT/tests/data/snarkjs/$c"
  "$Z" prove --zkey "$V/chain.zkey" --witness "$V/chain-witness.wtns" --proof "$D/p.json" --public "$D/pub.json" > /dev/null \
    || fail "prove $c"
  cmp -s "$D/pub.json" "$V/chain-public.json" || python3 -c "import json,sys; assert json.load(open(sys.argv[1]))==json.load(open(sys.argv[2]))" "$D/pub.json" "$V/chain-public.json" || fail "public.json differs ($c)"
  "$Z" verify --vk "$V/chain-verification_key.json" --proof "$D/p.json" --public "$D/pub.json" > /dev/null || fail "verify ours ($c)"
  "$Z" verify --vk "$V/verification_key.json" --proof "$V/proof.json" --public "$V/public.json" > /dev/null || fail "verify snarkjs's ($c)"
  "$Z" prove "$V/mul.zkey" "$V/witness.wtns" "$D/p2.json" "$D/pub2.json" > /dev/null || fail "positional prove ($c)"
  "$Z" verify --vk "$V/verification_key.json" --proof "$D/p2.json" --public "$D/pub2.json" > /dev/null || fail "verify positional ($c)"
  sed 's/"5"/"6"/' "$D/pub2.json" > "$D/wrong.json"
  "$Z" verify --vk "$V/verification_key.json" --proof "$D/p2.json" --public "$D/wrong.json" > /dev/null
  [ $? -eq 1 ] || fail "a wrong public input must exit 1 ($c)"
  if [ -x "$SNARKJS" ] && command -v node > /dev/null 2>&1; then
    "$SNARKJS" groth16 verify "$V/chain-verification_key.json" "$D/pub.json" "$D/p.json" | grep -q "OK" || fail "snarkjs rejects zkpipe's proof ($c)"
    echo "snarkjs accepts zkpipe's $c proof"
  else
    echo "snarkjs not installed (cd tools/snarkjs && npm ci): its check skipped"
  fi
  # The development setup: zkpipe's zkey and verification_key.json for snarkjs's r1cs. zkpipe proves
  # and verifies with them; snarkjs proves with the zkey, verifies with the JSON key and exports the
  # same key from the zkey.
  "$Z" setup --r1cs "$V/chain.r1cs" --seed 5 --zkey-out "$D/dev.zkey" --vk-out "$D/dev-vk.json" > /dev/null \
    || fail "setup --r1cs ($c)"
  "$Z" prove "$D/dev.zkey" "$V/chain-witness.wtns" "$D/p3.json" "$D/pub3.json" > /dev/null || fail "prove with dev zkey ($c)"
  "$Z" verify --vk "$D/dev-vk.json" --proof "$D/p3.json" --public "$D/pub3.json" > /dev/null || fail "verify dev proof ($c)"
  "$Z" verify --vk "$D/dev-vk.json" --proof "$D/p.json" --public "$D/pub.json" > /dev/null
  [ $? -eq 1 ] || fail "a proof for snarkjs's key must not verify under the dev key ($c)"
  if [ -x "$SNARKJS" ] && command -v node > /dev/null 2>&1; then
    "$SNARKJS" groth16 verify "$D/dev-vk.json" "$D/pub3.json" "$D/p3.json" | grep -q "OK" || fail "snarkjs rejects the dev proof ($c)"
    "$SNARKJS" groth16 prove "$D/dev.zkey" "$V/chain-witness.wtns" "$D/p4.json" "$D/pub4.json" > /dev/null \
      || fail "snarkjs cannot prove with zkpipe's zkey ($c)"
    "$SNARKJS" groth16 verify "$D/dev-vk.json" "$D/pub4.json" "$D/p4.json" | grep -q "OK" || fail "snarkjs's proof with zkpipe's zkey ($c)"
    "$Z" verify --vk "$D/dev-vk.json" --proof "$D/p4.json" --public "$D/pub4.json" > /dev/null || fail "zkpipe rejects snarkjs's dev proof ($c)"
    "$SNARKJS" zkey export verificationkey "$D/dev.zkey" "$D/exported.json" > /dev/null || fail "snarkjs cannot export ($c)"
    python3 -c "import json,sys; assert json.load(open(sys.argv[1]))==json.load(open(sys.argv[2]))" "$D/exported.json" "$D/dev-vk.json" \
      || fail "snarkjs's export of zkpipe's zkey differs from zkpipe's verification_key.json ($c)"
    echo "snarkjs proves with zkpipe's $c zkey and accepts its verification key"
  fi
done
B="$ROOT/tests/data/snarkjs/bn128"
# The zkey kind through the engine: 3 jobs, every proof verified before it is answered.
"$Z" bench --circuit zkey --zkey "$B/chain.zkey" --witness "$B/chain-witness.wtns" --jobs 3 --verify --json > "$D/bench.json" \
  || fail "bench --circuit zkey"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['ok'] and j['circuit']=='zkey' and j['params_bytes']>0, j" "$D/bench.json" \
  || fail "bench --circuit zkey report"
expect2() { "$@" > /dev/null 2> "$D/err"; [ $? -eq 2 ] || fail "exit 2 expected: $*"; [ -s "$D/err" ] || fail "no message: $*"; }
expect2 "$Z" bench --circuit zkey --zkey "$B/chain.zkey"
expect2 "$Z" bench --circuit zkey --zkey "$B/chain-witness.wtns" --witness "$B/chain-witness.wtns"
"$Z" bench --circuit zkey --zkey "$B/chain.zkey" --witness "$B/witness.wtns" --jobs 1 > /dev/null 2>&1
[ $? -eq 1 ] || fail "bench with another circuit's witness must fail its job (exit 1)"
# setup --r1cs errors: wrong curve, missing outputs, not an r1cs, truncated.
expect2 "$Z" setup --r1cs "$B/mul.r1cs" --curve bls12-381 --zkey-out "$D/x.zkey" --vk-out "$D/x.json"
expect2 "$Z" setup --r1cs "$B/mul.r1cs" --zkey-out "$D/x.zkey"
expect2 "$Z" setup --r1cs "$B/witness.wtns" --zkey-out "$D/x.zkey" --vk-out "$D/x.json"
head -c 200 "$B/chain.r1cs" > "$D/trunc.r1cs"
expect2 "$Z" setup --r1cs "$D/trunc.r1cs" --zkey-out "$D/x.zkey" --vk-out "$D/x.json"
expect2 "$Z" setup --r1cs "$D/missing.r1cs" --zkey-out "$D/x.zkey" --vk-out "$D/x.json"
# prove: another circuit's witness, the other curve's witness, a truncated zkey, a witness as zkey.
L="$ROOT/tests/data/snarkjs/bls12381"
expect2 "$Z" prove "$B/chain.zkey" "$B/witness.wtns" "$D/x.json" "$D/y.json"
expect2 "$Z" prove "$B/chain.zkey" "$L/chain-witness.wtns" "$D/x.json" "$D/y.json"
expect2 "$Z" prove "$L/chain.zkey" "$B/chain-witness.wtns" "$D/x.json" "$D/y.json"
head -c 3000 "$B/chain.zkey" > "$D/trunc.zkey"
expect2 "$Z" prove "$D/trunc.zkey" "$B/chain-witness.wtns" "$D/x.json" "$D/y.json"
expect2 "$Z" prove "$B/chain-witness.wtns" "$B/chain-witness.wtns" "$D/x.json" "$D/y.json"
"$Z" prove a b c 2> /dev/null
[ $? -eq 2 ] || fail "three positional files must exit 2"
echo "snarkjs cli ok"
