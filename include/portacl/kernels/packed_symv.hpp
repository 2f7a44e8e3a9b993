// SPDX-License-Identifier: Apache-2.0
/// \file
/// Symmetric matrix-vector product on packed storage, packed_symv (BLAS
/// xSPMV; portacl's spmv is the sparse product of portacl/kernels/sparse.hpp): y = alpha * A x + beta * y, float and
/// double, A of order n given by its lower triangle row by row, element (i, j), i >= j, at ap[offap + i (i + 1) / 2 +
/// j]: n (n + 1) / 2 elements, half of a full matrix's memory and traffic. Any n (0 and 1 included), offsets and
/// increments. Errors, before any launch: a buffer too small for the stated
/// order, an increment of 0, a buffer of another context, y sharing memory
/// with AP or x (where the elements each touches overlap).
#pragma once

#include <cstddef>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/matrix.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T, class = only_for<T, float, double>>
LaunchPlan packed_symv(Context& ctx, std::size_t n, T alpha, const Buffer<T>& ap, std::size_t offap, VectorRef<T> x,
                       T beta, Buffer<T>& y, std::size_t offy = 0, std::size_t incy = 1,
                       const PlanOptions& options = {});

/// The name this product had before 0.3: spmv now names only the sparse
/// product, so the packed one is packed_symv.
template <class T, class = only_for<T, float, double>>
[[deprecated("use packed_symv: spmv is the sparse product")]] LaunchPlan spmv(
    Context& ctx, std::size_t n, T alpha, const Buffer<T>& ap, std::size_t offap, VectorRef<T> x, T beta, Buffer<T>& y,
    std::size_t offy = 0, std::size_t incy = 1, const PlanOptions& options = {}) {
  return packed_symv(ctx, n, alpha, ap, offap, x, beta, y, offy, incy, options);
}

}  // namespace portacl
