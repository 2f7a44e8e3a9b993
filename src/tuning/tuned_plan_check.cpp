// SPDX-License-Identifier: Apache-2.0
// The library's check of a plan from a tuning database at its first use in
// a process (library_tuned_plan_check, declared by the runtime in
// portacl/runtime/context.hpp, defined here because only this layer knows
// every operation): every operation that runs the plan's kernel is
// run under the stored configuration on a small awkward problem and checked
// against the host reference, as the tuner checked it when it measured. A
// record edited by hand, imported from another machine or left by an older
// kernel can build and still compute the wrong thing; this is where that is
// caught, before the user's call uses it.
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "operations.hpp"
#include "portacl/error.hpp"
#include "portacl/plan.hpp"
#include "rules/plan_provider.hpp"
#include "runtime/tuned_plan_check.hpp"

namespace portacl {
namespace {

// Prime, so no work-group size, vector width or tile divides it; small, so
// the check costs a few launches. GEMM and TRSV take order 173 from it,
// SPMV a packed triangle of order 244.
constexpr std::size_t kCheckSize = 30011;
constexpr unsigned long long kCheckSeed = 20261124;

// Which kernel (name and element) each operation's first launch plans: the
// key its tuned records are stored under. Found once per process by a run
// under the rules, on a tiny problem.
const std::pair<std::string, ElementType>& planned_kernel(Context& ctx, const Operation& op) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::string, ElementType>> known;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = known.find(op.name);
    if (it != known.end()) return it->second;
  }
  PlanOptions rules;
  rules.consult_provider = false;
  Workload w(ctx, 17, kCheckSeed);
  const LaunchPlan p = op.run(w, rules);
  w.finish();
  std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(op.name, std::make_pair(p.traits.name, p.traits.element)).first->second;
}

}  // namespace

std::string library_tuned_plan_check(Context& ctx, const LaunchPlan& plan, const ProblemSize& size,
                                     const PlanOptions& options) {
  const std::optional<PlanOverride> stored =
      provided_override(options.plan_as ? *options.plan_as : ctx.info(), plan.traits, size);
  if (!stored || !stored->refused.empty()) return "";  // the plan no longer comes from a record
  PlanOptions forced = options;
  forced.override_values = stored;
  for (const Operation& op : operations()) {
    if (op.space != plan.traits.tunables) continue;
    std::pair<std::string, ElementType> kernel;
    try {
      kernel = planned_kernel(ctx, op);
    } catch (const Error&) {
      continue;  // fails under the rules too: not the record's fault
    }
    if (kernel.first != plan.traits.name || kernel.second != plan.traits.element) continue;
    Workload w(ctx, kCheckSize, kCheckSeed);
    const std::string why = op.check(w, forced);
    if (!why.empty())
      return op.name + " (n = " + std::to_string(kCheckSize) + ", seed " + std::to_string(kCheckSeed) + "): " + why;
  }
  // Kernels no operation runs in float (double records, which only an
  // import can bring) pass unchecked.
  return "";
}

}  // namespace portacl
