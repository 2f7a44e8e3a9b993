// SPDX-License-Identifier: Apache-2.0
// How a histogram is counted on a device (src/kernels/histogram.cpp carries
// it out): the variant, and for the row variant how many rows. Each choice
// records its decision and rule in the plan.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

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

/// A histogram call's launches: the counting kernel and, for the row
/// variant, the merge; for the atomic variants, the clearing of the counts.
struct HistogramLaunches {
  HistogramChoice choice;
  LaunchPlan count, finish;  ///< finish: hist_merge (rows) or hist_zero (atomics), launched first
  std::string count_entry, finish_entry;
};

/// The launches of `keys` keys into `bins` bins (keys shifted right by
/// `shift`, wrapped modulo bins where `wrap`) under `plan` (the counting
/// kernel's): choose_histogram's variant made whole, BINS, SHIFT, WRAP and
/// LOCAL_BINS set, the rows' grid or the atomic variants' grid-stride over
/// the plan's work-groups, the local-bins work-group fitted to
/// `local_bins_limit(plan)` (the compiled kernel's limit, 0 unknown), and
/// the finishing pass a work-item a bin.
HistogramLaunches plan_histogram_launches(LaunchPlan plan, const DeviceInfo& device, std::size_t keys, std::size_t bins,
                                          unsigned shift, bool wrap,
                                          const std::function<std::size_t(const LaunchPlan&)>& local_bins_limit);

/// The radial distribution's pair counts, a histogram of N (N - 1) / 2
/// distances into `shells`: choose_histogram's variant for that many keys,
/// SHELLS, and the variant's launches made whole (rows: rdf_rows over at
/// most n rows and the merge a work-item a shell; atomics: rdf_local with
/// LOCAL_BINS or rdf_global, at most a work-group per work-group of
/// particles). n < 2 gets the counting plan alone, nothing to launch.
struct RdfLaunches {
  HistogramChoice choice;
  LaunchPlan count, merge;
  std::string count_entry;  ///< rdf_rows, rdf_local or rdf_global
  std::size_t rows = 0;     ///< rows: the rows of partial counts
  std::size_t chunk = 0;    ///< rows: particles a row
};
RdfLaunches plan_rdf_launches(LaunchPlan plan, const DeviceInfo& device, std::size_t n, std::size_t shells);

}  // namespace portacl
