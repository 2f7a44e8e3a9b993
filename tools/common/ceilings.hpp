// SPDX-License-Identifier: Apache-2.0
// The device's own ceilings, measured in the same run as the kernels they
// judge: streaming bandwidth with a float4 copy and arithmetic peak with
// chains of dependent FMAs.
#pragma once

#include <cstddef>

#include "measure.hpp"

namespace bench {

struct Ceilings {
  std::size_t copy_elements = 0;
  Stats copy;
  double copy_gbs = 0;  // bytes read + written per second, 1e9
  Stats fma;
  double fma_gflops = 0;
  double fma_flops = 0;  // per launch
  Stats fma64;           // the same in double; empty without fp64
  double fma64_gflops = 0;
  double fma64_flops = 0;
};

Ceilings measure_ceilings(portacl::Context& ctx, std::size_t copy_elements, int warmup, int reps);
// The FMA peak alone: chains of dependent FMAs in `element`; the flops of
// one launch in `flops`.
Stats measure_fma(portacl::Context& ctx, portacl::ElementType element, int warmup, int reps, double& flops);

}  // namespace bench
