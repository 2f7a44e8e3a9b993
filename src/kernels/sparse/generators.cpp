// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "portacl/error.hpp"
#include "portacl/util/checked.hpp"

namespace portacl {
namespace {

// Rows appended in order; each row's columns given ascending.
template <class T>
struct CsrBuilder {
  HostCsr<T> csr;
  CsrBuilder(std::size_t rows, std::size_t cols, std::size_t expected_nnz) {
    if (rows > kMaxSparseDimension || cols > kMaxSparseDimension)
      throw Error("sparse generator: " + std::to_string(rows) + " x " + std::to_string(cols) +
                  " exceeds 32-bit indices");
    csr.rows = rows;
    csr.cols = cols;
    csr.row_ptr.reserve(rows + 1);
    csr.row_ptr.push_back(0);
    csr.col.reserve(expected_nnz);
    csr.value.reserve(expected_nnz);
  }
  void add(std::size_t c, double v) {
    csr.col.push_back(static_cast<std::uint32_t>(c));
    csr.value.push_back(static_cast<T>(v));
  }
  void end_row() { csr.row_ptr.push_back(csr.col.size()); }
};

}  // namespace

template <class T, class>
HostCsr<T> poisson2d(std::size_t n) {
  const std::size_t rows = checked_product(n, n, "poisson2d grid");
  CsrBuilder<T> b(rows, rows, 5 * rows);
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x) {
      const std::size_t i = y * n + x;
      if (y > 0) b.add(i - n, -1);
      if (x > 0) b.add(i - 1, -1);
      b.add(i, 4);
      if (x + 1 < n) b.add(i + 1, -1);
      if (y + 1 < n) b.add(i + n, -1);
      b.end_row();
    }
  return b.csr;
}

template <class T, class>
HostCsr<T> poisson3d27(std::size_t n) {
  const std::size_t rows = checked_product(checked_product(n, n, "poisson3d27 grid"), n, "poisson3d27 grid");
  CsrBuilder<T> b(rows, rows, checked_product(rows, 27, "poisson3d27 entries"));
  const long m = static_cast<long>(n);
  for (long z = 0; z < m; ++z)
    for (long y = 0; y < m; ++y)
      for (long x = 0; x < m; ++x) {
        for (long dz = -1; dz <= 1; ++dz)
          for (long dy = -1; dy <= 1; ++dy)
            for (long dx = -1; dx <= 1; ++dx) {
              const long xx = x + dx, yy = y + dy, zz = z + dz;
              if (xx < 0 || yy < 0 || zz < 0 || xx >= m || yy >= m || zz >= m) continue;
              const bool centre = dx == 0 && dy == 0 && dz == 0;
              b.add(static_cast<std::size_t>((zz * m + yy) * m + xx), centre ? 26 : -1);
            }
        b.end_row();
      }
  return b.csr;
}

template <class T, class>
HostCsr<T> convection_diffusion2d(std::size_t n, double peclet) {
  const std::size_t rows = checked_product(n, n, "convection_diffusion2d grid");
  const double cx = peclet, cy = peclet / 2;
  CsrBuilder<T> b(rows, rows, 5 * rows);
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x) {
      const std::size_t i = y * n + x;
      // Upwind differences for positive c: the west and south neighbours
      // carry the convection.
      if (y > 0) b.add(i - n, -1 - cy);
      if (x > 0) b.add(i - 1, -1 - cx);
      b.add(i, 4 + cx + cy);
      if (x + 1 < n) b.add(i + 1, -1);
      if (y + 1 < n) b.add(i + n, -1);
      b.end_row();
    }
  return b.csr;
}

template <class T, class>
HostCsr<T> power_law_rows(std::size_t rows, double mean, std::uint64_t seed) {
  if (!(mean >= 1) || !std::isfinite(mean)) throw Error("power_law_rows: the mean row length must be at least 1");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // Pareto lengths with tail exponent 2: length = ceil(k0 / sqrt(u)) has
  // mean 2 k0 (before the cap), so k0 = mean / 2.
  const double k0 = std::max(0.5, mean / 2);
  std::vector<std::uint64_t> length(rows);
  std::size_t total = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const double u = std::max(unit(rng), 1e-12);
    length[r] = std::min<std::uint64_t>(rows, static_cast<std::uint64_t>(std::ceil(k0 / std::sqrt(u))));
    total += length[r];
  }
  CsrBuilder<T> b(rows, rows, total);
  std::uniform_int_distribution<std::uint32_t> column(0, static_cast<std::uint32_t>(rows ? rows - 1 : 0));
  std::vector<std::uint32_t> cols;
  for (std::size_t r = 0; r < rows; ++r) {
    cols.clear();
    while (cols.size() < length[r]) {
      // Draw, sort, drop repeats, draw again for what is missing.
      while (cols.size() < length[r]) cols.push_back(column(rng));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    }
    for (std::uint32_t c : cols) b.add(c, unit(rng) * 2 - 1);
    b.end_row();
  }
  return b.csr;
}

template HostCsr<float> poisson2d<float>(std::size_t);
template HostCsr<double> poisson2d<double>(std::size_t);
template HostCsr<float> poisson3d27<float>(std::size_t);
template HostCsr<double> poisson3d27<double>(std::size_t);
template HostCsr<float> convection_diffusion2d<float>(std::size_t, double);
template HostCsr<double> convection_diffusion2d<double>(std::size_t, double);
template HostCsr<float> power_law_rows<float>(std::size_t, double, std::uint64_t);
template HostCsr<double> power_law_rows<double>(std::size_t, double, std::uint64_t);

}  // namespace portacl
