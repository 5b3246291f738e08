#!/usr/bin/env bash
# The main job on a built-in example. Today's end-to-end path: parse and
# verify a benchmark program (the reference) and the Mirage paper's fused
# µGraph for it, print both, prove the µGraph equivalent to the reference
# with the finite-field verifier, compile it into a PTX bundle for sm_80 and
# sm_90a (docs/CodeGeneration.md) and assemble the PTX with ptxas. The bundle
# runs on a GPU through runtime/ (docs/Runtime.md). The search
# (superoptimize) will replace the hand-written µGraph.
#   scripts/run-example.sh [REFERENCE.mlir [MUGRAPH.mlir [BUNDLE_DIR]]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
reference="${1:-$root/examples/benchmarks/rmsnorm_linear_bs1.mlir}"
mugraph="${2:-$root/examples/mugraphs/rmsnorm_linear_fused.mlir}"
bundle="${3:-$build/example-bundle}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target mirage-opt mirage-translate >/dev/null

for file in "$reference" "$mugraph"; do
  echo "// ===== $(basename "$file"): parsed and verified ====="
  "$build/bin/mirage-opt" "$file"
done
echo "// ===== equivalence of $(basename "$mugraph") to $(basename "$reference") ====="
cat "$reference" "$mugraph" |
  "$build/bin/mirage-opt" --mirage-check-equivalence -o /dev/null 2>&1 |
  grep -E "remark|error"
echo "// ===== PTX bundle of $(basename "$mugraph") in $bundle ====="
rm -rf "$bundle"
"$build/bin/mirage-translate" --mirage-to-bundle "$mugraph" \
  --mirage-bundle-reference="$reference" -o "$bundle"
ls -l "$bundle"
/usr/bin/python3 "$root/scripts/check-ptx.py" "$bundle"
