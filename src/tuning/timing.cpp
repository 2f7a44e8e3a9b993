// SPDX-License-Identifier: Apache-2.0
#include "tuning/timing.hpp"

#include <algorithm>
#include <vector>

namespace portacl {

TimingSummary measure(int warmup, int reps, const std::function<double()>& once) {
  for (int i = 0; i < warmup; ++i) once();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(once());
  return summarize(std::move(t));
}

TimingSummary summarize(std::vector<double> t) {
  TimingSummary s;
  s.repetitions = static_cast<unsigned>(t.size());
  s.times_ms = t;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  s.min_ms = t.front();
  s.max_ms = t.back();
  s.median_ms = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return s;
}

double device_ms(Context& ctx, const std::function<void()>& run) {
  ctx.finish();
  LaunchRecorder rec(ctx);
  run();
  return rec.span_ms();
}

}  // namespace portacl
