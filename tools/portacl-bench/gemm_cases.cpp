// SPDX-License-Identifier: Apache-2.0
// The GEMM section: the family's own cases (src/tuning/operations/
// gemm_cases.cpp), each checked, timed by the device clock and the wall
// clock, and its CLBlast baseline timed by the wall clock beside it.
#include "gemm_cases.hpp"

#include "case_runner.hpp"

namespace bench {

using namespace portacl;

namespace {

GemmRow run_case(Context& ctx, const BenchCase& c, int warmup, int reps, bool baseline, double fma_gflops) {
  GemmRow row;
  row.n = c.size;
  row.element = c.element;
  const VariantRun r = run_variant(ctx, c.variants.front(), warmup, reps);  // the rules' (or a tuned) plan
  row.check = r.check;
  row.plan = r.label;
  row.ours = r.ours;
  row.ours_wall = r.ours_wall;
  row.gflops = c.flops / (row.ours.median_ms * 1e6);
  row.fraction_of_fma = fma_gflops > 0 ? row.gflops / fma_gflops : 0;
  if (baseline && c.baseline) {
    row.routine = c.baseline->routine;
    const std::string theirs_wrong = c.baseline->check();  // the first call: CLBlast compiles here
    row.baseline_check = theirs_wrong.empty() ? "ok" : theirs_wrong;
    row.theirs = measure(warmup, reps, [&] { return wall_ms(ctx, c.baseline->run); });
    row.baseline_gflops = c.flops / (row.theirs.median_ms * 1e6);
    row.speedup = row.theirs.median_ms / row.ours_wall.median_ms;
  }
  return row;
}

}  // namespace

std::vector<GemmRow> run_gemm(Context& ctx, const std::vector<std::size_t>& sizes,
                              const std::vector<std::string>& types, int warmup, int reps, bool baseline,
                              unsigned long long seed, const Ceilings& ceilings) {
  std::vector<GemmRow> rows;
  for (const std::string& type : types)
    for (std::size_t n : sizes) {
      const CaseSpec spec = parse_case(case_forms("gemm"), type + ":" + std::to_string(n));
      for (const BenchCase& c : bench_cases("gemm", ctx, spec, seed))
        rows.push_back(
            run_case(ctx, c, warmup, reps, baseline, type == "double" ? ceilings.fma64_gflops : ceilings.fma_gflops));
    }
  return rows;
}

}  // namespace bench
