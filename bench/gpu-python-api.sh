#!/usr/bin/env bash
# The Python API on a GPU machine (docs/Python.md), where no LLVM, MLIR or
# Z3 is installed: builds the runtime (scripts/build-runtime.sh), unpacks
# the self-contained package that scripts/build-python-package.sh built
# elsewhere, and runs python/test/test_python_api_on_gpu.py against that
# package (a graph superoptimized in-process there, run on torch tensors,
# checked against PyTorch).
#
#   bench/gpu-python-api.sh PACKAGE.tar.gz
#
# Writes python-api.xml (JUnit) and python-api.log to $OUT (default
# ./gpu-python-api-out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 PACKAGE.tar.gz" >&2
  exit 2
fi
archive="$(realpath "$1")"
out="${OUT:-$PWD/gpu-python-api-out}"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
mkdir -p "$out"
"$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log" || exit 1
unpacked="$(mktemp -d)"
tar xzf "$archive" -C "$unpacked"
package="$(find "$unpacked" -mindepth 1 -maxdepth 1 -type d | head -1)"
# -c /dev/null: not python/pyproject.toml's pythonpath, so that `mirage`
# is the package's.
PYTHONPATH="$package" MIRAGE_RUNTIME_LIBRARY="$build/libmirage_runtime.so" \
  "${PYTHON:-python3}" -m pytest -q -p no:cacheprovider -c /dev/null \
  --rootdir "$root/python" --junitxml="$out/python-api.xml" \
  "$root/python/test/test_python_api_on_gpu.py" 2>&1 | tee "$out/python-api.log"
exit "${PIPESTATUS[0]}"
