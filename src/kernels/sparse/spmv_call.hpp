// SPDX-License-Identifier: Apache-2.0
// One SpMV call as the method launchers see it: operands already checked,
// alpha != 0 and the matrix not empty.
#pragma once

#include "portacl/sparse.hpp"
#include "rules/row_team.hpp"
#include "sparse_storage.hpp"

namespace portacl {

template <class T>
struct SpmvCall {
  Context& ctx;
  const SparseMatrix<T>& a;
  const Buffer<T>& x;
  T alpha, beta;
  Buffer<T>& y;
  const PlanOptions& options;
  // The device the plan is made for (options.plan_as, or the context's).
  const DeviceInfo& planned_for() const { return options.plan_as ? *options.plan_as : ctx.info(); }
  // Its class (the context's own is classified once, when it is made).
  DeviceClass device_class() const {
    return options.plan_as ? classify(*options.plan_as).device_class : ctx.device().classification().device_class;
  }
};

// The CSR variants (csr_spmv.cpp) and the other formats (format_spmv.cpp).
template <class T>
LaunchPlan run_csr(const SpmvCall<T>& call, CsrVariant variant);
template <class T>
LaunchPlan run_format(const SpmvCall<T>& call, SparseFormat format);

// The methods whose preparation is kept between calls (sparse_storage.hpp's
// PreparedSpmv): csr-block, csr-merge, ELL, ELLPACK-R and DIA, the rules'
// usual choices on GPUs.
bool spmv_keeps_preparation(const SpmvMethod& method);
// csr-block's or csr-merge's (csr_spmv.cpp).
template <class T>
PreparedSpmv prepare_csr(const SpmvCall<T>& call, CsrVariant variant);
template <class T>
void launch_csr(const SpmvCall<T>& call, CsrVariant variant, const PreparedSpmv& prepared);
template <class T>
PreparedSpmv prepare_csr_merge(const SpmvCall<T>& call);  // csr_merge.cpp
template <class T>
void launch_csr_merge(const SpmvCall<T>& call, const PreparedSpmv& prepared);
// The arrays of a format whose kernels give a work-item a row (DIA, ELL,
// ELLPACK-R), as those kernels take them, made on first use; the products
// and CG's fused product (krylov.cpp) read them alike.
struct RowFormatArrays {
  cl_uint count = 0;                              ///< DIA's diagonals, ELL's width
  cl_ulong pitch = 0;                             ///< between diagonals, or slot columns (column-major ELL)
  cl::Buffer index;                               ///< DIA's offsets (long), ELL's columns (uint)
  cl::Buffer values, lengths;                     ///< lengths: ELLPACK-R's row lengths
  bool column_major = true, row_lengths = false;  ///< ELL's layout (rule sparse.ell-layout), ELLPACK-R
};
template <class T>
RowFormatArrays row_format_arrays(const SparseMatrix<T>& a, SparseFormat format, DeviceClass device_class);
/// Records the format's decisions (rules sparse.dia-banded, sparse.ell-layout).
void decide_row_format(LaunchPlan& plan, SparseFormat format, const RowFormatArrays& arrays);
template <class T>
PreparedSpmv prepare_format(const SpmvCall<T>& call, SparseFormat format);  // format_spmv.cpp: ELL, ELL-R, DIA
template <class T>
void launch_format(const SpmvCall<T>& call, SparseFormat format, const PreparedSpmv& prepared);

}  // namespace portacl
