// SPDX-License-Identifier: Apache-2.0
#include "portacl/tuning.hpp"

#include <chrono>

#include "operations.hpp"

namespace portacl {

std::vector<std::string> prebuild_operation_names() {
  std::vector<std::string> names;
  for (const Operation& op : operations()) names.push_back(op.name);
  return names;
}

std::vector<PrebuildStep> prebuild(Context& ctx, const PrebuildOptions& options) {
  std::vector<const Operation*> ops;
  if (options.operations.empty())
    for (const Operation& op : operations()) ops.push_back(&op);
  else
    for (const std::string& name : options.operations) ops.push_back(&operation(name));
  std::vector<PrebuildStep> steps;
  for (std::size_t n : options.sizes) {
    Workload w(ctx, n, n);
    for (const Operation* op : ops) {
      const auto t0 = std::chrono::steady_clock::now();
      w.reset_y();
      op->run(w, {});
      ctx.finish();
      steps.push_back(
          {op->name, n, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()});
    }
  }
  return steps;
}

}  // namespace portacl
