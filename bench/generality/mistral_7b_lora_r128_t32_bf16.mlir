// Generality program mistral_7b_lora_r128_t32_bf16: X W + (X A) B, LoRA of rank 128 on a 4096x4096 projection, 32 tokens, bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @mistral_7b_lora_r128_t32_bf16(%X: tensor<32x4096xbf16>, %W: tensor<4096x4096xbf16>, %A: tensor<4096x128xbf16>, %B: tensor<128x4096xbf16>) -> tensor<32x4096xbf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<32x4096xbf16>, tensor<4096x4096xbf16> -> tensor<32x4096xbf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<32x4096xbf16>, tensor<4096x128xbf16> -> tensor<32x128xbf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<32x128xbf16>, tensor<128x4096xbf16> -> tensor<32x4096xbf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<32x4096xbf16>, tensor<32x4096xbf16> -> tensor<32x4096xbf16>
  return %O : tensor<32x4096xbf16>
}
