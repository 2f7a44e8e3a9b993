// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include <algorithm>

#include "kernel_call.hpp"
#include "kernels/planner.hpp"
#include "kernels/trsv_tunables.hpp"
#include "matrix_checks.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

using namespace matrix_checks;

KernelTraits trsv_traits(ElementType element) {
  // bytes_per_item: each element of the triangle is read once
  // local_bytes_per_work_item: the flow-down's partial sums
  // Vectors serve the CPU form (rows read a vector at a time); the GPU
  // form on SIMT devices is scalar.
  return kernel_traits("trsv", element, 1, traits::local_tiling | traits::barriers | traits::scalar_on_simt,
                       {static_cast<double>(size_of(element)), 2, size_of(element)}, &trsv_tunables());
}

const TuningSpace& trsv_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256}),
       knobs::groups_per_compute_unit({1, 4, 16}),
       knobs::vector_width({1, 4, 8, 16}),  // the CPU form's rows
       {"BLOCK",
        {8, 16, 32, 64, 128, 256, 512},
        std::nullopt,
        "unknowns solved per block; the rules take the sub-group width, or 256 in the CPU form"},
       {"TPR",
        {1, 2, 4, 8, 16, 32},
        std::nullopt,
        "work-items per row of the flow-down; the rules take 1 for column-major L or CPUs, else 8"}},
      knobs::within_work_group("TPR")};
  return space;
}

template <class T, class>
LaunchPlan trsv(Context& ctx, Layout layout, std::size_t n, MatrixRef<T> l, Buffer<T>& x, std::size_t offx,
                std::size_t incx, Diagonal diagonal, const PlanOptions& options) {
  kernel_call::same_context(ctx, l.buffer, "trsv", "L");
  kernel_call::same_context(ctx, x, "trsv", "x");
  check_matrix("trsv", "L", stored(layout, n, n), l.offset, l.ld, l.buffer.size(), layout);
  check_vector("trsv", "x", n, offx, incx, x.size());
  aliasing::refuse_overlap("trsv", aliasing::strided(x, sizeof(T), offx, n, incx), "x",
                           touched(l.buffer, sizeof(T), stored(layout, n, n), l.offset, l.ld), "L",
                           "each x_i is solved from a row of L while x is overwritten");

  cl_ulong l_r, l_c;
  strides(layout, l.ld, l_r, l_c);
  const TrsvLaunches p = plan_trsv(live_planner(ctx, options), element_of<T>::value, n, l_r, options);
  if (n == 0) return p.update;
  PreparedKernel solve = ctx.prepare(KernelRef{"trsv.cl", p.solve_kernel, ""}, p.solve);
  const cl_uint unit = diagonal == Diagonal::unit;
  if (p.chained) {
    auto held = ctx.hold_scratch();
    const cl::Buffer& solved = ctx.scratch("trsv.solved", bytes_of<T>(p.blocks * p.solved_stride, "trsv unknowns"));
    const cl::Buffer& status = ctx.scratch("trsv.status", bytes_of<cl_uint>(p.blocks, "trsv status words"), true);
    const cl_uint tag = ctx.scratch_epoch("trsv.status", 1u << 31);
    const cl::Buffer& ticket = ctx.scratch("trsv.ticket", sizeof(cl_uint), true);
    kernel_call::launch(ctx, solve, static_cast<cl_ulong>(n), l.buffer, static_cast<cl_ulong>(l.offset), l_r, l_c, x,
                        static_cast<cl_ulong>(offx), static_cast<cl_ulong>(incx), unit, solved, status, ticket, tag);
    return p.solve;
  }
  PreparedKernel update = ctx.prepare(KernelRef{"trsv.cl", p.update_kernel, ""}, p.update);
  for (std::size_t k0 = 0; k0 < n; k0 += p.block) {
    const std::size_t kb = std::min(p.block, n - k0);
    kernel_call::launch(ctx, solve, static_cast<cl_ulong>(n), static_cast<cl_ulong>(k0), l.buffer,
                        static_cast<cl_ulong>(l.offset), l_r, l_c, x, static_cast<cl_ulong>(offx),
                        static_cast<cl_ulong>(incx), unit);
    if (k0 + kb >= n) break;
    update.plan = trsv_update_grid(p, n - k0 - kb);
    kernel_call::launch(ctx, update, static_cast<cl_ulong>(n), static_cast<cl_ulong>(k0), static_cast<cl_ulong>(kb),
                        l.buffer, static_cast<cl_ulong>(l.offset), l_r, l_c, x, static_cast<cl_ulong>(offx),
                        static_cast<cl_ulong>(incx));
  }
  return p.update;
}

TrsvLaunches plan_trsv(const Planner& planner, ElementType element, std::size_t n, std::size_t row_stride,
                       const PlanOptions& options) {
  LaunchPlan plan = planner.plan(trsv_traits(element), ProblemSize(std::max<std::size_t>(1, n * (n + 1) / 2)));
  if (n == 0) {
    TrsvLaunches l;
    l.update = l.solve = std::move(plan);
    return l;
  }
  return plan_trsv_launches(std::move(plan), trsv_tunables(), options.plan_as ? *options.plan_as : planner.device,
                            planner.device, n, size_of(element), row_stride);
}

template LaunchPlan trsv<float>(Context&, Layout, std::size_t, MatrixRef<float>, Buffer<float>&, std::size_t,
                                std::size_t, Diagonal, const PlanOptions&);
template LaunchPlan trsv<double>(Context&, Layout, std::size_t, MatrixRef<double>, Buffer<double>&, std::size_t,
                                 std::size_t, Diagonal, const PlanOptions&);

}  // namespace portacl
