#!/usr/bin/env bash
# GPU-free tests of the bundle runtime (docs/Runtime.md). Configures and
# builds runtime/ into build-runtime/ (CMake and Ninja; no LLVM, no GPU
# needed; the CUDA toolkit's headers and stub libcuda are used when present),
# runs its CTest suite, and, when a second report path is given, the pytest
# tests of python/mirage/runtime.py and of the GPU check's reference
# interpreter (bench/gpu/reference.py).
#
#   scripts/test-runtime.sh CTEST_JUNIT.xml [PYTEST_JUNIT.xml]
#
# Writes JUnit XML reports to the given paths; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 CTEST_JUNIT.xml [PYTEST_JUNIT.xml]" >&2
  exit 2
fi
ctest_report="$(realpath -m "$1")"
pytest_report="${2:+$(realpath -m "$2")}"
mkdir -p "$(dirname "$ctest_report")"

status=0
if "$root/scripts/build-runtime.sh" "$build" "$build/build.log"; then
  ctest --test-dir "$build" --output-on-failure \
    --output-junit "$ctest_report" || status=1
else
  status=1
fi

if [[ -n "$pytest_report" ]]; then
  mkdir -p "$(dirname "$pytest_report")"
  /usr/bin/python3 -m pytest -q -p no:cacheprovider "$root/python/tests" \
    "$root/bench/gpu/tests" \
    --junitxml="$pytest_report" || status=1
fi
exit $status
