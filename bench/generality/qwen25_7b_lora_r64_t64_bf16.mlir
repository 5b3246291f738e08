// Generality program qwen25_7b_lora_r64_t64_bf16: X W + (X A) B, LoRA of rank 64 on a 3584x3584 projection, 64 tokens, bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_lora_r64_t64_bf16(%X: tensor<64x3584xbf16>, %W: tensor<3584x3584xbf16>, %A: tensor<3584x64xbf16>, %B: tensor<64x3584xbf16>) -> tensor<64x3584xbf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<64x3584xbf16>, tensor<3584x3584xbf16> -> tensor<64x3584xbf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<64x3584xbf16>, tensor<3584x64xbf16> -> tensor<64x64xbf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<64x64xbf16>, tensor<64x3584xbf16> -> tensor<64x3584xbf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<64x3584xbf16>, tensor<64x3584xbf16> -> tensor<64x3584xbf16>
  return %O : tensor<64x3584xbf16>
}
