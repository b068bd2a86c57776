#!/bin/sh
# One fuzz target in the test suite: first every kept regression input (each must pass), then a
# time-limited run from the seeds. Limits: 512 MiB per allocation (an allocation sized by an
# untrusted count is a finding), 2 GiB RSS, 10 s per input. A crash leaves its input in the
# corpus directory's crash-* file: copy it into fuzz/regressions/<target>/ once fixed.
# Usage: run.sh BINARY CORPUS_DIR REGRESSIONS_DIR SECONDS SEED_DIR...
set -u
BIN="$1"; CORPUS="$2"; REG="$3"; SECONDS_="$4"; shift 4
mkdir -p "$CORPUS"
LIMITS="-malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=10"
FILES=$(find "$REG" -type f ! -name '.*' 2> /dev/null)
if [ -n "$FILES" ]; then
  # shellcheck disable=SC2086
  "$BIN" $LIMITS -runs=0 $FILES > "$CORPUS.regressions.log" 2>&1 || { cat "$CORPUS.regressions.log"; exit 1; }
fi
SEEDS=""
for d in "$@"; do [ -d "$d" ] && SEEDS="$SEEDS $d"; done
# shellcheck disable=SC2086
"$BIN" $LIMITS -max_total_time="$SECONDS_" -print_final_stats=1 -artifact_prefix="$CORPUS/" "$CORPUS" $SEEDS \
    > "$CORPUS.log" 2>&1
rc=$?
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$CORPUS.log"
[ $rc -eq 0 ] || { tail -60 "$CORPUS.log"; exit 1; }
