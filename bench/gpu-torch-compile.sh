#!/usr/bin/env bash
# torch.compile(backend="mirage") on whole models (docs/TorchCompile.md), on
# a GPU machine with no LLVM, MLIR or Z3: sets up the self-contained package
# as bench/gpu-python-api.sh does, runs python/test/test_torch_backend_on_gpu.py
# against it, then bench/gpu/torch_compile.py.
#
#   bench/gpu-torch-compile.sh PACKAGE.tar.gz [torch_compile.py options]
#
# Writes torch-backend.xml (JUnit), torch-compile.json and torch-compile.log
# to $OUT (default ./gpu-torch-compile-out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 PACKAGE.tar.gz [torch_compile.py options]" >&2
  exit 2
fi
archive="$(realpath "$1")"
shift
out="${OUT:-$PWD/gpu-torch-compile-out}"
# shellcheck source=bench/gpu-package-env.sh
source "$root/bench/gpu-package-env.sh"
# -c /dev/null: not python/pyproject.toml's pythonpath, so that `mirage`
# is the package's.
"${PYTHON:-python3}" -m pytest -q -p no:cacheprovider -c /dev/null \
  --rootdir "$root/python" --junitxml="$out/torch-backend.xml" \
  "$root/python/test/test_torch_backend_on_gpu.py"
status=$?
PYTHONUNBUFFERED=1 "${PYTHON:-python3}" "$root/bench/gpu/torch_compile.py" \
  --out "$out/torch-compile.json" "$@" 2>&1 | tee "$out/torch-compile.log"
[[ "${PIPESTATUS[0]}" -eq 0 ]] || status=1
exit "$status"
