#!/usr/bin/env bash
# Regenerates the per-op dialect references (docs/Dialects/*.md) from ODS,
# with the same command test/Docs/dialect-docs.test checks them against.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for level in Kernel Block Thread; do
  dialect="mirage_$(echo "$level" | tr '[:upper:]' '[:lower:]')"
  /usr/lib/llvm-22/bin/mlir-tblgen -gen-dialect-doc -dialect="$dialect" \
    -I "$root/include" -I /usr/lib/llvm-22/include \
    "$root/include/Mirage/Dialect/$level/IR/${level}Ops.td" \
    > "$root/docs/Dialects/$level.md"
done
