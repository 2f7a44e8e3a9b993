// SPDX-License-Identifier: Apache-2.0
// How far a float kick-drift-kick leapfrog of N bodies may move the energy
// and the momentum: the time step's share (its modified energy) and the
// float rounding's, step by step, both to first order; and how far a float
// trajectory may stand from the exact one. The N-body tests of one device,
// of device groups and across MPI ranks share them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "test_support.hpp"
#include "tuning/particles_nbody_reference.hpp"

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

// How far a float leapfrog of `steps` steps from `bodies` (at rest) may
// stand from the exact one, to first order: the host integrates in double
// and carries, per step, each acceleration's margin (the worst of the
// running sums a plan may keep) plus its change with the positions' error
// (|da_i / dx| <= sum_j 4 m_j / s_ij^3 over both bodies), and each kick's
// and drift's two roundings. Returns the largest position error and the
// largest final acceleration error over all bodies and components.
struct LeapfrogError {
  double position = 0, acceleration = 0;
};
inline LeapfrogError leapfrog_error(std::vector<float> bodies, double eps, double h, int steps) {
  const std::size_t n = bodies.size() / 4;
  std::vector<double> x(bodies.begin(), bodies.end()), v(4 * n, 0.0);
  const auto state = [&](std::vector<double>& a, double& margin, double& lipschitz) {
    std::vector<float> here(x.begin(), x.end());  // the reference reads floats: within u of x
    a.assign(3 * n, 0.0);
    margin = lipschitz = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double worst = 0;
      for (std::size_t chains : {1, 2, 4, 8, 16}) {
        const portacl::reference::NbodyExact e = portacl::reference::nbody_body(here, i, eps, 1.0, chains);
        for (int c = 0; c < 3; ++c) {
          a[3 * i + c] = e.a[c];
          worst = std::max(worst, e.a_margin[c]);
        }
      }
      double tidal = 0;
      for (std::size_t j = 0; j < n; ++j) {
        double s2 = eps * eps;
        for (int c = 0; c < 3; ++c) s2 += (x[4 * j + c] - x[4 * i + c]) * (x[4 * j + c] - x[4 * i + c]);
        tidal += 4 * x[4 * j + 3] / (s2 * std::sqrt(s2));
      }
      margin = std::max(margin, worst);
      lipschitz = std::max(lipschitz, 2 * tidal);
    }
  };
  std::vector<double> a;
  double margin = 0, lipschitz = 0, dx = 0, dv = 0, da = 0, largest_x = 0, largest_v = 0, largest_a = 0;
  state(a, margin, lipschitz);
  da = margin;
  for (int s = 0; s < steps; ++s) {
    for (double e : a) largest_a = std::max(largest_a, std::fabs(e));
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        v[4 * i + c] += h / 2 * a[3 * i + c];
        x[4 * i + c] += h * v[4 * i + c];
        largest_v = std::max(largest_v, std::fabs(v[4 * i + c]));
        largest_x = std::max(largest_x, std::fabs(x[4 * i + c]));
      }
    dv += h / 2 * da + kFloatU * (largest_v + h / 2 * largest_a);
    dx += h * dv + kFloatU * (largest_x + h * largest_v) + kFloatU * largest_x;
    state(a, margin, lipschitz);
    da = margin + lipschitz * dx;
    for (double e : a) largest_a = std::max(largest_a, std::fabs(e));
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        v[4 * i + c] += h / 2 * a[3 * i + c];
        largest_v = std::max(largest_v, std::fabs(v[4 * i + c]));
      }
    dv += h / 2 * da + kFloatU * (largest_v + h / 2 * largest_a);
  }
  return {dx, da};
}

}  // namespace test
