// SPDX-License-Identifier: Apache-2.0
// How portacl-bench runs one variant of a family's case (src/tuning/
// bench_cases.hpp), whatever the section: its check on a small instance,
// the call once for its plan and label, then the device and wall clocks.
#pragma once

#include <string>

#include "../common/measure.hpp"
#include "tuning/bench_cases.hpp"

namespace bench {

struct VariantRun {
  std::string check;  ///< "ok" or what the small instance showed wrong
  std::string label;  ///< the variant's, or the rules' choices described from the plan
  portacl::LaunchPlan plan;
  Stats ours, ours_wall;  ///< device profiling clock; wall clock around the call and clFinish
};

/// Throws what the variant's check or call throws.
VariantRun run_variant(portacl::Context& ctx, const portacl::BenchVariant& v, int warmup, int reps);

}  // namespace bench
