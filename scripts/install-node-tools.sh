#!/usr/bin/env bash
# Installs the pinned npm packages of the independent checkers (tools/noble: @noble/curves;
# tools/snarkjs: snarkjs and circom2) when Node.js and npm are present. They are test oracles only,
# never used by zkpipe itself. Best effort: without node, or if the registry cannot be reached, the
# tests that need them report that they skipped, and this script still exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v node > /dev/null 2>&1 || ! command -v npm > /dev/null 2>&1; then
  echo "install-node-tools: node/npm not found; the noble and snarkjs checks will be skipped"
  exit 0
fi
for dir in tools/noble tools/snarkjs; do
  if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    echo "install-node-tools: $dir up to date"
    continue
  fi
  echo "install-node-tools: npm ci in $dir"
  if ! (cd "$dir" && timeout 300 npm ci --no-audit --no-fund --loglevel=error > /dev/null); then
    echo "install-node-tools: npm ci failed in $dir; its checks will be skipped" >&2
  fi
done
exit 0
