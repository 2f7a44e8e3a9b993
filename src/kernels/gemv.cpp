// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include <algorithm>

#include "kernel_call.hpp"
#include "kernels/gemv_tunables.hpp"
#include "kernels/planner.hpp"
#include "matrix_checks.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

using namespace matrix_checks;

KernelTraits gemv_traits(ElementType element, GemvPath path) {
  // Vectors: rows: along a row; columns: VW rows per work-item. Each
  // element of A is read once.
  const bool rows = path == GemvPath::rows;
  return kernel_traits(rows ? "gemv_rows" : "gemv_columns", element, 1,
                       rows ? traits::local_tiling | traits::barriers : traits::scalar_on_simt,
                       {static_cast<double>(size_of(element)), 2, rows ? size_of(element) : 0}, &gemv_tunables());
}

const TuningSpace& gemv_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({32, 64, 128, 256, 512}),
       knobs::vector_width({1, 2, 4, 8}),
       knobs::groups_per_compute_unit({1, 4, 16, 64}),
       {"TEAM",
        {1, 4, 8, 16, 32, 64, 128, 256},
        std::nullopt,
        "work-items sharing a row (rows path); the rules take the sub-group width on GPUs, 1 on CPUs"}},
      knobs::within_work_group("TEAM")};
  return space;
}

template <class T, class>
LaunchPlan gemv(Context& ctx, Layout layout, Transpose trans, std::size_t m, std::size_t n, T alpha, MatrixRef<T> a,
                VectorRef<T> x, T beta, Buffer<T>& y, std::size_t offy, std::size_t incy, const PlanOptions& options) {
  kernel_call::same_context(ctx, a.buffer, "gemv", "A");
  kernel_call::same_context(ctx, x.buffer, "gemv", "x");
  kernel_call::same_context(ctx, y, "gemv", "y");
  const bool t = trans == Transpose::yes;
  check_matrix("gemv", "A", stored(layout, t ? n : m, t ? m : n), a.offset, a.ld, a.buffer.size(), layout);
  check_vector("gemv", "x", n, x.offset, x.inc, x.buffer.size());
  check_vector("gemv", "y", m, offy, incy, y.size());
  const aliasing::Touched y_span = aliasing::strided(y, sizeof(T), offy, m, incy);
  aliasing::refuse_overlap("gemv", y_span, "y", aliasing::strided(x.buffer, sizeof(T), x.offset, n, x.inc), "x",
                           "y = alpha op(A) x + beta y reads every element of x while y is written");
  aliasing::refuse_overlap("gemv", y_span, "y",
                           touched(a.buffer, sizeof(T), stored(layout, t ? n : m, t ? m : n), a.offset, a.ld), "A",
                           "every element of y is a sum over a row of op(A)");
  // BLAS: alpha = 0 reads neither A nor x (NaN there must not reach y):
  // y = beta y is the product with no columns.
  if (alpha == T(0) && n > 0) return gemv(ctx, layout, trans, m, 0, alpha, a, x, beta, y, offy, incy, options);

  cl_ulong s_r, s_c;
  strides(layout, a.ld, s_r, s_c);
  // op(A)(i, j) is stored (i, j), or (j, i) when transposed.
  const cl_ulong a_i = t ? s_c : s_r, a_j = t ? s_r : s_c;
  const GemvPath path = a_j == 1 ? GemvPath::rows : GemvPath::columns;
  const GemvLaunches l = plan_gemv(live_planner(ctx, options), element_of<T>::value, path, m, n, options);
  if (m == 0) return l.product;
  if (path == GemvPath::rows) {
    PreparedKernel k = ctx.prepare(KernelRef{"gemv.cl", "gemv_dot", ""}, l.product);
    kernel_call::launch(ctx, k, static_cast<cl_ulong>(m), static_cast<cl_ulong>(n), alpha, beta, a.buffer,
                        static_cast<cl_ulong>(a.offset), a_i, x.buffer, static_cast<cl_ulong>(x.offset),
                        static_cast<cl_ulong>(x.inc), y, static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy));
    return k.plan;
  }
  auto held = ctx.hold_scratch();  // the partial sums until the combining launch is queued
  const cl::Buffer& part = ctx.scratch(
      "gemv.partial",
      bytes_of<T>(l.chunks > 1 ? checked_product(l.chunks, m, "gemv: partial sums") : 1, "gemv: partial sums"));
  PreparedKernel k = ctx.prepare(KernelRef{"gemv.cl", "gemv_axpy", ""}, l.product);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(m), static_cast<cl_ulong>(n), alpha, beta, a.buffer,
                      static_cast<cl_ulong>(a.offset), a_j, x.buffer, static_cast<cl_ulong>(x.offset),
                      static_cast<cl_ulong>(x.inc), y, static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy),
                      static_cast<cl_ulong>(l.row_groups), static_cast<cl_ulong>(l.chunk), part);
  if (l.chunks > 1) {
    PreparedKernel c = ctx.prepare(KernelRef{"gemv.cl", "gemv_combine", ""}, l.combine);
    kernel_call::launch(ctx, c, static_cast<cl_ulong>(m), static_cast<cl_ulong>(l.chunks), alpha, beta, part, y,
                        static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy));
  }
  return k.plan;
}

GemvLaunches plan_gemv(const Planner& planner, ElementType element, GemvPath path, std::size_t m, std::size_t n,
                       const PlanOptions& options) {
  LaunchPlan plan =
      planner.plan(gemv_traits(element, path), ProblemSize(std::max<std::size_t>(1, m) * std::max<std::size_t>(1, n)));
  if (m == 0) {
    GemvLaunches l;
    l.path = path;
    l.product = std::move(plan);
    return l;
  }
  return plan_gemv_launches(std::move(plan), path, gemv_tunables(), options.plan_as ? *options.plan_as : planner.device,
                            m, n);
}

#define PORTACL_GEMV_INSTANTIATE(T)                                                                                    \
  template LaunchPlan gemv<T>(Context&, Layout, Transpose, std::size_t, std::size_t, T, MatrixRef<T>, VectorRef<T>, T, \
                              Buffer<T>&, std::size_t, std::size_t, const PlanOptions&);
PORTACL_GEMV_INSTANTIATE(float)
PORTACL_GEMV_INSTANTIATE(double)

}  // namespace portacl
