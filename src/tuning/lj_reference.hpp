// SPDX-License-Identifier: Apache-2.0
// The host reference of Lennard-Jones forces and energy, shared by the
// tests and the bench: every pair by the minimum image, in double.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "neighbour_reference.hpp"
#include "portacl/kernels/particles/lennard_jones.hpp"

namespace portacl::reference {

struct LjExact {
  double energy = 0;
  std::vector<double> force, magnitude;  ///< 3 a particle; magnitude: the sums of |pair terms|
};

// The pair (i, j): its separation by the minimum image, and, within the
// cutoff, F / r on i and the pair's energy.
struct LjPair {
  bool within = false;
  double d[3] = {0, 0, 0};
  double f_over_r = 0, energy = 0;
};

// P: float or double positions, 4 a particle.
template <class P>
LjPair lj_pair(const std::vector<P>& p, std::size_t i, std::size_t j, const double box[3], const LennardJones& lj) {
  LjPair q;
  for (int c = 0; c < 3; ++c) {
    q.d[c] = double(p[4 * i + c]) - double(p[4 * j + c]);
    q.d[c] -= box[c] * std::nearbyint(q.d[c] / box[c]);
  }
  const double r2 = q.d[0] * q.d[0] + q.d[1] * q.d[1] + q.d[2] * q.d[2], rc = lj.cutoff;
  if (r2 >= rc * rc) return q;
  const std::size_t t = static_cast<std::size_t>(p[4 * i + 3]) * lj.types + static_cast<std::size_t>(p[4 * j + 3]);
  const double eps = lj.epsilon[t], s2 = double(lj.sigma[t]) * lj.sigma[t];
  const double sr6 = std::pow(s2 / r2, 3), src6 = std::pow(s2 / (rc * rc), 3);
  q.within = true;
  q.energy = 4 * eps * (sr6 * sr6 - sr6) - (lj.shift ? 4 * eps * (src6 * src6 - src6) : 0.0);
  q.f_over_r = 24 * eps * (2 * sr6 * sr6 - sr6) / r2;
  return q;
}

template <class P>
LjExact lennard_jones(const std::vector<P>& p, const double box[3], const LennardJones& lj) {
  const std::size_t n = p.size() / 4;
  LjExact e;
  e.force.assign(3 * n, 0.0);
  e.magnitude.assign(3 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const LjPair q = lj_pair(p, i, j, box, lj);
      if (!q.within) continue;
      e.energy += q.energy;
      for (int c = 0; c < 3; ++c) {
        e.force[3 * i + c] += q.f_over_r * q.d[c];
        e.force[3 * j + c] -= q.f_over_r * q.d[c];
        e.magnitude[3 * i + c] += std::fabs(q.f_over_r * q.d[c]);
        e.magnitude[3 * j + c] += std::fabs(q.f_over_r * q.d[c]);
      }
    }
  return e;
}

/// Particle i's force alone (3 values), with the sums of |pair terms|: a
/// sampled check of a large system in O(n) a particle.
struct LjForceOn {
  double force[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
};
template <class P>
LjForceOn lennard_jones_on(const std::vector<P>& p, std::size_t i, const double box[3], const LennardJones& lj) {
  LjForceOn out;
  for (std::size_t j = 0; j < p.size() / 4; ++j) {
    if (j == i) continue;
    const LjPair q = lj_pair(p, i, j, box, lj);
    for (int c = 0; c < 3; ++c) {
      out.force[c] += q.f_over_r * q.d[c];
      out.magnitude[c] += std::fabs(q.f_over_r * q.d[c]);
    }
  }
  return out;
}

/// "" when the forces `f` (4 floats a particle) of 64 particles spread
/// over the range match lennard_jones_on within float rounding of their
/// pair sums; else the first that does not.
template <class P>
std::string compare_sampled_forces(const std::vector<P>& p, const std::vector<P>& f, const double box[3],
                                   const LennardJones& lj) {
  const std::size_t n = p.size() / 4;
  for (std::size_t s = 0; s < 64 && s < n; ++s) {
    const std::size_t i = n > 1 ? s * (n - 1) / 63 : 0;
    const LjForceOn want = lennard_jones_on(p, i, box, lj);
    for (int a = 0; a < 3; ++a)
      if (!(std::fabs(f[4 * i + a] - want.force[a]) <= 1e-5 * want.magnitude[a] + 1e-4))
        return "particle " + std::to_string(i) + " force " + std::to_string(f[4 * i + a]) + ", want " +
               std::to_string(want.force[a]);
  }
  return "";
}

}  // namespace portacl::reference
