// How portacl-bench times things: warm-up runs, then the median and spread
// of repetitions, each timed by the device's profiling clock.
#pragma once

#include <functional>
#include <vector>

#include "portacl/portacl.hpp"

namespace bench {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};

// Runs `once` warmup + reps times; `once` returns the milliseconds of one run.
Stats measure(int warmup, int reps, const std::function<double()>& once);

// Device time of everything `run` launches through the portacl context:
// first kernel's start to last kernel's end.
double portacl_ms(portacl::Context& ctx, const std::function<void()>& run);

// Device time of commands another library enqueues on ctx's queue: they
// queue behind a marker held by a user event, so host-side enqueue time is
// not counted; `enqueue` returns the event of the last command.
double gated_ms(portacl::Context& ctx, const std::function<cl_event()>& enqueue);

}  // namespace bench
