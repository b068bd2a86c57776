#!/bin/sh
# Filecoin's PoRep C2 end to end at 2 KiB, as a storage provider runs it: `gen-c1` seals a sector
# and writes its C1 (filecoin-proofs-api's JSON, and cuzk's wrapper); the development keys under
# Filecoin's parameter-file names (`setup --kind porep`, made once by the cli_filecoin_2kib_keys
# fixture: about a minute on 2 cores); `prove --kind porep --c1` proves it (checked, synthesized,
# self-verified); `verify --kind porep` accepts the proof from the C1 and from the public values
# alone and refuses another sector's; a tampered C1 exits 2 naming the field; then the same C1
# (wrapped) through `zkpipe serve`'s pipeline, which maps the key from the cache the first prove
# built (docs/groth16.md, "Key cache"), and Curio's cuzk.v1 with synthetic-PoRep and Go-encoded C1s.
# The non-interactive PoRep through the daemon is filecoin_c2_ni_test.sh (same keys).
# Usage: filecoin_c2_test.sh path/to/zkpipe KEYS_DIR
set -u
Z="$1"
KEYS="$2"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, serving_address, stop_daemon, field, link_porep_2kib_keys; SERVE_PID
daemon_test_scratch

"$Z" gen-c1 --sector-size 2KiB --miner-id 1234 --sector-number 7 --data-seed 5 --out "$D/c1.json" --json \
    > "$D/gen.json" || fail "gen-c1"
"$Z" gen-c1 --sector-size 2KiB --miner-id 1234 --sector-number 7 --data-seed 5 --wrap --out "$D/c1w.json" \
    > /dev/null || fail "gen-c1 --wrap"
"$Z" gen-c1 --sector-size 2KiB --data-seed 6 --out "$D/other.json" > /dev/null || fail "gen-c1 (another sector)"
"$Z" gen-c1 --sector-size 32GiB --out "$D/big.json" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "up to 8 MiB" "$D/err" || fail "gen-c1 32GiB must exit 2 (sealing in memory)"
# The synthesis-only pipeline (no keys): 3 jobs through the engine, a profile the planner reads.
"$Z" bench --circuit porep --shape 2KiB --input "$D/c1.json" --synthesis-only --pipeline --jobs 3 --synthesis-workers 2 \
    --json > "$D/pipe.json" || fail "bench --synthesis-only --pipeline"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); h=d['held_after_synthesis']
assert d['ok'] and d['jobs'] == 3 and 0 < h['abc'] < d['working_set']['abc'] and 0 < h['aux'] < d['working_set']['aux'], d
assert d['stages_ms']['synthesis']['mean'] > 0 and d['params_bytes'] == 0, d" "$D/pipe.json" \
    || fail "pipeline report: $(cat "$D/pipe.json")"
"$Z" plan --profile "$D/pipe.json" --memory-gib 8 --synthesis-workers 2 --json | grep -q '"s_per_proof"' \
    || fail "plan from the pipeline profile"
"$Z" bench --circuit porep --shape 2KiB --input "$D/c1.json" --pipeline > /dev/null 2>&1
[ $? -eq 2 ] || fail "--pipeline without --synthesis-only must exit 2"
# A benchmark key (random points of the real key's sizes, for 32 GiB on a GPU machine): the job is
# proved through the whole pipeline, never verified, and the report says so.
"$Z" bench --circuit porep --shape 2KiB --input "$D/c1.json" --params benchmark-key --jobs 1 --device cpu --json \
    > "$D/bk.json" 2> "$D/bk.err" || fail "bench --params benchmark-key: $(cat "$D/bk.err")"
/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
assert d['ok'] and d['jobs'] == 1 and 'BENCHMARK KEY' in d['what'] and d['params_bytes'] > 10**9, d
assert d['stages_ms']['prove_start']['mean'] > 0, d" "$D/bk.json" || fail "benchmark-key report: $(cat "$D/bk.json")"
grep -q "NOT a setup" "$D/bk.err" || fail "the benchmark key must be announced: $(cat "$D/bk.err")"
"$Z" bench --circuit porep --shape 2KiB --input "$D/c1.json" --params benchmark-key --verify > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "do not verify" "$D/err" || fail "--verify with a benchmark key must exit 2"

# The fixture's keys, linked into this test's own parameter directory.
link_porep_2kib_keys "$KEYS"

