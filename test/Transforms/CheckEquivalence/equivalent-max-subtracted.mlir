// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=123456789 trials=3' -verify-diagnostics -o /dev/null

// Softmax and attention as models write them subtract the row maximum
// before exp. The finite-field verifier evaluates reduction_max as a keyed
// random function m of the row, and exp(x - m) = exp(x) * exp(-m) holds
// exactly in the field, so the maximum cancels between numerator and
// denominator whatever m is: the max-subtracted reference is proved equal
// to the plain softmax, scaled or not. A candidate that subtracts the
// maximum from the numerator only is rejected.

func.func @ref(%s: tensor<4x64xf32>) -> tensor<4x64xf32> attributes {mirage.reference} {
  %m = mirage_kernel.reduction_max %s dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %d = mirage_kernel.sub %s, %m : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %e = mirage_kernel.exp %d : tensor<4x64xf32>
  %r = mirage_kernel.reduction %e dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %o = mirage_kernel.div %e, %r : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// expected-remark-re @below {{{{^}}is equivalent to @ref: {{.*}}float64 relative error {{[0-9.]+e-1[5-9]$}}}}
func.func @plain(%s: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = mirage_kernel.exp %s : tensor<4x64xf32>
  %r = mirage_kernel.reduction %e dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %o = mirage_kernel.div %e, %r : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}

// The maximum of a row, taken in a graph_def whose blocks hold whole rows,
// is the kernel op's.
// expected-remark-re @below {{{{^}}is equivalent to @ref: {{.*}}float64 relative error 0.0e+00{{$}}}}
func.func @rows(%s: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %o = mirage_kernel.graph_def(%S = %s : tensor<4x64xf32>) -> tensor<4x64xf32> grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %S imap <x = 0> : tensor<4x64xf32> -> !mirage_block.stensor<1x64xf32>
    %m = reduction_max %t dim 1 : !mirage_block.stensor<1x64xf32> -> !mirage_block.stensor<1x1xf32>
    %d = sub %t, %m : !mirage_block.stensor<1x64xf32>, !mirage_block.stensor<1x1xf32> -> !mirage_block.stensor<1x64xf32>
    %e = exp %d : !mirage_block.stensor<1x64xf32>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x64xf32> -> !mirage_block.stensor<1x1xf32>
    %q = div %e, %r : !mirage_block.stensor<1x64xf32>, !mirage_block.stensor<1x1xf32> -> !mirage_block.stensor<1x64xf32>
    %w = output_saver %q omap <x = 0> : !mirage_block.stensor<1x64xf32> -> tensor<4x64xf32>
    yield %w : tensor<4x64xf32>
  }
  return %o : tensor<4x64xf32>
}

// expected-error @below {{is not equivalent to @ref}}
func.func @numerator_only(%s: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %m = mirage_kernel.reduction_max %s dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %d = mirage_kernel.sub %s, %m : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %e = mirage_kernel.exp %d : tensor<4x64xf32>
  %p = mirage_kernel.exp %s : tensor<4x64xf32>
  %r = mirage_kernel.reduction %p dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %o = mirage_kernel.div %e, %r : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  return %o : tensor<4x64xf32>
}
