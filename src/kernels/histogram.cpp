// SPDX-License-Identifier: Apache-2.0
// The histogram (kernels/histogram.cl): validate, plan (plan_histogram, the
// same function portacl-query runs offline), prepare, launch.
#include "portacl/vectors.hpp"

#include <string>

#include "aliasing.hpp"
#include "kernel_call.hpp"
#include "kernels/histogram_tunables.hpp"
#include "portacl/error.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits histogram_traits() {
  // element: 32-bit keys
  // needs_barriers: the local-memory bins
  // bytes_per_item: each key read once
  return kernel_traits("histogram", ElementType::i32, 1, traits::barriers | traits::scalar, {4, 0},
                       &histogram_tunables());
}

const TuningSpace& histogram_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}), knobs::groups_per_compute_unit({1, 2, 4, 8, 16, 32})}, nullptr};
  return space;
}

namespace {

constexpr std::size_t kMaxBins = std::size_t{1} << 28;

}  // namespace

HistogramLaunches plan_histogram(const Planner& planner, std::size_t keys, std::size_t bins,
                                 const HistogramOptions& o) {
  return plan_histogram_launches(planner.plan(histogram_traits(), ProblemSize(std::max<std::size_t>(keys, 1))),
                                 planner.device, keys, bins, o.shift, o.wrap, [&](const LaunchPlan& plan) {
                                   return planner.compiled_limit(KernelRef{"histogram.cl", "hist_local", ""}, plan);
                                 });
}

LaunchPlan histogram(Context& ctx, const Buffer<std::uint32_t>& keys, Buffer<std::uint32_t>& counts,
                     const HistogramOptions& o) {
  kernel_call::same_context(ctx, keys, "histogram", "keys");
  kernel_call::same_context(ctx, counts, "histogram", "counts");
  const std::size_t bins = counts.size();
  if (bins == 0) throw Error("histogram: counts has no bins (its size is the bin count)");
  if (bins > kMaxBins)
    throw Error("histogram: " + std::to_string(bins) + " bins; at most 2^28 (" + std::to_string(kMaxBins) + ")");
  if (o.shift >= 32) throw Error("histogram: shift " + std::to_string(o.shift) + " drops every bit of a 32-bit key");
  if (o.wrap && (bins & (bins - 1)) != 0)
    throw Error("histogram: wrap needs a power-of-two bin count (a radix digit), not " + std::to_string(bins));
  if (keys.size() > 0xffffffffull)
    throw Error("histogram: " + std::to_string(keys.size()) + " keys; a 32-bit count holds at most 2^32 - 1");
  aliasing::refuse_overlap("histogram", aliasing::whole(counts), "counts", aliasing::whole(keys), "keys",
                           "the counts are written while the keys are read");
  const HistogramLaunches l = plan_histogram(live_planner(ctx, o.plan), keys.size(), bins, o);
  const KernelRef count_ref{"histogram.cl", l.count_entry, ""}, finish_ref{"histogram.cl", l.finish_entry, ""};
  if (l.choice.variant == HistogramVariant::rows) {
    auto held = ctx.hold_scratch();  // the rows, until the merge is queued
    const cl::Buffer& rows = ctx.scratch(
        "histogram.rows",
        checked_product(checked_product(l.choice.rows, bins, "histogram: rows x bins"), 4, "histogram: rows"));
    kernel_call::launch(ctx, ctx.prepare(count_ref, l.count), static_cast<cl_ulong>(keys.size()),
                        static_cast<cl_ulong>(l.choice.rows), static_cast<cl_ulong>(l.choice.chunk), keys, rows);
    kernel_call::launch(ctx, ctx.prepare(finish_ref, l.finish), static_cast<cl_ulong>(l.choice.rows), rows, counts);
    return l.count;
  }
  kernel_call::launch(ctx, ctx.prepare(finish_ref, l.finish), counts);
  if (keys.size())
    kernel_call::launch(ctx, ctx.prepare(count_ref, l.count), static_cast<cl_ulong>(keys.size()), keys, counts);
  return l.count;
}

}  // namespace portacl
