// SPDX-License-Identifier: Apache-2.0
// The clock of the CUDA comparison programs in tools/gpu: each call timed
// alone two ways, CUDA events around it (device time) and the host's steady
// clock around it and a stream synchronize (wall); median of 20 after 3
// warm-ups, with the device time's min-max. Not part of the library.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

struct Times {
  double device_ms, wall_ms, device_min, device_max;
};

template <class F>
Times time_calls(F&& call) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> dev, wall;
  for (int rep = 0; rep < 23; ++rep) {
    cudaDeviceSynchronize();
    const auto t0 = std::chrono::steady_clock::now();
    cudaEventRecord(start);
    call();
    cudaEventRecord(stop);
    cudaStreamSynchronize(0);
    const double w = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    float d = 0;
    cudaEventElapsedTime(&d, start, stop);
    if (rep >= 3) {
      dev.push_back(d);
      wall.push_back(w);
    }
  }
  std::sort(dev.begin(), dev.end());
  std::sort(wall.begin(), wall.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return {dev[dev.size() / 2], wall[wall.size() / 2], dev.front(), dev.back()};
}
