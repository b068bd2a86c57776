#!/bin/sh
# The fleet soak benchmark (by hand; docs/cluster.md has the last figures): JOBS small jobs through
# DAEMONS daemons on one PostgreSQL queue while a daemon is killed with SIGKILL and restarted every
# KILL_EVERY seconds; then the same jobs through one daemon without kills, for the throughput
# ratio. Reports completed / failed / lost (must be 0) and the duplicate runs that were dropped.
# Usage: scripts/fleet-soak.sh path/to/zkpipe [JOBS=10000] [DAEMONS=3] [KILL_EVERY=10]
set -u
Z=$(realpath "$1")
JOBS=${2:-10000}
DAEMONS=${3:-3}
KILL_EVERY=${4:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
D=$(mktemp -d)
PGBIN=/usr/lib/postgresql/15/bin
if [ "$(id -u)" -eq 0 ]; then as_pg() { runuser -u nobody -- "$@"; }; chmod 755 "$D"; else as_pg() { "$@"; }; fi
cleanup() {
  pkill -9 -f "$D/d" 2> /dev/null
  as_pg "$PGBIN/pg_ctl" -D "$D/pg/data" -m immediate stop > /dev/null 2>&1
  rm -rf "$D"
}
trap cleanup EXIT
mkdir -p "$D/pg" "$D/stubs"
[ "$(id -u)" -eq 0 ] && chown nobody "$D/pg"
as_pg "$PGBIN/initdb" -D "$D/pg/data" -A trust -U zkpipe > /dev/null || exit 1
as_pg "$PGBIN/pg_ctl" -D "$D/pg/data" -l "$D/pg/server.log" -w -o "-k $D/pg -c listen_addresses='' -c max_connections=100" \
  start > /dev/null || exit 1
URL="postgresql:///postgres?host=$D/pg&user=zkpipe"
protoc --proto_path="$ROOT/proto" --python_out="$D/stubs" --grpc_out="$D/stubs" \
  --plugin=protoc-gen-grpc="$(command -v grpc_python_plugin)" "$ROOT/proto/zkpipe/v1/proving.proto" || exit 1
touch "$D/stubs/zkpipe/__init__.py" "$D/stubs/zkpipe/v1/__init__.py"
N=64
SHAPE="bn254-n$N"
"$Z" setup --circuit synthetic --curve bn254 --constraints $N --out "$D/keys" > /dev/null || exit 1
printf '[daemon]\nshutdown_grace_s = 0\nmax_active_jobs = 100000\n[engine]\nsynthesis_workers = 1\nresult_ttl_s = 7200\nmax_kept_jobs = 100000\n[queue]\nlease_s = 4\nheartbeat_s = 1\npoll_ms = 100\nclaim_partitions = 4\n' > "$D/zk.toml"

serve() {  # $1: index, $2: queue url
  "$Z" serve --config "$D/zk.toml" --listen "unix://$D/d$1.sock" --state-dir "$D/state$1" --queue "$2" \
    --params-dir "$D/keys" --log-level warn > /dev/null 2>> "$D/d$1.log" &
  echo $! > "$D/d$1.pid"
  while [ ! -S "$D/d$1.sock" ]; do sleep 0.05; done
}

run() {  # $1: daemons, $2: kill every (0: never), $3: queue url
  addrs=""
  for i in $(seq 1 "$1"); do serve "$i" "$3"; addrs="$addrs unix://$D/d$i.sock"; done
  if [ "$2" -gt 0 ]; then
    ( while sleep "$2"; do
        i=$(( $(od -An -N1 -tu1 /dev/urandom) % $1 + 1 ))
        kill -9 "$(cat "$D/d$i.pid")" 2> /dev/null; sleep 0.5; rm -f "$D/d$i.sock"; serve "$i" "$3"
        echo "killed and restarted d$i" >> "$D/kills.log"
      done ) &
    killer=$!
  fi
  /usr/bin/python3 "$ROOT/scripts/fleet_soak.py" "$D/stubs" "$SHAPE" "$JOBS" $addrs
  [ "$2" -gt 0 ] && kill "$killer"
  for i in $(seq 1 "$1"); do kill -9 "$(cat "$D/d$i.pid")" 2> /dev/null; done
  sleep 0.5
}

echo "fleet: $DAEMONS daemons on PostgreSQL, a SIGKILL every $KILL_EVERY s"
run "$DAEMONS" "$KILL_EVERY" "$URL"
echo "kills: $(wc -l < "$D/kills.log" 2> /dev/null || echo 0); duplicate runs dropped: $(cat "$D"/d*.log | grep -c 'already written')"
rm -f "$D"/d*.log
as_pg "$PGBIN/psql" -h "$D/pg" -U zkpipe -d postgres -qc "CREATE DATABASE single" > /dev/null
echo "one daemon on PostgreSQL, no kills"
run 1 0 "postgresql:///single?host=$D/pg&user=zkpipe"
