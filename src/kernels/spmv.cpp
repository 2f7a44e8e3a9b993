// SPDX-License-Identifier: Apache-2.0
#include "portacl/kernels/spmv.hpp"

#include <algorithm>

#include "portacl/kernels/gemv.hpp"
#include "portacl/rules/coverage_rules.hpp"
#include "kernel_call.hpp"
#include "matrix_checks.hpp"

namespace portacl {

using namespace matrix_checks;
using kernel_call::ceil_div;
using kernel_call::round_up;

KernelTraits spmv_traits(ElementType element) {
  KernelTraits t;
  t.name = "spmv";
  t.element = element;
  t.dimensions = 1;
  t.needs_barriers = true;
  t.vectorizable = false;
  t.benefits_from_local_tiling = true;
  t.bytes_per_item = static_cast<double>(size_of(element));  // each stored element is read once
  t.flops_per_item = 4;                                      // two products per off-diagonal element
  // The tile's local memory is per work-group, whatever its size: checked
  // at launch against the device, not per work-item.
  t.local_bytes_per_work_item = 0;
  t.tunables = &spmv_tunables();
  return t;
}

const TuningSpace& spmv_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512}),
                                  knobs::groups_per_compute_unit({1, 4, 16, 64}),
                                  {"BLOCK", {16, 32, 64}, 64, "side of the square blocks staged in local memory"}},
                                 nullptr};
  return space;
}

template <class T, class>
LaunchPlan spmv(Context& ctx, std::size_t n, T alpha, const Buffer<T>& ap, std::size_t offap, VectorRef<T> x, T beta,
                Buffer<T>& y, std::size_t offy, std::size_t incy, const PlanOptions& options) {
  kernel_call::same_context(ctx, ap, "spmv", "AP");
  kernel_call::same_context(ctx, x.buffer, "spmv", "x");
  kernel_call::same_context(ctx, y, "spmv", "y");
  const std::string triangle = "spmv: the packed triangle of order " + std::to_string(n);
  const std::size_t packed = checked_product(n, checked_sum(n, 1, triangle), triangle) / 2;
  if (n && checked_sum(offap, packed, "spmv: AP's extent") > ap.size())
    throw Error("spmv: AP needs " + std::to_string(offap + packed) + " elements (offset " + std::to_string(offap) +
                ", n (n + 1) / 2 = " + std::to_string(packed) + " for order " + std::to_string(n) +
                ") but its buffer has " + std::to_string(ap.size()));
  check_vector("spmv", "x", n, x.offset, x.inc, x.buffer.size());
  check_vector("spmv", "y", n, offy, incy, y.size());
  const aliasing::Touched y_span = aliasing::strided(y, sizeof(T), offy, n, incy);
  aliasing::refuse_overlap("spmv", y_span, "y", aliasing::strided(x.buffer, sizeof(T), x.offset, n, x.inc), "x",
                           "y = alpha A x + beta y reads every element of x while y is written");
  aliasing::refuse_overlap("spmv", y_span, "y", aliasing::Touched{ap, offap * sizeof(T), packed * sizeof(T)}, "AP",
                           "every element of y is a sum over a row of A");
  // BLAS: alpha = 0 reads neither AP nor x (NaN there must not reach y):
  // y = beta y, which GEMV does as a product with no columns.
  if (alpha == T(0) && n > 0)
    return gemv(ctx, Layout::row_major, Transpose::no, n, 0, alpha, MatrixRef<T>{ap, offap, 1}, x, beta, y, offy, incy,
                options);

  const KernelTraits traits = spmv_traits(element_of<T>::value);
  LaunchPlan plan = ctx.plan(traits, ProblemSize(std::max<std::size_t>(1, packed)), options);
  if (n == 0) return plan;
  const std::size_t wg = plan.local[0];
  std::size_t block = static_cast<std::size_t>(spmv_tunables().value_in(plan, "BLOCK"));
  // Each work-item owns one column of the block: BLOCK divides the group.
  while (block > 1 && wg % block) block /= 2;
  plan.macros["BLOCK"] = std::to_string(block);
  const std::size_t local_bytes = (block * (block + 1) + 2 * block + 2 * wg) * sizeof(T);
  if (ctx.info().local_mem_size && local_bytes > ctx.info().local_mem_size)
    throw Error("spmv: blocks of " + std::to_string(block) + " need " + std::to_string(local_bytes) +
                " bytes of local memory; '" + ctx.info().name + "' has " + std::to_string(ctx.info().local_mem_size));
  const std::size_t nb = ceil_div(n, block), blocks = nb * (nb + 1) / 2;
  plan.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, blocks));
  plan.global = {{plan.work_groups * wg, 1, 1}};
  decide_packed_spmv_blocks(plan, blocks, block);
  auto held = ctx.hold_scratch();  // the partial sums until the combining launch is queued
  const cl::Buffer& part = ctx.scratch(
      "spmv.partial",
      bytes_of<T>(checked_product(checked_product(nb, nb, "spmv: partial sums"), block, "spmv: partial sums"),
                  "spmv: partial sums"));
  PreparedKernel k = ctx.prepare(KernelRef{"spmv.cl", "spmv_blocks", ""}, plan);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(n), ap, static_cast<cl_ulong>(offap), x.buffer,
                      static_cast<cl_ulong>(x.offset), static_cast<cl_ulong>(x.inc), part);
  LaunchPlan combine = plan;
  combine.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, ceil_div(n, wg)));
  combine.global = {{combine.work_groups * wg, 1, 1}};
  PreparedKernel c = ctx.prepare(KernelRef{"spmv.cl", "spmv_combine", ""}, combine);
  kernel_call::launch(ctx, c, static_cast<cl_ulong>(n), alpha, beta, part, y, static_cast<cl_ulong>(offy),
                      static_cast<cl_ulong>(incy));
  return k.plan;
}

template LaunchPlan spmv<float>(Context&, std::size_t, float, const Buffer<float>&, std::size_t, VectorRef<float>,
                                float, Buffer<float>&, std::size_t, std::size_t, const PlanOptions&);
template LaunchPlan spmv<double>(Context&, std::size_t, double, const Buffer<double>&, std::size_t, VectorRef<double>,
                                 double, Buffer<double>&, std::size_t, std::size_t, const PlanOptions&);

}  // namespace portacl
