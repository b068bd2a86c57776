#!/bin/sh
# Filecoin's WindowPoSt and WinningPoSt at 2 KiB end to end, as a storage provider runs them:
# `setup --kind window-post|winning-post` writes development keys under Filecoin's names;
# `gen-vanilla` seals sectors here and writes one partition's vanilla proofs (bincode, as Curio
# sends them) for a randomness; `prove --kind` proves the partition (checked, synthesized,
# self-verified), also from raw --vanilla files; `verify --kind` accepts the proof from the public
# values alone (randomness, sector numbers, comm_r) and refuses changed ones; a vanilla proof for
# another randomness exits 2 naming the sector; then the same through `zkpipe serve`: a Curio-like
# client on cuzk.v1 over the unix socket, then over mutual TLS on 127.0.0.1 as 50 concurrent
# clients on cuzk.v1 and zkpipe.v1 at once.
# Usage: filecoin_post_test.sh path/to/zkpipe
set -u
Z="$1"
. "$(dirname "$0")/lib.sh"  # daemon_test_scratch (D, fail), start_daemon, serving_address, stop_daemon; SERVE_PID
daemon_test_scratch
py() { python3 -c "$1" "$2"; }

"$Z" setup --kind window-post --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind window-post"
"$Z" setup --kind winning-post --sector-size 2KiB --out "$D/params" > /dev/null || fail "setup --kind winning-post"
WVK=$(ls "$D"/params/*0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk) || fail "window key name"
NVK=$(ls "$D"/params/*3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk) || fail "winning key name"
# circuit-info names the same files (the key a daemon looks for).
for k in window-post:"$WVK" winning-post:"$NVK"; do
  F=$("$Z" circuit-info --kind "${k%%:*}" --sector-size 2KiB --json \
      | python3 -c "import json,sys; print(json.load(sys.stdin)['params_file'])")
  [ "$D/params/${F%.params}.vk" = "${k#*:}" ] || fail "circuit-info ${k%%:*}: params_file '$F'"
done

# WindowPoSt: a full 2-sector partition under API 1.2 (registered proof 10).
"$Z" gen-vanilla --kind window-post --sectors 2 --first-sector 40 --data-seed 3 --out "$D/w.json" --json > "$D/gen.json" \
    || fail "gen-vanilla window-post"
R=$(py "import json,sys; print(json.load(open(sys.argv[1]))['randomness'])" "$D/gen.json")
S=$(py "import json,sys; print(' '.join('--sector %d:%s' % (s['number'], s['comm_r']) for s in json.load(open(sys.argv[1]))['sectors']))" "$D/gen.json")
"$Z" prove --kind window-post --post-input "$D/w.json" --params-dir "$D/params" --out "$D/w.bin" --json > "$D/out" \
    || fail "prove --kind window-post: $(cat "$D/out")"
[ "$(stat -c %s "$D/w.bin")" = "192" ] || fail "one 192-byte proof"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w.bin" --randomness "$R" $S > "$D/out" \
    || fail "verify window-post from the public values: $(cat "$D/out")"
OTHER=$(echo "$S" | sed 's/--sector 41:/--sector 42:/')
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w.bin" --randomness "$R" $OTHER > /dev/null
[ $? -eq 1 ] || fail "another sector number must not verify"

# A WindowPoSt of 3 sectors is 2 partitions (2 sectors per partition at 2 KiB): partition 1 holds
# sector 42 alone. verify derives the partitions from the sectors named and needs one proof for
# each; every public value changed alone, sectors appended / repeated / dropped / reordered, a
# partition added or removed: never valid (issue 47).
"$Z" gen-vanilla --kind window-post --sectors 1 --first-sector 42 --partition 1 --randomness "$R" --data-seed 5 \
    --out "$D/w1.json" --json > "$D/gen1.json" || fail "gen-vanilla partition 1"
S1=$(py "import json,sys; print(' '.join('--sector %d:%s' % (s['number'], s['comm_r']) for s in json.load(open(sys.argv[1]))['sectors']))" "$D/gen1.json")
"$Z" prove --kind window-post --post-input "$D/w1.json" --params-dir "$D/params" --out "$D/w1.bin" > "$D/out" \
    || fail "prove partition 1: $(cat "$D/out")"
cat "$D/w.bin" "$D/w1.bin" > "$D/w01.bin"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w01.bin" --randomness "$R" $S $S1 > "$D/out" \
    || fail "2 partitions from 3 sectors: $(cat "$D/out")"
grep -q "^valid (StackedDrgWindow2KiBV1_2, 3 sectors, 2 partitions)" "$D/out" || fail "the count: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w.bin" --randomness "$R" $S $S1 > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "holds 1 proof(s).*2 proof(s), one per partition" "$D/err" \
    || fail "one proof for 3 sectors must be refused: $(cat "$D/err")"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w1.bin" --randomness "$R" $S $S1 --partition 1 \
    > "$D/out" || fail "partition 1 alone: $(cat "$D/out")"
grep -q "partition 1 only" "$D/out" || fail "partition 1 alone must say so: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w.bin" --randomness "$R" $S $S1 --partition 1 \
    > "$D/out"
[ $? -eq 1 ] && grep -q "INVALID: partition 1 does not verify" "$D/out" || fail "partition 0's proof as 1: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w1.bin" --randomness "$R" $S $S1 --partition 2 \
    > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "partition 2 does not exist" "$D/err" || fail "--partition 2 of 2: $(cat "$D/err")"
for bad in "-18446744073709551615" " 40" "+40" "40 " "0x28" "18446744073709551616" ""; do
  "$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w.bin" --randomness "$R" \
      --sector "$bad:${S#*:}" > /dev/null 2> "$D/err"
  [ $? -eq 2 ] && grep -q "sector number" "$D/err" || fail "sector number '$bad' must be refused: $(cat "$D/err")"
done
"$Z" verify --kind window-post --registered-proof " 10" --vk "$WVK" --proof "$D/w.bin" --randomness "$R" $S > /dev/null 2>&1
[ $? -eq 2 ] || fail "--registered-proof ' 10' must be refused"
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w1.bin" --randomness "$R" $S $S1 --partition +1 \
    > /dev/null 2>&1
[ $? -eq 2 ] || fail "--partition +1 must be refused"
# shellcheck disable=SC2086
python3 "$(dirname "$0")/verify_properties.py" "$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" \
    --proof "$D/w01.bin" --randomness "$R" $S $S1 > "$D/props" || fail "window-post properties: $(cat "$D/props")"

# The same partition from raw bincode vanilla proofs (what Curio holds), one file per sector.
py "import json,sys,base64
d=json.load(open(sys.argv[1]))
for i,v in enumerate(d['vanilla_proofs']): open(sys.argv[1]+'.%d.vproof' % i,'wb').write(base64.b64decode(v))" "$D/w.json"
"$Z" prove --kind window-post --vanilla "$D/w.json.0.vproof" --vanilla "$D/w.json.1.vproof" --randomness "$R" \
    --registered-proof 10 --params-dir "$D/params" --out "$D/w2.bin" > /dev/null || fail "prove --vanilla"
# shellcheck disable=SC2086
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/w2.bin" --randomness "$R" $S > /dev/null \
    || fail "the --vanilla proof must verify"

# Vanilla proofs made for another randomness are refused before proving, the sector named.
"$Z" prove --kind window-post --vanilla "$D/w.json.0.vproof" --randomness "$(echo "$R" | sed 's/^./0/')" \
    --registered-proof 10 --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "vanilla_proofs\[0\]: sector 40" "$D/err" || fail "another randomness must exit 2: $(cat "$D/err")"
"$Z" prove --kind winning-post --post-input "$D/w.json" --params-dir "$D/params" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] && grep -q "not a winning-post" "$D/err" || fail "a WindowPoSt input is not a WinningPoSt's"

# check: the test constraint system on the input; a damaged comm_r names the failing constraint.
"$Z" check --kind window-post --post-input "$D/w.json" > "$D/out" || fail "check: $(cat "$D/out")"
grep -q "satisfied; public inputs match" "$D/out" || fail "check must report a satisfied partition: $(cat "$D/out")"
py "import json,sys,base64
d=json.load(open(sys.argv[1])); b=bytearray(base64.b64decode(d['vanilla_proofs'][0])); b[8]^=1
d['vanilla_proofs'][0]=base64.b64encode(bytes(b)).decode(); json.dump(d,open(sys.argv[1]+'.bad','w'))" "$D/w.json"
"$Z" check --kind window-post --post-input "$D/w.json.bad" > "$D/out"
[ $? -eq 1 ] && grep -q "first unsatisfied sector_0/equality" "$D/out" || fail "check must name the constraint: $(cat "$D/out")"
# A real 32 GiB sector (Curio's vanilla proof) against a one-sector partition: 53,333 constraints.
DATA="$(dirname "$0")/../data/filecoin"
"$Z" check --kind window-post --vanilla "$DATA/curio-post-32gib.vproof" --randomness "$(printf '0%.0s' $(seq 64))" \
    --registered-proof 8 --sectors-per-partition 1 > "$D/out" || fail "check of Curio's 32 GiB sector: $(cat "$D/out")"
grep -q "53333 constraints, satisfied; public inputs match" "$D/out" || fail "Curio's sector: $(cat "$D/out")"

# The engine's pipeline in-process: 2 WindowPoSt jobs, each proof verified before the answer.
WP=$(ls "$D"/params/*0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params)
"$Z" bench --circuit window-post --shape 2KiB --input "$D/w.json" --params "$WP" --jobs 2 --verify > "$D/out" 2>&1 \
    || fail "bench --circuit window-post: $(cat "$D/out")"

# WinningPoSt: one sector, 66 challenges.
"$Z" gen-vanilla --kind winning-post --first-sector 9 --data-seed 4 --out "$D/n.json" --json > "$D/gen.json" \
    || fail "gen-vanilla winning-post"
R=$(py "import json,sys; print(json.load(open(sys.argv[1]))['randomness'])" "$D/gen.json")
S=$(py "import json,sys; print(' '.join('--sector %d:%s' % (s['number'], s['comm_r']) for s in json.load(open(sys.argv[1]))['sectors']))" "$D/gen.json")
"$Z" prove --kind winning-post --post-input "$D/n.json" --params-dir "$D/params" --out "$D/n.bin" > /dev/null \
    || fail "prove --kind winning-post"
# shellcheck disable=SC2086
"$Z" verify --kind winning-post --registered-proof 0 --vk "$NVK" --proof "$D/n.bin" --randomness "$R" $S > /dev/null \
    || fail "verify winning-post from the public values"
# shellcheck disable=SC2086
python3 "$(dirname "$0")/verify_properties.py" "$Z" verify --kind winning-post --registered-proof 0 --vk "$NVK" \
    --proof "$D/n.bin" --randomness "$R" $S > "$D/props" || fail "winning-post properties: $(cat "$D/props")"

# Through the daemon: both kinds, one request each, proofs checked here again.
SOCK="$D/zk.sock"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --listen "unix://$SOCK" \
    --params-dir "$D/params"
"$Z" prove --addr "unix://$SOCK" --kind winning-post --post-input "$D/n.json" --out "$D/dn.bin" > "$D/out" 2>&1 \
    || fail "winning-post through the daemon: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind winning-post --registered-proof 0 --vk "$NVK" --proof "$D/dn.bin" --randomness "$R" $S > /dev/null \
    || fail "the daemon's WinningPoSt must verify"
"$Z" prove --addr "unix://$SOCK" --kind window-post --post-input "$D/w.json" --out "$D/dw.bin" > "$D/out" 2>&1 \
    || fail "window-post through the daemon: $(cat "$D/out")"
"$Z" prove --addr "unix://$SOCK" --kind window-post --post-input "$D/n.json" --out "$D/x.bin" > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "the daemon must refuse a WinningPoSt input as window-post: $(cat "$D/err")"

# The same daemon speaks cuzk.v1 (Curio's protocol): a client that behaves like Curio's, in
# Python grpcio from our proto; its proofs verify here from the public values.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
/usr/bin/python3 -c "import grpc, google.protobuf" 2> /dev/null && command -v grpc_python_plugin > /dev/null \
    || fail "python3-grpcio and grpc_python_plugin are needed (scripts/install-deps.sh installs them)"
python_stubs "$D/stubs" cuzk zkpipe || fail "protoc"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" "$D/stubs" "unix://$SOCK" post "$D/w.json" "$D/n.json" "$D" > "$D/out" 2>&1 \
    || fail "curio client: $(cat "$D/out")"
# shellcheck disable=SC2086
"$Z" verify --kind winning-post --registered-proof 0 --vk "$NVK" --proof "$D/winning.bin" --randomness "$R" $S > /dev/null \
    || fail "the WinningPoSt proof made through cuzk.v1 must verify"
R=$(py "import json,sys; print(json.load(open(sys.argv[1]))['randomness'])" "$D/w.json")
"$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$D/window.bin" --randomness "$R" \
    $(py "import json,sys,base64,struct; d=json.load(open(sys.argv[1])); print(' '.join('--sector %d:%s' % (struct.unpack('<Q', base64.b64decode(v)[:8])[0], base64.b64decode(v)[8:40].hex()) for v in d['vanilla_proofs']))" "$D/w.json") \
    > /dev/null || fail "the WindowPoSt proof made through cuzk.v1 must verify"
stop_daemon

# The Curio-like client over mutual TLS on 127.0.0.1 (an ephemeral port; a throwaway CA made here:
# the daemon's certificate for 127.0.0.1, a client certificate the CA signed), as a load on both
# protocols at once (one engine, one budget): 50 concurrent clients, 4 with a WindowPoSt partition
# on cuzk.v1 and 46 with a tiny synthetic job on zkpipe.v1 (few PoSt proofs: each costs ~2 s of
# CPU); every call answered once with its own job, the budget never past its total
# (curio_client.py load) — a 64 MiB budget, which the keys (~25 MiB) and the partitions fill: the
# clients wait for it; every proof verified here. (48 MiB was too little once the WindowPoSt
# partitions, urgent work, got their own synthesis worker: a synthetic partition waiting for memory
# then evicted the WindowPoSt key, whose next client's submit found no room to load it again —
# UNAVAILABLE, the answer of a daemon whose budget is full of partitions.)
sh "$ROOT/tests/cli/make_test_ca.sh" "$D/pki" || fail "make_test_ca.sh (openssl)"
"$Z" setup --circuit synthetic --constraints 200 --out "$D/params" > /dev/null || fail "setup synthetic"
printf '[engine]\nbudget = "64MiB"\n' > "$D/load.toml"
start_daemon "$D/serve.out" "$D/serve.log" --state-dir "$(mktemp -d "$D/state.XXXXXX")" --config "$D/load.toml" \
    --listen 127.0.0.1:0 --params-dir "$D/params" --tls-cert "$D/pki/server.pem" --tls-key "$D/pki/server.key" \
    --tls-client-ca "$D/pki/ca.pem"
TCP=$(serving_address "$D/serve.out")
mkdir -p "$D/load"
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" --tls-ca "$D/pki/ca.pem" --tls-cert "$D/pki/client.pem" \
    --tls-key "$D/pki/client.key" "$D/stubs" "$TCP" load "$D/w.json" bls12-381-n200 50 4 "$D/load" > "$D/out" 2>&1 \
    || fail "load on both protocols over mutual TLS: $(cat "$D/out")"
"$Z" verify --vk "$D/params/synthetic-bls12-381-n200.vk" --proof "$D/load/load-zkpipe.bin" --public "$D/load/load-zkpipe.json" \
    > "$D/out" || fail "the load's zkpipe.v1 proofs must verify: $(cat "$D/out")"
grep -q "46 partitions" "$D/out" || fail "46 zkpipe.v1 proofs: $(cat "$D/out")"
WSECTORS=$(py "import json,sys,base64,struct; d=json.load(open(sys.argv[1])); print(' '.join('--sector %d:%s' % (struct.unpack('<Q', base64.b64decode(v)[:8])[0], base64.b64decode(v)[8:40].hex()) for v in d['vanilla_proofs']))" "$D/w.json")
n=0
for f in "$D"/load/load-cuzk-*.bin; do
  # shellcheck disable=SC2086
  "$Z" verify --kind window-post --registered-proof 10 --vk "$WVK" --proof "$f" --randomness "$R" $WSECTORS > /dev/null \
      || fail "the load's cuzk.v1 proof $f must verify"
  n=$((n + 1))
done
[ $n -eq 4 ] || fail "4 cuzk.v1 proofs, found $n"
# Without a client certificate the handshake fails: no call gets through.
/usr/bin/python3 "$ROOT/tests/cli/curio_client.py" --tls-ca "$D/pki/ca.pem" "$D/stubs" "$TCP" load "$D/w.json" \
    bls12-381-n200 1 0 "$D/load" > "$D/out" 2>&1 && fail "a client without a certificate must be refused"
grep -q "UNAVAILABLE" "$D/out" || fail "refused handshake: $(cat "$D/out")"
stop_daemon
echo "ok"
