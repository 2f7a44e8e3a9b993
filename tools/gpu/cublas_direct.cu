// SPDX-License-Identifier: Apache-2.0
// The dense floor: cuBLAS's SGEMM and DGEMM (C = A B, n x n, column-major,
// no transposes) called as a CUDA C++ user calls them: handle, operands and
// math mode set up once (CUBLAS_DEFAULT_MATH: no TF32 for FP32), then
// cudaEvents around each call and the host's steady clock around it and a
// synchronize as a second clock (cuda_timing.hpp: median of 20 after 3 warm-ups).
// A few entries of C are checked against a double-precision host sum.
// portacl-bench's GEMM section reports the same products; tools/gpu/cublas.py
// gives PyTorch's matmul as a second figure.
// build: nvcc -O2 -o cublas_direct cublas_direct.cu -lcublas   usage: cublas_direct [N...]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "cuda_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

cublasStatus_t gemm(cublasHandle_t h, int n, const float* a, const float* b, float* c) {
  const float one = 1, zero = 0;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
}
cublasStatus_t gemm(cublasHandle_t h, int n, const double* a, const double* b, double* c) {
  const double one = 1, zero = 0;
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
}

template <class T>
int run(cublasHandle_t h, int n, const char* name) {
  const std::size_t count = std::size_t(n) * n;
  std::vector<T> ha(count), hb(count);
  std::mt19937 gen(n);
  std::uniform_real_distribution<double> d(-1, 1);
  for (T& v : ha) v = T(d(gen));
  for (T& v : hb) v = T(d(gen));
  T *a, *b, *c;
  if (cudaMalloc(&a, count * sizeof(T)) || cudaMalloc(&b, count * sizeof(T)) || cudaMalloc(&c, count * sizeof(T)))
    return std::printf("cudaMalloc failed\n"), 1;
  cudaMemcpy(a, ha.data(), count * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), count * sizeof(T), cudaMemcpyHostToDevice);
  bool failed = false;
  const Times t = time_calls([&] { failed = failed || gemm(h, n, a, b, c) != CUBLAS_STATUS_SUCCESS; });
  if (failed) return std::printf("cuBLAS call failed\n"), 1;
  std::vector<T> hc(count);
  cudaMemcpy(hc.data(), c, count * sizeof(T), cudaMemcpyDeviceToHost);
  double worst = 0;  // column-major: C(i, j) = sum_p A(i, p) B(p, j)
  for (int s = 0; s < 64; ++s) {
    const int i = int(gen() % n), j = int(gen() % n);
    double sum = 0;
    for (int p = 0; p < n; ++p) sum += double(ha[i + std::size_t(p) * n]) * hb[p + std::size_t(j) * n];
    worst = std::max(worst, std::fabs(sum - hc[i + std::size_t(j) * n]) / std::sqrt(double(n)));
  }
  const bool ok = worst < (sizeof(T) == 4 ? 1e-4 : 1e-12);
  const double dev = t.device_ms, wall = t.wall_ms;
  std::printf(
      "cublas-direct %s n=%d events median %.4f ms (%.4f-%.4f) %.1f TFLOP/s wall median %.4f ms %.1f TFLOP/s "
      "check %s\n",
      name, n, dev, t.device_min, t.device_max, 2.0 * n * n * double(n) / dev / 1e9, wall,
      2.0 * n * n * double(n) / wall / 1e9, ok ? "ok" : "WRONG");
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1024, 2048, 4096, 8192};
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int version = 0;
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return std::printf("cublasCreate failed\n"), 1;
  cublasGetVersion(h, &version);
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);  // FP32 stays FP32: no TF32 tensor cores
  std::printf("cublas-direct on %s, cuBLAS %d\n", prop.name, version);
  int status = 0;
  for (int n : sizes) status |= run<float>(h, n, "sgemm");
  for (int n : sizes) status |= run<double>(h, n, "dgemm");
  cublasDestroy(h);
  return status;
}
