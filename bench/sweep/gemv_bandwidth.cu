// How fast can a GEMV stream its weights on this GPU, and which access
// pattern gets there? A probe, not a kernel of the project: y = x W for one
// row x (1 x K) and W stored (K, N) row-major in f16, as the generality
// suite's decode projections hold it, timed over every launch shape below
// against a plain read of the same bytes.
//
// Each block reads a tile of TN columns by a slice of K / S rows. A thread
// reads 16 bytes (8 columns) per row, UNROLL rows ahead of their use; the
// block sums its rows in shared memory. With S slices the blocks write f32
// partial sums and a second kernel adds them (both timed).
//
// Weights rotate over enough copies to pass 256 MB, so no launch finds its
// tile in the 60 MB L2. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90a -o gemv_bandwidth bench/sweep/gemv_bandwidth.cu
//   ./gemv_bandwidth > gemv_bandwidth.txt
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

constexpr int kThreads = 256;

/// One block: columns [blockIdx.x * TN, +TN), rows of slice blockIdx.y.
template <int TN, int UNROLL>
__global__ void __launch_bounds__(kThreads)
    gemvTile(const half *__restrict__ x, const half *__restrict__ w, int k,
             int n, int slices, float *__restrict__ partial,
             half *__restrict__ y) {
  constexpr int kLanesPerRow = TN / 8;
  constexpr int kRowsPerPass = kThreads / kLanesPerRow;
  const int lane = threadIdx.x % kLanesPerRow;
  const int rowInPass = threadIdx.x / kLanesPerRow;
  const int column = blockIdx.x * TN + lane * 8;
  const int rowsPerSlice = k / slices;
  const int rowBegin = blockIdx.y * rowsPerSlice;
  float acc[8] = {};
  const half *base = w + (size_t)rowBegin * n + column;
  for (int r = rowInPass; r < rowsPerSlice; r += kRowsPerPass * UNROLL) {
    uint4 v[UNROLL];
    half xs[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      int row = r + u * kRowsPerPass;
      if (row < rowsPerSlice) {
        v[u] = __ldcs(reinterpret_cast<const uint4 *>(base + (size_t)row * n));
        xs[u] = x[rowBegin + row];
      } else {
        v[u] = make_uint4(0, 0, 0, 0);
        xs[u] = __float2half(0.f);
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const half *h = reinterpret_cast<const half *>(&v[u]);
      float xf = __half2float(xs[u]);
#pragma unroll
      for (int j = 0; j < 8; ++j)
        acc[j] += xf * __half2float(h[j]);
    }
  }
  __shared__ float sums[kRowsPerPass][TN + 4];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    sums[rowInPass][lane * 8 + j] = acc[j];
  __syncthreads();
  for (int c = threadIdx.x; c < TN; c += kThreads) {
    float s = 0.f;
    for (int p = 0; p < kRowsPerPass; ++p)
      s += sums[p][c];
    int col = blockIdx.x * TN + c;
    if (slices == 1)
      y[col] = __float2half(s);
    else
      partial[(size_t)blockIdx.y * n + col] = s;
  }
}

/// Adds the slices' partial sums.
__global__ void addSlices(const float *__restrict__ partial, int n, int slices,
                          half *__restrict__ y) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n)
    return;
  float s = 0.f;
  for (int i = 0; i < slices; ++i)
    s += partial[(size_t)i * n + col];
  y[col] = __float2half(s);
}

/// The read ceiling: every block streams a contiguous stretch, 16 bytes a
/// thread, UNROLL loads ahead.
__global__ void __launch_bounds__(kThreads)
    readAll(const uint4 *__restrict__ w, size_t words,
            float *__restrict__ out) {
  constexpr int kUnroll = 8;
  size_t stride = (size_t)gridDim.x * kThreads;
  unsigned acc = 0;
  for (size_t i = (size_t)blockIdx.x * kThreads + threadIdx.x; i < words;
       i += stride * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      v[u] = i + u * stride < words ? __ldcs(w + i + u * stride)
                                    : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == 0x12345678u)
    out[0] = 1.f;
}

