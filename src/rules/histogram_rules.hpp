// SPDX-License-Identifier: Apache-2.0
// How a histogram is counted on a device (src/kernels/histogram.cpp carries
// it out): the variant, and for the row variant how many rows. Each choice
// records its decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

namespace portacl {

enum class HistogramVariant {
  local_bins,      ///< per-work-group bins in local memory, merged with global atomics
  global_atomics,  ///< a global atomic per key
  rows,            ///< per-work-item rows of counts, no atomics, then a merge
};

struct HistogramChoice {
  HistogramVariant variant = HistogramVariant::global_atomics;
  std::size_t rows = 0;   ///< the row variant's rows (work-items)
  std::size_t chunk = 0;  ///< keys per row
};

/// The variant for `keys` keys into `bins` bins under `plan` (the counting
/// kernel's plan: its device class decides) within `device`'s limits: rows on CPUs and Xeon Phi (rule
/// histogram.private-rows) while the rows' counts fit the memory budget;
/// else local-memory bins where they fit half the local memory and it is
/// real (histogram.local-bins); else global atomics (histogram.global-atomics).
HistogramChoice choose_histogram(LaunchPlan& plan, const DeviceInfo& device, std::size_t keys, std::size_t bins);

/// The counting kernel's work-group within the compiled kernel's
/// CL_KERNEL_WORK_GROUP_SIZE (`compiled_limit`, 0: unknown): the planned
/// size, or the largest power of two within the limit (rule
/// limits.kernel-work-group-size).
void fit_histogram_group(LaunchPlan& plan, std::size_t compiled_limit);

}  // namespace portacl
