module {
  func.func @ntrans_bs1(%arg0: tensor<8x4096xf16>, %arg1: tensor<8x4096xf16>, %arg2: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
    %0 = mirage_kernel.rms_norm %arg0 size 4096 : tensor<8x4096xf16>
    %1 = mirage_kernel.add %0, %arg1 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %2 = mirage_kernel.mul %arg2, %1 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %3 = mirage_kernel.add %arg1, %2 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %4 = mirage_kernel.rms_norm %3 size 4096 : tensor<8x4096xf16>
    return %4 : tensor<8x4096xf16>
  }
  func.func @ntrans_bs1_as_written(%arg0: tensor<8x4096xf16>, %arg1: tensor<8x4096xf16>, %arg2: tensor<8x4096xf16>) -> tensor<8x4096xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "33ade811e11ee5b637e7362cb1b8aa2c58b21d135484ee4f3f7bc255f7699ea8"}} {
    %0 = mirage_kernel.rms_norm %arg0 size 4096 : tensor<8x4096xf16>
    %1 = mirage_kernel.add %0, %arg1 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %2 = mirage_kernel.mul %arg2, %1 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %3 = mirage_kernel.add %arg1, %2 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %4 = mirage_kernel.rms_norm %3 size 4096 : tensor<8x4096xf16>
    return %4 : tensor<8x4096xf16>
  }
}

