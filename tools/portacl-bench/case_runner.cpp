// SPDX-License-Identifier: Apache-2.0
#include "case_runner.hpp"

#include "../common/cli.hpp"

namespace bench {

using namespace portacl;

namespace {

struct VariantRun {
  std::string check, label;
  LaunchPlan plan;
  Stats ours, ours_wall;
  double error = -1;
};

VariantRun run_variant(Context& ctx, const BenchVariant& v, int warmup, int reps) {
  VariantRun r;
  const std::string wrong = v.check();
  r.check = wrong.empty() ? "ok" : wrong;
  if (v.error) r.error = v.error();
  r.plan = v.run();
  r.label = v.describe ? v.describe(r.plan) : v.label;
  r.ours = measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { v.run(); }); });
  r.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, [&] { v.run(); }); });
  return r;
}

double per_call_batched(Context& ctx, int batch, int reps, const std::function<void()>& call) {
  return measure(1, std::max(3, reps / 4),
                 [&] {
                   return wall_ms(ctx, [&] {
                     for (int k = 0; k < batch; ++k) call();
                   });
                 })
             .median_ms /
         batch;
}

void run_baseline(Context& ctx, const BenchCase& c, const BenchVariant& ours, const CaseTiming& t, CaseRow& row) {
  const BenchBaseline& b = *c.baseline;
  row.routine = b.routine;
  try {
    const std::string wrong = b.check();  // the first call: the library compiles or sets up here
    row.baseline_check = wrong.empty() ? "ok" : wrong;
    row.theirs = measure(t.warmup, t.reps, [&] { return wall_ms(ctx, b.run); });
    const double seconds = row.theirs.median_ms * 1e-3;
    row.baseline_gbs = c.bytes / seconds * 1e-9;
    row.baseline_gflops = c.flops / seconds * 1e-9;
    if (row.ours_wall.median_ms > 0) row.speedup = row.theirs.median_ms / row.ours_wall.median_ms;
    if (b.batch > 0) {
      row.batched_ms = per_call_batched(ctx, b.batch, t.reps, b.run);
      row.ours_batched_ms = per_call_batched(ctx, b.batch, t.reps, [&] { ours.run(); });
    }
  } catch (const std::exception& e) {
    row.baseline_check = std::string("failed: ") + e.what();
  }
}

}  // namespace

bool row_ok(const CaseRow& row) {
  const bool ours = row.check == "ok" || row.check.rfind("skipped", 0) == 0;
  return ours && (row.routine.empty() || row.baseline_check == "ok");
}

std::vector<CaseRow> run_case(Context& ctx, const BenchCase& c, const CaseTiming& t) {
  std::vector<CaseRow> rows;
  const double ceiling = !c.arithmetic_bound     ? t.ceilings.copy_gbs
                         : c.element == "double" ? t.ceilings.fma64_gflops
                                                 : t.ceilings.fma_gflops;
  for (std::size_t k = 0; k < c.variants.size(); ++k) {
    const BenchVariant& v = c.variants[k];
    CaseRow row;
    row.family = c.family;
    row.label = c.label;
    row.element = c.element;
    row.variant = v.label;
    row.size = c.size;
    row.iterations = c.iterations;
    row.check = v.skip;
    if (row.check.empty()) try {
        const VariantRun r = run_variant(ctx, v, t.warmup, t.reps);
        row.variant = r.label;
        row.check = r.check;
        row.error = r.error;
        row.plan = r.plan.summary() + (r.plan.provenance.rfind("tuning database", 0) == 0 ? ", tuned" : "");
        row.ours = r.ours;
        row.ours_wall = r.ours_wall;
        const double seconds = row.ours.median_ms * 1e-3;
        row.gbs = c.bytes / seconds * 1e-9;
        row.gflops = c.flops / seconds * 1e-9;
        row.gpoints = c.points / seconds * 1e-9;
        row.fraction = ceiling > 0 ? (c.arithmetic_bound ? row.gflops : row.gbs) / ceiling : 0;
        if (c.iterations > 0) row.us_per_iteration = 1e3 * row.ours_wall.median_ms / double(c.iterations);
        if (row.check == "ok" && v.after) {
          const std::string after = v.after();
          if (!after.empty()) row.check = after;
        }
        if (k == 0 && t.baseline && c.baseline) run_baseline(ctx, c, v, t, row);
      } catch (const std::exception& e) {
        row.check = cli::skip_reason(e);  // a case the device cannot hold is skipped, and the run goes on
        if (row.check.empty()) row.check = std::string("failed: ") + e.what();
      }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<CaseRow> run_family(Context& ctx, const std::string& family, const std::vector<std::string>& specs,
                                unsigned long long seed, const CaseTiming& t,
                                const std::function<void(BenchCase&)>& attach) {
  std::vector<CaseRow> rows;
  for (const std::string& text : specs) {
    std::vector<BenchCase> cases;
    try {
      cases = bench_cases(family, ctx, parse_case(case_forms(family), text), seed);  // the case's buffers made here
    } catch (const std::exception& e) {
      const std::string skipped = cli::skip_reason(e);
      if (skipped.empty()) throw;
      CaseRow row;
      row.family = family;
      row.label = text;
      row.check = skipped;
      rows.push_back(std::move(row));
      continue;
    }
    for (BenchCase& c : cases) {
      if (attach) attach(c);
      for (CaseRow& row : run_case(ctx, c, t)) rows.push_back(std::move(row));
    }
  }
  return rows;
}

void check_specs(const std::string& family, const std::vector<std::string>& specs) {
  for (const std::string& s : specs) parse_case(case_forms(family), s);
}

}  // namespace bench
