#!/usr/bin/env bash
# The project's test command: installs dependencies, builds, runs every suite
# (lit, gtest, pytest) and ends with one `N passed, M failed` line. Exits
# non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
reports="$build/test-reports"

"$root/scripts/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
"$root/scripts/build.sh" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

rm -rf "$reports" && mkdir -p "$reports"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$reports/lit.xml" "$build/test"

/usr/bin/python3 "$root/scripts/summarize-tests.py" "$reports"/*.xml
