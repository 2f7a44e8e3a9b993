// SPDX-License-Identifier: Apache-2.0
/// \file
/// How BLAS-style routines name their operands: the storage layout, whether
/// an operand is transposed, and a matrix or vector as buffer, offset of
/// the first element and leading dimension (matrices) or increment (vectors).
#pragma once

#include <cstddef>

#include "portacl/runtime/buffer.hpp"

namespace portacl {

enum class Layout { row_major, column_major };
enum class Transpose { no, yes };
/// Triangular solves: unit takes the diagonal as 1 and never reads it.
enum class Diagonal { non_unit, unit };

template <class T>
struct MatrixRef {
  const Buffer<T>& buffer;
  std::size_t offset;
  std::size_t ld;
};

/// Element i is buffer[offset + i * inc]; inc >= 1.
template <class T>
struct VectorRef {
  const Buffer<T>& buffer;
  std::size_t offset = 0;
  std::size_t inc = 1;
};

}  // namespace portacl
