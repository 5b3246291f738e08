#!/usr/bin/env bash
# The Python API on a GPU machine (docs/Python.md), where no LLVM, MLIR or
# Z3 is installed: builds the runtime (scripts/build-runtime.sh), unpacks
# the self-contained package that scripts/build-python-package.sh built
# elsewhere, and runs python/test/test_python_api_on_gpu.py against that
# package (a graph superoptimized in-process there, run on torch tensors,
# checked against PyTorch) and python/test/test_tuning_on_gpu.py (Triton
# forms measured beside the PTX, a Triton winner run as Triton), then every
# example of examples/python/ (search
# with measured selection, the kernel on torch tensors, checked against
# PyTorch and timed).
#
#   bench/gpu-python-api.sh PACKAGE.tar.gz
#
# Writes python-api.xml (JUnit), python-api.log and examples.log (each
# example's check and times) to $OUT (default ./gpu-python-api-out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 PACKAGE.tar.gz" >&2
  exit 2
fi
archive="$(realpath "$1")"
out="${OUT:-$PWD/gpu-python-api-out}"
# shellcheck source=bench/gpu-package-env.sh
source "$root/bench/gpu-package-env.sh"
# -c /dev/null: not python/pyproject.toml's pythonpath, so that `mirage`
# is the package's.
"${PYTHON:-python3}" -m pytest -q -p no:cacheprovider -c /dev/null \
  --rootdir "$root/python" --junitxml="$out/python-api.xml" \
  "$root/python/test/test_python_api_on_gpu.py" \
  "$root/python/test/test_tuning_on_gpu.py" 2>&1 | tee "$out/python-api.log"
status="${PIPESTATUS[0]}"
(
  failed=0
  for example in "$root"/examples/python/*.py; do
    [[ "$(basename "$example")" == common.py ]] && continue
    echo "== $(basename "$example")"
    "${PYTHON:-python3}" "$example" || failed=1
  done
  exit "$failed"
) 2>&1 | tee "$out/examples.log"
[[ "${PIPESTATUS[0]}" -eq 0 ]] || status=1
exit "$status"