struct Shape {
  const char *name;
  int k, n;
};

template <int TN, int UNROLL>
float timeTile(const std::vector<half *> &ws, const half *x, int k, int n,
               int slices, float *partial, half *y, int launches) {
  dim3 grid(n / TN, slices);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i)
    gemvTile<TN, UNROLL>
        <<<grid, kThreads>>>(x, ws[i % ws.size()], k, n, slices, partial, y);
  CHECK(cudaEventRecord(start));
  for (int i = 0; i < launches; ++i) {
    gemvTile<TN, UNROLL>
        <<<grid, kThreads>>>(x, ws[i % ws.size()], k, n, slices, partial, y);
    if (slices > 1)
      addSlices<<<(n + 255) / 256, 256>>>(partial, n, slices, y);
  }
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  return 1000.f * ms / launches;
}

template <int TN, int UNROLL>
void sweepTile(const Shape &shape, const std::vector<half *> &ws, const half *x,
               float *partial, half *y, double bytes) {
  if (shape.n % TN)
    return;
  for (int slices : {1, 2, 4, 8, 16, 32}) {
    if (shape.k % slices || shape.k / slices < kThreads / (TN / 8))
      continue;
    float us =
        timeTile<TN, UNROLL>(ws, x, shape.k, shape.n, slices, partial, y, 200);
    std::printf("%-10s TN=%4d unroll=%d slices=%2d blocks=%5d  %8.2f us  "
                "%5.2f TB/s\n",
                shape.name, TN, UNROLL, slices, shape.n / TN * slices, us,
                bytes / us / 1e6);
  }
}

int main() {
  const Shape shapes[] = {{"1b_qkv", 2048, 3072},
                          {"qwen_qkv", 3584, 4608},
                          {"8b_qkv", 4096, 6144},
                          {"8b_up", 4096, 14336},
                          {"8b_down", 14336, 4096}};
  for (const Shape &shape : shapes) {
    size_t elements = (size_t)shape.k * shape.n;
    double bytes = 2.0 * elements;
    int copies = (int)((256e6 + bytes - 1) / bytes) + 1;
    std::vector<half *> ws(copies);
    for (half *&w : ws) {
      CHECK(cudaMalloc(&w, bytes));
      CHECK(cudaMemset(w, 0x11, bytes));
    }
    half *x, *y;
    float *partial;
    CHECK(cudaMalloc(&x, shape.k * sizeof(half)));
    CHECK(cudaMemset(x, 0x11, shape.k * sizeof(half)));
    CHECK(cudaMalloc(&y, shape.n * sizeof(half)));
    CHECK(cudaMalloc(&partial, 32 * (size_t)shape.n * sizeof(float)));

    // The read ceiling for these bytes.
    for (int blocks : {132, 264, 528, 1056}) {
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      CHECK(cudaEventRecord(start));
      for (int i = 0; i < 200; ++i)
        readAll<<<blocks, kThreads>>>(
            reinterpret_cast<const uint4 *>(ws[i % copies]), elements / 8,
            partial);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      float us = 1000.f * ms / 200;
      std::printf("%-10s read  blocks=%5d                      %8.2f us  "
                  "%5.2f TB/s\n",
                  shape.name, blocks, us, bytes / us / 1e6);
    }
    sweepTile<64, 4>(shape, ws, x, partial, y, bytes);
    sweepTile<64, 8>(shape, ws, x, partial, y, bytes);
    sweepTile<128, 4>(shape, ws, x, partial, y, bytes);
    sweepTile<128, 8>(shape, ws, x, partial, y, bytes);
    sweepTile<256, 4>(shape, ws, x, partial, y, bytes);
    sweepTile<256, 8>(shape, ws, x, partial, y, bytes);
    sweepTile<512, 4>(shape, ws, x, partial, y, bytes);
    sweepTile<1024, 4>(shape, ws, x, partial, y, bytes);
    for (half *w : ws)
      CHECK(cudaFree(w));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(partial));
  }
  return 0;
}
