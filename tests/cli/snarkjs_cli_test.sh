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
done
"$Z" prove a b c 2> /dev/null
[ $? -eq 2 ] || fail "three positional files must exit 2"
echo "snarkjs cli ok"
