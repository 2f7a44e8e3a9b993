// SPDX-License-Identifier: Apache-2.0
/// \file
/// AXPY: y = a*x + y, float and double, the first kernel end to end.
#pragma once

#include "portacl/rules/kernel_traits.hpp"
#include "portacl/kernels/element.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// The kernel's one declaration: where it lives and what the rules see.
extern const KernelRef axpy_kernel;
KernelTraits axpy_traits(ElementType element);

/// With the device's own plan (rules or tuned); returns the plan used.
/// x and y may be the same memory (in place). Errors (before any launch):
/// lengths differ, a buffer of another context, x and y overlapping at
/// different offsets.
template <class T, class = only_for<T, float, double>>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});

/// With a given plan (e.g. another device class's plan, clamped to this device).
template <class T, class = only_for<T, float, double>>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan);

}  // namespace portacl
