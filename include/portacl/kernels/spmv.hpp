// SPDX-License-Identifier: Apache-2.0
/// \file
/// Symmetric matrix-vector product on packed storage (BLAS SPMV, the SYMV of
/// a packed matrix): y = alpha * A x + beta * y, float and double, A of
/// order n given by its lower triangle row by row, element (i, j), i >= j,
/// at ap[offap + i (i + 1) / 2 + j]: n (n + 1) / 2 elements, half of a full
/// matrix's memory and traffic. Any n (0 and 1 included), offsets and
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
#include "portacl/rules/tuning_space.hpp"

namespace portacl {

KernelTraits spmv_traits(ElementType element);
/// work-group size, groups per compute unit, BLOCK: the side of the square
/// blocks staged in local memory.
const TuningSpace& spmv_tunables();

template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, std::size_t n, T alpha, const Buffer<T>& ap, std::size_t offap, VectorRef<T> x, T beta,
                Buffer<T>& y, std::size_t offy = 0, std::size_t incy = 1, const PlanOptions& options = {});

}  // namespace portacl
