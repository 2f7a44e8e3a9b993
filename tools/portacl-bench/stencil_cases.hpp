// SPDX-License-Identifier: Apache-2.0
// portacl-bench's stencil section: the cases the stencil family declares
// (src/tuning/operations/stencil_cases.cpp: heat, 3D stencils, convolution,
// NCC, each by the rules' variant and by each variant forced), against the
// copy ceiling measured in the same run. Every row is first checked against
// the host reference on a small instance of the same variant.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "../common/ceilings.hpp"
#include "../common/measure.hpp"

namespace bench {

struct StencilRow {
  std::string stencil;    // "heat2d 4096^2 x 1000", "conv2d 4096^2 5x5 zero", ...
  std::string element;    // "float", "double", "uint8"
  std::string variant;    // "rules (cached)", "tiled", ...
  Stats ours, ours_wall;  // the whole call: device clock, wall clock
  double gbs = 0;         // each grid read once and written once (per step)
  double gflops = 0;      // multiply-adds count 2
  double gpoints = 0;     // outputs (cell updates) per second, in billions; NCC: template pixels
  double fraction_of_copy = 0;
  std::string check;  // a small run of the same variant against the host
};

// "heat2d:N:STEPS", "star3d:N:R", "box3d:N:R", "conv2d:N:M", "conv1d:N:M", "ncc:N:T";
// throws std::invalid_argument for a bad spec.
void check_stencil_specs(const std::vector<std::string>& specs);
std::vector<StencilRow> run_stencils(portacl::Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings);

}  // namespace bench
