#!/bin/sh
# A fleet on one PostgreSQL queue (issue 21, docs/cluster.md): three daemons share a real
# PostgreSQL 15 started here (as an unprivileged user, on a unix socket in a temporary directory).
#   1. 48 jobs accepted by daemon A; daemon B killed with SIGKILL while it holds claims, and a client
#      awaiting on B at that moment reconnects to C: every job completes once, on another daemon;
#   2. B restarted: it rejoins the queue (a new machine in the status) and proves new work;
#   3. the database restarted under load: the daemons reconnect, the jobs complete;
#   4. a cancelled job's retry sent to two daemons at once: one new attempt (issue 41).
# Counts checked: submitted = completed, none failed, ids distinct, every proof verified.
# Usage: fleet_test.sh path/to/zkpipe repo-root
set -u
Z=$(realpath "$1")
ROOT="$2"
D=$(mktemp -d)
PIDS=""
PGBIN=/usr/lib/postgresql/15/bin
cleanup() {
  for p in $PIDS; do kill -9 "$p" 2> /dev/null; done
  [ -f "$D/pg/data/postmaster.pid" ] && as_pg "$PGBIN/pg_ctl" -D "$D/pg/data" -m immediate stop > /dev/null 2>&1
  rm -rf "$D"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for l in "$D"/*.log; do [ -f "$l" ] && { echo "== $l"; tail -12 "$l"; }; done; exit 1; }
. "$(dirname "$0")/lib.sh"  # start_daemon
PY=/usr/bin/python3
if [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL 15 server binaries missing (scripts/install-deps.sh installs postgresql)"
  exit 77
fi
if ! $PY -c "import grpc, google.protobuf" 2> /dev/null || ! command -v grpc_python_plugin > /dev/null; then
  echo "python3-grpcio or grpc_python_plugin missing (scripts/install-deps.sh installs them)"
  exit 77
fi
# initdb refuses to run as root: the server runs as nobody when we are root.
if [ "$(id -u)" -eq 0 ]; then
  as_pg() { runuser -u nobody -- "$@"; }
  chmod 755 "$D"
else
  as_pg() { "$@"; }
fi
mkdir -p "$D/pg"
[ "$(id -u)" -eq 0 ] && chown nobody "$D/pg"
as_pg "$PGBIN/initdb" -D "$D/pg/data" -A trust -U zkpipe > "$D/initdb.log" 2>&1 || fail "initdb"
pg_start() {
  as_pg "$PGBIN/pg_ctl" -D "$D/pg/data" -l "$D/pg/server.log" -w -t 60 \
    -o "-k $D/pg -c listen_addresses='' -F -c max_connections=50" start > /dev/null || fail "postgres start"
}
pg_start
URL="postgresql:///postgres?host=$D/pg&user=zkpipe"

mkdir -p "$D/stubs" "$D/out"
python_stubs "$D/stubs" zkpipe || fail "protoc"
client() { $PY "$ROOT/tests/cli/durable_client.py" "$D/stubs" "$@"; }

N=8000
SHAPE="bls12-381-n$N"
"$Z" setup --circuit synthetic --constraints $N --out "$D/keys" > /dev/null || fail "setup"
# Short leases so that a dead daemon's claims are taken over within seconds.
printf '[daemon]\nshutdown_grace_s = 0\n[engine]\nsynthesis_workers = 1\n[queue]\nlease_s = 4\nheartbeat_s = 1\npoll_ms = 100\nclaim_partitions = 1\n' > "$D/zk.toml"

start() {  # $1: name (socket, logs); sets PID_<name> (several daemons run at once: not SERVE_PID)
  start_daemon "$D/$1.out" "$D/$1.log" --config "$D/zk.toml" --listen "unix://$D/$1.sock" --queue "$URL" \
    --params-dir "$D/keys"
  eval "PID_$1=$SERVE_PID"
  PIDS="$PIDS $SERVE_PID"
  SERVE_PID=""
}
addr() { echo "unix://$D/$1.sock"; }

start a
start b
start c

# 1. 48 jobs through A; B killed while it holds claims. Enough jobs that the queue is still full
# when B dies (~1 s after its first claim, the clients' start-up included), however fast a job is.
client submit "$(addr a)" "$SHAPE" 1 48 "$D/ids" || fail "submit"
i=0
while [ "$(client claims "$(addr b)")" -lt 1 ]; do
  i=$((i + 1)); [ $i -gt 600 ] && fail "daemon b never claimed a job"; sleep 0.05
done
# A client awaiting a job on B when B dies: its call fails, it asks C instead.
tail -1 "$D/ids" > "$D/last"
client await "$(addr b)" "$D/last" "$D/out" "$D/await_b.ready" > "$D/await_b.out" 2>&1 &
AWAIT_B=$!
i=0
while [ ! -f "$D/await_b.ready" ]; do
  i=$((i + 1)); [ $i -gt 300 ] && fail "the client awaiting on b did not connect"; sleep 0.05
done
sleep 0.1
kill -9 "$PID_b"
wait "$PID_b" 2> /dev/null
wait "$AWAIT_B" && fail "an await on the killed daemon cannot have succeeded"
grep -q "UNAVAILABLE" "$D/await_b.out" || fail "the await on the killed daemon must end UNAVAILABLE: $(tail -3 "$D/await_b.out")"
[ "$(client await "$(addr c)" "$D/last" "$D/out")" = "1" ] || fail "the awaiting client must get its result from C"
[ "$(client await "$(addr c)" "$D/ids" "$D/out")" = "48" ] || fail "all 48 jobs must complete after B died"
grep -q "lease ran out\|attempt 2" "$D/a.log" "$D/c.log" || fail "A or C must have taken over B's claims"

# 2. B restarted: a new machine in the fleet, proving new work.
start b
client submit "$(addr b)" "$SHAPE" 49 6 "$D/ids2" || fail "submit 2"
[ "$(client await "$(addr a)" "$D/ids2" "$D/out")" = "6" ] || fail "6 more jobs"
[ "$(client machines "$(addr a)")" -ge 3 ] || fail "the fleet must show at least 3 machines"

# 3. The database restarted under load.
client submit "$(addr c)" "$SHAPE" 55 8 "$D/ids3" || fail "submit 3"
as_pg "$PGBIN/pg_ctl" -D "$D/pg/data" -m fast -w stop > /dev/null || fail "postgres stop"
sleep 1
pg_start
[ "$(client await "$(addr b)" "$D/ids3" "$D/out")" = "8" ] || fail "8 jobs across a database restart"

# 4. Curio's retry (issue 41): a job cancelled while 30 jobs fill the queue ahead of it, then its
# request sent to A and B at the same moment: one new attempt, proved.
client submit "$(addr c)" "$SHAPE" 63 30 "$D/ids4" || fail "submit 4"
client retry "$(addr a)" "$(addr b)" "$SHAPE" 100 "$D/ids4" || fail "the retry of a cancelled job"
[ "$(client await "$(addr c)" "$D/ids4" "$D/out")" = "31" ] || fail "30 jobs and the retried one"

# Counts: every job done once, none failed, the store agrees (the cancelled attempt kept).
client counts "$(addr a)" > "$D/counts"
grep -q "^done 93 failed 0 queued 0 running 0$" "$D/counts" || fail "store counts: $(cat "$D/counts")"
cat "$D/ids" "$D/ids2" "$D/ids3" "$D/ids4" | while read -r seed job; do
  "$Z" verify --vk "$D/keys/synthetic-$SHAPE.vk" --proof "$D/out/$seed.bin" --public "$D/out/$seed.json" > /dev/null \
    || { echo "FAIL: job $job (seed $seed) does not verify"; exit 1; }
done || exit 1
echo "fleet ok: 93 jobs over 3 daemons on PostgreSQL, across a SIGKILL, a rejoin, a database restart and a retry"
