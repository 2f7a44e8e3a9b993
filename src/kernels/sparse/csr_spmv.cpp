// SPDX-License-Identifier: Apache-2.0
#include "portacl/error.hpp"
#include "portacl/kernels/sparse_matrix.hpp"
#include "portacl/kernels/stream.hpp"
#include "../kernel_call.hpp"

namespace portacl {

KernelTraits csr_spmv_traits(ElementType element) {
  KernelTraits t;
  t.name = "csr_spmv";
  t.element = element;
  t.dimensions = 1;
  t.vectorizable = false;  // rows of any length: one scalar walk per row
  // Per row, for a typical row of a few entries: its values and column
  // indices, two row pointers, y; x is gathered.
  t.bytes_per_item = 4.0 * static_cast<double>(size_of(element)) + 16.0;
  t.flops_per_item = 8;
  t.tunables = &csr_spmv_tunables();
  return t;
}

const TuningSpace& csr_spmv_tunables() {
  static const TuningSpace space{{knobs::work_group_size(), knobs::groups_per_compute_unit()}, nullptr};
  return space;
}

template <class T, class>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const PlanOptions& options) {
  if (&a.context() != &ctx) throw Error("spmv: the sparse matrix A belongs to another context");
  kernel_call::same_context(ctx, x, "spmv", "x");
  kernel_call::same_context(ctx, y, "spmv", "y");
  if (x.size() != a.cols())
    throw Error("spmv: x has " + std::to_string(x.size()) + " elements but A has " + std::to_string(a.cols()) +
                " columns");
  if (y.size() != a.rows())
    throw Error("spmv: y has " + std::to_string(y.size()) + " elements but A has " + std::to_string(a.rows()) +
                " rows");
  if (alpha == T(0) || a.nnz() == 0) {
    // BLAS: A and x are not read; y = beta y, and beta = 0 does not read y.
    return beta == T(0) ? fill(ctx, y, T(0), options) : scale(ctx, beta, y, options);
  }
  const std::string row_type = a.wide_row_pointers() ? "ulong" : "uint";
  const KernelRef ref{"csr_spmv_" + row_type + ".cl", "csr_scalar",
                      "#define ROW_T " + row_type + "\n#include \"csr_spmv.cl\"\n"};
  return kernel_call::launch_1d(ctx, ref, csr_spmv_traits(element_of<T>::value), a.rows(), options, a.row_pointers(),
                                a.columns(), a.values(), x, alpha, beta, y);
}

template LaunchPlan spmv<float>(Context&, float, const SparseMatrix<float>&, const Buffer<float>&, float,
                                Buffer<float>&, const PlanOptions&);
template LaunchPlan spmv<double>(Context&, double, const SparseMatrix<double>&, const Buffer<double>&, double,
                                 Buffer<double>&, const PlanOptions&);

}  // namespace portacl
