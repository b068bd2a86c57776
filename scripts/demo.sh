#!/usr/bin/env bash
# The README's main job (make demo): a PoRep-shaped job of the `small` preset (4 partitions of
# 434,977 constraints over a 64-node SDR sector with SHA-256 labels) through the engine's pipeline,
# then through the daemon.
#   1. self-checks of the arithmetic;
#   2. development keys for the preset (made once, reused afterwards) and a sealed sector's input;
#   3. the job in-process through the pipeline with self-verification: stage times, s/proof, peak
#      RSS and the ledger's high-water marks, and a timeline plot;
#   4. `zkpipe serve` on a unix socket; the same job proved through it with `zkpipe prove --addr`,
#      verified against public inputs derived from the commitments and the seed only; the daemon's
#      status; SIGTERM (the daemon drains and exits 0).
# Usage: demo.sh ZKPIPE DIR SHAPE
set -euo pipefail
Z=$1
DIR=$2
SHAPE=${3:-small}
mkdir -p "$DIR"
step() { printf '\n== %s\n' "$*"; }

step "self-checks"
"$Z" selftest

step "development keys for porep $SHAPE (reused when present) and a sealed sector's input"
if [ -f "$DIR/porep-$SHAPE.params" ] && [ -f "$DIR/porep-$SHAPE.vk" ]; then
  echo "reusing $DIR/porep-$SHAPE.params"
else
  "$Z" setup --circuit porep --shape "$SHAPE" --out "$DIR"
fi
"$Z" gen-input --shape "$SHAPE" --seed 1 --out "$DIR/c1.json"

step "one $SHAPE job through the engine's pipeline (every partition verified before the answer)"
"$Z" bench --circuit porep --shape "$SHAPE" --input "$DIR/c1.json" --params "$DIR/porep-$SHAPE.params" \
  --jobs 1 --verify --plot "$DIR/timeline.svg"

step "the same job through the daemon"
SOCK="$(cd "$DIR" && pwd)/zkpipe.sock"
"$Z" serve --listen "unix://$SOCK" --params-dir "$DIR" > "$DIR/serve.out" 2> "$DIR/serve.log" &
SERVE=$!
trap 'kill -9 $SERVE 2> /dev/null || true' EXIT
for _ in $(seq 200); do grep -q "serving on" "$DIR/serve.out" 2> /dev/null && break; sleep 0.05; done
grep -q "serving on" "$DIR/serve.out" || { cat "$DIR/serve.log"; exit 1; }
cat "$DIR/serve.out"
"$Z" prove --addr "unix://$SOCK" --circuit porep --shape "$SHAPE" --input "$DIR/c1.json" \
  --out "$DIR/porep-proof.bin" --public-out "$DIR/porep-public.json"
"$Z" verify --vk "$DIR/porep-$SHAPE.vk" --circuit porep --shape "$SHAPE" --input "$DIR/c1.json" \
  --proof "$DIR/porep-proof.bin"
"$Z" status --addr "unix://$SOCK"
kill -TERM $SERVE
wait $SERVE
trap - EXIT
echo "daemon stopped (log: $DIR/serve.log); timeline: $DIR/timeline.svg"
