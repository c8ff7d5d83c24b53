#!/usr/bin/env bash
# The suite on a busy machine: runs pytest N times in a row (default 3) while stress-ng
# keeps every core busy, and stops at the first failure. Proof that the tests wait for
# conditions, not for fixed times (docs/performance.md, "The suite under load").
#   scripts/stress-suite.sh [-n RUNS] [pytest arguments …]   (default: the whole suite)
#   make test-stress
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "stress-ng is missing: run make system-deps (it installs it)" >&2
  exit 1
fi
cores=$(nproc)
stress-ng --cpu "$cores" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT
for i in $(seq 1 "$runs"); do
  echo "==> run $i of $runs, stress-ng --cpu $cores beside it (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s)
  .venv/bin/pytest -q "$@"
  echo "==> run $i passed in $(( $(date +%s) - start )) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "==> $runs runs in a row passed with every core kept busy"
