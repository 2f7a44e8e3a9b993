// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include <algorithm>

#include "kernel_call.hpp"
#include "kernels/packed_symv_tunables.hpp"
#include "kernels/planner.hpp"
#include "matrix_checks.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

using namespace matrix_checks;

KernelTraits packed_symv_traits(ElementType element) {
  // bytes_per_item: each stored element is read once
  // flops_per_item: two products per off-diagonal element
  // The tile's local memory is per work-group, whatever its size: checked
  // at launch against the device, not per work-item.
  // Vectors serve the CPU form (the rows, barrier-free); the blocks form
  // on SIMT devices is scalar.
  return kernel_traits("packed_symv", element, 1, traits::local_tiling | traits::barriers | traits::scalar_on_simt,
                       {static_cast<double>(size_of(element)), 4}, &packed_symv_tunables());
}

const TuningSpace& packed_symv_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512}),
                                  knobs::vector_width({1, 4, 8, 16}),  // the CPU form's rows
                                  knobs::groups_per_compute_unit({1, 4, 16, 64}),
                                  {"BLOCK", {16, 32, 64}, 64, "side of the square blocks staged in local memory"}},
                                 nullptr};
  return space;
}

template <class T, class>
LaunchPlan packed_symv(Context& ctx, std::size_t n, T alpha, const Buffer<T>& ap, std::size_t offap, VectorRef<T> x,
                       T beta, Buffer<T>& y, std::size_t offy, std::size_t incy, const PlanOptions& options) {
  kernel_call::same_context(ctx, ap, "packed_symv", "AP");
  kernel_call::same_context(ctx, x.buffer, "packed_symv", "x");
  kernel_call::same_context(ctx, y, "packed_symv", "y");
  const std::string triangle = "packed_symv: the packed triangle of order " + std::to_string(n);
  const std::size_t packed = checked_product(n, checked_sum(n, 1, triangle), triangle) / 2;
  if (n && checked_sum(offap, packed, "packed_symv: AP's extent") > ap.size())
    throw Error("packed_symv: AP needs " + std::to_string(offap + packed) + " elements (offset " +
                std::to_string(offap) + ", n (n + 1) / 2 = " + std::to_string(packed) + " for order " +
                std::to_string(n) + ") but its buffer has " + std::to_string(ap.size()));
  check_vector("packed_symv", "x", n, x.offset, x.inc, x.buffer.size());
  check_vector("packed_symv", "y", n, offy, incy, y.size());
  const aliasing::Touched y_span = aliasing::strided(y, sizeof(T), offy, n, incy);
  aliasing::refuse_overlap("packed_symv", y_span, "y", aliasing::strided(x.buffer, sizeof(T), x.offset, n, x.inc), "x",
                           "y = alpha A x + beta y reads every element of x while y is written");
  aliasing::refuse_overlap("packed_symv", y_span, "y", aliasing::Touched{ap, offap * sizeof(T), packed * sizeof(T)},
                           "AP", "every element of y is a sum over a row of A");
  // BLAS: alpha = 0 reads neither AP nor x (NaN there must not reach y):
  // y = beta y, which GEMV does as a product with no columns.
  if (alpha == T(0) && n > 0)
    return gemv(ctx, Layout::row_major, Transpose::no, n, 0, alpha, MatrixRef<T>{ap, offap, 1}, x, beta, y, offy, incy,
                options);

  const PackedSymvLaunches l = plan_packed_symv(live_planner(ctx, options), element_of<T>::value, n);
  if (n == 0) return l.blocks;
  auto held = ctx.hold_scratch();  // the partial sums until the combining launch is queued
  if (l.slices) {                  // the rows form
    const cl::Buffer& sums = ctx.scratch(
        "packed_symv.partial",
        bytes_of<T>(checked_product(l.slices, n, "packed_symv: partial sums"), "packed_symv: partial sums"));
    PreparedKernel k = ctx.prepare(KernelRef{"packed_symv.cl", l.blocks_kernel, ""}, l.blocks);
    kernel_call::launch(ctx, k, static_cast<cl_ulong>(n), ap, static_cast<cl_ulong>(offap), x.buffer,
                        static_cast<cl_ulong>(x.offset), static_cast<cl_ulong>(x.inc), sums);
    PreparedKernel c = ctx.prepare(KernelRef{"packed_symv.cl", l.combine_kernel, ""}, l.combine);
    kernel_call::launch(ctx, c, static_cast<cl_ulong>(n), alpha, beta, sums, static_cast<cl_ulong>(l.slices), y,
                        static_cast<cl_ulong>(offy), static_cast<cl_ulong>(incy));
    return k.plan;
  }
  const cl::Buffer& part =
      ctx.scratch("packed_symv.partial",
                  bytes_of<T>(checked_product(checked_product(l.block_rows, l.block_rows, "packed_symv: partial sums"),
                                              l.block, "packed_symv: partial sums"),
                              "packed_symv: partial sums"));
  PreparedKernel k = ctx.prepare(KernelRef{"packed_symv.cl", l.blocks_kernel, ""}, l.blocks);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(n), ap, static_cast<cl_ulong>(offap), x.buffer,
                      static_cast<cl_ulong>(x.offset), static_cast<cl_ulong>(x.inc), part);
  PreparedKernel c = ctx.prepare(KernelRef{"packed_symv.cl", l.combine_kernel, ""}, l.combine);
  kernel_call::launch(ctx, c, static_cast<cl_ulong>(n), alpha, beta, part, y, static_cast<cl_ulong>(offy),
                      static_cast<cl_ulong>(incy));
  return k.plan;
}

PackedSymvLaunches plan_packed_symv(const Planner& planner, ElementType element, std::size_t n) {
  const std::size_t packed = n * (n + 1) / 2;
  LaunchPlan plan = planner.plan(packed_symv_traits(element), ProblemSize(std::max<std::size_t>(1, packed)));
  if (n == 0) {
    PackedSymvLaunches l;
    l.blocks = l.combine = std::move(plan);
    return l;
  }
  return plan_packed_symv_launches(std::move(plan), packed_symv_tunables(), planner.device, n, size_of(element));
}

template LaunchPlan packed_symv<float>(Context&, std::size_t, float, const Buffer<float>&, std::size_t,
                                       VectorRef<float>, float, Buffer<float>&, std::size_t, std::size_t,
                                       const PlanOptions&);
template LaunchPlan packed_symv<double>(Context&, std::size_t, double, const Buffer<double>&, std::size_t,
                                        VectorRef<double>, double, Buffer<double>&, std::size_t, std::size_t,
                                        const PlanOptions&);

}  // namespace portacl
