#!/usr/bin/env bash
# The main job on a built-in example: superoptimize a benchmark program
# (RMSNorm + Linear by default) with mirage-superoptimize, prove the µGraph it
# found (the chosen function and the best verified candidate, emitted as
# @<name>_candidate_0) equivalent to the program with the finite-field verifier (again,
# independently of the search), compile it into a PTX bundle for sm_80 and
# sm_90a (docs/CodeGeneration.md) and assemble the PTX with ptxas. The bundle
# runs on a GPU through runtime/ (docs/Runtime.md).
#   scripts/run-example.sh [REFERENCE.mlir [BUNDLE_DIR]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
reference="${1:-$root/examples/benchmarks/rmsnorm_linear_bs1.mlir}"
bundle="${2:-$build/example-bundle}"
work="$build/example"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target mirage-opt mirage-bundle >/dev/null
mkdir -p "$work"
name="$(basename "$reference" .mlir)"

echo "// ===== $name: the program ====="
"$build/bin/mirage-opt" "$reference"
echo "// ===== $name: superoptimized ====="
"$build/bin/mirage-opt" "$reference" --mirage-superoptimize='time-limit=60 emit-candidates=true' \
  --mlir-print-op-on-diagnostic=false -o "$work/$name.searched.mlir"
cat "$work/$name.searched.mlir"
echo "// ===== equivalence of the µGraph found to $name ====="
sed -e '/^module {$/d' -e '/^}$/d' -e "s/@$name\b/@${name}_searched/" \
  "$work/$name.searched.mlir" > "$work/$name.candidate.mlir"
cat "$reference" "$work/$name.candidate.mlir" |
  "$build/bin/mirage-opt" --mirage-check-equivalence -o /dev/null 2>&1 |
  grep -E "remark|error"
echo "// ===== PTX bundle of the µGraph in $bundle ====="
rm -rf "$bundle"
"$build/bin/mirage-bundle" "$work/$name.searched.mlir" \
  --reference="$reference" -o "$bundle"
ls -l "$bundle"
/usr/bin/python3 "$root/scripts/check-ptx.py" "$bundle"
