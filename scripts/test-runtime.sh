#!/usr/bin/env bash
# GPU-free tests of the bundle runtime (docs/Runtime.md). Configures and
# builds runtime/ into build-runtime/ (CMake and Ninja; no LLVM, no GPU
# needed; the CUDA toolkit's headers and stub libcuda are used when present),
# runs its CTest suite, and, when pytest report paths are given, the pytest
# tests of the `mirage` package (python/test) and of the benchmark scripts
# (bench/gpu/tests); their pytest configuration (python/pyproject.toml,
# bench/pytest.ini) puts the package on the path.
#
#   scripts/test-runtime.sh CTEST_JUNIT.xml [PACKAGE_JUNIT.xml BENCH_JUNIT.xml]
#
# Writes JUnit XML reports to the given paths; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
if [[ $# -ne 1 && $# -ne 3 ]]; then
  echo "usage: $0 CTEST_JUNIT.xml [PACKAGE_JUNIT.xml BENCH_JUNIT.xml]" >&2
  exit 2
fi
ctest_report="$(realpath -m "$1")"
mkdir -p "$(dirname "$ctest_report")"

status=0
if "$root/scripts/build-runtime.sh" "$build" "$build/build.log"; then
  ctest --test-dir "$build" --output-on-failure \
    --output-junit "$ctest_report" || status=1
else
  status=1
fi

# Runs the pytest tests under $1 (relative to the checkout) into report $2.
run_pytest() {
  local report
  report="$(realpath -m "$2")"
  mkdir -p "$(dirname "$report")"
  /usr/bin/python3 -m pytest -q -p no:cacheprovider "$root/$1" \
    --junitxml="$report" || status=1
}
if [[ $# -eq 3 ]]; then
  run_pytest python/test "$2"
  run_pytest bench/gpu/tests "$3"
fi
exit $status
