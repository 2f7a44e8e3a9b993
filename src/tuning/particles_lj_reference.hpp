// SPDX-License-Identifier: Apache-2.0
// The host reference of Lennard-Jones forces and energy, shared by the
// tests and the bench: every pair by the minimum image, in double.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "particles_neighbour_reference.hpp"
#include "portacl/particles.hpp"

namespace portacl::reference {

struct LjExact {
  double energy = 0;
  std::vector<double> force, magnitude;  ///< 3 a particle; magnitude: the sums of |pair terms|
  std::vector<std::size_t> pairs;        ///< a particle: its pairs within the cutoff
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
  e.pairs.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const LjPair q = lj_pair(p, i, j, box, lj);
      if (!q.within) continue;
      ++e.pairs[i];
      ++e.pairs[j];
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

/// How far a device's Lennard-Jones forces and energy may stand from the
/// exact ones, derived from particles_lennard_jones.cl's arithmetic: a count of
/// roundings times the magnitudes they act on, to first order in the unit
/// roundoff. `unit` is the device type's unit roundoff (2^-24 float, 2^-53
/// double); `division` the relative error of 1 / r^2 in units of it (OpenCL
/// allows 2.5 ulp, 5 units, for float; double's is correctly rounded, 1).
///   separation d_c = x_i - x_j - L k: a rounding of each of the three
///     results, u (|x_i - x_j| + |L k| + |d_c|);
///   r^2, a dot of three: 2 sum |d_c| dd_c + 3 u r^2; 1 / r^2: that
///     relative error plus `division` u (rho2 below);
///   inv6 = inv2^3: 3 rho2 + 2u;  A = (12 c12) inv6: c12 stored (u), two
///     products, inv6's;  B = 6 c6: stored and a product;  (A - B) inv6
///     inv2 d_c: a rounding each, with inv6's and inv2's own: in all at most
///     M |d_c| (11 u + 7 rho2) + M dd_c, where M = (|A| + |B|) inv6 inv2 is
///     the size of the two terms before they cancel (near r = 2^(1/6)
///     sigma the force is small and its rounding is not);
///   energy (c12 inv6 - c6) inv6 - shift: (E12 + E6)(5u + 2 rho6) + 2u
///     |shift|;
///   the sum over a particle's n_i pairs (its own loop and, with half lists,
///     the atomic adds of the others): (n_i + 1) u times the sum of the
///     pair terms' sizes;
///   a pair whose r^2 lies within its rounding of the cutoff may be counted
///     or not: its whole term.
/// The returned bound adds the double reference's own rounding (the same
/// model with 2^-53), which matters only when the device computes in double.
struct LjBounds {
  std::vector<double> force;  ///< 3 a particle
  std::vector<double> sums;   ///< 3 a particle: the part of `force` from adding the pair terms up
  double energy = 0;          ///< the total energy (the sum over particles)
};
namespace detail {
template <class P>
void add_lj_bounds(const std::vector<P>& p, const double box[3], const LennardJones& lj, double u, double division,
                   LjBounds& out) {
  const std::size_t n = p.size() / 4;
  const double rc2 = double(lj.cutoff) * lj.cutoff;
  std::vector<double> pair_err(3 * n, 0.0), terms(3 * n, 0.0), energy_terms(n, 0.0);
  std::vector<std::size_t> count(n, 0);
  double energy_err = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      double raw[3], d[3], dd[3], r2 = 0;
      for (int c = 0; c < 3; ++c) {
        raw[c] = double(p[4 * i + c]) - double(p[4 * j + c]);
        const double shift = box[c] * std::nearbyint(raw[c] / box[c]);
        d[c] = raw[c] - shift;
        dd[c] = u * (std::fabs(raw[c]) + std::fabs(shift) + std::fabs(d[c]));
        r2 += d[c] * d[c];
      }
      double dr2 = 3 * u * r2;
      for (int c = 0; c < 3; ++c) dr2 += 2 * std::fabs(d[c]) * dd[c] + dd[c] * dd[c];
      // The device's own cutoff, rc2 rounded to its type, is within u rc2.
      const bool ambiguous = std::fabs(r2 - rc2) <= dr2 + u * rc2;
      if (r2 >= rc2 && !ambiguous) continue;
      const std::size_t t = static_cast<std::size_t>(p[4 * i + 3]) * lj.types + static_cast<std::size_t>(p[4 * j + 3]);
      const double eps = lj.epsilon[t], s6 = std::pow(double(lj.sigma[t]), 6);
      const double c12 = 4 * eps * s6 * s6, c6 = 4 * eps * s6;
      const double rc6 = rc2 * rc2 * rc2, shift = lj.shift ? std::fabs(c12 / (rc6 * rc6) - c6 / rc6) : 0.0;
      const double inv2 = 1 / r2, inv6 = inv2 * inv2 * inv2;
      const double rho2 = dr2 / r2 + division * u, rho6 = 3 * rho2 + 2 * u;
      const double big = std::fabs(12 * c12 * inv6), small = std::fabs(6 * c6);
      const double m = (big + small) * inv6 * inv2, f = (big - small) * inv6 * inv2;
      const double e12 = c12 * inv6 * inv6, e6 = c6 * inv6;
      double e_err = (e12 + e6) * (5 * u + 2 * rho6) + 2 * u * shift;
      if (ambiguous) e_err += std::fabs(e12 - e6 - shift);
      energy_err += e_err;
      for (std::size_t a : {i, j}) {
        ++count[a];
        energy_terms[a] += 0.5 * (e12 + e6 + shift);
      }
      for (int c = 0; c < 3; ++c) {
        double err = m * std::fabs(d[c]) * (11 * u + 7 * rho2) + m * dd[c];
        if (ambiguous) err += std::fabs(f * d[c]);
        const double size = std::fabs(f * d[c]) + err;
        for (std::size_t a : {i, j}) {
          pair_err[3 * a + c] += err;
          terms[3 * a + c] += size;
        }
      }
    }
  for (std::size_t a = 0; a < n; ++a) {
    for (int c = 0; c < 3; ++c) {
      const double sum_err = double(count[a] + 1) * u * terms[3 * a + c];
      out.force[3 * a + c] += pair_err[3 * a + c] + sum_err;
      out.sums[3 * a + c] += sum_err;
    }
    energy_err += double(count[a] + 1) * u * energy_terms[a];
  }
  out.energy += energy_err;
}
}  // namespace detail

/// The bounds above for a device computing in D (float or double).
template <class D, class P>
LjBounds lennard_jones_bounds(const std::vector<P>& p, const double box[3], const LennardJones& lj) {
  LjBounds b;
  b.force.assign(3 * (p.size() / 4), 0.0);
  b.sums.assign(3 * (p.size() / 4), 0.0);
  const bool single = sizeof(D) == 4;
  detail::add_lj_bounds(p, box, lj, single ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53), single ? 5.0 : 1.0, b);
  detail::add_lj_bounds(p, box, lj, std::ldexp(1.0, -53), 1.0, b);  // the reference's own rounding
  return b;
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
