// SPDX-License-Identifier: Apache-2.0
/// \file
/// Prefix sums (inclusive and exclusive; int, float, double) and stream
/// compaction built on them, any length. Reduce-then-scan: the input is read
/// twice and the output written once. The plan picks per-work-item blocks
/// without barriers on CPUs and work-group tiles in local memory (warp
/// shuffles on NVIDIA) on GPUs.
///
/// x and y may be the same buffer (an in-place scan), not overlapping parts
/// of one (refused). Integer sums wrap on
/// overflow as int arithmetic does; float sums are not bit-identical to a
/// sequential loop (the order of additions differs).
#pragma once

#include <cstddef>
#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/device_value.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// y[i] = x[0] + ... + x[i]
template <class T, class = only_for<T, int, float, double>>
LaunchPlan inclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
/// y[i] = x[0] + ... + x[i-1], y[0] = 0
template <class T, class = only_for<T, int, float, double>>
LaunchPlan exclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});

/// Copies, in order, the elements of x for which `predicate` (OpenCL C in
/// `x`, e.g. "x > 0.5f" or "!isnan(x)") holds to the front of y and returns
/// how many there are; the rest of y is left as it was. y must be at least as
/// long as x, and must not share memory with x (refused).
template <class T, class = only_for<T, int, float, double>>
std::size_t compact(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                    const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The same, returning at once: the count stays on the device (DeviceValue).
template <class T, class = only_for<T, int, float, double>>
DeviceValue<std::uint64_t> compact_async(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                                         const PlanOptions& options = {}, LaunchPlan* used = nullptr);

}  // namespace portacl
