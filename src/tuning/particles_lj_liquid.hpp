// SPDX-License-Identifier: Apache-2.0
// The Lennard-Jones liquid that the MD tests and the bench start from: an
// fcc lattice of k^3 cells (4 k^3 atoms, type 0) at a given density, in the
// box it fills, with velocities drawn at temperature t for unit masses and
// the centre of mass at rest; and a dilute gas of any count.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "portacl/particles.hpp"

namespace portacl::reference {

template <class Generator>
void fcc_liquid(int k, double density, double t, Generator& draw, std::vector<float>& p, std::vector<float>& v,
                PeriodicBox& box) {
  const double a = std::cbrt(4.0 / density);
  const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  std::normal_distribution<double> speed(0.0, std::sqrt(t));
  p.clear();
  v.clear();
  double momentum[3] = {0, 0, 0};
  for (int z = 0; z < k; ++z)
    for (int y = 0; y < k; ++y)
      for (int x = 0; x < k; ++x)
        for (const auto& b : basis) {
          p.insert(p.end(),
                   {float(a * (x + b[0] + 0.25)), float(a * (y + b[1] + 0.25)), float(a * (z + b[2] + 0.25)), 0.0f});
          for (int c = 0; c < 3; ++c) {
            const double s = speed(draw);
            v.push_back(float(s));
            momentum[c] += s;
          }
          v.push_back(0.0f);
        }
  const std::size_t n = p.size() / 4;
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) v[4 * i + c] -= float(momentum[c] / double(n));
  box = PeriodicBox{float(a * k), float(a * k), float(a * k)};
}

/// `n` particles drawn uniformly in a cube of side `length`, no two closer
/// than `closest` by the minimum image (drawn again until they are not),
/// types cycling through 0 .. types - 1: 4 floats a particle.
template <class Generator>
std::vector<float> dilute_gas(std::size_t n, float length, double closest, std::size_t types, Generator& draw) {
  std::uniform_real_distribution<float> anywhere(0.0f, length);
  std::vector<float> p;
  while (p.size() < 4 * n) {
    const float x[3] = {anywhere(draw), anywhere(draw), anywhere(draw)};
    bool clear = true;
    for (std::size_t j = 0; clear && j < p.size() / 4; ++j) {
      double r2 = 0;
      for (int c = 0; c < 3; ++c) {
        double d = double(x[c]) - p[4 * j + c];
        d -= length * std::nearbyint(d / length);
        r2 += d * d;
      }
      clear = r2 > closest * closest;
    }
    if (clear) p.insert(p.end(), {x[0], x[1], x[2], float((p.size() / 4) % types)});
  }
  return p;
}

}  // namespace portacl::reference
