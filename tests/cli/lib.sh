# Shared by the CLI tests that run a daemon (POSIX sh; sourced after Z, the zkpipe binary, and —
# unless the test calls daemon_test_scratch below — D, its scratch directory, and its own `fail`): start a daemon in the
# background and wait until it serves, read its address, stop it and forget it. SERVE_PID is the
# running daemon's pid (empty when none), for the test's cleanup trap.
SERVE_PID=""

# daemon_test_scratch: the scaffolding most daemon tests share, for those that call it right after
# sourcing this file: D, a scratch directory removed at exit (the daemon killed first), the key
# cache kept in it, and `fail MESSAGE` (prints the daemon's log tail from $D/serve.log, exits 1).
daemon_test_scratch() {
  D=$(mktemp -d)
  trap 'scratch_cleanup' EXIT
  export ZKPIPE_KEY_CACHE="$D/key-cache"
  fail() { echo "FAIL: $*"; [ -f "$D/serve.log" ] && tail -20 "$D/serve.log"; exit 1; }
}
scratch_cleanup() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2> /dev/null; rm -rf "$D"; }

# start_daemon OUT LOG ARGS...: `$Z serve ARGS` in the background, stdout to OUT (removed first, so
# an earlier daemon's "serving on" line is never read) and stderr to LOG; returns once it prints
# "serving on". Fails the test when it exits first or has not served after 30 s.
start_daemon() {
  out=$1
  log=$2
  shift 2
  rm -f "$out"
  "$Z" serve "$@" > "$out" 2> "$log" &
  SERVE_PID=$!
  i=0
  while ! grep -q "serving on" "$out" 2> /dev/null; do
    i=$((i + 1))
    if [ $i -gt 300 ] || ! kill -0 "$SERVE_PID" 2> /dev/null; then
      fail "daemon did not start ($*): $(tail -5 "$log" 2> /dev/null)"
    fi
    sleep 0.1
  done
}

# serving_address OUT: the address a daemon started with OUT serves on (127.0.0.1:PORT for port 0).
serving_address() { sed -n 's/^zkpipe serving on //p' "$1"; }

# stop_daemon [SIGNAL]: signals the daemon (TERM by default), waits for it and forgets it; returns
# its exit status.
stop_daemon() {
  kill "-${1:-TERM}" "$SERVE_PID" 2> /dev/null
  wait "$SERVE_PID" 2> /dev/null
  rc=$?
  SERVE_PID=""
  return $rc
}

# python_stubs DIR NAME...: the Python gRPC stubs of proto/NAME/v1/proving.proto (cuzk, zkpipe) in
# DIR, importable as NAME.v1 (needs protoc and grpc_python_plugin).
python_stubs() {
  stubs_dir=$1
  shift
  proto_root="$(cd "$(dirname "$0")/../.." && pwd)/proto"
  mkdir -p "$stubs_dir"
  for name in "$@"; do
    protoc --proto_path="$proto_root" --python_out="$stubs_dir" --grpc_out="$stubs_dir" \
        --plugin=protoc-gen-grpc="$(command -v grpc_python_plugin)" "$proto_root/$name/v1/proving.proto" || return 1
    touch "$stubs_dir/$name/__init__.py" "$stubs_dir/$name/v1/__init__.py"
  done
}

# field FILE KEY: a top-level value of a JSON file.
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# link_porep_2kib_keys KEYS: the 2 KiB PoRep development keys the cli_filecoin_2kib_keys fixture
# made in KEYS, linked into this test's own $D/params; STEM: their path under Filecoin's file name
# (STEM.params, STEM.vk).
link_porep_2kib_keys() {
  mkdir "$D/params" && ln -s "$1"/* "$D/params/" || fail "the development keys of the fixture: $1"
  STEM="$D/params/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"
  [ -f "$STEM.params" ] && [ -f "$STEM.vk" ] || fail "keys under Filecoin's names: $(ls "$D/params")"
}
