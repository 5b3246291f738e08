#!/usr/bin/env bash
# The main job's benchmark, to run on a GPU machine (docs/Benchmarks/Kernels.md):
# builds runtime/ (the runtime library and mirage-tune), runs mirage-tune (or,
# for a bundle with a triton.py, `python3 -m mirage.tuning`, which measures
# the Triton forms beside the PTX) on
# every pipeline_<case> bundle of bench/make-pipeline-bundles.py under
# PIPELINE (a fresh tuning database in $OUT), then bench/gpu/bench.py over
# PIPELINE and COMPARISONS (bundles of bench/make-gpu-bundles.py, optional)
# with that database: each case's headline is the tuned winner of its
# pipeline bundle; the other bundles are a comparison column.
#
#   bench/gpu-pipeline.sh PIPELINE [COMPARISONS] [bench.py options...]
#
# bench.py's --cases A,B also limits the tuning to those cases' bundles
# (pipeline_A, pipeline_B), so that a suite longer than one call runs in
# parts, each tuned and measured in calls of its own.
#
# Writes tuning.json, tune-<case>.txt, bench.json, bench.md, bench.png and
# the logs to $OUT (default ./gpu-pipeline-out). MIRAGE_TUNE_ONLY=1 stops
# after the tuning; MIRAGE_TUNED_DB=FILE skips it and benchmarks with the
# tuning database FILE of an earlier run (so that the two fit in separate
# time-limited calls); MIRAGE_TUNING_DB_START=FILE tunes into a copy of FILE
# (the bundles of an earlier call kept), so that the tuning too can be split
# over calls, a subset of the bundles each. MIRAGE_RUNTIME_PREBUILT=1 uses
# the library and mirage-tune already in the runtime build directory
# (MIRAGE_RUNTIME_BUILD_DIR, carried from an earlier call on the same kind of
# machine) without building; TRITON_CACHE_DIR, likewise carried, keeps
# Triton's compiles. A Triton form whose compile takes longer than
# MIRAGE_TRITON_COMPILE_LIMIT seconds (default 60) is not measured.
# MIRAGE_GPU_CHECKS=0 skips the tuner's smoke test and GPU tests (run once
# per machine: a later call of a run split over calls need not repeat them).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 PIPELINE [COMPARISONS] [bench.py options]" >&2
  exit 2
fi
pipeline="$(cd "$1" && pwd)"
shift
comparisons=""
if [[ $# -gt 0 && "$1" != --* ]]; then
  comparisons="$(cd "$1" && pwd)"
  shift
fi
# The bundles to tune: those of bench.py's --cases (see above), else all.
cases=""
for ((i = 1; i <= $#; ++i)); do
  case "${!i}" in
    --cases) next=$((i + 1)); cases="${!next:-}" ;;
    --cases=*) cases="${!i#--cases=}" ;;
  esac
done
bundles=()
for bundle in "$pipeline"/pipeline_*/; do
  name="$(basename "$bundle")"
  [[ -z "$cases" || ",$cases," == *",${name#pipeline_},"* ]] &&
    bundles+=("$bundle")
done
if [[ ${#bundles[@]} -eq 0 ]]; then
  echo "pipeline benchmark: no pipeline_<case> bundle under $pipeline${cases:+ for the cases $cases}" >&2
  exit 2
fi
out="${OUT:-$PWD/gpu-pipeline-out}"
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
python="${PYTHON:-python3}"
mkdir -p "$out"

if [[ "${MIRAGE_RUNTIME_PREBUILT:-0}" == 1 && -x "$build/mirage-tune" &&
      -f "$build/libmirage_runtime.so" ]]; then
  echo "runtime: using the build in $build"
elif ! "$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log"; then
  echo "pipeline benchmark: the runtime did not build"
  exit 1
fi
echo "runtime ready: $(date -u +%T)"

# The tuner on its own test bundle first: candidate 1 must win.
if [[ "${MIRAGE_GPU_CHECKS:-1}" == 1 ]]; then
  "$build/mirage-tune" "$root/runtime/test/bundles/tuning_mean" \
    --db "$out/smoke-tuning.json" >"$out/tune-smoke.txt" 2>&1
  echo "mirage-tune smoke test: exit $?"; cat "$out/tune-smoke.txt"
  MIRAGE_TUNE="$build/mirage-tune" "$python" -m pytest -q -p no:cacheprovider \
    "$root/python/test/test_tune_on_gpu.py" >"$out/tune-gpu-tests.log" 2>&1
  echo "mirage-tune GPU tests: $(tail -1 "$out/tune-gpu-tests.log")"
fi

db="$out/tuning.json"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
if [[ -n "${MIRAGE_TUNED_DB:-}" ]]; then
  # The tuning of an earlier run of the same bundles.
  cp "$MIRAGE_TUNED_DB" "$db"
else
  rm -f "$db"
  [[ -n "${MIRAGE_TUNING_DB_START:-}" ]] && cp "$MIRAGE_TUNING_DB_START" "$db"
  # Triton's compiles in parallel first; the measurements are sequential.
  "$python" "$root/bench/gpu/triton_precompile.py" "${bundles[@]}" \
    --limit "${MIRAGE_TRITON_COMPILE_LIMIT:-60}" --slow "$out/triton-slow.txt" \
    >"$out/triton-precompile.log" 2>&1
  echo "Triton modules compiled: $(date -u +%T)"
  for bundle in "${bundles[@]}"; do
    name="$(basename "$bundle")"
    log="$out/tune-${name#pipeline_}.txt"
    if [[ -f "$bundle/triton.py" ]]; then
      # Triton forms measured beside the PTX (docs/Runtime.md, "Triton
      # measurements").
      MIRAGE_RUNTIME_LIBRARY="$build/libmirage_runtime.so" \
        "$python" -m mirage.tuning "$bundle" --db "$db" \
        --skip-triton "$out/triton-slow.txt" >"$log" 2>&1
    else
      "$build/mirage-tune" "$bundle" --db "$db" >"$log" 2>&1
    fi
    echo "tuning $name: exit $? ($(date -u +%T))"
    tail -n 15 "$log"
  done
fi
if [[ "${MIRAGE_TUNE_ONLY:-0}" == 1 ]]; then
  exit 0
fi

# One root holding both sets of bundles, for bench.py.
all="$(mktemp -d)/bundles"
rm -rf "$all"
mkdir -p "$all"
for bundle in "$pipeline"/pipeline_*/ ${comparisons:+"$comparisons"/*/}; do
  ln -s "${bundle%/}" "$all/$(basename "$bundle")"
done

PYTHONUNBUFFERED=1 "$python" "$root/bench/gpu/bench.py" "$all" --out "$out" \
  --library "$build/libmirage_runtime.so" --tuning-db "$db" "$@"
