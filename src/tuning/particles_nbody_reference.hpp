// SPDX-License-Identifier: Apache-2.0
// The host reference of the all-pairs N-body sum, shared by the tests and
// the tuner's and bench's checks: double precision, every pair, with the
// magnitude each result's rounding error scales with.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "portacl/plan.hpp"
#include "tuning/host_reference.hpp"

namespace portacl::reference {

struct NbodyExact {
  double a[3] = {0, 0, 0}, phi = 0;
  /// How far a correct float (or double) result may stand from a[c] and phi.
  double a_margin[3] = {0, 0, 0}, phi_margin = 0;
};

// The rounding of one pair's terms, following particles_nbody.cl's PAIR_TERMS
// and nbody_soa, in units of the element's rounding (kFloatU, kDoubleU) and
// of the term: d one rounding;
// r^2 = d.d + eps^2 by three fused adds on d's (two roundings of d each);
// 1 / r by rsqrt, or by Newton steps no worse, plus half of r^2's error;
// s = m inv^3 three products and three of inv's error; a's term d s fused
// into the sum with d's own rounding; phi's term m inv fused likewise.
constexpr double kPairR2U = 2 + 3;
constexpr double kPairInvU = kRsqrtU + kPairR2U / 2;
constexpr double kPairAccelerationU = 3 + 3 * kPairInvU + 1;
constexpr double kPairPotentialU = kPairInvU;

// Body i of `bodies` (x, y, z, m per body) under softening eps and G, with
// the margins of a device that keeps `chains` running sums, chain l adding
// the bodies j = l, l + chains, ... in turn (nbody_soa's vector lanes; 1 for
// nbody_tiles), then adds the chains in turn and multiplies by G: each
// pair's terms' own rounding, one rounding of every running sum's
// magnitude after each add (a sum of n terms of random directions runs at
// about sqrt(n) of their magnitude, which this counts exactly), the
// chains' adds and the product. T, the bodies' element (float or double),
// gives the unit of the rounding.
template <class T>
NbodyExact nbody_body(const std::vector<T>& bodies, std::size_t i, double eps, double g, std::size_t chains = 1) {
  const double unit = std::is_same<T, float>::value ? kFloatU : kDoubleU;
  NbodyExact e;
  const std::size_t n = bodies.size() / 4;
  const double xi = bodies[4 * i], yi = bodies[4 * i + 1], zi = bodies[4 * i + 2];
  std::vector<double> running(4 * chains, 0.0);
  double magnitude[4] = {0, 0, 0, 0}, partial[4] = {0, 0, 0, 0};
  for (std::size_t j = 0; j < n; ++j) {
    const double d[3] = {bodies[4 * j] - xi, bodies[4 * j + 1] - yi, bodies[4 * j + 2] - zi};
    const double m = bodies[4 * j + 3];
    const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps * eps);
    // A body's own term is not in phi, nor in its rounding: the device
    // leaves it out (it once added m_i / eps and took it off again, and a
    // magnitude counting that term hid the lost digits).
    const double term[4] = {m * d[0] / (r * r * r), m * d[1] / (r * r * r), m * d[2] / (r * r * r),
                            j == i ? 0.0 : m / r};
    double* chain = &running[4 * (j % chains)];
    for (int c = 0; c < 4; ++c) {
      chain[c] += term[c];
      magnitude[c] += std::fabs(term[c]);
      partial[c] += std::fabs(chain[c]);
    }
  }
  double total[4] = {0, 0, 0, 0}, chain_adds[4] = {0, 0, 0, 0};
  for (std::size_t l = 0; l < chains; ++l)
    for (int c = 0; c < 4; ++c) {
      total[c] += running[4 * l + c];
      if (l > 0) chain_adds[c] += std::fabs(total[c]);
    }
  for (int c = 0; c < 4; ++c) {
    const double own = (c < 3 ? kPairAccelerationU : kPairPotentialU) * magnitude[c];
    const double margin = std::fabs(g) * unit * (own + partial[c] + chain_adds[c] + std::fabs(total[c]));
    if (c < 3) {
      e.a[c] = g * total[c];
      e.a_margin[c] = margin;
    } else {
      e.phi = -g * total[c];
      e.phi_margin = margin;
    }
  }
  return e;
}

// "" when body i's acceleration and potential in `got` (ax, ay, az, phi per
// body) are each within the reference's margins, else what differs.
template <class T>
std::string compare_nbody_body(const std::vector<T>& got, std::size_t i, const NbodyExact& want, bool potential) {
  const char* names[4] = {"ax", "ay", "az", "phi"};
  for (int c = 0; c < 4; ++c) {
    if (c == 3 && !potential) continue;
    const double w = c < 3 ? want.a[c] : want.phi, margin = c < 3 ? want.a_margin[c] : want.phi_margin;
    const double v = got[4 * i + c];
    if (!(std::fabs(v - w) <= margin))
      return "body " + std::to_string(i) + " " + names[c] + ": " + std::to_string(v) + ", want " + std::to_string(w) +
             " (margin " + std::to_string(margin) + ")";
  }
  return "";
}

// The running sums nbody_body's margins assume for a plan of
// nbody_accelerations: the split layout's vector lanes, else one.
inline std::size_t nbody_chains(const LaunchPlan& plan) {
  const auto split = plan.macros.find("NBODY_SPLIT");
  return split != plan.macros.end() && split->second == "1" ? std::max<std::size_t>(plan.vector_width, 1) : 1;
}

}  // namespace portacl::reference
