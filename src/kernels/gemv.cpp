// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include <algorithm>

#include "rules/coverage_rules.hpp"
#include "kernel_call.hpp"
#include "rules/row_team.hpp"
#include "matrix_checks.hpp"
#include "kernels/gemv_tunables.hpp"

namespace portacl {

using namespace matrix_checks;
using kernel_call::ceil_div;
using kernel_call::round_up;

KernelTraits gemv_traits(ElementType element, GemvPath path) {
  KernelTraits t;
  t.name = path == GemvPath::rows ? "gemv_rows" : "gemv_columns";
  t.element = element;
  t.dimensions = 1;
  t.vectorizable = true;  // rows: along a row; columns: VW rows per work-item
  t.scalar_on_simt = path == GemvPath::columns;
  t.needs_barriers = path == GemvPath::rows;
  t.benefits_from_local_tiling = path == GemvPath::rows;
  t.bytes_per_item = static_cast<double>(size_of(element));  // each element of A is read once
  t.flops_per_item = 2;
  t.local_bytes_per_work_item = path == GemvPath::rows ? size_of(element) : 0;
  t.tunables = &gemv_tunables();
  return t;
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
  const KernelTraits traits = gemv_traits(element_of<T>::value, path);
  LaunchPlan plan = ctx.plan(traits, ProblemSize(std::max<std::size_t>(1, m) * std::max<std::size_t>(1, n)), options);
  if (m == 0) return plan;
  const std::size_t wg = plan.local[0];

  if (path == GemvPath::rows) {
    std::size_t team = 0;
    if (auto v = gemv_tunables().chosen(plan, "TEAM")) {
      team = static_cast<std::size_t>(*v);
    } else {
      const RuleChoice rule = row_team(plan, options.plan_as ? *options.plan_as : ctx.info());
      team = std::min(rule.value, wg);
      plan.decide("TEAM", std::to_string(team), rule.rule, rule.why);
    }
    kernel_call::check_row_team("gemv", "TEAM", team, wg);
    plan.macros["TEAM"] = std::to_string(team);
    const std::size_t blocks = ceil_div(m, wg / team);
    plan.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, blocks));
    plan.global = {{plan.work_groups * wg, 1, 1}};
    PreparedKernel k = ctx.prepare(KernelRef{"gemv.cl", "gemv_dot", ""}, plan);
    kernel_call::launch(ctx, k, static_cast<cl_ulong>(m), static_cast<cl_ulong>(n), alpha, beta, a.buffer,
                        static_cast<cl_ulong>(a.offset), a_i, x.buffer, static_cast<cl_ulong>(x.offset),
                        static_cast<cl_ulong>(x.inc), y, static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy));
    return k.plan;
  }

  // As many chunks of columns as it takes to reach the plan's work-group
  // count, each chunk at least 64 columns long.
  const std::size_t row_groups = ceil_div(m, wg * plan.vector_width);
  const std::size_t chunks = std::max<std::size_t>(
      1, std::min(ceil_div(plan.work_groups, row_groups), ceil_div(std::max<std::size_t>(n, 1), 64)));
  const std::size_t chunk = std::max<std::size_t>(1, ceil_div(n, chunks));
  const std::size_t used = n == 0 ? 1 : ceil_div(n, chunk);
  plan.work_groups = row_groups * used;
  plan.global = {{plan.work_groups * wg, 1, 1}};
  decide_gemv_chunks(plan, used, chunk, row_groups);
  auto held = ctx.hold_scratch();  // the partial sums until the combining launch is queued
  const cl::Buffer& part = ctx.scratch(
      "gemv.partial", bytes_of<T>(used > 1 ? checked_product(used, m, "gemv: partial sums") : 1, "gemv: partial sums"));
  PreparedKernel k = ctx.prepare(KernelRef{"gemv.cl", "gemv_axpy", ""}, plan);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(m), static_cast<cl_ulong>(n), alpha, beta, a.buffer,
                      static_cast<cl_ulong>(a.offset), a_j, x.buffer, static_cast<cl_ulong>(x.offset),
                      static_cast<cl_ulong>(x.inc), y, static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy),
                      static_cast<cl_ulong>(row_groups),
                      static_cast<cl_ulong>(used > 1 ? chunk : std::max<std::size_t>(n, 1)), part);
  if (used > 1) {
    LaunchPlan combine = plan;
    combine.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, row_groups));
    combine.global = {{combine.work_groups * wg, 1, 1}};
    PreparedKernel c = ctx.prepare(KernelRef{"gemv.cl", "gemv_combine", ""}, combine);
    kernel_call::launch(ctx, c, static_cast<cl_ulong>(m), static_cast<cl_ulong>(used), alpha, beta, part, y,
                        static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy));
  }
  return k.plan;
}

#define PORTACL_GEMV_INSTANTIATE(T)                                                                                    \
  template LaunchPlan gemv<T>(Context&, Layout, Transpose, std::size_t, std::size_t, T, MatrixRef<T>, VectorRef<T>, T, \
                              Buffer<T>&, std::size_t, std::size_t, const PlanOptions&);
PORTACL_GEMV_INSTANTIATE(float)
PORTACL_GEMV_INSTANTIATE(double)

}  // namespace portacl
