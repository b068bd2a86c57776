#!/bin/sh
# Filecoin PoRep from the command line: circuit-info for 2 KiB (rust-fil-proofs' count), and the
# real 2 KiB proof of ../shared/testdata/filecoin/polka_2kib_porep.json verified from its public
# values with `zkpipe verify --kind porep` (exit 0); a changed sector number, seed or comm_r gives
# exit 1; malformed values exit 2 naming the option; the same proof aggregated with `zkpipe
# aggregate` verifies as an aggregate. Skips (77) without the shared testdata.
# Usage: filecoin_cli_test.sh path/to/zkpipe path/to/source
set -u
Z="$1"
SRC="$2"
T="${ZKPIPE_TESTDATA:-$SRC/../shared/testdata}"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$Z" circuit-info --kind porep --sector-size 2KiB --json > "$D/info.json" || fail "circuit-info"
grep -q '"constraints":2687921' "$D/info.json" || fail "2 KiB constraints"
grep -q '"inputs":40' "$D/info.json" || fail "2 KiB inputs"
"$Z" circuit-info --kind porep --sector-size 2KiB --api-version 1.0 --json > "$D/info10.json" || fail "--api-version 1.0"
grep -q '"constraints":2687921' "$D/info10.json" || fail "API 1.0: the same circuit"
"$Z" circuit-info --kind porep --sector-size 2KiB --api-version 2.0 > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "api-version" "$D/err" || fail "an unknown API version must exit 2 naming the option"
"$Z" circuit-info --sector-size 3KiB > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "unknown sector size" "$D/err" || fail "unknown sector size must exit 2"

[ -f "$T/filecoin/polka_2kib_porep.json" ] || { echo "SKIP: shared testdata not found ($T)"; exit 77; }
python3 - "$T/filecoin/polka_2kib_porep.json" "$D" <<'PY' || fail "reading the vector"
import json, sys
d = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/vk", "wb").write(bytes.fromhex(d["vk_hex"]))
open(sys.argv[2] + "/proof", "wb").write(bytes.fromhex(d["proof_hex"]))
with open(sys.argv[2] + "/args", "w") as f:
    f.write("%d %s %s %s %s %s %s\n" % (d["sector_number"], d["prover_id_hex"], d["ticket_hex"], d["seed_hex"],
                                        d["comm_d_hex"], d["comm_r_hex"], d["porep_id_hex"]))
PY
read -r SECTOR PROVER TICKET SEED COMMD COMMR POREPID < "$D/args"
v() {
  "$Z" verify --kind porep --sector-size 2KiB --vk "$D/vk" --proof "$D/proof" --prover-id "$PROVER" \
      --porep-id "$POREPID" --api-version 1.2 "$@"
}
v --sector-number "$SECTOR" --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" > "$D/out" \
    || fail "the real proof must verify: $(cat "$D/out")"
grep -q "^valid" "$D/out" || fail "valid"
v --sector-number $((SECTOR + 1)) --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" > /dev/null
[ $? -eq 1 ] || fail "another sector number must not verify"
OTHER=0e0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d
v --sector-number "$SECTOR" --ticket "$TICKET" --seed "$OTHER" --comm-d "$COMMD" --comm-r "$COMMR" > /dev/null
[ $? -eq 1 ] || fail "another seed must not verify"
v --sector-number "$SECTOR" --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$OTHER" > /dev/null
[ $? -eq 1 ] || fail "another comm_r must not verify"
v --sector-number "$SECTOR" --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "zz" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q -- "--comm-r" "$D/err" || fail "malformed comm_r must exit 2 naming it"
v --sector-number "$SECTOR" --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" \
    --registered-proof 3 > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "--registered-proof with --porep-id must exit 2"
"$Z" verify --kind porep --sector-size 32GiB --vk "$D/vk" --proof "$D/proof" --prover-id "$PROVER" \
    --sector-number 1 --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "IC points" "$D/err" || fail "a 2 KiB key for a 32 GiB proof must exit 2"

# The same real proof aggregated by zkpipe (SnarkPack V2, padded to 2, a DEVELOPMENT SRS) verifies
# from the same public values under the real key: all eleven equations. A wrong sector number fails
# the Groth16 equation, an aggregate bound to another seed fails, another SRS fails the KZG openings.
"$Z" setup --srs --srs-proofs 2 --seed 3 --out "$D/srs" > /dev/null || fail "setup --srs"
"$Z" setup --srs --srs-proofs 2 --seed 4 --out "$D/srs4" > /dev/null || fail "setup --srs (another)"
SRS="$D/srs/v28-fil-inner-product-v1.srs"
"$Z" aggregate --proof "$D/proof" --comm-r "$COMMR" --seed "$SEED" --srs "$SRS" --out "$D/one.agg" > "$D/out" \
    || fail "aggregate the real proof: $(cat "$D/out")"
