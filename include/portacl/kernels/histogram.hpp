// SPDX-License-Identifier: Apache-2.0
/// \file
/// Histogram of 32-bit unsigned keys: counts[b] is how many keys fall in bin
/// b, for the counts.size() bins of the call. A key's bin is key >> shift,
/// or with `wrap` (key >> shift) mod bins, the digit a radix sort counts
/// (bins then a power of two). Keys whose bin is counts.size() or more are
/// not counted: the counts add up to the keys in range. Any number of keys
/// and bins (1 to 2^28). Counts are overwritten. Errors, before any launch:
/// no bins, more than 2^28 bins, wrap with a bin count that is not a power
/// of two, a shift of 32 or more, more than 2^32 - 1 keys (a count would
/// overflow), buffers of another context or sharing memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/kernels/element.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct HistogramOptions {
  unsigned shift = 0;  ///< bits dropped from each key before binning
  bool wrap = false;   ///< bin = (key >> shift) mod bins instead of refusing keys past the last bin
  PlanOptions plan;
};

/// Returns the plan of the counting launch; its decisions say which variant
/// ran and why (local-memory bins, global atomics or per-work-item rows).
LaunchPlan histogram(Context& ctx, const Buffer<std::uint32_t>& keys, Buffer<std::uint32_t>& counts,
                     const HistogramOptions& options = {});

}  // namespace portacl
