#!/bin/sh
# Curio's retries (issue 41): Curio calls only cuzk.v1 Prove and retries a failed task with the same
# request id (PoRep 10 times, SnapDeals 3, proof-market work 20). Against a daemon whose first
# partition synthesis fails on purpose (ZKPIPE_TEST_FAIL_SYNTHESES=1, the engine's test hook), a
# Curio-like client (curio_client.py retry) sees: FAILED, then the retry proved (a new job), then the
# same request answered with that job; a cancelled WinningPoSt retried and proved; another payload
# under a used id proved as a new job. Every proof verifies here from the public values.
# Usage: curio_retry_test.sh path/to/zkpipe
set -u
Z="$1"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, serving_address, stop_daemon; SERVE_PID
daemon_test_scratch
py() { python3 -c "$1" "$2"; }
/usr/bin/python3 -c "import grpc, google.protobuf" 2> /dev/null && command -v grpc_python_plugin > /dev/null \
    || fail "python3-grpcio and grpc_python_plugin are needed (scripts/install-deps.sh installs them)"

"$Z" setup --kind window-post --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind window-post"
"$Z" setup --kind winning-post --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind winning-post"
WVK=$(ls "$D"/params/*0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk) || fail "window key name"
NVK=$(ls "$D"/params/*3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk) || fail "winning key name"
sectors() { py "import json,sys; print(' '.join('--sector %d:%s' % (s['number'], s['comm_r']) for s in json.load(open(sys.argv[1]))['sectors']))" "$1"; }
"$Z" gen-vanilla --kind window-post --sectors 2 --first-sector 40 --data-seed 3 --out "$D/w.json" --json > "$D/gw.json" \
    || fail "gen-vanilla window-post"
R=$(py "import json,sys; print(json.load(open(sys.argv[1]))['randomness'])" "$D/gw.json")
R2=$(echo "$R" | sed 's/^./f/')
"$Z" gen-vanilla --kind window-post --sectors 2 --first-sector 40 --data-seed 3 --randomness "$R2" --out "$D/w2.json" \
    --json > "$D/gw2.json" || fail "gen-vanilla window-post, another randomness"
"$Z" gen-vanilla --kind winning-post --first-sector 9 --data-seed 4 --out "$D/n.json" --json > "$D/gn.json" \
    || fail "gen-vanilla winning-post"
RN=$(py "import json,sys; print(json.load(open(sys.argv[1]))['randomness'])" "$D/gn.json")

SOCK="$D/zk.sock"
export ZKPIPE_TEST_FAIL_SYNTHESES=1
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
unset ZKPIPE_TEST_FAIL_SYNTHESES
grep -q "ZKPIPE_TEST_FAIL_SYNTHESES=1: the first N partition syntheses fail on purpose" "$D/serve.log" || fail "the daemon must say that the test hook is on"
python_stubs "$D/stubs" cuzk || fail "protoc"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" retry "$D/w.json" "$D/w2.json" "$D/n.json" "$D" \
    > "$D/out" 2>&1 || fail "curio client: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/retry-window.bin" --randomness "$R" \
    $(sectors "$D/gw.json") > /dev/null || fail "the retried WindowPoSt must verify"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/retry-other.bin" --randomness "$R2" \
    $(sectors "$D/gw2.json") > /dev/null || fail "the other payload's WindowPoSt must verify"
# shellcheck disable=SC2086
"$Z" verify --kind winning-post --registered-proof 0 --vk "$NVK" --proof "$D/retry-winning.bin" --randomness "$RN" \
    $(sectors "$D/gn.json") > /dev/null || fail "the retried WinningPoSt must verify"
stop_daemon
echo "curio retry ok: failed then proved, cancelled then proved, another payload under a used id proved"
