#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and quiet: when
# everything is present it only checks and returns.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  clang-format-22
  libz3-dev libzstd-dev libgtest-dev
  pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-z3
  graphviz
  # CPU torch (1.13): tensor arguments and the torch.compile backend's FX
  # partitioner and converter in the Python tests (docs/TorchCompile.md).
  python3-torch
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
