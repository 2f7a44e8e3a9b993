// SPDX-License-Identifier: Apache-2.0
/// \file
/// The dense linear algebra family: matrices, GEMM, GEMV, TRSV, packed SYMV
/// and binary GEMM.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/plan.hpp"
#include "portacl/vectors.hpp"

// ---- matrix ------------------------------------------------------------------
/// How BLAS-style routines name their operands: the storage layout, whether
/// an operand is transposed, and a matrix or vector as buffer, offset of
/// the first element and leading dimension (matrices) or increment (vectors).
namespace portacl {

/// How a matrix is stored: rows contiguous (C) or columns contiguous (Fortran, BLAS).
enum class Layout { row_major, column_major };
/// Whether an operand enters as itself or transposed.
enum class Transpose { no, yes };
/// Triangular solves: unit takes the diagonal as 1 and never reads it.
enum class Diagonal { non_unit, unit };

/// A matrix in a buffer: element (i, j) at buffer[offset + i ld + j]
/// (row-major) or buffer[offset + j ld + i] (column-major).
template <class T>
struct MatrixRef {
  const Buffer<T>& buffer;  ///< the elements
  std::size_t offset;       ///< the first element's index
  std::size_t ld;           ///< the leading dimension: elements between rows (columns)
};

/// Element i is buffer[offset + i * inc]; inc >= 1.
template <class T>
struct VectorRef {
  const Buffer<T>& buffer;  ///< the elements
  std::size_t offset = 0;   ///< the first element's index
  std::size_t inc = 1;      ///< elements between two of the vector's
};

}  // namespace portacl

// ---- gemm --------------------------------------------------------------------
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
namespace portacl {

/// Who computes the product. automatic: the tuning database's choice for
/// this device and size (BACKEND, measured by portacl-tune against the
/// library's own kernels), else the library's own kernels.
enum class GemmBackend { automatic, portacl, clblast };

/// Who computes a GEMM, and the plan options of the library's kernels.
struct GemmOptions {
  GemmBackend backend = GemmBackend::automatic;  ///< who computes it
  PlanOptions plan;                              ///< for the library's own kernels
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

// ---- gemv --------------------------------------------------------------------
/// Matrix-vector product: y = alpha * op(A) x + beta * y, float and double,
/// row- or column-major, A or its transpose, leading dimension and offsets,
/// vector increments, any size (0 and 1 included). op(A) is m x n, x has n
/// elements and y m. Errors, before any launch: a leading dimension shorter
/// than a stored row (row-major) or column (column-major), a buffer too
/// small for the stated shape, an increment of 0, a buffer of another
/// context, y sharing memory with A or x (the same buffer, a handle to it or
/// an overlapping sub-buffer, where the elements each touches overlap; as
/// in BLAS, y must not alias an input).
namespace portacl {

/// y = alpha op(A) x + beta y (above).
template <class T, class = only_for<T, float, double>>
LaunchPlan gemv(Context& ctx, Layout layout, Transpose trans, std::size_t m, std::size_t n, T alpha, MatrixRef<T> a,
                VectorRef<T> x, T beta, Buffer<T>& y, std::size_t offy = 0, std::size_t incy = 1,
                const PlanOptions& options = {});

}  // namespace portacl

// ---- trsv --------------------------------------------------------------------
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
namespace portacl {

/// Solves L x = b in place (above).
template <class T, class = only_for<T, float, double>>
LaunchPlan trsv(Context& ctx, Layout layout, std::size_t n, MatrixRef<T> l, Buffer<T>& x, std::size_t offx = 0,
                std::size_t incx = 1, Diagonal diagonal = Diagonal::non_unit, const PlanOptions& options = {});

}  // namespace portacl

// ---- packed symv -------------------------------------------------------------
/// Symmetric matrix-vector product on packed storage, packed_symv (BLAS
/// xSPMV; portacl's spmv is the sparse product of portacl/kernels/sparse.hpp): y = alpha * A x + beta * y, float and
/// double, A of order n given by its lower triangle row by row, element (i, j), i >= j, at ap[offap + i (i + 1) / 2 +
/// j]: n (n + 1) / 2 elements, half of a full matrix's memory and traffic. Any n (0 and 1 included), offsets and
/// increments. Errors, before any launch: a buffer too small for the stated
/// order, an increment of 0, a buffer of another context, y sharing memory
/// with AP or x (where the elements each touches overlap).
namespace portacl {

/// y = alpha A x + beta y with A packed (above).
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

// ---- binary gemm -------------------------------------------------------------
/// Binary matrix products of +-1 matrices (binarised networks): signs packed 32 to a
/// 32-bit word, bit 1 for -1 and bit 0 for +1, along the summed dimension
/// K. The product of two packed rows is K - 2 popcount(a xor b) summed over
/// their words: the count of agreeing signs less the count of disagreeing
/// ones, exactly the float product of the same signs.
///
/// A product C = A B of an M x K matrix A and a K x N matrix B takes A's
/// rows packed (M rows of ceil(K/32) words) and B's columns packed (N rows
/// of ceil(K/32) words): `pack_signs` packs either from row-major floats.
/// A float x packs as -1 where x < 0 and as +1 otherwise (0, -0 and NaN
/// are +1). The last word of a row is padded with +1 signs in both
/// operands, whose agreements the product takes off again.
///
/// Zero dimensions, as BLAS takes them: m = 0 or n = 0 is nothing to
/// compute (no launch, C untouched); k = 0 makes C the m x n zero matrix
/// (the empty sum; A and B hold no words and are not read).
///
/// Errors, before any launch: buffers too small for the shapes, ldc below
/// n, K past 2^31 - 1 (C is int), buffers of another context or sharing
/// memory.
namespace portacl {

/// 32-bit words a row of `k` packed signs takes: ceil(k / 32).
constexpr std::size_t packed_words(std::size_t k) { return (k + 31) / 32; }

/// What pack_signs packs.
struct PackOptions {
  /// false: pack each of the `rows` rows of a rows x k row-major matrix;
  /// true: pack each of the `rows` columns of a k x rows row-major matrix
  /// (B's columns for C = A B).
  bool by_columns = false;
  PlanOptions plan;  ///< for the packing launch
};

/// Packs the signs of `rows` rows (or columns) of k floats into
/// rows x packed_words(k) words of `packed`.
LaunchPlan pack_signs(Context& ctx, const Buffer<float>& x, std::size_t rows, std::size_t k,
                      Buffer<std::uint32_t>& packed, const PackOptions& options = {});

/// The signs of rows x k packed words back as -1.0f and +1.0f, row-major.
LaunchPlan unpack_signs(Context& ctx, const Buffer<std::uint32_t>& packed, std::size_t rows, std::size_t k,
                        Buffer<float>& x, const PlanOptions& options = {});

/// C (m x n ints, row-major with leading dimension ldc >= n) = A B for A's
/// m rows and B's n columns packed along k: c[i][j] = k - 2 popcount(a_i
/// xor b_j). Returns the plan of the product; its decisions say which
/// variant ran (local-memory tiles or rows) and why.
LaunchPlan binary_gemm(Context& ctx, std::size_t m, std::size_t n, std::size_t k, const Buffer<std::uint32_t>& a,
                       const Buffer<std::uint32_t>& b, Buffer<int>& c, std::size_t ldc,
                       const PlanOptions& options = {});

}  // namespace portacl
