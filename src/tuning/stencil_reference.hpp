// SPDX-License-Identifier: Apache-2.0
// The double-precision host references of the stencils, shared by the tests
// and portacl-bench.
#pragma once

#include <array>
#include <string>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "fft_reference.hpp"
#include "portacl/plan.hpp"
#include "portacl/stencil.hpp"

namespace portacl::reference {

// "" when every element of got is within `bound` of want, else the first
// that is not (NaN never passes).
template <class T>
std::string within(const std::vector<T>& got, const std::vector<double>& want, double bound) {
  if (got.size() != want.size())
    return "output has " + std::to_string(got.size()) + " elements, want " + std::to_string(want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(double(got[i]) - want[i]) <= bound))
      return "element " + std::to_string(i) + ": got " + std::to_string(double(got[i])) + ", want " +
             std::to_string(want[i]);
  return "";
}

// The 2-norm bound of convolution by FFT's error (fft_correlation_bound)
// over the grid the plan `used` names, with |image|_2 |mask|_1 (zero
// boundary: the image is the extension's only nonzero part). It bounds
// each output too.
inline double fft_convolution_bound(const LaunchPlan& used, const std::vector<float>& image,
                                    const std::vector<float>& mask) {
  double e2 = 0, m1 = 0;
  for (float v : image) e2 += double(v) * v;
  for (float w : mask) m1 += std::fabs(double(w));
  return fft_correlation_bound(fft_grid_named(used.decision("fft_grid")->value),
                               std::numeric_limits<float>::epsilon() / 2, std::sqrt(e2) * m1);
}

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

// The field with heat2d's fixed sides written on its edges: row 0 north,
// the last row south, then column 0 west and the last column east on the
// rows between (the initial field a fixed-sides run steps from).
template <class V>
std::vector<V> heat2d_fixed_sides(std::vector<V> u, std::size_t rows, std::size_t cols, V north, V south, V west,
                                  V east) {
  for (std::size_t j = 0; j < cols && rows > 0; ++j) {
    u[j] = north;
    if (rows > 1) u[(rows - 1) * cols + j] = south;
  }
  for (std::size_t i = 1; i + 1 < rows; ++i) {
    u[i * cols] = west;
    if (cols > 1) u[i * cols + cols - 1] = east;
  }
  return u;
}

// 2D convolution in correlation form (out[y][x] = sum_ij m[i][j] in[y + i -
// ay][x + j - ax]), anchors at the mask's centre for zero and clamp, (0, 0)
// for valid, whose output is smaller by the mask less one.
template <class V, class M>
std::vector<double> convolve2d(const std::vector<V>& in, std::size_t rows, std::size_t cols, const std::vector<M>& mask,
                               std::size_t mr, std::size_t mc, Boundary boundary) {
  const bool valid = boundary == Boundary::valid;
  const std::size_t out_rows = valid ? rows - mr + 1 : rows, out_cols = valid ? cols - mc + 1 : cols;
  const long ay = valid ? 0 : long(mr - 1) / 2, ax = valid ? 0 : long(mc - 1) / 2;
  std::vector<double> out(out_rows * out_cols);
  for (std::size_t y = 0; y < out_rows; ++y)
    for (std::size_t x = 0; x < out_cols; ++x) {
      double s = 0;
      for (std::size_t i = 0; i < mr; ++i)
        for (std::size_t j = 0; j < mc; ++j) {
          long sy = long(y + i) - ay, sx = long(x + j) - ax;
          if (boundary == Boundary::clamp) {
            sy = sy < 0 ? 0 : (sy >= long(rows) ? long(rows) - 1 : sy);
            sx = sx < 0 ? 0 : (sx >= long(cols) ? long(cols) - 1 : sx);
          } else if (sy < 0 || sx < 0 || sy >= long(rows) || sx >= long(cols)) {
            continue;
          }
          s += double(mask[i * mc + j]) * double(in[std::size_t(sy) * cols + std::size_t(sx)]);
        }
      out[y * out_cols + x] = s;
    }
  return out;
}

