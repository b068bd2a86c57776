#!/usr/bin/env bash
# The README's main job (make demo): Filecoin's PoRep C2 for a 2 KiB sector, the way a storage
# provider runs it, on Filecoin's exact circuit (2,687,921 constraints per partition).
#   1. self-checks of the arithmetic;
#   2. DEVELOPMENT keys for the circuit, under Filecoin's parameter-file names (made once, about
#      about a minute on 2 cores, then reused), and `zkpipe params check` on the directory;
#   3. a 2 KiB sector of random data sealed natively (SDR labels, trees D / C / R-last) and its C1
#      written as Filecoin's seal_commit_phase1 would (SealCommitPhase1Output JSON);
#   4. C2 through the engine's pipeline in-process: 2 jobs, every proof verified before the answer;
#      stage times, s/proof, peak RSS, the ledger's high-water marks and a timeline plot;
#   5. `zkpipe serve` on a unix socket; cuzk/Curio's wrapped C1 proved through it; the proof checked
#      from the C1's public values alone; the daemon's status; SIGTERM (it drains and exits 0).
# Usage: demo.sh ZKPIPE DIR [SECTOR_SIZE]   (2KiB or 8MiB: the sizes gen-c1 seals in memory)
set -euo pipefail
Z=$1
DIR=$2
SIZE=${3:-2KiB}
mkdir -p "$DIR"
step() { printf '\n== %s\n' "$*"; }

step "self-checks"
"$Z" selftest

step "development keys for Filecoin's $SIZE PoRep circuit, under Filecoin's file names (reused when present)"
PARAMS=$("$Z" circuit-info --kind porep --sector-size "$SIZE" --json | sed -n 's/.*"params_file":"\([^"]*\)".*/\1/p')
STEM="$DIR/${PARAMS%.params}"
if [ -f "$STEM.params" ] && [ -f "$STEM.vk" ]; then
  echo "reusing $STEM.params"
else
  "$Z" setup --kind porep --sector-size "$SIZE" --out "$DIR"
fi
"$Z" params check "$DIR" --no-digest | grep "^porep $SIZE "

step "seal a $SIZE sector of random data and write its C1 (Filecoin's commit-phase-1 output)"
"$Z" gen-c1 --sector-size "$SIZE" --miner-id 1000 --sector-number 1 --data-seed 1 --out "$DIR/c1.json"
"$Z" gen-c1 --sector-size "$SIZE" --miner-id 1000 --sector-number 1 --data-seed 1 --wrap \
  --out "$DIR/c1-wrapped.json" > /dev/null

step "C2 through the engine's pipeline: 2 jobs (every proof verified before the answer)"
"$Z" bench --circuit porep --shape "$SIZE" --input "$DIR/c1.json" --params "$STEM.params" \
  --jobs 2 --verify --plot "$DIR/timeline.svg"

step "the same through the daemon: cuzk's wrapped C1 in, Filecoin's proof bytes out"
SOCK="$(cd "$DIR" && pwd)/zkpipe.sock"
"$Z" serve --listen "unix://$SOCK" --state-dir "$DIR/state" --params-dir "$DIR" > "$DIR/serve.out" 2> "$DIR/serve.log" &
SERVE=$!
trap 'kill -9 $SERVE 2> /dev/null || true' EXIT
for _ in $(seq 200); do grep -q "serving on" "$DIR/serve.out" 2> /dev/null && break; sleep 0.05; done
grep -q "serving on" "$DIR/serve.out" || { cat "$DIR/serve.log"; exit 1; }
cat "$DIR/serve.out"
"$Z" prove --addr "unix://$SOCK" --kind porep --c1 "$DIR/c1-wrapped.json" --out "$DIR/porep-proof.bin"
"$Z" verify --kind porep --c1 "$DIR/c1.json" --vk "$STEM.vk" --proof "$DIR/porep-proof.bin"
"$Z" status --addr "unix://$SOCK"
kill -TERM $SERVE
wait $SERVE
trap - EXIT
echo "daemon stopped (log: $DIR/serve.log); timeline: $DIR/timeline.svg"
