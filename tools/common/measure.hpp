// SPDX-License-Identifier: Apache-2.0
// How the tools (portacl-bench, the demo's tour) time things. Every library, portacl included, is timed
// as its users experience it: wall clock around the call and clFinish, after
// warm-up. portacl's own calls are also timed by the device's profiling
// clock, which leaves out host overhead, as an extra column.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "tooling.hpp"
#include "tuning/timing.hpp"

namespace bench {

// The library's timing (src/tuning/timing.hpp), shared with the tuner.
using Stats = portacl::TimingSummary;
using portacl::measure;
inline double portacl_ms(portacl::Context& ctx, const std::function<void()>& run) {
  return portacl::device_ms(ctx, run);
}

// Milliseconds from before `call` to the end of clFinish on ctx's queue
// (the queue drained first): what a user of any library waits for.
// (An earlier version held other libraries' commands behind a user event to
// time them by profiling; NVIDIA's runtime defers such commands, which made
// CLBlast look 4x to 1750x slower than it is: quirk
// nvidia.user-event-deferral. A held gate also deadlocks CLBlast's Xtrsv,
// which waits inside the call: quirk clblast.xtrsv-waits-inside.)
double wall_ms(portacl::Context& ctx, const std::function<void()>& call);

// Host microseconds per call of `call` when it is repeated `calls` times
// back to back with no clFinish between them (then one clFinish, not
// counted): the launch overhead a loop of small calls pays.
double host_us_per_call(portacl::Context& ctx, int calls, const std::function<void()>& call);

// A streaming baseline implying less than this fraction of the measured copy
// bandwidth is almost certainly timed wrongly, not slow: it is flagged.
constexpr double kSuspectFractionOfCopy = 0.10;
// "" or why a baseline moving `gbs` is not believable next to `copy_gbs`.
std::string suspect_baseline(double gbs, double copy_gbs);

}  // namespace bench
