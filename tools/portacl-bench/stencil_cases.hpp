// SPDX-License-Identifier: Apache-2.0
// portacl-bench's stencil section: the 2D heat equation on an N x N grid
// for a number of steps, float and double, by the rules' variant and by
// each variant forced, against the copy ceiling measured in the same run.
#pragma once

#include <string>
#include <vector>

#include "../common/ceilings.hpp"
#include "../common/measure.hpp"

namespace bench {

struct StencilRow {
  std::string stencil;    // "heat2d 4096^2 x 1000"
  std::string element;    // "float", "double"
  std::string variant;    // "rules (cached)", "tiled", ...
  Stats ours, ours_wall;  // the whole call: device clock, wall clock
  double gbs = 0;         // each grid read once and written once per step
  double gflops = 0;      // 6 per cell per step
  double gpoints = 0;     // cell updates per second, in billions
  double fraction_of_copy = 0;
  std::string check;  // a short run of the same variant against the host steps
};

// "heat2d:N:STEPS"; throws std::invalid_argument for a bad spec.
void check_stencil_specs(const std::vector<std::string>& specs);
std::vector<StencilRow> run_stencils(portacl::Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings);

}  // namespace bench
