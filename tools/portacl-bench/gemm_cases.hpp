// SPDX-License-Identifier: Apache-2.0
// portacl-bench's matrix-multiply section: portacl's SGEMM and DGEMM beside
// CLBlast's on square row-major matrices, in GFLOP/s and as a fraction of
// the FMA peak of the element type measured in the same run.
#pragma once

#include <string>
#include <vector>

#include "../common/ceilings.hpp"
#include "../common/measure.hpp"

namespace bench {

struct GemmRow {
  std::string element, routine;  // "float", "Sgemm"
  std::size_t n = 0;             // m = n = k
  Stats ours;                    // device profiling clock
  Stats ours_wall;               // wall clock around the call and clFinish
  Stats theirs;                  // wall clock, as CLBlast's users see it
  double gflops = 0, baseline_gflops = 0;
  double fraction_of_fma = 0;  // of the measured FP32 FMA peak
  double speedup = 0;          // CLBlast wall median / ours, wall clock both
  std::string plan, check, baseline_check;
};

// `types`: "float" and/or "double" (double only where the device has fp64).
std::vector<GemmRow> run_gemm(portacl::Context& ctx, const std::vector<std::size_t>& sizes,
                              const std::vector<std::string>& types, int warmup, int reps, bool baseline,
                              unsigned long long seed, const Ceilings& ceilings);

}  // namespace bench
