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
#include "portacl/rules/tuning_space.hpp"

namespace portacl {

/// Two kernels, by which index of op(A) is contiguous in memory (each its
/// own tuning key): rows (a team of work-items per row, combined in local
/// memory) or columns (VW rows of y per work-item, chunks of columns spread
/// over work-groups and added up by a second kernel).
enum class GemvPath { rows, columns };
KernelTraits gemv_traits(ElementType element, GemvPath path);
/// work-group size, vector width (rows path: along a row; columns path: rows
/// of y per work-item), groups per compute unit
/// (columns path: how many chunks), TEAM: work-items per row (rows path;
/// the rules take the sub-group width on GPUs, 1 on CPUs).
const TuningSpace& gemv_tunables();

template <class T, class = only_for<T, float, double>>
LaunchPlan gemv(Context& ctx, Layout layout, Transpose trans, std::size_t m, std::size_t n, T alpha, MatrixRef<T> a,
                VectorRef<T> x, T beta, Buffer<T>& y, std::size_t offy = 0, std::size_t incy = 1,
                const PlanOptions& options = {});

}  // namespace portacl
