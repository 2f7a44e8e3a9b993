// SPDX-License-Identifier: Apache-2.0
// The host reference of the radix sort, shared by the tests, the tuner and
// portacl-bench: std::stable_sort under the order the sort promises.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace portacl::reference {

// The sort's order: values as such, -0.0 equal to +0.0 (operator<), every
// NaN after everything else and equal to every other NaN.
template <class K>
bool sort_before(K a, K b) {
  if constexpr (std::is_floating_point<K>::value) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// Where each key of the stably sorted order comes from; descending: that
// order reversed (NaNs first), equal keys still in their input order.
template <class K>
std::vector<std::size_t> stable_order(const std::vector<K>& keys, bool descending = false) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return descending ? sort_before(keys[j], keys[i]) : sort_before(keys[i], keys[j]);
  });
  return order;
}

// xs taken in `order`.
template <class X>
std::vector<X> gathered(const std::vector<X>& xs, const std::vector<std::size_t>& order) {
  std::vector<X> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = xs[order[i]];
  return out;
}

// "" when got and want hold the same bits element by element (a NaN's
// payload and the sign of a zero included), else the first that differs.
template <class X>
std::string compare_bits(const std::vector<X>& got, const std::vector<X>& want, const char* what) {
  static_assert(sizeof(X) == 4 || sizeof(X) == 8, "32-bit or 64-bit words");
  if (got.size() != want.size())
    return std::string(what) + ": " + std::to_string(got.size()) + " elements, want " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    std::uint64_t g = 0, w = 0;
    std::memcpy(&g, &got[i], sizeof(X));
    std::memcpy(&w, &want[i], sizeof(X));
    if (g != w)
      return std::string(what) + " " + std::to_string(i) + ": " + std::to_string(got[i]) + " (bits " +
             std::to_string(g) + "), want " + std::to_string(want[i]) + " (bits " + std::to_string(w) + ")";
  }
  return "";
}

}  // namespace portacl::reference
