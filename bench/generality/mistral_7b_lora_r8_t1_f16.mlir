// Generality program mistral_7b_lora_r8_t1_f16: X W + (X A) B, LoRA of rank 8 on a 4096x4096 projection, 1 tokens, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @mistral_7b_lora_r8_t1_f16(%X: tensor<1x4096xf16>, %W: tensor<4096x4096xf16>, %A: tensor<4096x8xf16>, %B: tensor<8x4096xf16>) -> tensor<1x4096xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<1x4096xf16>, tensor<4096x4096xf16> -> tensor<1x4096xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<1x4096xf16>, tensor<4096x8xf16> -> tensor<1x8xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<1x8xf16>, tensor<8x4096xf16> -> tensor<1x4096xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<1x4096xf16>, tensor<1x4096xf16> -> tensor<1x4096xf16>
  return %O : tensor<1x4096xf16>
}
