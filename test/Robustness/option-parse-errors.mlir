// An option value that does not parse: llvm::cl prints the cause, and
// mirage-opt adds no empty `<unknown>:0: error:` after it (MLIR reports the
// failure as an error without a message; tools/mirage-opt drops it and
// trims the blank lines around the others).

// RUN: not mirage-opt --mirage-superoptimize='max-ops=foo' %s 2>&1 | FileCheck %s --check-prefix=SEARCH
// SEARCH: for the --max-ops option: 'foo' value invalid for uint argument!
// SEARCH-NOT: error
// RUN: not mirage-opt --mirage-check-equivalence='time-limit=soon' %s 2>&1 | FileCheck %s --check-prefix=CHECK-EQ
// CHECK-EQ: for the --time-limit option: 'soon' value invalid for floating point argument!
// CHECK-EQ-NOT: error
// RUN: not mirage-opt --mirage-test-evaluate='max-elements=1,2' %s 2>&1 | FileCheck %s --check-prefix=EVAL
// EVAL: for the --max-elements option: '1,2' value invalid for long argument!
// EVAL-NOT: error
// RUN: not mirage-opt --mirage-superoptimize='imaps=0,x' %s 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: for the --imaps option: 'x' value invalid for integer argument!
// LIST-NOT: error
// Upstream passes too.
// RUN: not mirage-opt --canonicalize='max-iterations=x' %s 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: for the --max-iterations option: 'x' value invalid for long argument!
// UPSTREAM-NOT: error

// In a --pass-pipeline, the message that follows is the error's, on one line.
// RUN: not mirage-opt --pass-pipeline='builtin.module(mirage-check-equivalence{trials=foo})' %s 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: for the --trials option: 'foo' value invalid for uint argument!
// PIPELINE-NEXT: <unknown>:0: error: failed to add `mirage-check-equivalence` with options `trials=foo`{{$}}
// PIPELINE-NOT: error
// An unknown option's error keeps its message, without the blank line that
// followed it: one line.
// RUN: not mirage-opt --mirage-estimate-cost='bogus=1' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mirage-opt --mirage-estimate-cost='bogus=1' %s 2>&1 | count 1
// UNKNOWN: <unknown>:0: error: <Pass-Options-Parser>: no such option bogus

module {
}
