// SPDX-License-Identifier: Apache-2.0
/// \file
/// Streaming kernels: AXPY, copy, fill, scale, AXPBY and a user-defined
/// element-wise map, float and double, any length. Each returns the plan it ran under.
/// x and y may be the same memory (in place). Errors (before any launch):
/// lengths differ, a buffer of another context, x and y overlapping at
/// different offsets (sub-buffers of one parent), a map expression that does
/// not compile (BuildError with the log).
#pragma once

#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// y = a*x + y
template <class T, class = only_for<T, float, double>>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
/// With a given plan (e.g. another device class's plan, clamped to this device).
template <class T, class = only_for<T, float, double>>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan);

template <class T, class = only_for<T, float, double>>
LaunchPlan copy(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
template <class T, class = only_for<T, float, double>>
LaunchPlan fill(Context& ctx, Buffer<T>& y, T value, const PlanOptions& options = {});
template <class T, class = only_for<T, float, double>>
LaunchPlan scale(Context& ctx, T a, Buffer<T>& y, const PlanOptions& options = {});
/// y = a*x + b*y
template <class T, class = only_for<T, float, double>>
LaunchPlan axpby(Context& ctx, T a, const Buffer<T>& x, T b, Buffer<T>& y, const PlanOptions& options = {});
/// y = expression(x) element by element; `expression` is OpenCL C in `x`,
/// e.g. "x * x + 1" or "sqrt(fabs(x))" (valid for scalars and vectors).
template <class T, class = only_for<T, float, double>>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, Buffer<T>& y,
               const PlanOptions& options = {});

}  // namespace portacl
