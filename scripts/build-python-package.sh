#!/usr/bin/env bash
# Builds the self-contained Python package (docs/Python.md): the `mirage`
# package with the compiler library linked against LLVM and MLIR's static
# archives (libmirage_compiler_standalone.so, installed as
# mirage/lib/libmirage_compiler.so) and Z3's shared library beside it, so it
# runs where no LLVM, MLIR or Z3 is installed (the GPU machine).
#
#   scripts/build-python-package.sh OUT_DIR
#
# Writes OUT_DIR/mirage-python-<version>.tar.gz: a directory holding
# pyproject.toml and mirage/, which installs offline
# (`pip install --no-build-isolation DIR`) or runs from PYTHONPATH=DIR.
# Bundles run through mirage.runtime, whose library the GPU machine builds
# from runtime/ (scripts/build-runtime.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${MIRAGE_BUILD_DIR:-$root/build}"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
out="$(realpath -m "$1")"

"$root/scripts/build.sh" --target mirage_compiler_standalone >/dev/null
library="$build/lib/libmirage_compiler_standalone.so"
z3="$(ldd "$library" | awk '/libz3\.so/ {print $3}')"
[[ -f "$z3" ]] || { echo "libz3.so not found for $library" >&2; exit 1; }

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/python/pyproject.toml")"
name="mirage-python-$version"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/mirage/lib" "$stage/$name/mirage/torch" "$out"
cp "$root/python/pyproject.toml" "$stage/$name/"
cp "$root"/python/mirage/*.py "$stage/$name/mirage/"
cp "$root"/python/mirage/torch/*.py "$stage/$name/mirage/torch/"
cp "$library" "$stage/$name/mirage/lib/libmirage_compiler.so"
cp "$z3" "$stage/$name/mirage/lib/"
tar czf "$out/$name.tar.gz" -C "$stage" "$name"
echo "$out/$name.tar.gz"
