// SPDX-License-Identifier: Apache-2.0
// Operands that share memory. Two Buffer objects alias when they are the
// same object, wrap the same cl_mem, are sub-buffers of one parent (or one
// is the parent of the other) with overlapping bytes, or use overlapping
// host memory (CL_MEM_USE_HOST_PTR). An operation that reads one operand
// while writing another refuses any overlap of the bytes it touches, before
// any launch; an element-wise one accepts the very same bytes (in place)
// and refuses a shifted overlap.
#pragma once

#include <cstddef>

#include "portacl/buffer.hpp"

namespace portacl {
namespace aliasing {

/// The bytes [first, first + count) of a buffer that an operand touches.
struct Touched {
  const BufferStorage& buffer;
  std::size_t first = 0;
  std::size_t count = 0;  ///< bytes
};

/// All of `b`.
inline Touched whole(const BufferStorage& b) { return Touched{b, 0, b.bytes()}; }
/// Elements offset, offset + inc, ..., of n elements of size `element` (the
/// span from the first to the last; a strided pair inside it counts as overlap).
Touched strided(const BufferStorage& b, std::size_t element, std::size_t offset, std::size_t n, std::size_t inc);

enum class Overlap { none, same, partial };
/// How the memory of `a` and `b` overlaps.
Overlap overlap(const Touched& a, const Touched& b);

/// Refuses any overlap: "<op>: <written> and <read> share memory (...)".
void refuse_overlap(const char* op, const Touched& written, const char* written_name, const Touched& read,
                    const char* read_name, const char* why);
/// Element-wise operations: the same bytes (in place) pass, a shifted overlap is refused.
void refuse_shifted_overlap(const char* op, const Touched& written, const char* written_name, const Touched& read,
                            const char* read_name);

}  // namespace aliasing
}  // namespace portacl
