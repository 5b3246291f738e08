// Generality program llama3_8b_lora_r16_t16_f16: X W + (X A) B, LoRA of rank 16 on a 4096x4096 projection, 16 tokens, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_lora_r16_t16_f16(%X: tensor<16x4096xf16>, %W: tensor<4096x4096xf16>, %A: tensor<4096x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<16x4096xf16>, tensor<4096x4096xf16> -> tensor<16x4096xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x4096xf16>, tensor<4096x16xf16> -> tensor<16x16xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %O : tensor<16x4096xf16>
}
