// What a thread-block cluster costs on this GPU: the same small kernel
// (128 blocks of 128 threads, each summing 4 KB of its row and storing one
// value) launched without clusters, and with clusters of 2 to 16 blocks
// whose blocks add their sums through distributed shared memory (two
// cluster barriers, as the code generator's cluster_reduce has them).
// Times are per launch, replayed from a CUDA graph of 20 launches and of
// one launch, so that the graph's own start is visible apart.
//
//   nvcc -O3 -arch=sm_90a -o cluster_launch bench/sweep/cluster_launch.cu
//   ./cluster_launch > cluster_launch.txt
#include <cooperative_groups.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstdlib>

#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kThreads = 128;
constexpr int kBlocks = 128;
constexpr int kElements = 2048; // f16 per block: 4 KB

/// Each block sums its kElements; with `clustered`, the cluster's blocks
/// then add their sums through distributed shared memory.
template <bool clustered>
__global__ void __launch_bounds__(kThreads)
    blockSums(const half *__restrict__ in, float *__restrict__ out) {
  __shared__ float warpSums[kThreads / 32];
  __shared__ float blockSum;
  const half *row = in + (size_t)blockIdx.x * kElements;
  float s = 0.f;
  for (int i = threadIdx.x * 8; i < kElements; i += kThreads * 8) {
    uint4 v = *reinterpret_cast<const uint4 *>(row + i);
    const half *h = reinterpret_cast<const half *>(&v);
#pragma unroll
    for (int j = 0; j < 8; ++j)
      s += __half2float(h[j]);
  }
  for (int offset = 16; offset; offset /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0)
    warpSums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < kThreads / 32; ++w)
      t += warpSums[w];
    blockSum = t;
  }
  if constexpr (clustered) {
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    if (threadIdx.x == 0) {
      float total = 0.f;
      for (unsigned r = 0; r < cluster.num_blocks(); ++r)
        total += *cluster.map_shared_rank(&blockSum, r);
      out[blockIdx.x] = total;
    }
    cluster.sync();
  } else {
    __syncthreads();
    if (threadIdx.x == 0)
      out[blockIdx.x] = blockSum;
  }
}

template <bool clustered>
cudaError_t launch(int clusterSize, const half *in, float *out,
                   cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(kBlocks);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  cudaLaunchAttribute attribute;
  if (clustered) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = clusterSize;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, blockSums<clustered>, in, out);
}

/// µs per launch of `launches` launches captured in one graph, replayed.
template <bool clustered>
float timeGraph(int clusterSize, int launches, const half *in, float *out) {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < launches; ++i)
    CHECK(launch<clustered>(clusterSize, in, out, stream));
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 5; ++i)
    CHECK(cudaGraphLaunch(exec, stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  constexpr int kReplays = 200;
  float best = 1e30f;
  for (int round = 0; round < 5; ++round) {
    CHECK(cudaEventRecord(start, stream));
    for (int i = 0; i < kReplays; ++i)
      CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = std::min(best, 1000.f * ms / kReplays / launches);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  return best;
}

int main() {
  half *in;
  float *out;
  CHECK(cudaMalloc(&in, (size_t)kBlocks * kElements * sizeof(half)));
  CHECK(cudaMemset(in, 0, (size_t)kBlocks * kElements * sizeof(half)));
  CHECK(cudaMalloc(&out, kBlocks * sizeof(float)));
  CHECK(cudaFuncSetAttribute(
      blockSums<true>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::printf("%-10s %14s %14s\n", "cluster", "us/launch(20)", "us/launch(1)");
  std::printf("%-10s %14.2f %14.2f\n", "none", timeGraph<false>(1, 20, in, out),
              timeGraph<false>(1, 1, in, out));
  for (int size : {1, 2, 4, 8, 16})
    std::printf("%-10d %14.2f %14.2f\n", size,
                timeGraph<true>(size, 20, in, out),
                timeGraph<true>(size, 1, in, out));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
