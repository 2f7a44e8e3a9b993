// SPDX-License-Identifier: Apache-2.0
// The host reference of the all-pairs N-body sum, shared by the tests and
// the tuner's and bench's checks: double precision, every pair, with the
// magnitude each result's rounding error scales with.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace portacl::reference {

struct NbodyExact {
  double a[3] = {0, 0, 0}, phi = 0;
  double a_magnitude = 0, phi_magnitude = 0;  ///< sums of |terms|
};

// Body i of `bodies` (x, y, z, m per body) under softening eps and G.
inline NbodyExact nbody_body(const std::vector<float>& bodies, std::size_t i, double eps, double g) {
  NbodyExact e;
  const double xi = bodies[4 * i], yi = bodies[4 * i + 1], zi = bodies[4 * i + 2];
  for (std::size_t j = 0; j < bodies.size() / 4; ++j) {
    const double d[3] = {bodies[4 * j] - xi, bodies[4 * j + 1] - yi, bodies[4 * j + 2] - zi};
    const double m = bodies[4 * j + 3];
    const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps * eps);
    for (int c = 0; c < 3; ++c) {
      e.a[c] += g * m * d[c] / (r * r * r);
      e.a_magnitude += std::fabs(g * m * d[c] / (r * r * r));
    }
    // A body's own term is not in phi, nor in its rounding: the device
    // leaves it out (it once added m_i / eps and took it off again, and
    // this magnitude, counting that term, hid the lost digits).
    if (j == i) continue;
    e.phi -= g * m / r;
    e.phi_magnitude += std::fabs(g * m / r);
  }
  return e;
}

// "" when body i's acceleration and potential in `got` (ax, ay, az, phi per
// body) are each within `relative` of the reference's magnitude, else what
// differs. A float sum over n pairs errs by about sqrt(n) roundings of its
// magnitude.
inline std::string compare_nbody_body(const std::vector<float>& got, std::size_t i, const NbodyExact& want,
                                      double relative, bool potential) {
  const char* names[4] = {"ax", "ay", "az", "phi"};
  for (int c = 0; c < 4; ++c) {
    if (c == 3 && !potential) continue;
    const double w = c < 3 ? want.a[c] : want.phi, mag = c < 3 ? want.a_magnitude : want.phi_magnitude;
    const double v = got[4 * i + c];
    if (!(std::fabs(v - w) <= relative * mag + 1e-30))
      return "body " + std::to_string(i) + " " + names[c] + ": " + std::to_string(v) + ", want " + std::to_string(w) +
             " (terms' magnitude " + std::to_string(mag) + ")";
  }
  return "";
}

// The relative bound for n bodies in float: 16 roundings of sqrt(n) + 8.
inline double nbody_bound(std::size_t n) { return 16 * 5.96e-8 * (std::sqrt(double(n)) + 8); }

}  // namespace portacl::reference