grep -q "of 1 proof from 1 sector (padded to 2), 5236 bytes" "$D/out" || fail "aggregate's report: $(cat "$D/out")"
va() {
  "$Z" verify --kind porep --sector-size 2KiB --vk "$D/vk" --prover-id "$PROVER" --porep-id "$POREPID" \
      --api-version 1.2 --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" "$@"
}
va --sector-number "$SECTOR" --proof "$D/one.agg" --srs "$SRS" > "$D/out" || fail "the aggregate must verify: $(cat "$D/out")"
grep -q "^valid (2KiB PoRep, the SnarkPack aggregate of 1 partition, padded to 2)" "$D/out" || fail "$(cat "$D/out")"
va --sector-number $((SECTOR + 1)) --proof "$D/one.agg" --srs "$SRS" > "$D/out"
[ $? -eq 1 ] && grep -q "Groth16" "$D/out" || fail "another sector number must fail the Groth16 equation: $(cat "$D/out")"
"$Z" aggregate --proof "$D/proof" --comm-r "$COMMR" --seed "$TICKET" --srs "$SRS" --out "$D/other.agg" > /dev/null \
    || fail "aggregate with another seed"
va --sector-number "$SECTOR" --proof "$D/other.agg" --srs "$SRS" > /dev/null
[ $? -eq 1 ] || fail "an aggregate bound to another seed must not verify"
va --sector-number "$SECTOR" --proof "$D/one.agg" --srs "$D/srs4/v28-fil-inner-product-v1.srs" > "$D/out"
[ $? -eq 1 ] && grep -q "KZG" "$D/out" || fail "another SRS must fail the KZG openings: $(cat "$D/out")"
"$Z" aggregate --proof "$D/proof" --comm-r "$COMMR" --srs "$SRS" --out "$D/x.agg" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q -- "--seed" "$D/err" || fail "an interactive aggregate without seeds must exit 2 naming --seed"
head -c 100 "$D/proof" > "$D/proof.short"
"$Z" aggregate --proof "$D/proof.short" --comm-r "$COMMR" --seed "$SEED" --srs "$SRS" --out "$D/x.agg" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "192-byte" "$D/err" || fail "a partial proof must exit 2"
"$Z" aggregate --proof "$D/proof" --proof "$D/proof" --proof "$D/proof" --comm-r "$COMMR" --comm-r "$COMMR" \
    --comm-r "$COMMR" --seed "$SEED" --seed "$SEED" --seed "$SEED" --srs "$SRS" --out "$D/x.agg" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "SRS" "$D/err" || fail "4 proofs on an SRS for 2 must exit 2 naming the SRS: $(cat "$D/err")"
# Two sectors (the same real one twice, as a ProveCommitAggregate of two): verified from the public
# values repeated per sector; with one sector's values changed it fails.
"$Z" aggregate --proof "$D/proof" --proof "$D/proof" --comm-r "$COMMR" --comm-r "$COMMR" --seed "$SEED" --seed "$SEED" \
    --srs "$SRS" --out "$D/two.agg" > /dev/null || fail "aggregate two sectors"
vt() {
  "$Z" verify --kind porep --sector-size 2KiB --vk "$D/vk" --prover-id "$PROVER" --porep-id "$POREPID" \
      --api-version 1.2 --proof "$D/two.agg" --srs "$SRS" --sector-number "$SECTOR" --ticket "$TICKET" \
      --seed "$SEED" --comm-d "$COMMD" --comm-r "$COMMR" --ticket "$TICKET" --seed "$SEED" --comm-d "$COMMD" \
      --comm-r "$COMMR" "$@"
}
vt --sector-number "$SECTOR" > "$D/out" || fail "two sectors' aggregate must verify: $(cat "$D/out")"
grep -q "^valid (2 sectors of 2KiB PoRep, the SnarkPack aggregate of 2 partitions, padded to 2)" "$D/out" \
    || fail "$(cat "$D/out")"
vt --sector-number $((SECTOR + 1)) > /dev/null
[ $? -eq 1 ] || fail "the second sector's number changed must not verify"
ARGS=""
i=0
while [ $i -lt 820 ]; do ARGS="$ARGS --proof $D/proof --comm-r $COMMR --seed $SEED"; i=$((i + 1)); done
# shellcheck disable=SC2086
"$Z" aggregate $ARGS --srs "$SRS" --out "$D/x.agg" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "819 at most" "$D/err" || fail "820 sectors must exit 2 naming Filecoin's limit: $(cat "$D/err")"
# The daemon's snarkpack kind (zkpipe.v1) makes the same bytes (the prover is deterministic).
. "$(dirname "$0")/lib.sh"
trap '[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2> /dev/null; rm -rf "$D"' EXIT
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$D/state" --listen "unix://$D/zk.sock" --params-dir "$D/srs"
"$Z" aggregate --addr "unix://$D/zk.sock" --proof "$D/proof" --comm-r "$COMMR" --seed "$SEED" --out "$D/daemon.agg" \
    > "$D/out" 2>&1 || fail "aggregate through the daemon: $(cat "$D/out")"
