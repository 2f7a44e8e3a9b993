// SPDX-License-Identifier: Apache-2.0
// How portacl-bench runs a family's cases (src/tuning/bench_cases.hpp),
// whatever the family: each variant checked on its small instance, called
// once for its plan and label, then timed by the device clock and the wall
// clock; the case's baseline timed by the wall clock beside the rules'
// variant. GEMM, sparse and stencil sections all produce these rows.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "../common/ceilings.hpp"
#include "../common/measure.hpp"
#include "tuning/bench_cases.hpp"

namespace bench {

struct CaseRow {
  std::string family;                       ///< "gemm", "sparse", "stencil"
  std::string label;                        ///< the case: "heat2d 4096^2 x 1000", "spmv poisson2d:2048 (...)"
  std::string element;                      ///< "float", "double", "uint8"
  std::string variant;                      ///< "rules (cached)", "tiled", "csr-vector"
  std::size_t size = 0, iterations = 0;     ///< as the case declares them
  Stats ours, ours_wall;                    ///< device profiling clock; wall clock around the call and clFinish
  double gbs = 0, gflops = 0, gpoints = 0;  ///< from the device time
  double fraction = 0;                      ///< of the ceiling the case is judged by (copy or FMA peak)
  double us_per_iteration = 0;              ///< solvers: wall median / iterations
  std::string check;                        ///< "ok", what was wrong, or "skipped: why"
  double error = -1;                        ///< the variant's relative RMS error where it measures one; -1: none
  std::string plan;                         ///< the plan's summary
  // The baseline, on the rules' row only.
  std::string routine;  ///< "Sgemm", "ViennaCL prod"; "": none
  Stats theirs;         ///< wall clock
  double baseline_gbs = 0, baseline_gflops = 0;
  double speedup = 0;  ///< their wall median / our wall median
  std::string baseline_check;
  double batched_ms = 0, ours_batched_ms = 0;  ///< per call, `batch` calls back to back, one wait; 0: not taken
};

/// "ok" and skipped rows, with a baseline right where one ran.
bool row_ok(const CaseRow& row);

struct CaseTiming {
  int warmup = 3, reps = 20;
  bool baseline = true;
  Ceilings ceilings;
};

/// Every variant of `c`, and its baseline where it has one and `t.baseline`.
std::vector<CaseRow> run_case(portacl::Context& ctx, const portacl::BenchCase& c, const CaseTiming& t);

/// Every case of each spec of `family`'s case list; `attach` (may be empty)
/// sees each case before it runs (to add a baseline the bench supplies).
std::vector<CaseRow> run_family(portacl::Context& ctx, const std::string& family, const std::vector<std::string>& specs,
                                unsigned long long seed, const CaseTiming& t,
                                const std::function<void(portacl::BenchCase&)>& attach = {});

/// Throws std::invalid_argument for the first spec `family`'s list refuses.
void check_specs(const std::string& family, const std::vector<std::string>& specs);

}  // namespace bench
