// SPDX-License-Identifier: Apache-2.0
// The double-precision host references of the stencils, shared by the tests
// and portacl-bench.
#pragma once

#include <cstddef>
#include <vector>

namespace portacl::reference {

// `steps` explicit steps of the 2D heat equation on a rows x cols grid by
// rows, the edge cells kept.
template <class V>
std::vector<double> heat2d(const std::vector<V>& u0, std::size_t rows, std::size_t cols, double r, std::size_t steps) {
  std::vector<double> u(u0.begin(), u0.end()), next = u;
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t i = 1; i + 1 < rows; ++i)
      for (std::size_t j = 1; j + 1 < cols; ++j) {
        const std::size_t at = i * cols + j;
        next[at] = u[at] + r * (u[at - cols] + u[at + cols] + u[at - 1] + u[at + 1] - 4 * u[at]);
      }
    u.swap(next);
    next = u;
  }
  return u;
}

}  // namespace portacl::reference
