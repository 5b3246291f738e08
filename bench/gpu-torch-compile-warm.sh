#!/usr/bin/env bash
# The first compile of bench/gpu/torch_compile.py's models, over the GPUs of
# one machine, so that a later call measures them all in one run: each case
# (MODEL:BATCH) is compiled by the Mirage backend alone (its searches and
# tuning), the cases dealt in turn to N GPUs, all at the same time, into one
# tuning database. Cases of one batch size share pieces of the same shapes
# (the layer's and Llama's MLP), so deal them to the same GPU (list them N
# apart) and they are searched once. bench/gpu-torch-compile.sh with MIRAGE_TUNING_DB set to a
# copy of that database then compiles each model as a second compile does
# (the winners taken from the database), and the whole suite fits one
# 10-minute call (docs/TorchCompile.md, "One run"). The database is keyed by
# the compiler's version: use the same package for both calls.
#
#   bench/gpu-torch-compile-warm.sh N PACKAGE.tar.gz CASE,CASE,... \
#       [torch_compile.py options]
#
# Writes tuning.json, warm.log, each GPU's log (gpu<i>.log) and cache.tgz
# (the kernel cache, $MIRAGE_CACHE_DIR, default a temporary directory) to
# $OUT (default ./gpu-torch-compile-warm-out). With the cache unpacked into
# its $MIRAGE_CACHE_DIR, the later call takes each piece's kernel at once.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  echo "usage: $0 N PACKAGE.tar.gz MODEL:BATCH,... [torch_compile.py options]" >&2
  exit 2
}
[[ $# -ge 3 && "$1" =~ ^[1-9][0-9]*$ && -f "$2" &&
   "$3" =~ ^[a-z_]+:[0-9]+(,[a-z_]+:[0-9]+)*$ ]] || usage
gpus="$1"
archive="$(realpath "$2")"
IFS=, read -r -a cases <<<"$3"
shift 3
out="${OUT:-$PWD/gpu-torch-compile-warm-out}"
export MIRAGE_CACHE_DIR="${MIRAGE_CACHE_DIR:-$(mktemp -d)}"
# shellcheck source=bench/gpu-package-env.sh
source "$root/bench/gpu-package-env.sh"

for ((gpu = 0; gpu < gpus; ++gpu)); do
  (for ((i = gpu; i < ${#cases[@]}; i += gpus)); do
     CUDA_VISIBLE_DEVICES="$gpu" PYTHONUNBUFFERED=1 "${PYTHON:-python3}" \
       "$root/bench/gpu/torch_compile.py" --case "${cases[i]}" \
       --variants mirage "$@"
     echo "${cases[i]} on GPU $gpu: exit $?"
   done >"$out/gpu$gpu.log" 2>&1) &
done
wait
tar czf "$out/cache.tgz" -C "$MIRAGE_CACHE_DIR" .
# A case failed when its process did, or its row says so.
grep -h -e ": exit " -e '"failed"' "$out"/gpu*.log | cut -c1-300 |
  tee "$out/warm.log"
! grep -q -v ": exit 0$" "$out/warm.log"
