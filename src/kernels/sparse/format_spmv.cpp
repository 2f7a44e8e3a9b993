// SPDX-License-Identifier: Apache-2.0
// y = alpha A x + beta y in ELL, ELLPACK-R, HYB, DIA and COO
// (kernels/sparse_formats.cl), each format converted on first use.
#include <algorithm>

#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "../kernel_call.hpp"
#include "sparse_kernels.hpp"
#include "sparse_storage.hpp"
#include "spmv_call.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_launch_rules.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {
namespace {

using kernel_call::ceil_div;

KernelRef formats_kernel(const std::string& entry, bool column_major = true, bool row_lengths = false) {
  return sparse_kernels::kernel("sparse_formats.cl", entry,
                                {{"ELL_COLUMN_MAJOR", column_major ? "1" : "0"}, {"ELL_R", row_lengths ? "1" : "0"}});
}

template <class T>
PreparedSpmv prepare_ell(const SpmvCall<T>& c, const EllArrays& e, bool row_lengths, bool hyb) {
  const KernelTraits traits = sparse_kernel_traits("ell_spmv", element_of<T>::value);
  PreparedSpmv p;
  p.kernels.push_back(c.ctx.prepare(formats_kernel("ell_rows", e.column_major, row_lengths), traits,
                                    ProblemSize(c.a.rows()), c.options));
  decide_ell(p.kernels[0].plan, e.column_major, e.width, row_lengths, hyb);
  p.plan = p.kernels[0].plan;
  return p;
}

template <class T>
void launch_ell(const SpmvCall<T>& c, const EllArrays& e, const PreparedSpmv& p) {
  kernel_call::launch(c.ctx, p.kernels[0], static_cast<cl_ulong>(c.a.rows()), static_cast<cl_uint>(e.width),
                      static_cast<cl_ulong>(e.pitch), e.row_length, e.col, e.val, c.x, c.alpha, c.beta, c.y);
}

template <class T>
LaunchPlan run_ell(const SpmvCall<T>& c, const EllArrays& e, bool row_lengths, bool hyb) {
  const PreparedSpmv p = prepare_ell(c, e, row_lengths, hyb);
  launch_ell(c, e, p);
  return p.plan;
}

// y += alpha * (the coordinates' product); y already holds beta y or
// HYB's ELL part.
template <class T>
void add_coo(const SpmvCall<T>& c, const CooArrays& coo, LaunchPlan& plan) {
  if (coo.entries == 0) return;
  const KernelTraits traits = sparse_kernel_traits("coo_spmv", element_of<T>::value, true);
  // Ranges of 8 entries per work-item, staged a work-group at a time: a
  // range's inner rows are written directly, only its two ends are
  // combined afterwards.
  const std::size_t per = kCooPerWorkItem, used = ceil_div(coo.entries, per);
  LaunchPlan ranges_plan = c.ctx.plan(traits, ProblemSize(used), c.options);
  coo_ranges_launch(ranges_plan, c.ctx.info(), used, sizeof(T));
  auto held = c.ctx.hold_scratch();
  const cl::Buffer& first = c.ctx.scratch("coo.first_row", bytes_of<cl_uint>(used, "COO ranges"));
  const cl::Buffer& last = c.ctx.scratch("coo.last_row", bytes_of<cl_uint>(used, "COO ranges"));
  const cl::Buffer& head = c.ctx.scratch("coo.head_sum", bytes_of<T>(used, "COO ranges"));
  const cl::Buffer& tail = c.ctx.scratch("coo.tail_sum", bytes_of<T>(used, "COO ranges"));
  PreparedKernel k = c.ctx.prepare(formats_kernel("coo_ranges"), ranges_plan);
  kernel_call::launch(c.ctx, k, static_cast<cl_ulong>(coo.entries), static_cast<cl_ulong>(used), coo.row, coo.col,
                      coo.val, c.x, c.alpha, c.y, first, last, head, tail);
  PreparedKernel shared =
      c.ctx.prepare(formats_kernel("coo_shared_rows"), sparse_kernel_traits("coo_shared_rows", element_of<T>::value),
                    ProblemSize(used), c.options);
  kernel_call::launch(c.ctx, shared, static_cast<cl_ulong>(used), first, last, head, tail, c.alpha, c.y);
  decide_coo_ranges(plan, used, per);
}

}  // namespace

