// SPDX-License-Identifier: Apache-2.0
// How far a float kick-drift-kick leapfrog of N bodies may move the energy
// and the momentum: the time step's share (its modified energy) and the
// float rounding's, step by step, both to first order. The N-body tests
// of one device and of a device group share them.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "test_support.hpp"
#include "tuning/nbody_reference.hpp"

namespace test {

// A state's exact (double) energy, with the potential summed from the
// positions, and its energy error term: the kick-drift-kick leapfrog with
// step h conserves a modified energy H + h^2 W + O(h^4), W = A / 12 - B / 24,
// A = V''(v, v) (the potential's second derivative along the velocities)
// and B = sum_i m_i |a_i|^2 (Hairer, Lubich and Wanner, Geometric Numerical
// Integration, IX.3). So |E(t) - E(0)| <= h^2 (|W(0)| + |W(t)|) to second
// order in h. For the softened pair potential -G m_i m_j / s,
// s^2 = r^2 + eps^2, a pair's share of A is
// G m_i m_j (|dv|^2 / s^3 - 3 (dv . d)^2 / s^5). `exact` holds each body's
// reference sums (G = 1) with the margins of `chains` running sums.
struct LeapfrogState {
  double energy = 0, w = 0;
  std::vector<portacl::reference::NbodyExact> exact;
};

inline LeapfrogState leapfrog_state(const std::vector<float>& b, const std::vector<float>& v, double eps,
                                    std::size_t chains) {
  const std::size_t n = b.size() / 4;
  LeapfrogState st;
  double a_term = 0, b_term = 0;
  for (std::size_t i = 0; i < n; ++i) {
    st.exact.push_back(portacl::reference::nbody_body(b, i, eps, 1.0, chains));
    const double m = b[4 * i + 3];
    double a2 = 0;
    for (int c = 0; c < 3; ++c) {
      st.energy += 0.5 * m * double(v[4 * i + c]) * v[4 * i + c];
      a2 += st.exact[i].a[c] * st.exact[i].a[c];
    }
    st.energy += 0.5 * m * st.exact[i].phi;
    b_term += m * a2;
    for (std::size_t j = i + 1; j < n; ++j) {
      double s2 = eps * eps, dv2 = 0, dvd = 0;
      for (int c = 0; c < 3; ++c) {
        const double d = double(b[4 * j + c]) - b[4 * i + c], dv = double(v[4 * j + c]) - v[4 * i + c];
        s2 += d * d;
        dv2 += dv * dv;
        dvd += dv * d;
      }
      const double s3 = s2 * std::sqrt(s2);
      a_term += m * b[4 * j + 3] * (dv2 / s3 - 3 * dvd * dvd / (s3 * s2));
    }
  }
  st.w = a_term / 12 - b_term / 24;
  return st;
}

// One step's float rounding from state (x, v) with accelerations `exact`,
// to first order: it moves the energy by at most m |v| dv + m |a| dx a
// coordinate and the momentum by m dv (unit: the type's roundoff). Each
// kick v += (h / 2) a rounds the
// product and the sum and carries the acceleration's margin; the drift
// x += h v rounds the product and the sum.
struct StepRounding {
  double energy = 0, momentum[3] = {0, 0, 0};
};

template <class T>
StepRounding step_rounding(const std::vector<T>& x, const std::vector<T>& v,
                           const std::vector<portacl::reference::NbodyExact>& exact, double h, double unit = kFloatU) {
  StepRounding r;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double m = x[4 * i + 3];
    for (int c = 0; c < 3; ++c) {
      const double ac = std::fabs(exact[i].a[c]), vc = std::fabs(v[4 * i + c]) + h / 2 * ac;
      const double dv = 2 * (unit * (h / 2 * ac + vc) + h / 2 * exact[i].a_margin[c]);
      const double dx = unit * (h * vc + std::fabs(x[4 * i + c]) + h * vc);
      r.energy += m * (vc * dv + ac * dx);
      r.momentum[c] += m * dv;
    }
  }
  return r;
}

// The total momentum sum_i m_i v_i in double, and the sums of its terms'
// magnitudes.
struct Momentum {
  double p[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
};

template <class T>
Momentum momentum_of(const std::vector<T>& x, const std::vector<T>& v) {
  Momentum m;
  for (std::size_t i = 0; i < x.size() / 4; ++i)
    for (int c = 0; c < 3; ++c) {
      m.p[c] += double(x[4 * i + 3]) * v[4 * i + c];
      m.magnitude[c] += std::fabs(double(x[4 * i + 3]) * v[4 * i + c]);
    }
  return m;
}

}  // namespace test