// The star stencil of radius c.size() - 1 as points (dx, dy, dz, weight):
// c[0] at the centre, c[r] at the six cells at distance r along the axes.
template <class V>
std::vector<std::array<double, 4>> star_points(const std::vector<V>& c) {
  std::vector<std::array<double, 4>> p{{0, 0, 0, double(c[0])}};
  for (int r = 1; r < int(c.size()); ++r)
    for (int s : {-r, r}) {
      p.push_back({double(s), 0, 0, double(c[std::size_t(r)])});
      p.push_back({0, double(s), 0, double(c[std::size_t(r)])});
      p.push_back({0, 0, double(s), double(c[std::size_t(r)])});
    }
  return p;
}

// A 3D stencil given as points (dx, dy, dz, weight) on an nx x ny x nz
// input, x fastest: `valid` writes the interior (the input carries a halo of
// `reach` cells), `zero` and `clamp` a grid of the input's size.
template <class V>
std::vector<double> stencil3d(const std::vector<V>& in, std::size_t nx, std::size_t ny, std::size_t nz,
                              const std::vector<std::array<double, 4>>& points, std::size_t reach, Boundary boundary) {
  const long off = boundary == Boundary::valid ? long(reach) : 0;
  const std::size_t ox = nx - 2 * std::size_t(off), oy = ny - 2 * std::size_t(off), oz = nz - 2 * std::size_t(off);
  std::vector<double> out(ox * oy * oz);
  auto at = [&](long x, long y, long z) -> double {
    if (boundary == Boundary::clamp) {
      x = x < 0 ? 0 : (x >= long(nx) ? long(nx) - 1 : x);
      y = y < 0 ? 0 : (y >= long(ny) ? long(ny) - 1 : y);
      z = z < 0 ? 0 : (z >= long(nz) ? long(nz) - 1 : z);
    } else if (x < 0 || y < 0 || z < 0 || x >= long(nx) || y >= long(ny) || z >= long(nz)) {
      return 0;
    }
    return double(in[(std::size_t(z) * ny + std::size_t(y)) * nx + std::size_t(x)]);
  };
  for (std::size_t z = 0; z < oz; ++z)
    for (std::size_t y = 0; y < oy; ++y)
      for (std::size_t x = 0; x < ox; ++x) {
        double s = 0;
        for (const auto& p : points)
          s += p[3] * at(long(x) + off + long(p[0]), long(y) + off + long(p[1]), long(z) + off + long(p[2]));
        out[(z * oy + y) * ox + x] = s;
      }
  return out;
}

// Normalised cross-correlation of a tr x tc template at every offset where
// it lies inside a rows x cols image, from mean-subtracted double sums; a
// window or template of zero variance (below 1e-12 of its mean square, to
// allow float data's roundings) gives 0.
template <class P>
std::vector<double> ncc(const std::vector<P>& image, std::size_t rows, std::size_t cols, const std::vector<P>& templ,
                        std::size_t tr, std::size_t tc) {
  const std::size_t n = tr * tc, mr = rows - tr + 1, mc = cols - tc + 1;
  double t_mean = 0, t_squares = 0;
  for (P v : templ) t_mean += double(v);
  t_mean /= double(n);
  for (P v : templ) t_squares += (double(v) - t_mean) * (double(v) - t_mean);
  std::vector<double> map(mr * mc);
  for (std::size_t y = 0; y < mr; ++y)
    for (std::size_t x = 0; x < mc; ++x) {
      double mean = 0, squares = 0, raw = 0, cross = 0;
      for (std::size_t i = 0; i < tr; ++i)
        for (std::size_t j = 0; j < tc; ++j) mean += double(image[(y + i) * cols + x + j]);
      mean /= double(n);
      for (std::size_t i = 0; i < tr; ++i)
        for (std::size_t j = 0; j < tc; ++j) {
          const double v = double(image[(y + i) * cols + x + j]);
          squares += (v - mean) * (v - mean);
          raw += v * v;
          cross += (v - mean) * (double(templ[i * tc + j]) - t_mean);
        }
      map[y * mc + x] = squares <= 1e-12 * raw || t_squares == 0 ? 0.0 : cross / std::sqrt(squares * t_squares);
    }
  return map;
}

}  // namespace portacl::reference
