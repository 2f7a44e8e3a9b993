// SPDX-License-Identifier: Apache-2.0
// What a family's benchmark section measures, declared by the family beside
// its operations and its case list (case_specs.hpp): for each spec, the
// cases (a problem and an element type) and their variants (the rules' and
// each forced choice), each with its check on a small instance against the
// host reference and its timed call, and the traffic, arithmetic and
// points per call. portacl-bench runs them all alike (one runner, one
// table); a family adds cases here, not bench code.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "case_specs.hpp"
#include "portacl/plan.hpp"
#include "portacl/context.hpp"

namespace portacl {

struct BenchVariant {
  std::string label;  ///< "tiled", "4 steps per launch"; "rules" is described from its plan
  /// Runs the variant on a small instance and compares with the host
  /// reference: "" when right, else what is wrong.
  std::function<std::string()> check;
  /// The timed call (inputs ready); returns its plan.
  std::function<LaunchPlan()> run;
  /// The label from the plan the call ran (the rules' choices); empty: `label`.
  std::function<std::string(const LaunchPlan&)> describe = {};
  /// A check after timing on the large problem's output ("" when right); empty: none.
  std::function<std::string()> after = {};
  /// Why this variant is not run on this problem ("skipped: ..."); "": it runs.
  std::string skip = "";
  /// Where the case measures it: the relative RMS error of one output
  /// against the host reference in double (after `check`); empty: none.
  std::function<double()> error = {};
};

/// The same computation in another library, called as its users call it
/// (set-up outside the call), timed by wall clock like portacl's.
struct BenchBaseline {
  std::string routine;                 ///< "Sgemm"
  std::function<void()> run;           ///< one call; it may return before the device is done
  std::function<std::string()> check;  ///< one call on poisoned outputs, judged like ours: "" when right
  /// Where > 0: also timed as this many calls back to back and one wait
  /// (the rules' variant alike), a second method for the speed-up where a
  /// per-call wait could favour either side.
  int batch = 0;
};

struct BenchCase {
  std::string label;                        ///< "heat2d 4096^2 x 1000"
  std::string element;                      ///< "float", "double", "uint8"
  double bytes = 0, flops = 0, points = 0;  ///< per call: the least traffic, the arithmetic, the outputs
  std::vector<BenchVariant> variants = {};
  std::shared_ptr<void> state = nullptr;  ///< the buffers and inputs the calls share
  std::optional<BenchBaseline> baseline = std::nullopt;
  std::size_t size = 0;           ///< the problem's size where one number says it (GEMM's order), else 0
  std::size_t iterations = 0;     ///< a solver's fixed iterations per call (time per iteration shown), else 0
  bool arithmetic_bound = false;  ///< judged against its element type's FMA peak, not the copy bandwidth
  std::string family = "";        ///< whose case it is: set by bench_cases()
};

using BenchCaseMaker = std::vector<BenchCase> (*)(Context& ctx, const CaseSpec& spec, unsigned long long seed);

/// The case list of `family` ("stencil", "sparse", "gemm"); throws
/// portacl::Error naming the known families.
const CaseForms& case_forms(const std::string& family);

/// The cases `spec` (of `family`'s case list) makes on `ctx`, inputs drawn
/// from `seed`, each marked with `family`.
std::vector<BenchCase> bench_cases(const std::string& family, Context& ctx, const CaseSpec& spec,
                                   unsigned long long seed);

}  // namespace portacl
