#!/usr/bin/env bash
# The main job on a built-in example. Today's end-to-end path: parse and
# verify a benchmark program (the reference) and the Mirage paper's fused
# µGraph for it, print both, and prove the µGraph equivalent to the reference
# with the finite-field verifier. Later stages (superoptimize, emit PTX
# bundles) extend this script.
#   scripts/run-example.sh [REFERENCE.mlir [MUGRAPH.mlir]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
reference="${1:-$root/examples/benchmarks/rmsnorm_linear_bs1.mlir}"
mugraph="${2:-$root/examples/mugraphs/rmsnorm_linear_fused.mlir}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target mirage-opt >/dev/null

for file in "$reference" "$mugraph"; do
  echo "// ===== $(basename "$file"): parsed and verified ====="
  "$build/bin/mirage-opt" "$file"
done
echo "// ===== equivalence of $(basename "$mugraph") to $(basename "$reference") ====="
cat "$reference" "$mugraph" |
  "$build/bin/mirage-opt" --mirage-check-equivalence -o /dev/null 2>&1 |
  grep -E "remark|error"
