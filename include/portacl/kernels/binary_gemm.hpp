// SPDX-License-Identifier: Apache-2.0
/// \file
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
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// 32-bit words a row of `k` packed signs takes: ceil(k / 32).
constexpr std::size_t packed_words(std::size_t k) { return (k + 31) / 32; }

struct PackOptions {
  /// false: pack each of the `rows` rows of a rows x k row-major matrix;
  /// true: pack each of the `rows` columns of a k x rows row-major matrix
  /// (B's columns for C = A B).
  bool by_columns = false;
  PlanOptions plan;
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
