#!/bin/sh
# `zkpipe serve` as a process: Python's grpcio (stubs generated from the proto) proves and reads the
# status; zkpipe's own clients (prove --addr, status, metrics, cancel, bench --addr); configuration
# errors; a live socket refused; SIGTERM with jobs in flight drains them (every client answered,
# exit 0, socket removed).
# Usage: serve_test.sh path/to/zkpipe repo-root
set -u
Z=$(realpath "$1")
ROOT="$2"
D=$(mktemp -d)
cleanup() { [ -n "$SERVE_PID" ] && kill -9 "$SERVE_PID" 2> /dev/null; rm -rf "$D"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$D/serve.log" ] && tail -20 "$D/serve.log"; exit 1; }
. "$(dirname "$0")/lib.sh"  # start_daemon, serving_address, stop_daemon; SERVE_PID
N=2000
SHAPE="bls12-381-n$N"
SOCK="$D/zk.sock"
ADDR="unix://$SOCK"
"$Z" setup --circuit synthetic --constraints $N --out "$D/keys" > /dev/null || fail "setup"

# Configuration errors exit 2 with a message naming the key.
printf '[daemon]\nlisten_addr = "x"\n' > "$D/bad.toml"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/bad.toml" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "daemon.listen_addr" "$D/err" || fail "unknown key must exit 2 naming it"
printf '[engine]\nprover_workers = 65\n' > "$D/bad2.toml"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/bad2.toml" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "engine.prover_workers" "$D/err" || fail "bad value must exit 2 naming it"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/missing.toml" > /dev/null 2>&1
[ $? -eq 2 ] || fail "missing config must exit 2"
"$Z" status --addr "unix://$D/nobody.sock" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "cannot reach a zkpipe daemon" "$D/err" || fail "status without a daemon must say so"

printf '[daemon]\nshutdown_grace_s = 300\n[engine]\nsynthesis_workers = 1\n[log]\nformat = "json"\n' > "$D/zk.toml"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/zk.toml" \
    --listen "$ADDR" --params-dir "$D/keys"
[ "$(stat -c %a "$SOCK")" = "600" ] || fail "socket must be owner-only"
head -1 "$D/serve.log" | python3 -c "import json,sys; json.loads(sys.stdin.readline())" || fail "json log lines"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "$ADDR" --params-dir "$D/keys" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "another zkpipe daemon holds" "$D/err" || fail "a live socket must be refused"

# An independent client: Python grpcio with generated stubs.
PY=/usr/bin/python3
if $PY -c "import grpc, google.protobuf" 2> /dev/null && command -v grpc_python_plugin > /dev/null; then
  python_stubs "$D/stubs" zkpipe || fail "protoc python"
  $PY "$ROOT/tests/cli/python_client.py" "$D/stubs" "$ADDR" "$SHAPE" "$D/py.bin" "$D/py.json" || fail "python client"
  "$Z" verify --vk "$D/keys/synthetic-bls12-381-n$N.vk" --proof "$D/py.bin" --public "$D/py.json" > /dev/null \
    || fail "the proof the python client received does not verify"
else
  echo "python3-grpcio or grpc_python_plugin missing (scripts/install-deps.sh installs them): python client skipped"
fi

# zkpipe's clients (a relative unix:// path works too).
( cd "$D" && "$Z" status --addr "unix://zk.sock" > /dev/null ) || fail "status with a relative socket path"

"$Z" prove --addr "$ADDR" --constraints $N --partitions 2 --seed 9 --out "$D/p.bin" --public-out "$D/p.json" > /dev/null \
  || fail "prove --addr"
"$Z" verify --vk "$D/keys/synthetic-bls12-381-n$N.vk" --proof "$D/p.bin" --public "$D/p.json" > /dev/null || fail "verify remote proof"
"$Z" status --addr "$ADDR" > "$D/status.txt" || fail "status"
grep -q "synthetic-bls12-381-n$N.params" "$D/status.txt" || fail "status lists the cached key"
"$Z" status --addr "$ADDR" --json | python3 -c "import json,sys; j=json.load(sys.stdin); assert int(j['totals']['completed'])>=2, j" \
  || fail "status --json"
"$Z" metrics --addr "$ADDR" | grep -q '^zkpipe_jobs_total{state="done"}' || fail "metrics"
"$Z" prove --addr "$ADDR" --constraints 77 --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "NOT_FOUND" "$D/err" || fail "a shape without keys must be NOT_FOUND"
"$Z" cancel --addr "$ADDR" 424242 > /dev/null 2>&1
[ $? -eq 2 ] || fail "cancel of an unknown job must exit 2"
"$Z" bench --addr "$ADDR" --constraints $N --partitions 1 --jobs 4 -j 2 --json > "$D/bench.json" 2> /dev/null || fail "bench --addr"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['ok'] and j['partitions']==4, j" "$D/bench.json" \
  || fail "bench --addr report"

# SIGTERM with jobs in flight: they finish (grace 300 s), every client is answered, exit 0. 40 jobs
# keep the daemon busy for seconds, so the polls below see one active however fast a proof is.
"$Z" bench --addr "$ADDR" --constraints $N --partitions 2 --jobs 40 -j 4 --json > "$D/drain.json" 2> /dev/null &
BENCH_PID=$!
i=0
until "$Z" status --addr "$ADDR" --json | python3 -c "import json,sys; j=json.load(sys.stdin); sys.exit(0 if int(j['totals'].get('active',0))>0 else 1)"; do
  i=$((i + 1)); [ $i -gt 300 ] && fail "no job became active"; sleep 0.05
done
stop_daemon
RC=$?
[ $RC -eq 0 ] || fail "serve must exit 0 after SIGTERM (got $RC)"
wait $BENCH_PID
BRC=$?
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('drain: %d of 40 jobs answered, errors: %s' % (j['partitions']//2, j['errors']))" "$D/drain.json"
[ $BRC -eq 0 ] || python3 -c "
import json,sys
j=json.load(open(sys.argv[1]))
# Jobs accepted before SIGTERM finish; later submissions are refused as UNAVAILABLE (draining).
assert all('UNAVAILABLE' in e or 'cannot reach' in e for e in j['errors']), j['errors']
assert j['partitions'] >= 2, j" "$D/drain.json" || fail "drain: accepted jobs must complete"
[ ! -e "$SOCK" ] || fail "socket must be removed at exit"
grep -q "zkpipe daemon stopped" "$D/serve.log" || fail "stop logged"

# A token on plain TCP is refused (exit 2, naming the setting that allows it); TLS settings on a
# unix socket too.
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen 127.0.0.1:0 --params-dir "$D/keys" --token t > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "daemon.allow_token_over_plaintext" "$D/err" || fail "token over plain TCP must exit 2: $(cat "$D/err")"
sh "$ROOT/tests/cli/make_test_ca.sh" "$D/pki" || fail "make_test_ca.sh (openssl)"
P="$D/pki"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "$ADDR" --params-dir "$D/keys" --tls-cert "$P/server.pem" --tls-key "$P/server.key" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "is a unix socket" "$D/err" || fail "TLS on a unix socket must exit 2: $(cat "$D/err")"
"$Z" serve --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen 127.0.0.1:0 --params-dir "$D/keys" --tls-cert "$P/server.pem" --tls-key "$P/client.key" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "daemon.tls_key" "$D/err" || fail "a key that is not the certificate's must exit 2: $(cat "$D/err")"

# zkpipe's clients over mutual TLS on 127.0.0.1 with a token (a throwaway CA made here).
printf '[daemon]\nlisten = "127.0.0.1:0"\ntoken = "tls-token"\ntls_cert = "%s"\ntls_key = "%s"\ntls_client_ca = "%s"\n' \
  "$P/server.pem" "$P/server.key" "$P/ca.pem" > "$D/tls.toml"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/tls.toml" \
    --params-dir "$D/keys"
TCP=$(serving_address "$D/serve.out")
grep -q "mutual TLS" "$D/serve.log" || fail "the log says mutual TLS"
MTLS="--tls-ca $P/ca.pem --tls-cert $P/client.pem --tls-key $P/client.key"
# shellcheck disable=SC2086
ZKPIPE_TOKEN=tls-token "$Z" prove --addr "$TCP" $MTLS --constraints $N --seed 4 --out "$D/t.bin" --public-out "$D/t.json" \
  > /dev/null || fail "prove --addr over mutual TLS"
"$Z" verify --vk "$D/keys/synthetic-bls12-381-n$N.vk" --proof "$D/t.bin" --public "$D/t.json" > /dev/null \
  || fail "the proof made over TLS must verify"
# shellcheck disable=SC2086
"$Z" status --addr "$TCP" $MTLS --token tls-token > /dev/null || fail "status over mutual TLS"
"$Z" status --addr "$TCP" --token tls-token > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "wants --tls-ca" "$D/err" || fail "a plain client must fail with a hint: $(cat "$D/err")"
"$Z" status --addr "$TCP" --tls-ca "$P/ca.pem" --token tls-token > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "cannot reach" "$D/err" || fail "mutual TLS without a client certificate must fail: $(cat "$D/err")"
"$Z" status --addr "$TCP" --tls-ca "$P/ca.pem" --tls-cert "$P/stranger.pem" --tls-key "$P/stranger.key" --token tls-token \
  > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "a client certificate from another CA must fail: $(cat "$D/err")"
"$Z" status --addr "$TCP" --tls-ca "$P/other-ca.pem" --tls-cert "$P/client.pem" --tls-key "$P/client.key" \
  --token tls-token > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "a client that does not trust the daemon's CA must fail: $(cat "$D/err")"
"$Z" status --addr "$TCP" --tls-ca "$P/ca.pem" --tls-cert "$P/client.pem" --token tls-token > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "both --tls-cert and --tls-key" "$D/err" || fail "--tls-cert alone must exit 2: $(cat "$D/err")"
"$Z" status --addr "$TCP" --tls-ca "$P/missing.pem" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q -- "--tls-ca" "$D/err" || fail "a missing --tls-ca file must exit 2 naming it: $(cat "$D/err")"
"$Z" status --addr "$ADDR" --tls-ca "$P/ca.pem" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "unix socket" "$D/err" || fail "TLS to a unix socket must exit 2: $(cat "$D/err")"
"$Z" prove --constraints $N --out "$D/x.bin" --tls-ca "$P/ca.pem" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "need --addr" "$D/err" || fail "TLS flags without --addr must exit 2: $(cat "$D/err")"
stop_daemon || fail "the TLS daemon must exit 0"
echo "serve ok"