# params check: the development keys fit the circuit but are not Filecoin's files.
"$Z" params check "$D/params" --no-digest > "$D/out" || fail "params check --no-digest: $(cat "$D/out")"
grep -q "^porep 2KiB  *params  ok" "$D/out" || fail "params check: 2KiB params ok: $(cat "$D/out")"
"$Z" params check "$D/params" > "$D/out"
[ $? -eq 1 ] && grep -q "development keys" "$D/out" || fail "params check must tell development keys from Filecoin's"
mkdir "$D/wrong" && cp "$STEM.vk" "$D/wrong/$(basename "$STEM" | sed 's/8-0-0-sha256_hasher-032d3138.*/8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb/').params"
"$Z" params check "$D/wrong" --no-digest > "$D/out"
[ $? -eq 1 ] && grep -q "^porep 8MiB  *params  PROBLEM" "$D/out" || fail "a vk posing as 8MiB params must be refused: $(cat "$D/out")"
# PoSt keys under Filecoin's names fit their circuits too.
"$Z" setup --kind window-post --sector-size 2KiB --out "$D/post" > /dev/null || fail "setup --kind window-post"
"$Z" setup --kind winning-post --sector-size 2KiB --out "$D/post" > /dev/null || fail "setup --kind winning-post"
"$Z" params check "$D/post" --no-digest > "$D/out" || fail "params check (PoSt): $(cat "$D/out")"
grep -q "^window-post 2KiB  *params  ok" "$D/out" && grep -q "^winning-post 2KiB  *vk  *ok" "$D/out" \
    || fail "params check must find the PoSt keys: $(cat "$D/out")"

"$Z" prove --kind porep --c1 "$D/c1.json" --params-dir "$D/params" --out "$D/proof.bin" --json > "$D/prove.json" \
    || fail "prove --kind porep: $(cat "$D/prove.json")"
[ "$(stat -c %s "$D/proof.bin")" = "192" ] || fail "one 192-byte partition proof"
# The 1.1 GB key was mapped through a native key cache, built by this first load.
ls "$D/key-cache/"*.zkkey > /dev/null 2>&1 || fail "the key cache must hold the mapped key: $(ls "$D/key-cache" 2>&1)"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/proof.bin" > "$D/out" || fail "verify --c1: $(cat "$D/out")"
grep -q "^valid" "$D/out" || fail "valid"
"$Z" verify --kind porep --c1 "$D/c1w.json" --vk "$STEM.vk" --proof "$D/proof.bin" > /dev/null || fail "verify --c1 wrapped"
"$Z" verify --kind porep --c1 "$D/other.json" --vk "$STEM.vk" --proof "$D/proof.bin" > /dev/null
[ $? -eq 1 ] || fail "another sector's C1 must not verify"
# From the public values alone (prover id from the miner id, StackedDrg2KiBV1_1 = 5).
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/proof.bin" --registered-proof 5 \
    --prover-id "$(field "$D/gen.json" prover_id)" --sector-number 7 --ticket "$(field "$D/gen.json" ticket)" \
    --seed "$(field "$D/gen.json" seed)" --comm-d "$(field "$D/gen.json" comm_d)" \
    --comm-r "$(field "$D/gen.json" comm_r)" > /dev/null || fail "verify from the public values"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/proof.bin" --registered-proof 5 \
    --prover-id "$(field "$D/gen.json" prover_id)" --sector-number 8 --ticket "$(field "$D/gen.json" ticket)" \
    --seed "$(field "$D/gen.json" seed)" --comm-d "$(field "$D/gen.json" comm_d)" \
    --comm-r "$(field "$D/gen.json" comm_r)" > /dev/null
[ $? -eq 1 ] || fail "another sector number must not verify"
# Every public value changed alone, a partition added: never valid (issue 47).
python3 "$(dirname "$0")/verify_properties.py" "$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" \
    --proof "$D/proof.bin" --registered-proof 5 --prover-id "$(field "$D/gen.json" prover_id)" --sector-number 7 \
    --ticket "$(field "$D/gen.json" ticket)" --seed "$(field "$D/gen.json" seed)" \
    --comm-d "$(field "$D/gen.json" comm_d)" --comm-r "$(field "$D/gen.json" comm_r)" > "$D/props" \
    || fail "porep properties: $(cat "$D/props")"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/proof.bin" --registered-proof 5 \
    --prover-id "$(field "$D/gen.json" prover_id)" --sector-number " 7" --ticket "$(field "$D/gen.json" ticket)" \
    --seed "$(field "$D/gen.json" seed)" --comm-d "$(field "$D/gen.json" comm_d)" \
    --comm-r "$(field "$D/gen.json" comm_r)" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--sector-number ' 7' must be refused"

# A tampered C1 is refused before proving, naming what is wrong.
python3 - "$D/c1.json" "$D/bad-seed.json" "$D/bad-path.json" <<'PY' || fail "tampering"
import json, sys
c1 = json.load(open(sys.argv[1]))
c1["seed"][0] ^= 1
json.dump(c1, open(sys.argv[2], "w"), separators=(",", ":"))
c1 = json.load(open(sys.argv[1]))
p = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]["replica_column_proofs"]["exp_parents"][3]
p["inclusion_proof"]["data"]["Single"]["path"]["path"][1]["hashes"][2][5] ^= 1
json.dump(c1, open(sys.argv[3], "w"), separators=(",", ":"))
PY
"$Z" prove --kind porep --c1 "$D/bad-seed.json" --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "the challenge drawn for it is node" "$D/err" || fail "a changed seed must exit 2: $(cat "$D/err")"
"$Z" prove --kind porep --c1 "$D/bad-path.json" --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "challenge 1: exp_parents\[3\].inclusion_proof" "$D/err" \
    || fail "a changed path hash must exit 2 naming it: $(cat "$D/err")"
