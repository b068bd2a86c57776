#!/bin/sh
# The porep flow from the command line on the tiny preset: gen-input, setup, prove, verify with a
# public.json and with public inputs derived from the input file; count; and the exit codes for
# tampered, mismatched and malformed input (2, with the field named) and for a wrong proof (1).
# Usage: porep_cli_test.sh path/to/zkpipe
set -u
Z="$1"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$Z" count --shape tiny --json | grep -q '"constraints":14055' || fail "count tiny"
"$Z" gen-input --shape tiny --seed 5 --out "$D/c1.json" > /dev/null 2>&1 || fail "gen-input"
"$Z" setup --circuit porep --shape tiny --out "$D" > /dev/null || fail "setup"
"$Z" prove --params "$D/porep-tiny.params" --circuit porep --shape tiny --input "$D/c1.json" \
    --out "$D/proof.bin" --public-out "$D/public.json" > /dev/null || fail "prove"
[ "$(wc -c < "$D/proof.bin")" -eq 384 ] || fail "2 partitions x 192 bytes"
"$Z" verify --vk "$D/porep-tiny.vk" --proof "$D/proof.bin" --public "$D/public.json" > /dev/null || fail "verify public.json"
"$Z" verify --vk "$D/porep-tiny.vk" --circuit porep --shape tiny --input "$D/c1.json" --proof "$D/proof.bin" \
    > /dev/null || fail "verify --input"

# Another sector's input: the same proofs do not verify (exit 1).
"$Z" gen-input --shape tiny --seed 6 --out "$D/other.json" > /dev/null 2>&1 || fail "gen-input 2"
"$Z" verify --vk "$D/porep-tiny.vk" --circuit porep --shape tiny --input "$D/other.json" --proof "$D/proof.bin" > /dev/null
[ $? -eq 1 ] || fail "proofs of another sector must exit 1"

# Wrong shape, tampered label, malformed JSON: exit 2 naming the field, before proving.
"$Z" prove --params "$D/porep-tiny.params" --circuit porep --shape small --input "$D/c1.json" --out "$D/x.bin" \
    > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "generated for shape 'tiny'" "$D/err" || fail "wrong shape must exit 2: $(cat "$D/err")"
python3 - "$D/c1.json" "$D/bad.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
lab = j["partitions"][1]["challenges"][0]["columns"][2]["labels"]
lab[0] = ("1" if lab[0][0] == "0" else "0") + lab[0][1:]
json.dump(j, open(sys.argv[2], "w"))
PY
"$Z" prove --params "$D/porep-tiny.params" --circuit porep --shape tiny --input "$D/bad.json" --out "$D/x.bin" \
    > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "partitions\[1\].challenges\[0\].columns\[2\]" "$D/err" || fail "tampered label: $(cat "$D/err")"
[ ! -e "$D/x.bin" ] || fail "no proof may be written for a bad input"
head -c 100 "$D/c1.json" > "$D/trunc.json"
"$Z" prove --params "$D/porep-tiny.params" --circuit porep --shape tiny --input "$D/trunc.json" --out "$D/x.bin" \
    > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "not valid JSON" "$D/err" || fail "truncated input: $(cat "$D/err")"
"$Z" prove --params "$D/porep-tiny.params" --circuit porep --input "$D/c1.json" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "needs --shape" "$D/err" || fail "missing --shape: $(cat "$D/err")"
"$Z" gen-input --shape huge --out "$D/x.json" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "unknown porep shape" "$D/err" || fail "unknown shape: $(cat "$D/err")"
"$Z" setup --circuit porep --shape tiny --curve bn254 --out "$D" > /dev/null 2>&1
[ $? -eq 2 ] || fail "porep on bn254 must exit 2"

# Keys of another shape: a clear error, not a crash.
"$Z" setup --constraints 300 --out "$D" > /dev/null || fail "synthetic setup"
"$Z" prove --params "$D/synthetic-bls12-381-n300.params" --circuit porep --shape tiny --input "$D/c1.json" \
    --out "$D/x.bin" > /dev/null 2>&1
[ $? -eq 2 ] || fail "keys of another circuit must exit 2"
echo "porep CLI flow ok"
