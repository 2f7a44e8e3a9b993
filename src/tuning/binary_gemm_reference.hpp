// SPDX-License-Identifier: Apache-2.0
// The host reference of the binary GEMM, shared by the tests, the tuner and
// portacl-bench: the signs' product summed term by term in double (not by
// popcount, so the device's identity K - 2 popcount(a xor b) is checked by
// an independent method), and the packing it must agree with bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "host_reference.hpp"

namespace portacl::reference {

// `count` floats uniform in [-1, 1) from `seed`: the signs' source.
inline std::vector<float> random_signs_source(std::size_t count, std::uint64_t seed) {
  return uniform_floats(count, seed);
}

// -1 where x < 0, else +1 (0, -0 and NaN are +1): the packing's sign.
inline double sign_of(float x) { return x < 0.0f ? -1.0 : 1.0; }

// The packed words of `rows` rows of k signs, from a row-major rows x k
// matrix, or (by_columns) from the columns of a row-major k x rows one.
inline std::vector<std::uint32_t> packed_signs(const std::vector<float>& x, std::size_t rows, std::size_t k,
                                               bool by_columns) {
  const std::size_t words = (k + 31) / 32;
  std::vector<std::uint32_t> p(rows * words, 0u);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t e = 0; e < k; ++e) {
      const float v = by_columns ? x[e * rows + r] : x[r * k + e];
      if (sign_of(v) < 0) p[r * words + e / 32] |= 1u << (e % 32);
    }
  return p;
}

// Entry (i, j) of C = A B of the signs of a (m x k, row-major) and b (k x
// n, row-major), each term added in double: an integer of at most k.
inline int sign_product_entry(const std::vector<float>& a, const std::vector<float>& b, std::size_t n, std::size_t k,
                              std::size_t i, std::size_t j) {
  double s = 0;
  for (std::size_t e = 0; e < k; ++e) s += sign_of(a[i * k + e]) * sign_of(b[e * n + j]);
  return static_cast<int>(s);
}

// The whole of C = A B, m x n row-major.
inline std::vector<int> sign_product(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                                     std::size_t n, std::size_t k) {
  std::vector<int> c(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) c[i * n + j] = sign_product_entry(a, b, n, k, i, j);
  return c;
}

// "" when got (m rows of ldc, the first n of each) equals want exactly.
inline std::string compare_product(const std::vector<int>& got, const std::vector<int>& want, std::size_t m,
                                   std::size_t n, std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (got[i * ldc + j] != want[i * n + j])
        return "c[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(got[i * ldc + j]) +
               ", want " + std::to_string(want[i * n + j]);
  return "";
}

}  // namespace portacl::reference
