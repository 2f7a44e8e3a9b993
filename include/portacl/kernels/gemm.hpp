// SPDX-License-Identifier: Apache-2.0
/// \file
/// Dense matrix multiply: C = alpha * op(A) * op(B) + beta * C, float and
/// double, row- or column-major, either operand transposed, leading
/// dimensions and element offsets as in BLAS, any size (0 and 1 included).
/// op(A) is m x k, op(B) k x n, C m x n. Errors, before any launch: a leading
/// dimension shorter than a stored row (row-major) or column (column-major),
/// a buffer too small for the stated shape, a buffer of another context, C
/// sharing memory with A or B (the same buffer, a handle to it or an
/// overlapping sub-buffer, where the elements each touches overlap).
/// Products of 64^3 multiply-adds and more pack op(A) and op(B) first into
/// device scratch memory of (m + n) k elements (rounded up to whole tiles),
/// which the Context keeps for later calls: 512 MiB for two 8192^2 float
/// operands.
#pragma once

#include <cstddef>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/matrix.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// Who computes the product. automatic: the tuning database's choice for
/// this device and size (BACKEND, measured by portacl-tune against the
/// library's own kernels), else the library's own kernels.
enum class GemmBackend { automatic, portacl, clblast };

struct GemmOptions {
  GemmBackend backend = GemmBackend::automatic;
  PlanOptions plan;  ///< for the library's own kernels
  GemmOptions() = default;
  GemmOptions(const PlanOptions& p) : plan(p) {}  ///< NOLINT: plan options alone choose automatically
  GemmOptions(GemmBackend b) : backend(b) {}      ///< NOLINT
};

/// Returns the plan of the launch; with CLBlast its decisions say so
/// ("backend": "CLBlast").
template <class T, class = only_for<T, float, double>>
LaunchPlan gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n, std::size_t k,
                T alpha, MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc,
                const GemmOptions& options = {});

/// `batch` products at once, as cuBLAS's and CLBlast's strided-batched
/// GEMM: C_i = alpha op(A_i) op(B_i) + beta C_i for i < batch, where A_i
/// starts stride_a elements after A_{i-1} (B and C likewise; a stride of 0
/// shares one matrix between the products, except C's). Packed products
/// are one launch of each kernel over the whole batch, which fills a GPU
/// that one small product leaves half idle; the panels take batch times
/// the scratch of one. Errors as gemm's, for every product, and C's
/// matrices overlapping each other (stride_c shorter than one C).
template <class T, class = only_for<T, float, double>>
LaunchPlan gemm_strided_batched(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n,
                                std::size_t k, T alpha, MatrixRef<T> a, std::size_t stride_a, MatrixRef<T> b,
                                std::size_t stride_b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc,
                                std::size_t stride_c, std::size_t batch, const GemmOptions& options = {});

}  // namespace portacl
