// SPDX-License-Identifier: Apache-2.0
/// \file
/// How operations are timed, by the tuner and portacl-bench alike: warm-up
/// runs, then the median and spread of repetitions, each measured with the
/// device's profiling clock.
#pragma once

#include <functional>
#include <vector>

#include "portacl/context.hpp"
#include "rules/tuning_database.hpp"

namespace portacl {

/// Median, min and max of run times in milliseconds.
TimingSummary summarize(std::vector<double> times_ms);

/// Runs `once` warmup + reps times; `once` returns the milliseconds of one run.
TimingSummary measure(int warmup, int reps, const std::function<double()>& once);

/// Device time of everything `run` launches through `ctx`: the first
/// kernel's start to the last kernel's end (queue drained first).
double device_ms(Context& ctx, const std::function<void()>& run);

}  // namespace portacl
