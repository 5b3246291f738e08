#!/usr/bin/env bash
# The project's test command: installs dependencies, builds, runs every suite
# (lit, gtest, the runtime's CTest suite, pytest) and ends with one
# `N passed, M failed` line. Exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
reports="$build/test-reports"

"$root/scripts/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
"$root/scripts/build.sh" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

rm -rf "$reports" && mkdir -p "$reports"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$reports/lit.xml" "$build/test"
# What ptxas assembled (test/Target/Bundle/ptxas-*.test).
[[ -f "$reports/ptxas-summary.txt" ]] && cat "$reports/ptxas-summary.txt"

expected=("$reports/lit.xml")
for binary in "$build"/unittests/*Tests; do
  expected+=("$reports/$(basename "$binary").xml")
  "$binary" --gtest_output="xml:$reports/$(basename "$binary").xml" \
    >"$reports/$(basename "$binary").log" 2>&1 \
    || { echo "gtest: $(basename "$binary") failed:"; grep -E "Failure|FAILED" -A4 "$reports/$(basename "$binary").log" | head -40; }
done

# The bundle runtime (built without LLVM) and the Python tests.
expected+=("$reports/runtime-ctest.xml" "$reports/python-pytest.xml"
          "$reports/bench-pytest.xml")
"$root/scripts/test-runtime.sh" "$reports/runtime-ctest.xml" \
  "$reports/python-pytest.xml" "$reports/bench-pytest.xml" \
  >"$reports/runtime.log" 2>&1 \
  || { echo "runtime tests failed:"; tail -40 "$reports/runtime.log"; }

# Every C++ file formatted by .clang-format.
expected+=("$reports/clang-format.xml")
/usr/bin/python3 "$root/scripts/check-format.py" "$reports/clang-format.xml" \
  | tail -20

# A suite that crashed before writing its report counts as a failure.
/usr/bin/python3 "$root/scripts/summarize-tests.py" "${expected[@]}"
