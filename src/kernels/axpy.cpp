#include "portacl/kernels/axpy.hpp"

#include "kernel_call.hpp"
#include "portacl/kernels/element.hpp"

namespace portacl {

const KernelRef axpy_kernel{"axpy.cl", "axpy"};

KernelTraits axpy_traits(ElementType element) {
  KernelTraits t;
  t.name = "axpy";
  t.element = element;
  t.dimensions = 1;
  t.bytes_per_item = 3.0 * static_cast<double>(size_of(element));  // read x, read y, write y
  t.flops_per_item = 2;
  return t;
}

namespace {

template <class T>
void check_operands(Context& ctx, const Buffer<T>& x, Buffer<T>& y) {
  kernel_call::same_context(ctx, x, "axpy", "x");
  kernel_call::same_context(ctx, y, "axpy", "y");
  kernel_call::same_length("axpy", "x", x.size(), "y", y.size());
}

template <class T>
void run(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, PreparedKernel& k) {
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(x.size()), a, x, y);
}

}  // namespace

template <class T>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options) {
  check_operands(ctx, x, y);
  if (x.size() == 0) return ctx.plan(axpy_traits(element_of<T>::value), ProblemSize(0), options);
  PreparedKernel k = ctx.prepare(axpy_kernel, axpy_traits(element_of<T>::value), ProblemSize(x.size()), options);
  run(ctx, a, x, y, k);
  return k.plan;
}

template <class T>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan) {
  check_operands(ctx, x, y);
  auto t = plan.macros.find("T");
  if (t == plan.macros.end() || t->second != cl_type_name(element_of<T>::value))
    throw Error("axpy: the plan was made for element type '" + (t == plan.macros.end() ? "?" : t->second) +
                "', the buffers hold " + cl_type_name(element_of<T>::value));
  if (x.size() == 0) return;
  PreparedKernel k = ctx.prepare(axpy_kernel, plan);
  run(ctx, a, x, y, k);
}

template LaunchPlan axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const PlanOptions&);
template LaunchPlan axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const PlanOptions&);
template void axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const LaunchPlan&);
template void axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const LaunchPlan&);

}  // namespace portacl
