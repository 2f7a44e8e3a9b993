// SPDX-License-Identifier: Apache-2.0
#include "portacl/vectors.hpp"

#include "kernel_call.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {

// AXPY is a member of the streaming family (stream.cl): read x, read y, write y.
const KernelRef axpy_kernel = stream_kernel("axpy");

namespace {

template <class T>
void check_operands(Context& ctx, const Buffer<T>& x, Buffer<T>& y) {
  kernel_call::same_context(ctx, x, "axpy", "x");
  kernel_call::same_context(ctx, y, "axpy", "y");
  kernel_call::same_length("axpy", "x", x.size(), "y", y.size());
  aliasing::refuse_shifted_overlap("axpy", aliasing::whole(y), "y", aliasing::whole(x), "x");
}

}  // namespace

template <class T, class>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options) {
  check_operands(ctx, x, y);
  return kernel_call::launch_1d(ctx, axpy_kernel, axpy_traits(element_of<T>::value), x.size(), options, a, x, y);
}

template <class T, class>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan) {
  check_operands(ctx, x, y);
  auto t = plan.macros.find("T");
  if (t == plan.macros.end() || t->second != cl_type_name(element_of<T>::value))
    throw Error("axpy: the plan was made for element type '" + (t == plan.macros.end() ? "?" : t->second) +
                "', the buffers hold " + cl_type_name(element_of<T>::value));
  if (x.size() == 0) return;
  PreparedKernel k = ctx.prepare(axpy_kernel, plan);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(x.size()), a, x, y);
}

template LaunchPlan axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const PlanOptions&);
template LaunchPlan axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const PlanOptions&);
template void axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const LaunchPlan&);
template void axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const LaunchPlan&);

}  // namespace portacl
