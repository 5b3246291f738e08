#!/usr/bin/env bash
# One run of bench/gpu-pipeline.sh over the GPUs of one machine: the cases
# are dealt in turn to N GPUs, each GPU tunes and measures its cases with
# all their baselines (bench/gpu-pipeline.sh with CUDA_VISIBLE_DEVICES set),
# all at the same time, and bench/gpu/merge_results.py joins the parts. So
# a suite that does not fit one call on one GPU (the generality suite's 26
# programs, about 32 s each with torch.compile's max-autotune) is measured
# in one run: each case's Mirage kernel and baselines on one GPU, every GPU
# of the same kind, one checkout, one time.
#
#   bench/gpu-pipeline-gpus.sh N PIPELINE [COMPARISONS] --cases A,B,... \
#       [bench.py options]
#
# Writes bench.json, bench.md, bench.png and tuning.json to $OUT (default
# ./gpu-pipeline-out), each GPU's own run under $OUT/gpu<i>. With
# MIRAGE_TUNE_ONLY=1 the GPUs only tune, and $OUT/tuning.json joins their
# databases: a later call measures with it (MIRAGE_TUNED_DB=FILE), so that
# tuning and measuring fit in separate time-limited calls.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  echo "usage: $0 N PIPELINE [COMPARISONS] --cases A,B,... [bench.py options]" >&2
  exit 2
}
[[ $# -ge 2 && "$1" =~ ^[1-9][0-9]*$ ]] || usage
gpus="$1"
pipeline="$(cd "$2" && pwd)" || usage
shift 2
comparisons=()
if [[ $# -gt 0 && "$1" != --* ]]; then
  comparisons=("$(cd "$1" && pwd)") || usage
  shift
fi
cases=""
options=()
while [[ $# -gt 0 ]]; do
  if [[ "$1" == --cases ]]; then
    [[ $# -ge 2 ]] || usage
    cases="$2"
    shift 2
  else
    options+=("$1")
    shift
  fi
done
[[ -n "$cases" ]] || usage
out="${OUT:-$PWD/gpu-pipeline-out}"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
mkdir -p "$out"

# One runtime build for all the parts.
if [[ "${MIRAGE_RUNTIME_PREBUILT:-0}" != 1 ]] &&
   ! "$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log"; then
  echo "pipeline benchmark: the runtime did not build"
  exit 1
fi

IFS=, read -r -a all <<<"$cases"
parts=()
for ((gpu = 0; gpu < gpus; ++gpu)); do
  mine=()
  for ((i = gpu; i < ${#all[@]}; i += gpus)); do
    mine+=("${all[i]}")
  done
  [[ ${#mine[@]} -gt 0 ]] || continue
  part="$out/gpu$gpu"
  parts+=("$part")
  mkdir -p "$part"
  # --cases makes the part tune and measure only its own cases.
  (IFS=,; CUDA_VISIBLE_DEVICES="$gpu" MIRAGE_RUNTIME_PREBUILT=1 OUT="$part" \
     "$root/bench/gpu-pipeline.sh" "$pipeline" "${comparisons[@]}" \
     --cases "${mine[*]}" "${options[@]}" >"$part/pipeline.log" 2>&1
   echo "GPU $gpu (${mine[*]}): exit $?") &
done
wait
# Under MIRAGE_TUNE_ONLY=1 the parts only tuned: their databases are joined
# into $OUT/tuning.json, for a later call's MIRAGE_TUNED_DB.
merge=()
[[ "${MIRAGE_TUNE_ONLY:-0}" == 1 ]] && merge=(--tuning-only)
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" \
  "${PYTHON:-python3}" "$root/bench/gpu/merge_results.py" "${merge[@]}" \
  "$out" "${parts[@]}"
