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
#include "rules/sparse_launch_rules.hpp"

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
  const CsrMergeLaunches l = csr_merge_launches(c.ctx.plan(traits, ProblemSize(c.a.rows() + c.a.nnz()), c.options),
                                                *traits.tunables, c.ctx.info(), sizeof(T), [&](std::size_t tile_items) {
                                                  const MergeTiles& tiles =
                                                      merge_tiles_of(c.a, c.a.storage(), tile_items);
                                                  return MergeCounts{tiles.tiles, tiles.runs};
                                                });
  const sparse_kernels::Defines defines{{"ROW_T", sparse_kernels::row_type(c.a.wide_row_pointers())}};
  PreparedSpmv p;
  p.sizes = {l.tile_items, 0};
  p.kernels.push_back(c.ctx.prepare(sparse_kernels::kernel("sparse_merge.cl", "csr_merge", defines), l.merge));
  p.plan = p.kernels[0].plan;
  if (l.second_pass)
    p.kernels.push_back(c.ctx.prepare(sparse_kernels::kernel("sparse_merge.cl", "csr_merge_runs", defines), l.runs));
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
