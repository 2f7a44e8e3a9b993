// SPDX-License-Identifier: Apache-2.0
// The sort floor: cub::DeviceRadixSort called as an expert CUDA user calls
// it. Uniform 32-bit and 64-bit keys (and 32-bit values 0..n-1 for the pairs), sorted
// out of place from an unsorted input that stays unsorted, with the
// temporary storage sized and allocated once, outside every timed call.
// Each call is timed alone two ways: CUDA events around it (device time)
// and the host's steady clock around it and a cudaStreamSynchronize (wall);
// median of 20 after 3 warm-ups, with the min-max. The keys are checked
// against std::sort, the values against the keys they came with.
// usage: cub_sort [LOG2_SIZES, default 24,26]
// build: nvcc -O3 -arch=sm_90 -o cub_sort cub_sort.cu
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "cuda_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

// K: std::uint32_t or std::uint64_t keys (the same draws as portacl-bench's sort cases).
template <class K>
bool run(std::size_t n) {
  std::vector<K> keys(n);
  std::vector<std::uint32_t> index(n);
  std::mt19937_64 gen(0x5027ull ^ n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<K>(sizeof(K) == 8 ? gen() : gen() >> 32);
    index[i] = static_cast<std::uint32_t>(i);
  }
  K *k_in, *k_out;
  std::uint32_t *v_in, *v_out;
  const std::size_t bytes = n * sizeof(K), value_bytes = n * 4;
  if (!ok(cudaMalloc(&k_in, bytes), "cudaMalloc") || !ok(cudaMalloc(&k_out, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&v_in, value_bytes), "cudaMalloc") || !ok(cudaMalloc(&v_out, value_bytes), "cudaMalloc"))
    return false;
  cudaMemcpy(k_in, keys.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(v_in, index.data(), value_bytes, cudaMemcpyHostToDevice);
  std::size_t temp_keys = 0, temp_pairs = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_keys, k_in, k_out, static_cast<int>(n));
  cub::DeviceRadixSort::SortPairs(nullptr, temp_pairs, k_in, k_out, v_in, v_out, static_cast<int>(n));
  void* temp = nullptr;
  if (!ok(cudaMalloc(&temp, std::max(temp_keys, temp_pairs)), "cudaMalloc temp")) return false;

  const Times tk =
      time_calls([&] { cub::DeviceRadixSort::SortKeys(temp, temp_keys, k_in, k_out, static_cast<int>(n)); });
  std::vector<K> got(n), want = keys;
  std::vector<std::uint32_t> got_values(n);
  cudaMemcpy(got.data(), k_out, bytes, cudaMemcpyDeviceToHost);
  std::sort(want.begin(), want.end());
  const bool keys_ok = got == want;
  const Times tp = time_calls(
      [&] { cub::DeviceRadixSort::SortPairs(temp, temp_pairs, k_in, k_out, v_in, v_out, static_cast<int>(n)); });
  cudaMemcpy(got.data(), k_out, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(got_values.data(), v_out, value_bytes, cudaMemcpyDeviceToHost);
  bool pairs_ok = got == want;
  for (std::size_t i = 0; pairs_ok && i < n; ++i) pairs_ok = got_values[i] < n && keys[got_values[i]] == got[i];
  const double g = double(n) / 1e6;
  const char* width = sizeof(K) == 8 ? "uint64" : "uint32";
  std::printf("cub SortKeys  %s n=%-9zu device %8.4f ms (%.4f-%.4f) %6.2f G keys/s  wall %8.4f ms %6.2f G keys/s  %s\n",
              width, n, tk.device_ms, tk.device_min, tk.device_max, g / tk.device_ms, tk.wall_ms, g / tk.wall_ms,
              keys_ok ? "ok" : "WRONG");
  std::printf("cub SortPairs %s n=%-9zu device %8.4f ms (%.4f-%.4f) %6.2f G keys/s  wall %8.4f ms %6.2f G keys/s  %s\n",
              width, n, tp.device_ms, tp.device_min, tp.device_max, g / tp.device_ms, tp.wall_ms, g / tp.wall_ms,
              pairs_ok ? "ok" : "WRONG");
  cudaFree(temp);
  cudaFree(k_in);
  cudaFree(k_out);
  cudaFree(v_in);
  cudaFree(v_out);
  return keys_ok && pairs_ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> logs = {24, 26};
  if (argc > 1) {
    logs.clear();
    std::stringstream in(argv[1]);
    for (std::string item; std::getline(in, item, ',');) logs.push_back(static_cast<unsigned>(std::stoul(item)));
  }
  bool all = true;
  for (unsigned l : logs) all = run<std::uint32_t>(std::size_t{1} << l) && all;
  for (unsigned l : logs) all = run<std::uint64_t>(std::size_t{1} << l) && all;
  return all ? 0 : 1;
}
