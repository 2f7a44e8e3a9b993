// SPDX-License-Identifier: Apache-2.0
/// \file
/// Triangular solve: L x = b for lower-triangular L of order n, in place (x
/// holds b on entry), float and double, row- or column-major with leading
/// dimension and offset, vector offset and increment, unit or stored
/// diagonal, any n (0 and 1 included). Only the lower triangle is read.
/// Blocked: one work-group solves a block of unknowns as wide as a
/// sub-group (32 on NVIDIA, 64 on AMD GCN, the SIMD width on CPUs), then a
/// flow-down kernel updates the rest of the right-hand side, so the solve
/// takes 2 n / block launches. A zero on a non-unit diagonal gives inf/NaN
/// as in BLAS (no pivoting, no check). Errors, before any launch: a leading
/// dimension shorter than n, a buffer too small for the stated shape, an
/// increment of 0, a buffer of another context, x sharing memory with L
/// (where the elements each touches overlap).
#pragma once

#include <cstddef>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/matrix.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T, class = only_for<T, float, double>>
LaunchPlan trsv(Context& ctx, Layout layout, std::size_t n, MatrixRef<T> l, Buffer<T>& x, std::size_t offx = 0,
                std::size_t incx = 1, Diagonal diagonal = Diagonal::non_unit, const PlanOptions& options = {});

}  // namespace portacl
