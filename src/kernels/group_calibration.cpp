// SPDX-License-Identifier: Apache-2.0
#include "portacl/group.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "portacl/particles.hpp"
#include "portacl/vectors.hpp"
#include "portacl/version.hpp"
#include "rules/tuning_database.hpp"

namespace portacl {

const char* to_string(GroupWorkload w) { return w == GroupWorkload::memory ? "memory" : "compute"; }

namespace {

constexpr std::size_t kCopyFloats = std::size_t{1} << 22, kBodies = 4096;

std::string record_kernel(GroupWorkload w) { return std::string("group-calibration.") + to_string(w); }
std::size_t workload_size(GroupWorkload w) { return w == GroupWorkload::memory ? kCopyFloats : kBodies; }

// The median of 7 timed runs after 2 untimed, by wall clock around the
// work and the queue's finish.
TimingSummary time_member(Context& ctx, GroupWorkload w) {
  std::vector<double> ms;
  auto time_one = [&](auto&& run) {
    for (int r = 0; r < 9; ++r) {
      const auto start = std::chrono::steady_clock::now();
      run();
      ctx.finish();
      if (r >= 2)
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  };
  if (w == GroupWorkload::memory) {
    Buffer<float> x(ctx, std::vector<float>(kCopyFloats, 1.0f)), y(ctx, kCopyFloats);
    time_one([&] { copy(ctx, x, y); });
  } else {
    std::vector<float> bodies(4 * kBodies);
    for (std::size_t i = 0; i < bodies.size(); ++i) bodies[i] = float((i * 2654435761u) % 1000) / 1000.0f + 0.001f;
    Buffer<float> b(ctx, bodies), a(ctx, 4 * kBodies);
    NbodyOptions o;
    o.softening = 0.01f;
    time_one([&] { nbody_accelerations(ctx, b, a, o); });
  }
  std::sort(ms.begin(), ms.end());
  TimingSummary t;
  t.min_ms = ms.front();
  t.median_ms = ms[ms.size() / 2];
  t.max_ms = ms.back();
  t.repetitions = unsigned(ms.size());
  return t;
}

// Weights from times (the slowest member 1), and their explanation.
GroupCalibration from_times(GroupWorkload w, const std::vector<double>& ms, const std::string& source) {
  GroupCalibration c;
  c.median_ms = ms;
  const double slowest = *std::max_element(ms.begin(), ms.end());
  for (std::size_t m = 0; m < ms.size(); ++m) {
    c.weights.push_back(slowest / ms[m]);
    char line[256];
    std::snprintf(line, sizeof line, "member %zu: %.3f ms for the %s workload (%s), weight %.3g\n", m, ms[m],
                  to_string(w), source.c_str(), c.weights.back());
    c.why += line;
  }
  return c;
}

}  // namespace

GroupCalibration calibrate_group(DeviceGroup& group, GroupWorkload w, const CalibrationOptions& options) {
  std::vector<double> ms;
  std::vector<TuningRecord> records;
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  for (std::size_t m = 0; m < group.size(); ++m) {
    const TimingSummary t = time_member(group.context(m), w);
    ms.push_back(t.median_ms);
    TuningRecord r;
    r.device = DeviceFingerprint::of(group.device(m).info());
    r.kernel = record_kernel(w);
    r.element = "float";
    r.n = workload_size(w);
    r.bucket = size_bucket(r.n);
    r.tuned = r.rules = t;
    r.clock = "wall clock around the work and clFinish";
    r.strategy = "group calibration";
    r.tuned_at = stamp;
    r.tool = std::string("portacl ") + PORTACL_VERSION_STRING;
    records.push_back(r);
  }
  GroupCalibration c = from_times(w, ms, "measured now");
  group.set_weights(c.weights);
  if (options.save) {
    const std::string path = options.database.empty() ? TuningDatabase::user_path() : options.database;
    const std::string problem =
        path.empty() ? "no user cache directory ($HOME unset)" : TuningDatabase::writable_problem(path);
    if (!problem.empty()) {
      c.notes.push_back("the rates were not stored: " + problem);
    } else {
      TuningDatabase::merge_into_file(path, records, &c.notes);
      c.notes.push_back("stored in " + path);
    }
  }
  return c;
}

std::optional<GroupCalibration> stored_group_weights(const DeviceGroup& group, GroupWorkload w,
                                                     const std::string& database) {
  const std::string path = database.empty() ? TuningDatabase::user_path() : database;
  if (path.empty()) return std::nullopt;
  std::vector<std::string> warnings;
  const TuningDatabase db = TuningDatabase::load(path, &warnings);
  std::vector<double> ms;
  for (std::size_t m = 0; m < group.size(); ++m) {
    const TuningRecord* r = db.find(DeviceFingerprint::of(group.device(m).info()), record_kernel(w), "float",
                                    workload_size(w), MatchTier::same_device, 0);
    if (!r || !(r->tuned.median_ms > 0)) return std::nullopt;
    ms.push_back(r->tuned.median_ms);
  }
  return from_times(w, ms, "stored in " + path);
}

}  // namespace portacl
