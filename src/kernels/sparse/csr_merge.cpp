// SPDX-License-Identifier: Apache-2.0
// csr-merge: y = alpha A x + beta y balanced along the merge path
// (kernels/sparse_merge.cl).
#include <algorithm>

#include "portacl/error.hpp"
#include "../kernel_call.hpp"
#include "sparse_kernels.hpp"
#include "sparse_storage.hpp"
#include "spmv_call.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {

template <class T>
PreparedSpmv prepare_csr_merge(const SpmvCall<T>& c) {
  // The rows cut between tiles are partial results: the mapping rules
  // decide how they are finished (general.single-pass-combine where the
  // device has global atomics, else a second launch; an override's passes
  // win).
  KernelTraits traits = sparse_kernel_traits("csr_merge", element_of<T>::value, true);
  traits.tunables = &csr_merge_tunables();
  traits.combines_partials = true;
  LaunchPlan plan = c.ctx.plan(traits, ProblemSize(c.a.rows() + c.a.nnz()), c.options);
  const std::size_t wg = plan.local[0];
  const std::size_t items = csr_merge_items(plan, *traits.tunables, c.ctx.info(), sizeof(T));
  if (items == 0)
    throw Error("spmv csr-merge: " + std::to_string(wg) + " work-items need more local memory than '" +
                c.ctx.info().name + "' has (" + std::to_string(c.ctx.info().local_mem_size) + " bytes)");
  const MergeTiles& tiles = merge_tiles_of(c.a, c.a.storage(), wg * items);
  plan.work_groups = std::max<std::size_t>(1, std::min(tiles.tiles, plan.work_groups * 8));
  plan.global = {{plan.work_groups * wg, 1, 1}};
  const bool single_pass = plan.passes == 1;
  decide_merge_tiles(plan, tiles.tiles, wg * items, single_pass);
  plan.macros["SINGLE_PASS"] = single_pass ? "1" : "0";
  const sparse_kernels::Defines defines{{"ROW_T", sparse_kernels::row_type(c.a.wide_row_pointers())}};
  PreparedSpmv p;
  p.sizes = {wg * items, 0};
  p.kernels.push_back(c.ctx.prepare(sparse_kernels::kernel("sparse_merge.cl", "csr_merge", defines), plan));
  p.plan = p.kernels[0].plan;
  if (!single_pass && tiles.runs) {
    LaunchPlan second = p.plan;
    second.work_groups = std::max<std::size_t>(1, kernel_call::ceil_div(tiles.runs, wg));
    second.global = {{second.work_groups * wg, 1, 1}};
    p.kernels.push_back(c.ctx.prepare(sparse_kernels::kernel("sparse_merge.cl", "csr_merge_runs", defines), second));
  }
  return p;
}

template <class T>
void launch_csr_merge(const SpmvCall<T>& c, const PreparedSpmv& p) {
  const MergeTiles& tiles = merge_tiles_of(c.a, c.a.storage(), p.sizes[0]);
  const auto rows = static_cast<cl_ulong>(c.a.rows());
  kernel_call::launch(c.ctx, p.kernels[0], rows, static_cast<cl_ulong>(c.a.nnz()), static_cast<cl_ulong>(tiles.tiles),
                      tiles.tile_row, tiles.run_first, tiles.run_tiles, c.a.row_pointers(), c.a.columns(), c.a.values(),
                      c.x, c.alpha, c.beta, c.y, tiles.carry_value, tiles.closing_value, tiles.run_done);
  if (p.kernels.size() > 1)
    kernel_call::launch(c.ctx, p.kernels.at(1), static_cast<cl_ulong>(tiles.runs), tiles.run_starts, tiles.tile_row,
                        tiles.run_tiles, tiles.carry_value, tiles.closing_value, c.alpha, c.beta, c.y);
}

template PreparedSpmv prepare_csr_merge<float>(const SpmvCall<float>&);
template PreparedSpmv prepare_csr_merge<double>(const SpmvCall<double>&);
template void launch_csr_merge<float>(const SpmvCall<float>&, const PreparedSpmv&);
template void launch_csr_merge<double>(const SpmvCall<double>&, const PreparedSpmv&);

}  // namespace portacl