"$Z" prove --kind porep --c1 "$D/c1.json" --params-dir "$D/nowhere" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "setup --kind porep --sector-size 2KiB" "$D/err" || fail "missing keys must say how to get them"

# Through the daemon: the wrapped C1, the pipeline, self-verification.
SOCK="$D/zk.sock"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/c1w.json" --out "$D/daemon.bin" > "$D/out" 2>&1 \
    || fail "prove through the daemon: $(cat "$D/out")"
"$Z" verify --kind porep --c1 "$D/c1.json" --vk "$STEM.vk" --proof "$D/daemon.bin" > /dev/null \
    || fail "the daemon's proof must verify"
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/bad-path.json" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "exp_parents\[3\]" "$D/err" || fail "the daemon must refuse a tampered C1: $(cat "$D/err")"
grep -q "mapped from the key cache" "$D/serve.log" || fail "the daemon must map the key from the cache the CLI built"
# Curio's protocol (cuzk.v1) on the same daemon: the wrapped C1 as Curio sends it.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
python_stubs "$D/stubs" cuzk || fail "protoc"
# Curio sends a synthetic-PoRep sector (StackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10): same circuit
# and keys, its own porep id, parents and challenges.
"$Z" gen-c1 --registered-proof 10 --miner-id 1234 --sector-number 9 --data-seed 8 --out "$D/syn.json" > /dev/null \
    || fail "gen-c1 --registered-proof 10"
"$Z" gen-c1 --registered-proof 10 --miner-id 1234 --sector-number 9 --data-seed 8 --wrap --out "$D/synw.json" > /dev/null \
    || fail "gen-c1 --registered-proof 10 --wrap"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" porep "$D/synw.json" 2048 "$D/cuzk.bin" 10 > "$D/out" 2>&1 \
    || fail "curio client (porep): $(cat "$D/out")"
"$Z" verify --kind porep --c1 "$D/syn.json" --vk "$STEM.vk" --proof "$D/cuzk.bin" > /dev/null \
    || fail "the synthetic-PoRep proof made through cuzk.v1 must verify"
"$Z" gen-c1 --registered-proof 10 --miner-id 1234 --sector-number 9 --data-seed 8 --json --out "$D/syn2.json" > "$D/syn.gen" \
    || fail "gen-c1 --json"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/cuzk.bin" --registered-proof 10 \
    --prover-id "$(field "$D/syn.gen" prover_id)" --sector-number 9 --ticket "$(field "$D/syn.gen" ticket)" \
    --seed "$(field "$D/syn.gen" seed)" --comm-d "$(field "$D/syn.gen" comm_d)" \
    --comm-r "$(field "$D/syn.gen" comm_r)" > /dev/null || fail "a synthetic proof verifies from its public values"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/cuzk.bin" --registered-proof 5 \
    --prover-id "$(field "$D/syn.gen" prover_id)" --sector-number 9 --ticket "$(field "$D/syn.gen" ticket)" \
    --seed "$(field "$D/syn.gen" seed)" --comm-d "$(field "$D/syn.gen" comm_d)" \
    --comm-r "$(field "$D/syn.gen" comm_r)" > /dev/null
[ $? -eq 1 ] || fail "a synthetic proof must not verify as interactive V1_1"
# Curio's proof market re-encodes the C1 in Go before wrapping it (json.Marshal: compact, its own key
# order, map keys sorted; issue 41). Keys sorted and keys reversed, compact: the sorted one proved
# through cuzk.v1, and its proof verifies against the original C1 and both re-encodings.
/usr/bin/python3 - "$D/syn.json" "$D" <<'PY' || fail "re-encoding the C1"
import base64, json, sys
c1 = json.load(open(sys.argv[1]))
def reverse(v):
    if isinstance(v, dict):
        return {k: reverse(v[k]) for k in reversed(list(v))}
    return [reverse(x) for x in v] if isinstance(v, list) else v
for name, text in (("sorted", json.dumps(c1, separators=(",", ":"), sort_keys=True)),
                   ("reversed", json.dumps(reverse(c1), separators=(",", ":")))):
    wrap = {"SectorNum": 9, "Phase1Out": base64.b64encode(text.encode()).decode(), "SectorSize": 2048}
    json.dump(wrap, open("%s/go-%s.json" % (sys.argv[2], name), "w"), separators=(",", ":"))
PY
# The sorted one is proved (a proof costs ~30 core-seconds); the reversed one is read by `verify --c1`,
# whose public inputs must be the same as the original's for that proof to verify.
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" porep "$D/go-sorted.json" 2048 \
    "$D/go-sorted.bin" 10 > "$D/out" 2>&1 || fail "curio client (porep, Go-encoded C1, keys sorted): $(cat "$D/out")"
for c1 in syn.json go-sorted.json go-reversed.json; do
  "$Z" verify --kind porep --c1 "$D/$c1" --vk "$STEM.vk" --proof "$D/go-sorted.bin" > /dev/null \
      || fail "the proof of the Go-encoded C1 (keys sorted) must verify with the public inputs of $c1"
done
stop_daemon
echo "ok"
