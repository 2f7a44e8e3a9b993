// SPDX-License-Identifier: Apache-2.0
// The sort family's benchmark problem, shared by its operations and the
// baselines portacl-bench supplies (Boost.Compute's sort): the same keys for
// every library, restored before each timed call because a sort works in
// place.
#pragma once

#include <cstdint>
#include <vector>

#include "operations.hpp"

namespace portacl {

struct SortCase {
  SortCase(Context& ctx, std::size_t n);
  std::vector<std::uint32_t> host_keys;           ///< uniform over all 2^32, drawn from a fixed seed and n
  Buffer<std::uint32_t> pristine, keys;           ///< keys: what a call sorts
  Buffer<std::uint32_t> pristine_values, values;  ///< 0 .. n-1: where each key came from
  /// Copies the unsorted keys (and values) back on the device.
  void restore(Context& ctx, bool with_values);
  /// "" when keys (and values) hold the stable order of the host keys.
  std::string verify(bool with_values);

 private:
  std::vector<std::uint32_t> want_keys_, want_values_;  // computed on first use
};

/// The workload's sort case, made on first use.
SortCase& sort_case(Workload& w);

}  // namespace portacl
