#!/usr/bin/env bash
# The measurement call of docs/TorchCompile.md's "One run", on the two-GPU
# machine: after bench/gpu-torch-compile-warm.sh compiled every case into a
# tuning database and a kernel cache, compiles and measures every case as a
# second compile does, the layer and the model with an op outside the set
# on GPU 0 and HF Llama on GPU 1 at the same time, then runs
# python/test/test_torch_backend_on_gpu.py on GPU 0.
#
#   bench/gpu-torch-compile-pair.sh PACKAGE.tar.gz WARM_DIR \
#       [torch_compile.py options]
#
# WARM_DIR holds the warm call's tuning.json and cache.tgz (a copy of the
# database is used). Writes torch-compile.json (both GPUs' rows),
# gpu0.log, gpu1.log and torch-backend.xml to $OUT (default
# ./gpu-torch-compile-pair-out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 2 || ! -f "$1" || ! -f "$2/tuning.json" || ! -f "$2/cache.tgz" ]]; then
  echo "usage: $0 PACKAGE.tar.gz WARM_DIR [torch_compile.py options]" >&2
  exit 2
fi
archive="$(realpath "$1")"
warm="$(realpath "$2")"
shift 2
out="${OUT:-$PWD/gpu-torch-compile-pair-out}"
export MIRAGE_CACHE_DIR="${MIRAGE_CACHE_DIR:-$(mktemp -d)}"
export MIRAGE_TUNING_DB="${MIRAGE_TUNING_DB:-$(mktemp -d)/tuning.json}"
mkdir -p "$MIRAGE_CACHE_DIR"
tar xzf "$warm/cache.tgz" -C "$MIRAGE_CACHE_DIR" || exit 1
cp "$warm/tuning.json" "$MIRAGE_TUNING_DB" && chmod u+w "$MIRAGE_TUNING_DB"
# shellcheck source=bench/gpu-package-env.sh
source "$root/bench/gpu-package-env.sh"

measure() {  # GPU MODELS [torch_compile.py options]
  local gpu="$1" models="$2"
  shift 2
  CUDA_VISIBLE_DEVICES="$gpu" PYTHONUNBUFFERED=1 "${PYTHON:-python3}" \
    "$root/bench/gpu/torch_compile.py" --models "$models" --batches 1,8 \
    --variants mirage,mirage_trees,max_autotune \
    --out "$out/gpu$gpu.json" "$@" >"$out/gpu$gpu.log" 2>&1
}
status=0
measure 0 layer,outside "$@" &
first=$!
measure 1 llama "$@" &
second=$!
wait "$first" || status=1
CUDA_VISIBLE_DEVICES=0 "${PYTHON:-python3}" -m pytest -q -p no:cacheprovider \
  -c /dev/null --rootdir "$root/python" --junitxml="$out/torch-backend.xml" \
  "$root/python/test/test_torch_backend_on_gpu.py" || status=1
wait "$second" || status=1
# Both GPUs' rows in one file, as bench/gpu-torch-compile.sh writes it.
"${PYTHON:-python3}" - "$out" <<'PY' || status=1
import json
import sys

out, rows = sys.argv[1], []
for gpu in (0, 1):
    with open(f"{out}/gpu{gpu}.json") as f:
        data = json.load(f)
    rows += data.pop("rows")
with open(f"{out}/torch-compile.json", "w") as f:
    json.dump(dict(data, rows=rows), f, indent=1)
PY
exit "$status"
