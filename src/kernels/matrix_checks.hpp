// SPDX-License-Identifier: Apache-2.0
// Shape checks and strides shared by the matrix routines: every bad shape
// is refused with a message naming the routine and operand, before any
// launch.
#pragma once

#include <cstddef>
#include <string>

#include "portacl/cl.hpp"
#include "portacl/error.hpp"
#include "portacl/blas.hpp"
#include "util/checked.hpp"
#include "aliasing.hpp"

namespace portacl {
namespace matrix_checks {

// How one operand is stored: `outer` lines of `inner` elements, `ld` apart.
struct Stored {
  std::size_t outer, inner;
};

// Rows and columns of the stored (untransposed) operand in the layout's terms.
inline Stored stored(Layout layout, std::size_t rows, std::size_t cols) {
  return layout == Layout::row_major ? Stored{rows, cols} : Stored{cols, rows};
}

// The bytes a stored operand touches: from its first element to the last
// element of its last line (the gaps between lines count: a conservative span).
inline aliasing::Touched touched(const BufferStorage& b, std::size_t element, const Stored& s, std::size_t offset,
                                 std::size_t ld) {
  if (s.outer == 0 || s.inner == 0) return aliasing::Touched{b, 0, 0};
  return aliasing::Touched{b, offset * element, ((s.outer - 1) * ld + s.inner) * element};
}

inline void check_matrix(const char* op, const char* name, const Stored& s, std::size_t offset, std::size_t ld,
                         std::size_t size, Layout layout) {
  if (s.outer == 0 || s.inner == 0) return;
  if (ld < s.inner)
    throw Error(std::string(op) + ": ld" + name + " is " + std::to_string(ld) + " but a stored " +
                (layout == Layout::row_major ? "row" : "column") + " of " + name + " has " + std::to_string(s.inner) +
                " elements");
  const std::string what = std::string(op) + ": " + name + "'s extent";
  const std::size_t needed =
      checked_sum(checked_sum(offset, checked_product(s.outer - 1, ld, what), what), s.inner, what);
  if (needed > size)
    throw Error(std::string(op) + ": " + name + " needs " + std::to_string(needed) + " elements (offset " +
                std::to_string(offset) + ", " + std::to_string(s.outer) + " x ld " + std::to_string(ld) +
                ") but its buffer has " + std::to_string(size));
}

inline void check_vector(const char* op, const char* name, std::size_t length, std::size_t offset, std::size_t inc,
                         std::size_t size) {
  if (inc == 0) throw Error(std::string(op) + ": inc" + name + " is 0 (it must be at least 1)");
  if (length == 0) return;
  const std::string what = std::string(op) + ": " + name + "'s extent";
  const std::size_t needed = checked_sum(checked_sum(offset, checked_product(length - 1, inc, what), what), 1, what);
  if (needed > size)
    throw Error(std::string(op) + ": " + name + " needs " + std::to_string(needed) + " elements (offset " +
                std::to_string(offset) + ", " + std::to_string(length) + " x inc " + std::to_string(inc) +
                ") but its buffer has " + std::to_string(size));
}

// Strides of element (r, c) of a stored operand.
inline void strides(Layout layout, std::size_t ld, cl_ulong& row, cl_ulong& col) {
  row = layout == Layout::row_major ? ld : 1;
  col = layout == Layout::row_major ? 1 : ld;
}

}  // namespace matrix_checks
}  // namespace portacl
