#!/usr/bin/env bash
# The kernel benchmark to run on a GPU machine (docs/Benchmarks/Kernels.md):
# builds the runtime library of runtime/ into build-runtime/ with CMake (an
# up-to-date build is left as it is), then runs bench/gpu/bench.py on the
# bundles of bench/make-gpu-bundles.py: for every case of
# docs/Benchmarks/Method.md,
# Mirage's fastest correct kernel against PyTorch eager, eager under CUDA
# graphs, torch.compile and SDPA, checked and timed in one process. Needs
# CUDA, CMake and a python3 with torch and triton ($PYTHON overrides); the
# `mirage` package is imported from python/ of this checkout.
#
#   bench/gpu-bench.sh BUNDLES_ROOT [bench.py options: --cases A,B
#                        --no-compile --compile-mode M --time-budget S ...]
#
# Writes bench.json, bench.md, bench.png and the build log to $OUT (default
# ./gpu-bench-out), after every case; record them in the repository with
# bench/gpu/update-kernel-results.py. The commit recorded is $MIRAGE_COMMIT,
# else that of the checkout's git HEAD. Exits non-zero if a case has no
# correct Mirage kernel.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUNDLES_ROOT [bench.py options]" >&2
  exit 2
fi
bundles="$1"
shift
out="${OUT:-$PWD/gpu-bench-out}"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
python="${PYTHON:-python3}"
mkdir -p "$out"

if ! "$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log" \
       --target mirage_runtime; then
  echo "kernel benchmark: the runtime did not build"
  exit 1
fi

export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
PYTHONUNBUFFERED=1 exec "$python" "$root/bench/gpu/bench.py" "$bundles" \
  --out "$out" --library "$build/libmirage_runtime.so" "$@"
