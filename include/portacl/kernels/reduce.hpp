// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reductions over a buffer: sum, dot, 2-norm, min, max, argmin, argmax,
/// iamax and count-if, float and double, any length. The plan picks the
/// variant (per-work-item partials without barriers on CPUs, local memory and
/// warp shuffles on GPUs; single pass where the device has global atomics).
///
/// IEEE semantics: NaN anywhere makes sum, dot, nrm2, min and max NaN (min
/// and max propagate NaN like IEEE 754-2019 minimum/maximum, unlike fmin);
/// infinities add as IEEE says (inf + -inf is NaN). argmin/argmax/iamax
/// return the first NaN if there is one, otherwise the first index holding
/// the extreme value. min, max and the arg* of an empty buffer are errors;
/// sum, dot, nrm2 and count_if of one are 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/device_value.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T>
struct Extremum {
  T value;            ///< the compared value (|x[index]| for iamax)
  std::size_t index;  ///< first index holding it
};

/// Every call may also report the plan it ran under through `used`.
template <class T, class = only_for<T, float, double>>
T sum(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
T dot(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& options = {},
      LaunchPlan* used = nullptr);
/// sqrt(sum x^2); float input accumulates in double where the device has it
/// (no overflow of the squares), double input does not scale.
template <class T, class = only_for<T, float, double>>
T nrm2(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
T min(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
T max(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
Extremum<T> argmin(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
Extremum<T> argmax(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// BLAS i_amax: the first index of the largest |x|.
template <class T, class = only_for<T, float, double>>
Extremum<T> iamax(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// How many elements satisfy `predicate`, an OpenCL C condition in `x`
/// (e.g. "x > 0.5f", "isnan(x)", "x >= 1 && x < 2"); it is compiled for
/// vectors too, so write it with comparisons, not `if`.
template <class T, class = only_for<T, float, double>>
std::uint64_t count_if(Context& ctx, const std::string& predicate, const Buffer<T>& x, const PlanOptions& options = {},
                       LaunchPlan* used = nullptr);

/// Asynchronous forms: they enqueue and return at once; the value stays in
/// device memory (DeviceValue: pass buffer() to later kernels, wait on
/// ready(), or get() it). The blocking forms above are these plus a read.
template <class T, class = only_for<T, float, double>>
DeviceValue<T> sum_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
DeviceValue<T> dot_async(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& options = {},
                         LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
DeviceValue<T> nrm2_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {},
                          LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
DeviceValue<T> min_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
DeviceValue<T> max_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
template <class T, class = only_for<T, float, double>>
DeviceValue<std::uint64_t> count_if_async(Context& ctx, const std::string& predicate, const Buffer<T>& x,
                                          const PlanOptions& options = {}, LaunchPlan* used = nullptr);

}  // namespace portacl
