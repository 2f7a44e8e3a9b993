// SPDX-License-Identifier: Apache-2.0
// The host-transfer floor: CUDA's own copies of N floats (default 2^26)
// between host and device, called as a CUDA C++ user calls them:
// cudaMemcpy from pinned memory (cudaMallocHost) and from pageable memory
// (new[]), each direction alone, the allocations outside the timing; the
// host's steady clock around the copy and a device synchronize, median of
// 20 after 3 warm-ups. portacl-bench's transfer section reports the same
// paths; tools/gpu/cuda_copy.py gives PyTorch's copies as a second figure.
// build: nvcc -O2 -o cuda_copy cuda_copy.cu      usage: cuda_copy [N]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {

double median_ms(const std::function<void()>& copy) {
  std::vector<double> t;
  for (int rep = 0; rep < 23; ++rep) {
    cudaDeviceSynchronize();
    const auto t0 = std::chrono::steady_clock::now();
    copy();
    cudaDeviceSynchronize();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (rep >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 26, bytes = n * 4;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  std::printf("cuda-copy on %s, CUDA runtime %d, n %zu floats\n", prop.name, runtime, n);
  float* device = nullptr;
  if (cudaMalloc(&device, bytes) != cudaSuccess) return std::printf("cudaMalloc failed\n"), 1;
  int status = 0;
  for (bool pinned : {true, false}) {
    float *up = nullptr, *down = nullptr;
    if (pinned) {
      if (cudaMallocHost(&up, bytes) != cudaSuccess || cudaMallocHost(&down, bytes) != cudaSuccess)
        return std::printf("cudaMallocHost failed\n"), 1;
    } else {
      up = new float[n];
      down = new float[n];
    }
    for (std::size_t i = 0; i < n; ++i) up[i] = float(i % 1021) * 0.5f;
    std::memset(down, 0xff, bytes);  // NaN until the download
    const char* kind = pinned ? "pinned" : "pageable";
    const double u = median_ms([&] { cudaMemcpy(device, up, bytes, cudaMemcpyHostToDevice); });
    const double d = median_ms([&] { cudaMemcpy(down, device, bytes, cudaMemcpyDeviceToHost); });
    const bool ok = std::memcmp(up, down, bytes) == 0;
    std::printf("cuda-copy upload %s median %.3f ms %.2f GB/s\n", kind, u, bytes / (u * 1e6));
    std::printf("cuda-copy download %s median %.3f ms %.2f GB/s check %s\n", kind, d, bytes / (d * 1e6),
                ok ? "ok" : "WRONG");
    if (!ok) status = 1;
    if (pinned) {
      cudaFreeHost(up);
      cudaFreeHost(down);
    } else {
      delete[] up;
      delete[] down;
    }
  }
  cudaFree(device);
  return status;
}
