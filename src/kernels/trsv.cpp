// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include <algorithm>

#include "rules/coverage_rules.hpp"
#include "kernel_call.hpp"
#include "rules/row_team.hpp"
#include "matrix_checks.hpp"
#include "kernels/trsv_tunables.hpp"

namespace portacl {

using namespace matrix_checks;
using kernel_call::ceil_div;
using kernel_call::round_up;

KernelTraits trsv_traits(ElementType element) {
  KernelTraits t;
  t.name = "trsv";
  t.element = element;
  t.dimensions = 1;
  t.needs_barriers = true;
  t.vectorizable = false;
  t.benefits_from_local_tiling = true;
  t.bytes_per_item = static_cast<double>(size_of(element));  // each element of the triangle is read once
  t.flops_per_item = 2;
  t.local_bytes_per_work_item = size_of(element);  // the flow-down's partial sums
  t.tunables = &trsv_tunables();
  return t;
}

const TuningSpace& trsv_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256}),
       knobs::groups_per_compute_unit({1, 4, 16}),
       {"BLOCK",
        {8, 16, 32, 64, 128},
        std::nullopt,
        "unknowns solved per block; the rules take the sub-group width (SIMD width on CPUs)"},
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

  const KernelTraits traits = trsv_traits(element_of<T>::value);
  LaunchPlan plan = ctx.plan(traits, ProblemSize(std::max<std::size_t>(1, n * (n + 1) / 2)), options);
  if (n == 0) return plan;
  const DeviceInfo& device = options.plan_as ? *options.plan_as : ctx.info();
  const TuningSpace& space = trsv_tunables();
  const std::size_t wg = plan.local[0];
  std::size_t block = 0, tpr = 0;
  if (auto v = space.chosen(plan, "BLOCK")) {
    block = static_cast<std::size_t>(*v);
  } else {
    const RuleChoice rule = sub_group_width(plan, device);
    block = rule.value;
    plan.decide("BLOCK", std::to_string(block), rule.rule, rule.why);
  }
  // The block's work-group must fit this device, and its tile local memory.
  const std::size_t max_wg = ctx.info().max_work_group_size ? ctx.info().max_work_group_size : block;
  while (block > 1 && (block > max_wg ||
                       (ctx.info().local_mem_size && (block * (block + 2)) * sizeof(T) > ctx.info().local_mem_size)))
    block /= 2;
  cl_ulong l_r, l_c;
  strides(layout, l.ld, l_r, l_c);
  if (auto v = space.chosen(plan, "TPR")) {
    tpr = static_cast<std::size_t>(*v);
  } else {
    const RuleChoice rule = update_row_team(plan, l_r, wg);
    tpr = rule.value;
    plan.decide("TPR", std::to_string(tpr), rule.rule, rule.why);
  }
  kernel_call::check_row_team("trsv", "TPR", tpr, wg);
  plan.macros["BLOCK"] = std::to_string(block);
  plan.macros["TPR"] = std::to_string(tpr);

  LaunchPlan solve_plan = plan;
  solve_plan.local = {{block, 1, 1}};
  solve_plan.global = {{block, 1, 1}};
  solve_plan.work_groups = 1;
  PreparedKernel solve = ctx.prepare(KernelRef{"trsv.cl", "trsv_block", ""}, solve_plan);
  PreparedKernel update = ctx.prepare(KernelRef{"trsv.cl", "trsv_update", ""}, plan);
  const std::size_t groups_cap = plan.work_groups, per_group = wg / tpr;
  for (std::size_t k0 = 0; k0 < n; k0 += block) {
    const std::size_t kb = std::min(block, n - k0);
    kernel_call::launch(ctx, solve, static_cast<cl_ulong>(n), static_cast<cl_ulong>(k0), l.buffer,
                        static_cast<cl_ulong>(l.offset), l_r, l_c, x, static_cast<cl_ulong>(offx),
                        static_cast<cl_ulong>(incx), static_cast<cl_uint>(diagonal == Diagonal::unit));
    if (k0 + kb >= n) break;
    update.plan.work_groups = std::max<std::size_t>(1, std::min(groups_cap, ceil_div(n - k0 - kb, per_group)));
    update.plan.global = {{update.plan.work_groups * wg, 1, 1}};
    kernel_call::launch(ctx, update, static_cast<cl_ulong>(n), static_cast<cl_ulong>(k0), static_cast<cl_ulong>(kb),
                        l.buffer, static_cast<cl_ulong>(l.offset), l_r, l_c, x, static_cast<cl_ulong>(offx),
                        static_cast<cl_ulong>(incx));
  }
  decide_trsv_launches(plan, 2 * ceil_div(n, block) - 1, block);
  return plan;
}

template LaunchPlan trsv<float>(Context&, Layout, std::size_t, MatrixRef<float>, Buffer<float>&, std::size_t,
                                std::size_t, Diagonal, const PlanOptions&);
template LaunchPlan trsv<double>(Context&, Layout, std::size_t, MatrixRef<double>, Buffer<double>&, std::size_t,
                                 std::size_t, Diagonal, const PlanOptions&);

}  // namespace portacl
