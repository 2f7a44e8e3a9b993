// SPDX-License-Identifier: Apache-2.0
/// \file
/// Matrix-vector product: y = alpha * op(A) x + beta * y, float and double,
/// row- or column-major, A or its transpose, leading dimension and offsets,
/// vector increments, any size (0 and 1 included). op(A) is m x n, x has n
/// elements and y m. Errors, before any launch: a leading dimension shorter
/// than a stored row (row-major) or column (column-major), a buffer too
/// small for the stated shape, an increment of 0, a buffer of another
/// context, y sharing memory with A or x (the same buffer, a handle to it or
/// an overlapping sub-buffer, where the elements each touches overlap; as
/// in BLAS, y must not alias an input).
#pragma once

#include <cstddef>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/matrix.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T, class = only_for<T, float, double>>
LaunchPlan gemv(Context& ctx, Layout layout, Transpose trans, std::size_t m, std::size_t n, T alpha, MatrixRef<T> a,
                VectorRef<T> x, T beta, Buffer<T>& y, std::size_t offy = 0, std::size_t incy = 1,
                const PlanOptions& options = {});

}  // namespace portacl
