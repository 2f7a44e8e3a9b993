// SPDX-License-Identifier: Apache-2.0
// The device's own ceilings, measured in the same run as the kernels they
// judge: streaming bandwidth with a float4 copy and arithmetic peak with
// chains of dependent FMAs.
#pragma once

#include <cstddef>
#include <string>

#include "measure.hpp"

namespace bench {

struct Ceilings {
  std::size_t copy_elements = 0;
  Stats copy;                ///< the faster of the two copies below
  std::string copy_variant;  ///< "float4 copy" or "the rules' copy"
  double copy_gbs = 0;       // bytes read + written per second, 1e9
  Stats fma;
  double fma_gflops = 0;
  double fma_flops = 0;  // per launch
  Stats fma64;           // the same in double; empty without fp64
  double fma64_gflops = 0;
  double fma64_flops = 0;
};

Ceilings measure_ceilings(portacl::Context& ctx, std::size_t copy_elements, int warmup, int reps);

/// The caches a working set must leave to be judged against memory: the
/// device's reported global cache, but at least 64 MiB (NVIDIA's OpenCL
/// reports its L1s, 1-2 MB, and not the L2 of 40-50 MB; CPUs' last levels
/// reach hundreds of MB).
double cache_bytes(const portacl::DeviceInfo& info);
/// Floats the copy ceiling moves: at least half cache_bytes (the copy's 8
/// bytes an element then move 4x the caches) whatever --sizes says, the
/// largest size asked for where that is more (up to 2^28), within the
/// device's largest buffer and a quarter of its memory for the two buffers.
std::size_t out_of_cache_elements(const portacl::DeviceInfo& info, std::size_t largest);
/// "cache" when `bytes` moved fit in twice the caches (such a row may run
/// faster than the out-of-cache copy ceiling), "memory" otherwise, "" when
/// no bytes are counted (an operation judged by its flops).
inline const char* regime(double bytes, double cache) {
  return bytes <= 0 ? "" : bytes < 2 * cache ? "cache" : "memory";
}
// The FMA peak alone: chains of dependent FMAs in `element`; the flops of
// one launch in `flops`.
Stats measure_fma(portacl::Context& ctx, portacl::ElementType element, int warmup, int reps, double& flops);

}  // namespace bench
