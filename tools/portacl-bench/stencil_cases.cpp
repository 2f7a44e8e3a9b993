// SPDX-License-Identifier: Apache-2.0
// The stencil section: the family's own cases (src/tuning/operations/
// stencil_cases.cpp), each variant checked, then timed against the copy
// ceiling of the same run. The runner knows no stencil: it runs what the
// family declares.
#include "stencil_cases.hpp"

#include "case_runner.hpp"

namespace bench {

using namespace portacl;

void check_stencil_specs(const std::vector<std::string>& specs) {
  for (const std::string& s : specs) parse_case(case_forms("stencil"), s);
}

std::vector<StencilRow> run_stencils(Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings) {
  std::vector<StencilRow> out;
  for (const std::string& text : specs)
    for (const BenchCase& c : bench_cases("stencil", ctx, parse_case(case_forms("stencil"), text), seed))
      for (const BenchVariant& v : c.variants) {
        StencilRow row;
        row.stencil = c.label;
        row.element = c.element;
        row.variant = v.label;
        try {
          const VariantRun r = run_variant(ctx, v, warmup, reps);
          row.variant = r.label;
          row.check = r.check;
          row.ours = r.ours;
          row.ours_wall = r.ours_wall;
          const double seconds = row.ours.median_ms * 1e-3;
          row.gbs = c.bytes / seconds * 1e-9;
          row.gflops = c.flops / seconds * 1e-9;
          row.gpoints = c.points / seconds * 1e-9;
          row.fraction_of_copy = row.gbs / ceilings.copy_gbs;
          if (row.check == "ok" && v.after) {
            const std::string after = v.after();
            if (!after.empty()) row.check = after;
          }
        } catch (const std::exception& e) {
          row.check = std::string("failed: ") + e.what();
        }
        out.push_back(row);
      }
  return out;
}

}  // namespace bench