cmp -s "$D/one.agg" "$D/daemon.agg" || fail "the daemon's aggregate must be the same bytes as the local one"
"$Z" aggregate --addr "unix://$D/zk.sock" --proof "$D/proof" --proof "$D/proof" --proof "$D/proof" --comm-r "$COMMR" \
    --comm-r "$COMMR" --comm-r "$COMMR" --seed "$SEED" --seed "$SEED" --seed "$SEED" --out "$D/x.agg" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "aggregates 2 proofs at most" "$D/err" || fail "the daemon must refuse a count its SRS cannot hold: $(cat "$D/err")"
stop_daemon || fail "the daemon must stop cleanly"

# The real 2 KiB WindowPoSt proof (StackedDrgWindow2KiBV1_1 in Curio's numbering = 10) from its
# randomness, sector number and comm_r.
python3 - "$T/filecoin/polka_2kib_window_post.json" "$D" <<'PY' || fail "reading the WindowPoSt vector"
import json, sys
d = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/post.vk", "wb").write(bytes.fromhex(d["vk_hex"]))
open(sys.argv[2] + "/post.proof", "wb").write(bytes.fromhex(d["proof_hex"]))
s = d["sectors"][0]
open(sys.argv[2] + "/post.args", "w").write("%s %d:%s\n" % (d["randomness_hex"], s["sector_number"], s["comm_r_hex"]))
PY
read -r RAND PSECTOR < "$D/post.args"
w() { "$Z" verify --kind window-post --registered-proof 10 --vk "$D/post.vk" --proof "$D/post.proof" "$@"; }
w --randomness "$RAND" --sector "$PSECTOR" > "$D/out" || fail "the real WindowPoSt proof must verify: $(cat "$D/out")"
grep -q "^valid" "$D/out" || fail "window-post valid"
w --randomness "0202020202020202020202020202020202020202020202020202020202020202" --sector "$PSECTOR" > /dev/null
[ $? -eq 1 ] || fail "another randomness must not verify"
w --randomness "$RAND" --sector "78:${PSECTOR#*:}" > /dev/null
[ $? -eq 1 ] || fail "another sector number must not verify"
w --randomness "$RAND" --sector "x:${PSECTOR#*:}" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q -- "--sector" "$D/err" || fail "a malformed --sector must exit 2 naming it"
"$Z" verify --kind winning-post --registered-proof 10 --vk "$D/post.vk" --proof "$D/post.proof" \
    --randomness "$RAND" --sector "$PSECTOR" > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "a Window proof type for --kind winning-post must exit 2"
# A real mainnet SnarkPack V2 aggregate (ProveCommitAggregate, 512 proofs): inspect reads it and,
# with its transcript input, passes the six SRS-free equations; V1 or another input fails them.
python3 - "$T/filecoin/snarkpack/0001-fil_9_storageminer-ProveCommitAggregate-Ok-1.json" "$D" <<'PY' || fail "reading the aggregate vector"
import json, sys
j = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/agg.bin", "wb").write(bytes.fromhex(j["aggregate_proof_hex"]))
open(sys.argv[2] + "/agg.include", "w").write(j["transcript_include_hex"])
PY
INC=$(cat "$D/agg.include")
"$Z" inspect "$D/agg.bin" --json > "$D/out" && grep -q '"nproofs":512' "$D/out" || fail "inspect an aggregate: $(cat "$D/out")"
"$Z" inspect "$D/agg.bin" --transcript-input "$INC" > "$D/out" || fail "the mainnet aggregate must pass: $(cat "$D/out")"
grep -q "^srs-free checks hold" "$D/out" || fail "aggregate: the SRS-free checks hold"
"$Z" inspect "$D/agg.bin" --transcript-input "$INC" --version v1 > /dev/null
[ $? -eq 1 ] || fail "V1 checks of a V2 aggregate must fail"
"$Z" inspect "$D/agg.bin" --transcript-input "00$INC" > /dev/null
[ $? -eq 1 ] || fail "another transcript input must fail"
head -c 20000 "$D/agg.bin" > "$D/agg.short"
"$Z" inspect "$D/agg.short" --transcript-input "$INC" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "bytes" "$D/err" || fail "a truncated aggregate must exit 2 naming its length"
echo "filecoin cli: ok"
