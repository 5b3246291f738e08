#!/usr/bin/env bash
# The check to run on a GPU machine (docs/Runtime.md): builds runtime/ into
# build-runtime/ with CMake, runs its unit tests and its GPU tests
# (python/test/test_runtime_on_gpu.py: bundles that must fail to load,
# stream interplay), then checks every bundle under BUNDLES_ROOT with
# bench/gpu/check.py (accuracy against the program each function computes,
# and, reported separately, against its reference; determinism, CUDA graph
# replay, rejected bad calls, mirage-run, timing). Needs CUDA, CMake and a
# python3 with torch and pytest ($PYTHON overrides); the `mirage` package
# is imported from python/ of this checkout.
#
#   bench/gpu-check.sh BUNDLES_ROOT
#
# Writes gpu-check.json, gpu-check.md, the GPU tests' JUnit report and the
# logs to $OUT (default ./gpu-check-out), ends with
# `GPU check: N passed, M failed (K differ from their reference)`,
# and exits non-zero if anything failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUNDLES_ROOT" >&2
  exit 2
fi
bundles="$1"
out="${OUT:-$PWD/gpu-check-out}"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
python="${PYTHON:-python3}"
mkdir -p "$out"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"

if ! "$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log"; then
  echo "GPU check: 0 passed, 1 failed (the runtime did not build)"
  exit 1
fi
unit_status=0
if ! ctest --test-dir "$build" --output-on-failure \
       >"$out/runtime-unittests.log" 2>&1; then
  tail -40 "$out/runtime-unittests.log"
  echo "runtime unit tests failed"
  unit_status=1
fi
if MIRAGE_RUNTIME_LIBRARY="$build/libmirage_runtime.so" \
   MIRAGE_TUNE="$build/mirage-tune" "$python" -m pytest \
     -q -p no:cacheprovider "$root/python/test/test_runtime_on_gpu.py" \
     "$root/python/test/test_tune_on_gpu.py" \
     --junitxml="$out/runtime-gpu-tests.xml" >"$out/runtime-gpu-tests.log" 2>&1
then
  echo "runtime GPU tests: $(tail -1 "$out/runtime-gpu-tests.log")"
else
  tail -40 "$out/runtime-gpu-tests.log"
  echo "runtime GPU tests failed"
  unit_status=1
fi

PYTHONUNBUFFERED=1 "$python" "$root/bench/gpu/check.py" "$bundles" \
  --out "$out" --library "$build/libmirage_runtime.so" \
  --cli "$build/mirage-run"
check_status=$?
exit $((check_status || unit_status))
