#!/bin/sh
# Non-interactive PoRep end to end at 2 KiB (StackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15, 13
# partitions): `gen-c1` seals the sector; `setup --kind porep` and `setup --srs` write development
# keys and a development SnarkPack SRS under Filecoin's names; `prove --kind porep` answers with the
# SnarkPack V2 aggregate of the 13 partition proofs (padded to 16: 14164 bytes), as filecoin-proofs'
# seal_commit_phase2 does, and `--partition-proofs` with the 13 proofs; `verify --kind porep`
# accepts both from the C1 and from the public values, and refuses another sector's; then the same
# sector through `zkpipe serve --ni-partition-proofs` on zkpipe.v1 (the partition proofs, no SRS) and
# through `zkpipe serve` on cuzk.v1 (Curio's POREP_SEAL_COMMIT: the aggregate). A missing SRS is
# refused before anything is proved. About 13 minutes on 2 cores (52 partitions of 2.7M
# constraints): CTest label `slow`.
# Usage: filecoin_ni_test.sh path/to/zkpipe
set -u
Z="$1"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, stop_daemon, field; SERVE_PID
daemon_test_scratch

"$Z" gen-c1 --registered-proof 15 --miner-id 1234 --sector-number 7 --data-seed 5 --out "$D/c1.json" --json \
    > "$D/gen.json" || fail "gen-c1 --registered-proof 15"
"$Z" gen-c1 --registered-proof 15 --miner-id 1234 --sector-number 7 --data-seed 5 --wrap --out "$D/c1w.json" \
    > /dev/null || fail "gen-c1 --wrap"
"$Z" gen-c1 --registered-proof 15 --miner-id 1234 --sector-number 8 --data-seed 6 --out "$D/other.json" \
    > /dev/null || fail "gen-c1 (another sector)"
"$Z" setup --kind porep --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind porep"
STEM="$D/params/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"

# No SRS yet: refused before proving, saying which file.
"$Z" prove --kind porep --c1 "$D/c1.json" --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "v28-fil-inner-product-v1.srs" "$D/err" || fail "a missing SRS must exit 2 naming it: $(cat "$D/err")"
"$Z" setup --srs --srs-proofs 16 --out "$D/params" > /dev/null || fail "setup --srs"
"$Z" params check "$D/params" --no-digest > "$D/out" || fail "params check: $(cat "$D/out")"

"$Z" prove --kind porep --c1 "$D/c1.json" --params-dir "$D/params" --out "$D/agg.bin" --json > "$D/prove.json" \
    || fail "prove --kind porep (NI): $(cat "$D/prove.json")"
[ "$(stat -c %s "$D/agg.bin")" = "14164" ] || fail "the aggregate of 13 partitions padded to 16 has 14164 bytes"
grep -q '"aggregate":true' "$D/prove.json" || fail "prove must report the aggregate: $(cat "$D/prove.json")"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/agg.bin" > "$D/out" \
    || fail "verify the aggregate from the C1: $(cat "$D/out")"
grep -q "^valid (2KiB PoRep, the SnarkPack aggregate of 13 partitions, padded to 16)" "$D/out" || fail "$(cat "$D/out")"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/agg.bin" --registered-proof 15 \
    --prover-id "$(field "$D/gen.json" prover_id)" --sector-number 7 --ticket "$(field "$D/gen.json" ticket)" \
    --seed "$(field "$D/gen.json" seed)" --comm-d "$(field "$D/gen.json" comm_d)" \
    --comm-r "$(field "$D/gen.json" comm_r)" > /dev/null || fail "verify the aggregate from the public values"
"$Z" verify --kind porep --c1 "$D/other.json" --vk "$STEM.vk" --proof "$D/agg.bin" > /dev/null
[ $? -eq 1 ] || fail "another sector's C1 must not verify the aggregate"
"$Z" inspect "$D/agg.bin" --transcript-input \
    "$(python3 -c "import hashlib,sys; print(hashlib.sha256(bytes.fromhex(sys.argv[1])).hexdigest())" "$(field "$D/gen.json" comm_r)")" \
    > "$D/out" || fail "inspect: the transcript input is sha256(comm_r): $(cat "$D/out")"

"$Z" prove --kind porep --c1 "$D/c1.json" --params-dir "$D/params" --out "$D/parts.bin" --partition-proofs \
    > /dev/null || fail "prove --partition-proofs"
[ "$(stat -c %s "$D/parts.bin")" = "2496" ] || fail "13 partition proofs of 192 bytes"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/parts.bin" > /dev/null \
    || fail "the partition proofs must verify"

# The daemon: cuzk.v1 answers with the aggregate (zkpipe.v1's aggregate: cli_filecoin_c2, in CI);
# with --ni-partition-proofs, with the partition proofs (no SRS needed).
SOCK="$D/zk.sock"
mkdir "$D/nosrs" && ln "$STEM.params" "$STEM.vk" "$D/nosrs/"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/nosrs" --ni-partition-proofs
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/c1w.json" --out "$D/daemon.bin" > "$D/out" 2>&1 \
    || fail "prove through a daemon with --ni-partition-proofs: $(cat "$D/out")"
[ "$(stat -c %s "$D/daemon.bin")" = "2496" ] || fail "--ni-partition-proofs: 13 partition proofs of 192 bytes"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/daemon.bin" > /dev/null \
    || fail "the daemon's partition proofs must verify"
stop_daemon || fail "the daemon must stop cleanly"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
python_stubs "$D/stubs" cuzk || fail "protoc"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" porep-ni "$D/c1w.json" 2048 "$D/cuzk.bin" \
    15 14164 > "$D/out" 2>&1 || fail "curio client (porep-ni): $(cat "$D/out")"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/cuzk.bin" > /dev/null \
    || fail "cuzk.v1's aggregate must verify"
stop_daemon || fail "the daemon must stop cleanly"
echo "filecoin ni: ok"
