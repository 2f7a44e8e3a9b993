#include "portacl/kernels/axpy.hpp"

#include "portacl/error.hpp"

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
constexpr ElementType element_of();
template <>
constexpr ElementType element_of<float>() { return ElementType::f32; }
template <>
constexpr ElementType element_of<double>() { return ElementType::f64; }

template <class T>
void check_operands(Context& ctx, const Buffer<T>& x, Buffer<T>& y) {
  if (&x.context() != &ctx) throw Error("axpy: buffer x belongs to another context");
  if (&y.context() != &ctx) throw Error("axpy: buffer y belongs to another context");
  if (x.size() != y.size())
    throw Error("axpy: x has " + std::to_string(x.size()) + " elements but y has " + std::to_string(y.size()));
}

template <class T>
void run(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, PreparedKernel& k) {
  cl_ulong n = x.size();
  detail::set_arg(k.kernel, k.name, 0, sizeof n, &n);
  detail::set_arg(k.kernel, k.name, 1, sizeof a, &a);
  detail::set_arg(k.kernel, k.name, 2, sizeof(cl_mem), &x.cl_buffer()());
  detail::set_arg(k.kernel, k.name, 3, sizeof(cl_mem), &y.cl_buffer()());
  ctx.launch(k);
}

}  // namespace

template <class T>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options) {
  check_operands(ctx, x, y);
  if (x.size() == 0) return ctx.plan(axpy_traits(element_of<T>()), ProblemSize(0), options);
  PreparedKernel k = ctx.prepare(axpy_kernel, axpy_traits(element_of<T>()), ProblemSize(x.size()), options);
  run(ctx, a, x, y, k);
  return k.plan;
}

template <class T>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan) {
  check_operands(ctx, x, y);
  auto t = plan.macros.find("T");
  if (t == plan.macros.end() || t->second != cl_type_name(element_of<T>()))
    throw Error("axpy: the plan was made for element type '" + (t == plan.macros.end() ? "?" : t->second) +
                "', the buffers hold " + cl_type_name(element_of<T>()));
  if (x.size() == 0) return;
  PreparedKernel k = ctx.prepare(axpy_kernel, plan);
  run(ctx, a, x, y, k);
}

template LaunchPlan axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const PlanOptions&);
template LaunchPlan axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const PlanOptions&);
template void axpy<float>(Context&, float, const Buffer<float>&, Buffer<float>&, const LaunchPlan&);
template void axpy<double>(Context&, double, const Buffer<double>&, Buffer<double>&, const LaunchPlan&);

}  // namespace portacl
