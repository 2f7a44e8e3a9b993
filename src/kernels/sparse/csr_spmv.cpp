// SPDX-License-Identifier: Apache-2.0
// The CSR variants of y = alpha A x + beta y (kernels/sparse_csr.cl).
#include <algorithm>
#include <functional>

#include "portacl/error.hpp"
#include "portacl/plan.hpp"
#include "../kernel_call.hpp"
#include "sparse_kernels.hpp"
#include "sparse_storage.hpp"
#include "spmv_call.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_launch_rules.hpp"

namespace portacl {
namespace {

using kernel_call::ceil_div;
using sparse_kernels::Defines;

template <class T>
Defines csr_defines(const SpmvCall<T>& c, bool row_list) {
  return {{"ROW_T", sparse_kernels::row_type(c.a.wide_row_pointers())}, {"ROW_LIST", row_list ? "1" : "0"}};
}

// Launches a kernel over `rows` rows listed in `row_list` (null: every
// row), on `queue` after `wait` (null: the context's queue), csr_scalar's
// and csr_team's arguments.
template <class T>
LaunchPlan launch_rows(const SpmvCall<T>& c, const PreparedKernel& k, std::size_t rows, const cl::Buffer& row_list,
                       cl::CommandQueue* queue, const std::vector<cl::Event>* wait, cl::Event* finished) {
  kernel_call::set_args(k, static_cast<cl_ulong>(rows), row_list, c.a.row_pointers(), c.a.columns(), c.a.values(), c.x,
                        c.alpha, c.beta, c.y);
  cl::Event e = queue ? c.ctx.launch(k, *queue, wait) : c.ctx.launch(k);
  if (finished) *finished = e;
  return k.plan;
}

// Teams over `rows` rows listed in `row_list` (null: every row), on `queue`
// after `wait`; `team_for` is the rules' team for the plan and its
// sub-group width.
template <class T>
LaunchPlan launch_team(const SpmvCall<T>& c, std::size_t rows, const cl::Buffer& row_list,
                       const std::function<CsrTeam(LaunchPlan& plan, std::size_t sub_group)>& team_for,
                       cl::CommandQueue* queue = nullptr, const std::vector<cl::Event>* wait = nullptr,
                       cl::Event* finished = nullptr) {
  const KernelTraits traits = sparse_kernel_traits("csr_team", element_of<T>::value, true);
  LaunchPlan plan = c.ctx.plan(traits, ProblemSize(rows), c.options);
  csr_team_launch(plan, team_for(plan, sub_group_width(plan, c.planned_for()).value), rows);
  PreparedKernel k =
      c.ctx.prepare(sparse_kernels::kernel("sparse_csr.cl", "csr_team", csr_defines(c, row_list())), plan);
  return launch_rows(c, k, rows, row_list, queue, wait, finished);
}

template <class T>
LaunchPlan run_scalar(const SpmvCall<T>& c, std::size_t rows, const cl::Buffer& row_list,
                      cl::CommandQueue* queue = nullptr, const std::vector<cl::Event>* wait = nullptr,
                      cl::Event* finished = nullptr) {
  PreparedKernel k = c.ctx.prepare(sparse_kernels::kernel("sparse_csr.cl", "csr_scalar", csr_defines(c, row_list())),
                                   csr_spmv_traits(element_of<T>::value), ProblemSize(rows), c.options);
  return launch_rows(c, k, rows, row_list, queue, wait, finished);
}

// Work-groups over the row groups `g` (csr_chunks).
template <class T>
void launch_groups(const SpmvCall<T>& c, PreparedKernel& k, const RowGroups& g) {
  kernel_call::launch(c.ctx, k, static_cast<cl_ulong>(g.groups), g.bounds, c.a.row_pointers(), c.a.columns(),
                      c.a.values(), c.x, c.alpha, c.beta, c.y);
}

template <class T>
PreparedSpmv prepare_csr_block(const SpmvCall<T>& c) {
  // Long rows' pieces are partial results: the mapping rules decide how they
  // are combined (general.single-pass-combine where the device has global
  // atomics, else a second launch; an override's passes win).
  KernelTraits traits = sparse_kernel_traits("csr_block", element_of<T>::value, true);
  traits.tunables = &csr_block_tunables();
  traits.combines_partials = true;
  const CsrBlockMatrix matrix{
      [&](std::size_t entries) { return long_row_entries_of(c.a, c.a.storage(), entries); },
      [&](std::size_t entries, std::size_t piece) {
        const LongRowSegments& long_rows = long_rows_of(c.a, c.a.storage(), entries, piece);
        return CsrBlockCounts{blocks_of(c.a, c.a.storage(), entries).groups, long_rows.rows, long_rows.segments};
      }};
  const CsrBlockLaunches l = csr_block_launches(c.ctx.plan(traits, ProblemSize(c.a.rows()), c.options),
                                                *traits.tunables, c.ctx.info(), c.planned_for(), sizeof(T), matrix);
  PreparedSpmv p;
  p.sizes = {l.entries, l.piece};
  p.kernels.push_back(
      c.ctx.prepare(sparse_kernels::kernel("sparse_csr.cl", "csr_block", csr_defines(c, false)), l.block));
  p.plan = p.kernels[0].plan;
  if (l.second_pass)
    p.kernels.push_back(
        c.ctx.prepare(sparse_kernels::kernel("sparse_csr.cl", "csr_long_rows", csr_defines(c, false)), l.long_rows));
  return p;
}

template <class T>
void launch_csr_block(const SpmvCall<T>& c, const PreparedSpmv& p) {
  const RowGroups& blocks = blocks_of(c.a, c.a.storage(), p.sizes[0]);
  const LongRowSegments& long_rows = long_rows_of(c.a, c.a.storage(), p.sizes[0], p.sizes[1]);
  kernel_call::launch(c.ctx, p.kernels[0], static_cast<cl_ulong>(blocks.groups), blocks.bounds,
                      static_cast<cl_ulong>(long_rows.segments), long_rows.segment_first, long_rows.segment_long,
                      long_rows.long_row, long_rows.first_segment, long_rows.partial, long_rows.pieces_done,
                      c.a.row_pointers(), c.a.columns(), c.a.values(), c.x, c.alpha, c.beta, c.y);
  if (p.kernels.size() > 1)
    kernel_call::launch(c.ctx, p.kernels.at(1), static_cast<cl_ulong>(long_rows.rows), long_rows.long_row,
                        long_rows.first_segment, long_rows.partial, c.alpha, c.beta, c.y);
}

template <class T>
LaunchPlan run_prepared(const SpmvCall<T>& c, CsrVariant variant) {
  const PreparedSpmv p = prepare_csr(c, variant);
  launch_csr(c, variant, p);
  return p.plan;
}

template <class T>
LaunchPlan run_chunks(const SpmvCall<T>& c) {
  KernelTraits traits = sparse_kernel_traits("csr_chunks", element_of<T>::value);
  traits.vectorizable = true;  // each row is walked in vectors
  LaunchPlan plan = c.ctx.plan(traits, ProblemSize(c.a.nnz()), c.options);
  const RowGroups& chunks = chunks_of(c.a, c.a.storage(), csr_chunks_width(plan, c.a.shape().mean_row));
  csr_chunks_launch(plan, chunks.groups, c.a.nnz());
  PreparedKernel k = c.ctx.prepare(sparse_kernels::kernel("sparse_csr.cl", "csr_chunks", csr_defines(c, false)), plan);
  launch_groups(c, k, chunks);
  return k.plan;
}

// One kernel per length bin, each on its own queue, all after the work
// already queued and before the work queued next.
template <class T>
LaunchPlan run_adaptive(const SpmvCall<T>& c) {
  const RowBins& bins = bins_of(c.a, c.a.storage());
  const std::vector<cl::Event> start{c.ctx.done()};
  std::vector<cl::Event> finished;
  LaunchPlan widest;
  std::string shares;
  unsigned queue = 1;
  for (std::size_t bin = 0; bin < kRowLengthBins; ++bin) {
    const std::size_t rows = bins.rows[bin];
    if (rows == 0) continue;
    cl::Event done;
    cl::CommandQueue& q = c.ctx.queue(queue++);
    if (bin <= 1) {  // empty rows and rows of 1-7 entries: one work-item each
      widest = run_scalar(c, rows, bins.list[bin], &q, &start, &done);
    } else {
      // Bin 2: teams of 8; bin 3: a sub-group; bin 4: the work-group.
      const auto team = [&c, bin, rows](LaunchPlan& plan, std::size_t sub_group) {
        return csr_bin_team(plan, c.ctx.info(), bin, rows, sub_group);
      };
      widest = launch_team(c, rows, bins.list[bin], team, &q, &start, &done);
    }
    finished.push_back(done);
    shares += (shares.empty() ? "" : ", ") + std::to_string(rows);
  }
  c.ctx.after(finished);
  decide_csr_row_bins(widest, shares);
  return widest;
}

}  // namespace

template <class T>
PreparedSpmv prepare_csr(const SpmvCall<T>& c, CsrVariant variant) {
  return variant == CsrVariant::merge ? prepare_csr_merge(c) : prepare_csr_block(c);
}

template <class T>
void launch_csr(const SpmvCall<T>& c, CsrVariant variant, const PreparedSpmv& p) {
  if (variant == CsrVariant::merge)
    launch_csr_merge(c, p);
  else
    launch_csr_block(c, p);
}

template <class T>
LaunchPlan run_csr(const SpmvCall<T>& c, CsrVariant variant) {
  switch (variant) {
    case CsrVariant::scalar: return run_scalar(c, c.a.rows(), cl::Buffer());
    case CsrVariant::vector: {
      const double mean = c.a.shape().mean_row;
      return launch_team(c, c.a.rows(), cl::Buffer(), [&c, mean](LaunchPlan& plan, std::size_t sub_group) {
        return csr_vector_team(plan, c.ctx.info(), mean, sub_group);
      });
    }
    case CsrVariant::block:
    case CsrVariant::merge: return run_prepared(c, variant);
    case CsrVariant::adaptive: return run_adaptive(c);
    case CsrVariant::cpu: return run_chunks(c);
  }
  throw Error("spmv: unknown CSR variant");
}

template PreparedSpmv prepare_csr<float>(const SpmvCall<float>&, CsrVariant);
template PreparedSpmv prepare_csr<double>(const SpmvCall<double>&, CsrVariant);
template void launch_csr<float>(const SpmvCall<float>&, CsrVariant, const PreparedSpmv&);
template void launch_csr<double>(const SpmvCall<double>&, CsrVariant, const PreparedSpmv&);
template LaunchPlan run_csr<float>(const SpmvCall<float>&, CsrVariant);
template LaunchPlan run_csr<double>(const SpmvCall<double>&, CsrVariant);

}  // namespace portacl