template <class T>
LaunchPlan run_format(const SpmvCall<T>& c, SparseFormat format) {
  const bool column_major = ell_column_major(c.device_class());
  SparseStorage<T>& s = c.a.storage();
  switch (format) {
    case SparseFormat::csr: break;
    case SparseFormat::ell:
    case SparseFormat::ell_r:
    case SparseFormat::dia: {
      const PreparedSpmv p = prepare_format(c, format);
      launch_format(c, format, p);
      return p.plan;
    }
    case SparseFormat::hyb: {
      const auto [ell, coo] = hyb_of(c.a, s, column_major);
      LaunchPlan plan = run_ell(c, *ell, false, true);
      add_coo(c, *coo, plan);
      return plan;
    }
    case SparseFormat::coo: {
      const CooArrays& coo = coo_of(c.a, s);
      LaunchPlan plan = c.beta == T(0) ? fill(c.ctx, c.y, T(0), c.options) : scale(c.ctx, c.beta, c.y, c.options);
      add_coo(c, coo, plan);
      return plan;
    }
  }
  throw Error("spmv: unknown sparse format");
}

template <class T>
RowFormatArrays row_format_arrays(const SparseMatrix<T>& a, SparseFormat format, DeviceClass device_class) {
  SparseStorage<T>& s = a.storage();
  RowFormatArrays r;
  if (format == SparseFormat::dia) {
    const DiaArrays& d = dia_of(a, s);
    r.count = static_cast<cl_uint>(d.offsets.size());
    r.pitch = d.pitch;
    r.index = d.offset;
    r.values = d.data;
    return r;
  }
  if (format != SparseFormat::ell && format != SparseFormat::ell_r)
    throw Error("spmv: only DIA, ELL and ELLPACK-R give a work-item a row");
  r.row_lengths = format == SparseFormat::ell_r;
  r.column_major = ell_column_major(device_class);
  const EllArrays& e = ell_of(a, s, r.row_lengths, r.column_major);
  r.count = static_cast<cl_uint>(e.width);
  r.pitch = e.pitch;
  r.index = e.col;
  r.values = e.val;
  r.lengths = e.row_length;
  return r;
}

void decide_row_format(LaunchPlan& plan, SparseFormat format, const RowFormatArrays& r) {
  if (format == SparseFormat::dia)
    decide_dia(plan, r.count);
  else
    decide_ell(plan, r.column_major, r.count, r.row_lengths, false);
}

template <class T>
PreparedSpmv prepare_format(const SpmvCall<T>& c, SparseFormat format) {
  const RowFormatArrays r = row_format_arrays(c.a, format, c.device_class());
  const bool dia = format == SparseFormat::dia;
  PreparedSpmv p;
  p.kernels.push_back(c.ctx.prepare(
      dia ? formats_kernel("dia_rows") : formats_kernel("ell_rows", r.column_major, r.row_lengths),
      sparse_kernel_traits(dia ? "dia_spmv" : "ell_spmv", element_of<T>::value), ProblemSize(c.a.rows()), c.options));
  decide_row_format(p.kernels[0].plan, format, r);
  p.plan = p.kernels[0].plan;
  return p;
}

template <class T>
void launch_format(const SpmvCall<T>& c, SparseFormat format, const PreparedSpmv& p) {
  const RowFormatArrays r = row_format_arrays(c.a, format, c.device_class());
  const cl_ulong rows = c.a.rows();
  if (format == SparseFormat::dia)
    kernel_call::launch(c.ctx, p.kernels[0], rows, static_cast<cl_ulong>(c.a.cols()), r.count, r.pitch, r.index,
                        r.values, c.x, c.alpha, c.beta, c.y);
  else
    kernel_call::launch(c.ctx, p.kernels[0], rows, r.count, r.pitch, r.lengths, r.index, r.values, c.x, c.alpha, c.beta,
                        c.y);
}

template PreparedSpmv prepare_format<float>(const SpmvCall<float>&, SparseFormat);
template PreparedSpmv prepare_format<double>(const SpmvCall<double>&, SparseFormat);
template void launch_format<float>(const SpmvCall<float>&, SparseFormat, const PreparedSpmv&);
template void launch_format<double>(const SpmvCall<double>&, SparseFormat, const PreparedSpmv&);
template RowFormatArrays row_format_arrays<float>(const SparseMatrix<float>&, SparseFormat, DeviceClass);
template RowFormatArrays row_format_arrays<double>(const SparseMatrix<double>&, SparseFormat, DeviceClass);
template LaunchPlan run_format<float>(const SpmvCall<float>&, SparseFormat);
template LaunchPlan run_format<double>(const SpmvCall<double>&, SparseFormat);

}  // namespace portacl
