// SPDX-License-Identifier: Apache-2.0
#include "rules/histogram_rules.hpp"

#include <algorithm>
#include <cstdint>

#include "rules/coverage_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/device.hpp"

namespace portacl {

namespace {

// Keys a row counts at least: fewer, and clearing and merging the row costs
// more than counting into it.
constexpr std::size_t kKeysPerRow = 4096;
// Rows per compute unit: a few per thread balance uneven chunks.
constexpr std::size_t kRowsPerComputeUnit = 4;

std::string bytes_text(std::uint64_t b) { return std::to_string(b) + " bytes"; }

}  // namespace

HistogramChoice choose_histogram(LaunchPlan& plan, const DeviceInfo& device, std::size_t keys, std::size_t bins) {
  HistogramChoice c;
  const DeviceClass cls = plan.device_class;  // the rules' class (another's under plan_as); limits are `device`'s
  const std::uint64_t bin_bytes = std::uint64_t(bins) * 4;
  if (cls == DeviceClass::cpu || cls == DeviceClass::intel_mic) {
    const std::size_t units = std::max<std::size_t>(device.compute_units, 1);
    c.rows = std::clamp<std::size_t>((keys + kKeysPerRow - 1) / kKeysPerRow, 1, kRowsPerComputeUnit * units);
    // The rows' counts stay within a sixteenth of the device's memory (and
    // one allocation): beyond that, atomics.
    const std::uint64_t budget = std::min<std::uint64_t>(device.global_mem_size / 16, device.max_mem_alloc_size);
    if (budget) c.rows = std::min<std::uint64_t>(c.rows, budget / bin_bytes);
    if (c.rows >= 1) {
      c.variant = HistogramVariant::rows;
      c.chunk = (keys + c.rows - 1) / c.rows;
      plan.decide("variant", "per-work-item rows", "histogram.private-rows",
                  std::to_string(c.rows) + " rows of " + std::to_string(bins) + " counts, " + std::to_string(c.chunk) +
                      " keys each, then a merge: no atomics");
      return c;
    }
    c.variant = HistogramVariant::global_atomics;
    plan.decide("variant", "global atomics", "histogram.global-atomics",
                "one row of " + std::to_string(bins) + " counts takes " + bytes_text(bin_bytes) +
                    ", past the rows' budget of " + bytes_text(budget));
    return c;
  }
  const std::uint64_t local = device.local_mem_size;
  const bool real_local = gpu_class(cls) || device.local_mem_type == LocalMemType::local;
  if (real_local && local && bin_bytes <= local / 2) {
    c.variant = HistogramVariant::local_bins;
    plan.use_local_memory = true;
    plan.decide("variant", "local-memory bins", "histogram.local-bins",
                std::to_string(bins) + " bins take " + bytes_text(bin_bytes) + " of " + bytes_text(local) +
                    " local memory: a work-group counts with local atomics, then one global atomic per bin");
    return c;
  }
  c.variant = HistogramVariant::global_atomics;
  plan.use_local_memory = false;
  plan.decide("variant", "global atomics", "histogram.global-atomics",
              std::to_string(bins) + " bins take " + bytes_text(bin_bytes) + ", more than half of " +
                  (real_local ? bytes_text(local) + " local memory" : std::string("the emulated local memory")));
  return c;
}

void fit_histogram_group(LaunchPlan& plan, std::size_t compiled_limit) {
  const std::size_t planned = plan.work_group_size();
  if (!compiled_limit || planned <= compiled_limit) return;
  std::size_t fitted = 1;
  while (fitted * 2 <= compiled_limit) fitted *= 2;
  plan.local = {{fitted, 1, 1}};
  plan.macros["WG_SIZE"] = std::to_string(fitted);
  plan.decide("work_group_size", std::to_string(fitted), "limits.kernel-work-group-size",
              "the compiled kernel takes at most " + std::to_string(compiled_limit) + " work-items, not " +
                  std::to_string(planned));
}

HistogramLaunches plan_histogram_launches(LaunchPlan plan, const DeviceInfo& device, std::size_t keys, std::size_t bins,
                                          unsigned shift, bool wrap,
                                          const std::function<std::size_t(const LaunchPlan&)>& local_bins_limit) {
  HistogramLaunches l;
  plan.macros["BINS"] = std::to_string(bins);
  plan.macros["SHIFT"] = std::to_string(shift);
  if (wrap) plan.macros["WRAP"] = "1";
  l.choice = choose_histogram(plan, device, keys, bins);
  switch (l.choice.variant) {
    case HistogramVariant::rows:
      plan.use_local_memory = false;
      plan.work_groups = (l.choice.rows + plan.local[0] - 1) / plan.local[0];
      plan.global = {{plan.work_groups * plan.local[0], 1, 1}};
      plan.items_per_work_item = std::max<std::size_t>(l.choice.chunk, 1);
      l.count_entry = "hist_rows";
      l.count = plan;
      l.finish = one_per_item(plan, bins);
      l.finish_entry = "hist_merge";
      return l;
    case HistogramVariant::local_bins:
      plan.macros["LOCAL_BINS"] = "1";
      fit_histogram_group(plan, local_bins_limit(plan));
      l.count_entry = "hist_local";
      break;
    case HistogramVariant::global_atomics: l.count_entry = "hist_global"; break;
  }
  // The atomic variants: a grid of the plan's work-groups striding over the keys.
  plan.global = {{plan.work_groups * plan.local[0], 1, 1}};
  l.count = plan;
  l.finish = one_per_item(plan, bins);
  l.finish_entry = "hist_zero";
  return l;
}

RdfLaunches plan_rdf_launches(LaunchPlan plan, const DeviceInfo& device, std::size_t n, std::size_t shells) {
  RdfLaunches l;
  const std::uint64_t pairs = std::uint64_t(n) * (n ? n - 1 : 0) / 2;
  plan.macros["SHELLS"] = std::to_string(shells);
  l.choice =
      choose_histogram(plan, device, static_cast<std::size_t>(std::min<std::uint64_t>(pairs, ~std::size_t{0})), shells);
  const std::size_t local = plan.local[0];
  if (n >= 2 && l.choice.variant == HistogramVariant::rows) {
    l.rows = std::min(l.choice.rows, n);
    l.chunk = (n + l.rows - 1) / l.rows;
    plan.work_groups = (l.rows + local - 1) / local;
    plan.global = {{plan.work_groups * local, 1, 1}};
    l.count_entry = "rdf_rows";
    l.merge = one_per_item(plan, shells);
  } else if (n >= 2) {
    const bool local_bins = l.choice.variant == HistogramVariant::local_bins;
    if (local_bins) plan.macros["LOCAL_BINS"] = "1";
    plan.work_groups = std::min(plan.work_groups, (n + local - 1) / local);
    plan.global = {{plan.work_groups * local, 1, 1}};
    l.count_entry = local_bins ? "rdf_local" : "rdf_global";
  }
  l.count = std::move(plan);
  return l;
}

}  // namespace portacl
