#!/bin/sh
# Filecoin's SnapDeals (EmptySectorUpdate) at 2 KiB end to end: `setup --kind snap-update` writes
# development keys under Filecoin's published name; `gen-vanilla --kind snap-update` seals a sector
# here, updates it with random data and writes the job's input (every partition's bincode
# PartitionProof, as Curio sends them, and the three commitments); `prove --kind snap-update`
# proves it (checked, synthesized, self-verified); `verify --kind snap-update` accepts the proof
# from the public values alone and refuses a changed one; a tampered input exits 2 naming the
# field; `check` runs the test constraint system; then through `zkpipe serve`: a tampered input
# refused on zkpipe.v1 (`prove --addr`), the proof made on cuzk.v1 (SNAP_DEALS_UPDATE, as Curio sends it).
# Usage: filecoin_update_test.sh path/to/zkpipe
set -u
Z="$1"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, serving_address, stop_daemon; SERVE_PID
daemon_test_scratch
py() { python3 -c "$1" "$2"; }

# The 2 KiB update circuit has 1.7M constraints: the development setup takes ~45 s on 2 cores.
"$Z" setup --kind snap-update --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind snap-update"
VK=$(ls "$D"/params/v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk) \
    || fail "the published 2 KiB key name"
"$Z" params check "$D/params" --no-digest > "$D/out" || fail "params check --no-digest: $(cat "$D/out")"
grep -q "^snap-update 2KiB  *params  ok" "$D/out" || fail "params check: the 2 KiB SnapDeals params fit: $(cat "$D/out")"

"$Z" gen-vanilla --kind snap-update --data-seed 5 --out "$D/u.json" --json > "$D/gen.json" || fail "gen-vanilla snap-update"
get() { py "import json,sys; print(json.load(open(sys.argv[1]))['$1'])" "$D/gen.json"; }
OLD=$(get comm_r_old); DNEW=$(get comm_d_new); NEW=$(get comm_r_new)
"$Z" prove --kind snap-update --update-input "$D/u.json" --params-dir "$D/params" --out "$D/u.bin" > "$D/out" \
    || fail "prove --kind snap-update: $(cat "$D/out")"
[ "$(stat -c %s "$D/u.bin")" = "192" ] || fail "one 192-byte proof (2 KiB: one partition)"
"$Z" verify --kind snap-update --registered-proof 0 --vk "$VK" --proof "$D/u.bin" --comm-r-old "$OLD" \
    --comm-d-new "$DNEW" --comm-r-new "$NEW" > "$D/out" || fail "verify from the public values: $(cat "$D/out")"
"$Z" verify --kind snap-update --registered-proof 0 --vk "$VK" --proof "$D/u.bin" --comm-r-old "$OLD" \
    --comm-d-new "$DNEW" --comm-r-new "$OLD" > /dev/null
[ $? -eq 1 ] || fail "another comm_r_new must not verify"
python3 "$(dirname "$0")/verify_properties.py" "$Z" verify --kind snap-update --registered-proof 0 --vk "$VK" \
    --proof "$D/u.bin" --comm-r-old "$OLD" --comm-d-new "$DNEW" --comm-r-new "$NEW" > "$D/props" \
    || fail "snap-update properties: $(cat "$D/props")"

# A flipped byte in the partition proof: refused before proving, the field named; check names
# what the circuit refuses.
py "import json,sys,base64
d=json.load(open(sys.argv[1])); b=bytearray(base64.b64decode(d['vanilla_proofs'][0])); b[40]^=1
d['vanilla_proofs'][0]=base64.b64encode(bytes(b)).decode(); json.dump(d,open(sys.argv[1]+'.bad','w'))" "$D/u.json"
"$Z" prove --kind snap-update --update-input "$D/u.json.bad" --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "vanilla_proofs\[0\]" "$D/err" || fail "a tampered input must exit 2 naming it: $(cat "$D/err")"
"$Z" check --kind snap-update --update-input "$D/u.json" > "$D/out" || fail "check: $(cat "$D/out")"
grep -q "satisfied; public inputs match" "$D/out" || fail "check must report a satisfied partition: $(cat "$D/out")"

# Through the daemon: zkpipe.v1 refuses a tampered input; cuzk.v1 proves it as Curio sends SnapDeals
# (one daemon proof: both protocols submit to the same engine workload; cli_filecoin_c2 proves through zkpipe.v1).
SOCK="$D/zk.sock"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
"$Z" prove --addr "unix://$SOCK" --kind snap-update --update-input "$D/u.json.bad" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "the daemon must refuse a tampered input: $(cat "$D/err")"

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
/usr/bin/python3 -c "import grpc, google.protobuf" 2> /dev/null && command -v grpc_python_plugin > /dev/null \
    || fail "python3-grpcio and grpc_python_plugin are needed (scripts/install-deps.sh installs them)"
python_stubs "$D/stubs" cuzk || fail "protoc"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" snap "$D/u.json" "$D/cuzk.bin" > "$D/out" 2>&1 \
    || fail "curio client: $(cat "$D/out")"
"$Z" verify --kind snap-update --registered-proof 0 --vk "$VK" --proof "$D/cuzk.bin" --comm-r-old "$OLD" \
    --comm-d-new "$DNEW" --comm-r-new "$NEW" > /dev/null || fail "the proof made through cuzk.v1 must verify"
stop_daemon
echo "ok"
