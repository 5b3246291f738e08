#!/usr/bin/env bash
# Measures the equivalence checker's throughput (candidates verified per
# second) on the equivalence test modules (small shapes) and on the paper's
# µGraphs against their full-size benchmark references. Prints a markdown
# report; docs/Benchmarks/Verifier.md holds the latest one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" --target mirage-verifier-bench >/dev/null
bench="$build/bin/mirage-verifier-bench"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat "$root/examples/benchmarks/rmsnorm_linear_bs1.mlir" \
    "$root/examples/mugraphs/rmsnorm_linear_fused.mlir" > "$work/rmsnorm_linear_bs1-full.mlir"
cat "$root/examples/benchmarks/gqa_bs1.mlir" \
    "$root/examples/mugraphs/gqa_splitkv_bs1.mlir" > "$work/gqa_bs1-full.mlir"

echo "# Equivalence-checker throughput"
echo
echo "$(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD)," \
     "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))."
echo "Each check runs the finite-field evaluation of one candidate for as many"
echo "trials as its 2^-40 bound needs (2 or more); reference trials are computed once."
for threads in 1 2; do
  echo
  echo "## ${threads} checking thread(s)"
  echo
  "$bench" --checker-threads "$threads" --min-seconds 2 \
    "$root"/test/Transforms/CheckEquivalence/*.mlir \
    "$work/rmsnorm_linear_bs1-full.mlir" "$work/gqa_bs1-full.mlir"
done
