#!/usr/bin/env bash
# Configures and builds runtime/ (docs/Runtime.md) with CMake: Release, Ninja
# when installed, the CUDA toolkit at /usr/local/cuda when present. No LLVM
# needed. Used by test-runtime.sh, gpu-check.sh and gpu-bench.sh.
#
#   scripts/build-runtime.sh BUILD_DIR LOG [cmake --build options...]
#
# Writes the configure and build output to LOG; on failure prints its tail
# and exits non-zero.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR LOG [cmake --build options...]" >&2
  exit 2
fi
build="$1"
log="$2"
shift 2
configure=(-S "$root/runtime" -B "$build" -DCMAKE_BUILD_TYPE=Release)
command -v ninja >/dev/null && configure+=(-G Ninja)
[[ -d /usr/local/cuda ]] && configure+=(-DCUDAToolkit_ROOT=/usr/local/cuda)
mkdir -p "$build" "$(dirname "$log")"
if ! { cmake "${configure[@]}" && cmake --build "$build" --parallel "$@"; } \
     >"$log" 2>&1; then
  tail -40 "$log"
  echo "runtime: configure or build failed (log: $log)" >&2
  exit 1
fi
