// SPDX-License-Identifier: Apache-2.0
#include "measure.hpp"

#include <chrono>
#include <cstdio>

namespace bench {

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
}  // namespace

double wall_ms(portacl::Context& ctx, const std::function<void()>& call) {
  ctx.finish();
  const Clock::time_point t0 = Clock::now();
  call();
  ctx.finish();
  return ms_since(t0);
}

double host_us_per_call(portacl::Context& ctx, int calls, const std::function<void()>& call) {
  ctx.finish();
  const Clock::time_point t0 = Clock::now();
  for (int i = 0; i < calls; ++i) call();
  const double ms = ms_since(t0);
  ctx.finish();
  return 1e3 * ms / calls;
}

std::string suspect_baseline(double gbs, double copy_gbs) {
  if (!(copy_gbs > 0) || gbs >= kSuspectFractionOfCopy * copy_gbs) return "";
  char b[160];
  std::snprintf(
      b, sizeof b,
      "suspect: %.1f GB/s is %.1f%% of the copy ceiling (below %.0f%%); verify by a second method before comparing",
      gbs, 100 * gbs / copy_gbs, 100 * kSuspectFractionOfCopy);
  return b;
}

}  // namespace bench
