// SPDX-License-Identifier: Apache-2.0
// The host reference of Lennard-Jones forces and energy, shared by the
// tests and the bench: every pair by the minimum image, in double.
#pragma once

#include <cmath>
#include <vector>

#include "neighbour_reference.hpp"
#include "portacl/kernels/particles/lennard_jones.hpp"

namespace portacl::reference {

struct LjExact {
  double energy = 0;
  std::vector<double> force, magnitude;  ///< 3 a particle; magnitude: the sums of |pair terms|
};

inline LjExact lennard_jones(const std::vector<float>& p, const double box[3], const LennardJones& lj) {
  const std::size_t n = p.size() / 4;
  LjExact e;
  e.force.assign(3 * n, 0.0);
  e.magnitude.assign(3 * n, 0.0);
  const double rc = lj.cutoff;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      double d[3];
      for (int c = 0; c < 3; ++c) {
        d[c] = double(p[4 * i + c]) - double(p[4 * j + c]);
        d[c] -= box[c] * std::nearbyint(d[c] / box[c]);
      }
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 >= rc * rc) continue;
      const std::size_t t = static_cast<std::size_t>(p[4 * i + 3]) * lj.types + static_cast<std::size_t>(p[4 * j + 3]);
      const double eps = lj.epsilon[t], s2 = double(lj.sigma[t]) * lj.sigma[t];
      const double sr6 = std::pow(s2 / r2, 3), src6 = std::pow(s2 / (rc * rc), 3);
      e.energy += 4 * eps * (sr6 * sr6 - sr6) - (lj.shift ? 4 * eps * (src6 * src6 - src6) : 0.0);
      const double f_over_r = 24 * eps * (2 * sr6 * sr6 - sr6) / r2;
      for (int c = 0; c < 3; ++c) {
        e.force[3 * i + c] += f_over_r * d[c];
        e.force[3 * j + c] -= f_over_r * d[c];
        e.magnitude[3 * i + c] += std::fabs(f_over_r * d[c]);
        e.magnitude[3 * j + c] += std::fabs(f_over_r * d[c]);
      }
    }
  return e;
}

}  // namespace portacl::reference
