// SPDX-License-Identifier: Apache-2.0
#include "case_runner.hpp"

namespace bench {

VariantRun run_variant(portacl::Context& ctx, const portacl::BenchVariant& v, int warmup, int reps) {
  VariantRun r;
  const std::string wrong = v.check();
  r.check = wrong.empty() ? "ok" : wrong;
  r.plan = v.run();
  r.label = v.describe ? v.describe(r.plan) : v.label;
  r.ours = measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { v.run(); }); });
  r.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, [&] { v.run(); }); });
  return r;
}

}  // namespace bench
