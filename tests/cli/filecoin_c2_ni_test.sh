#!/bin/sh
# Filecoin's non-interactive PoRep (NI) at 2 KiB through the daemon (issue 44), with the development
# keys the cli_filecoin_2kib_keys fixture made: a zkpipe.v1 submit without a partition count gets
# the NI sector's own 13 partitions; an NI job is refused at submit without the SnarkPack SRS, with
# an SRS too short for it, and with a client's local --partition-proofs; then one is proved (13
# partitions, about 3 minutes on 2 cores) and answered with the V2 aggregate padded to 16 (14164
# bytes), which verifies from the public values alone and not for another sector.
# tests/cli/filecoin_ni_test.sh (slow) covers the CLI, cuzk.v1 and the partition-proofs options.
# With `checks` as third argument it stops before the proof (the test suite's cli_filecoin_c2_ni_checks;
# the whole flow is cli_filecoin_c2_ni, label slow: 13 partitions are about 350 core-seconds).
# Usage: filecoin_c2_ni_test.sh path/to/zkpipe KEYS_DIR [checks]
set -u
Z="$1"
KEYS="$2"
MODE="${3:-full}"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, stop_daemon, python_stubs, field, link_porep_2kib_keys; SERVE_PID
daemon_test_scratch
link_porep_2kib_keys "$KEYS"
SOCK="$D/zk.sock"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
# zkpipe.v1 without a partition count: a non-interactive C1 (StackedDrg2KiBV1_2_Feat_NonInteractivePoRep
# = 15) gets its own 13 partitions, not the interactive default; cancelled before it is proved.
"$Z" gen-c1 --registered-proof 15 --miner-id 1234 --sector-number 11 --data-seed 8 --out "$D/ni.json" --json \
    > "$D/ni.gen" || fail "gen-c1 --registered-proof 15"
python_stubs "$D/stubs" zkpipe || fail "protoc"
# Its answer is the SnarkPack aggregate of its partitions: without the SRS it is refused at submit.
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/ni.json" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "v28-fil-inner-product-v1.srs" "$D/err" || fail "an NI job without the SRS must be refused: $(cat "$D/err")"
# The daemon answers as it is configured: a client's local options are refused, not ignored.
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/ni.json" --partition-proofs --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "ni-partition-proofs" "$D/err" || fail "prove --addr --partition-proofs must exit 2: $(cat "$D/err")"
# An SRS too short for 13 partitions padded to 16: refused at submit, saying so (its lengths are read).
"$Z" setup --srs --srs-proofs 8 --out "$D/params" > /dev/null || fail "setup --srs --srs-proofs 8"
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/ni.json" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "aggregates 8 proofs at most; this job needs 16" "$D/err" \
    || fail "an NI job with a short SRS must be refused: $(cat "$D/err")"
"$Z" setup --srs --srs-proofs 16 --out "$D/params" > /dev/null || fail "setup --srs"
/usr/bin/python3 - "$D/stubs" "unix://$SOCK" "$D/ni.json" > "$D/out" 2>&1 << 'PY' || fail "NI submit through zkpipe.v1: $(cat "$D/out")"
import sys
sys.path.insert(0, sys.argv[1])
import grpc
from zkpipe.v1 import proving_pb2, proving_pb2_grpc
stub = proving_pb2_grpc.ProvingEngineStub(grpc.insecure_channel(sys.argv[2]))
r = stub.SubmitProof(proving_pb2.SubmitProofRequest(circuit="porep", shape="2KiB", input=open(sys.argv[3], "rb").read()),
                     timeout=120)
assert r.partitions == 13, r
assert stub.CancelProof(proving_pb2.CancelProofRequest(job_id=r.job_id), timeout=30).was_active
PY
if [ "$MODE" = checks ]; then
  stop_daemon
  echo "ok (checks only)"
  exit 0
fi
# Proved through the daemon and answered with its aggregate, verified from the public values.
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$D/ni.json" --out "$D/ni.bin" > "$D/out" 2>&1 \
    || fail "an NI PoRep through the daemon: $(cat "$D/out")"
[ "$(stat -c %s "$D/ni.bin")" = "14164" ] || fail "the aggregate of 13 partitions padded to 16 has 14164 bytes"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/ni.bin" --registered-proof 15 \
    --prover-id "$(field "$D/ni.gen" prover_id)" --sector-number 11 --ticket "$(field "$D/ni.gen" ticket)" \
    --seed "$(field "$D/ni.gen" seed)" --comm-d "$(field "$D/ni.gen" comm_d)" \
    --comm-r "$(field "$D/ni.gen" comm_r)" > "$D/out" || fail "the NI aggregate from the public values: $(cat "$D/out")"
grep -q "SnarkPack aggregate of 13 partitions, padded to 16" "$D/out" || fail "$(cat "$D/out")"
"$Z" verify --kind porep --sector-size 2KiB --vk "$STEM.vk" --proof "$D/ni.bin" --registered-proof 15 \
    --prover-id "$(field "$D/ni.gen" prover_id)" --sector-number 12 --ticket "$(field "$D/ni.gen" ticket)" \
    --seed "$(field "$D/ni.gen" seed)" --comm-d "$(field "$D/ni.gen" comm_d)" \
    --comm-r "$(field "$D/ni.gen" comm_r)" > /dev/null
[ $? -eq 1 ] || fail "the NI aggregate must not verify for another sector number"
stop_daemon
echo "ok"
