// CHECK(call): the CUDA probes' error check. A runtime call that fails
// prints where and why, and the probe exits 1.
#ifndef BENCH_SWEEP_CUDA_CHECK_H
#define BENCH_SWEEP_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t error = (call);                                                \
    if (error != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(error));                                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#endif // BENCH_SWEEP_CUDA_CHECK_H
