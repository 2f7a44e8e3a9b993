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

/// n uniform keys of K (all 2^32 or 2^64 of them) with 32-bit values.
template <class K>
struct BasicSortCase {
  BasicSortCase(Context& ctx, std::size_t n);
  std::vector<K> host_keys;                       ///< uniform over all of K, drawn from a fixed seed and n
  Buffer<K> pristine, keys;                       ///< keys: what a call sorts
  Buffer<std::uint32_t> pristine_values, values;  ///< 0 .. n-1: where each key came from
  /// Copies the unsorted keys (and values) back on the device.
  void restore(Context& ctx, bool with_values);
  /// "" when keys (and values) hold the stable order of the host keys.
  std::string verify(bool with_values);

 private:
  std::vector<K> want_keys_;
  std::vector<std::uint32_t> want_values_;  // computed on first use
};
using SortCase = BasicSortCase<std::uint32_t>;

/// The workload's sort case of K keys, made on first use.
template <class K = std::uint32_t>
BasicSortCase<K>& sort_case(Workload& w);

}  // namespace portacl
