// SPDX-License-Identifier: Apache-2.0
// Every call has a plan that says what was chosen and by which rule (or
// which tuning result). A plan can be forced, as portacl-tune does while it
// searches; `portacl-tune --kernel axpy` stores the best one for this device.
#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  std::vector<float> hx(100003, 1.0f), hy(100003, 2.0f);
  portacl::Buffer<float> x(ctx, hx), y(ctx, hy);

  portacl::LaunchPlan plan = portacl::axpy(ctx, 3.0f, x, y);  // y = 3x + y = 5
  std::printf("%s\n", plan.explain().c_str());                // each decision, its rule id and why

  // Force another configuration (a tuning candidate): same result.
  portacl::PlanOptions forced;
  forced.override_values = portacl::PlanOverride{};
  forced.override_values->work_group_size = 32;
  forced.override_values->vector_width = 1;
  forced.override_values->provenance = "example: forced";
  portacl::LaunchPlan other = portacl::axpy(ctx, -1.0f, x, y, forced);  // y = y - x = 4
  std::printf("forced: %s [%s]\n", other.summary().c_str(), other.provenance.c_str());

  const std::vector<float> out = y.download();
  bool ok = other.work_group_size() == 32 && other.vector_width == 1;
  for (float v : out) ok = ok && v == 4.0f;
  return ok ? 0 : 1;
}
