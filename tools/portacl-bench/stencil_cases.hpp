// SPDX-License-Identifier: Apache-2.0
// portacl-bench's stencil section: the 2D heat equation, the 3D star
// stencil, 1D and 2D convolution and normalised cross-correlation, each by
// the rules' variant and by each variant forced, against the copy ceiling
// measured in the same run. Every row is first checked against the host
// reference on a small instance of the same variant.
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

// What one timed case moves and computes per call.
struct CaseWork {
  double bytes = 0, flops = 0, points = 0;
};

// "ok", or the first output further than `bound` from the host's.
std::string within(const std::vector<float>& got, const std::vector<double>& want, double bound);
std::string within(const std::vector<double>& got, const std::vector<double>& want, double bound);

// Times `call` (device and wall clock) into `row` and derives its rates.
void time_case(portacl::Context& ctx, int warmup, int reps, const Ceilings& ceilings, const CaseWork& work,
               const std::function<void()>& call, StencilRow& row);

// "heat2d:N:STEPS", "star3d:N:R", "box3d:N:R", "conv2d:N:M", "conv1d:N:M", "ncc:N:T";
// throws std::invalid_argument for a bad spec.
void check_stencil_specs(const std::vector<std::string>& specs);
std::vector<StencilRow> run_stencils(portacl::Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings);

// The image cases (image_cases.cpp): convolution and NCC.
void conv2d_rows(portacl::Context& ctx, std::size_t n, std::size_t m, int warmup, int reps, unsigned long long seed,
                 const Ceilings& ceilings, std::vector<StencilRow>& out);
void conv1d_rows(portacl::Context& ctx, std::size_t n, std::size_t m, int warmup, int reps, unsigned long long seed,
                 const Ceilings& ceilings, std::vector<StencilRow>& out);
void ncc_rows(portacl::Context& ctx, std::size_t n, std::size_t t, int warmup, int reps, unsigned long long seed,
              const Ceilings& ceilings, std::vector<StencilRow>& out);

}  // namespace bench
