# Sourced by the GPU scripts that use the self-contained Python package
# (bench/gpu-python-api.sh, bench/gpu-torch-compile.sh) on a machine with no
# LLVM, MLIR or Z3: builds the runtime (scripts/build-runtime.sh), unpacks
# the package that scripts/build-python-package.sh built elsewhere, and
# exports PYTHONPATH, MIRAGE_RUNTIME_LIBRARY, MIRAGE_CACHE_DIR and
# MIRAGE_TUNING_DB for it. Expects $root (the checkout), $out (the results'
# directory) and $archive (the package); sets $package.
build="${MIRAGE_RUNTIME_BUILD_DIR:-$root/build-runtime}"
mkdir -p "$out"
"$root/scripts/build-runtime.sh" "$build" "$out/runtime-build.log" || exit 1
unpacked="$(mktemp -d)"
tar xzf "$archive" -C "$unpacked"
package="$(find "$unpacked" -mindepth 1 -maxdepth 1 -type d | head -1)"
export PYTHONPATH="$package" MIRAGE_RUNTIME_LIBRARY="$build/libmirage_runtime.so"
export MIRAGE_CACHE_DIR="${MIRAGE_CACHE_DIR:-$out/cache}"
export MIRAGE_TUNING_DB="${MIRAGE_TUNING_DB:-$out/tuning.json}"
