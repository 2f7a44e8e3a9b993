// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "portacl/error.hpp"
#include "util/checked.hpp"

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

// Distinct sorted columns from `draw` until `count` are held.
template <class Draw>
void distinct_columns(std::vector<std::uint32_t>& cols, std::size_t count, Draw draw) {
  cols.clear();
  while (cols.size() < count) {
    while (cols.size() < count) cols.push_back(draw());
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  }
}

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
    distinct_columns(cols, length[r], [&] { return column(rng); });
    for (std::uint32_t c : cols) b.add(c, unit(rng) * 2 - 1);
    b.end_row();
  }
  return b.csr;
}

template <class T, class>
HostCsr<T> web_graph(std::size_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::uint64_t cap = std::min<std::uint64_t>(rows, 100000);
  std::vector<std::uint64_t> length(rows);
  std::size_t total = 0;
  for (auto& l : length) {
    // Zipf(2) by inversion of its tail P(L >= k) ~ 1 / k.
    l = std::min<std::uint64_t>(cap, static_cast<std::uint64_t>(std::floor(1.0 / std::max(unit(rng), 1e-12))));
    total += l;
  }
  CsrBuilder<T> b(rows, rows, total);
  std::vector<std::uint32_t> cols;
  const std::uint32_t last = static_cast<std::uint32_t>(rows ? rows - 1 : 0);
  std::uniform_int_distribution<std::uint32_t> anywhere(0, last);
  std::uniform_int_distribution<long> near(-512, 512);
  for (std::size_t r = 0; r < rows; ++r) {
    distinct_columns(cols, length[r], [&]() -> std::uint32_t {
      if (unit(rng) >= 0.7) return anywhere(rng);
      return static_cast<std::uint32_t>(std::clamp<long>(static_cast<long>(r) + near(rng), 0, last));
    });
    for (std::uint32_t c : cols) b.add(c, unit(rng) * 2 - 1);
    b.end_row();
  }
  return b.csr;
}

template <class T, class>
HostCsr<T> circuit(std::size_t rows, std::uint64_t seed) {
  if (rows < 32) throw Error("circuit: at least 32 rows (16 hubs and their nodes)");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> node(0, static_cast<std::uint32_t>(rows - 1));
  // Hub h is node h * (rows / 16); its nodes are drawn once, for its row
  // and its column alike.
  const std::size_t hubs = 16, spacing = rows / hubs, fan = rows / hubs;
  std::vector<std::vector<std::uint32_t>> members(hubs);
  std::vector<std::vector<std::uint32_t>> hubs_of(rows);
  for (std::size_t h = 0; h < hubs; ++h) {
    distinct_columns(members[h], fan, [&] { return node(rng); });
    for (std::uint32_t m : members[h]) hubs_of[m].push_back(static_cast<std::uint32_t>(h * spacing));
  }
  CsrBuilder<T> b(rows, rows, 3 * rows + 2 * hubs * fan);
  std::vector<std::uint32_t> cols;
  for (std::size_t r = 0; r < rows; ++r) {
    distinct_columns(cols, 3, [&, k = 0]() mutable { return k++ == 0 ? static_cast<std::uint32_t>(r) : node(rng); });
    if (r % spacing == 0 && r / spacing < hubs)
      cols.insert(cols.end(), members[r / spacing].begin(), members[r / spacing].end());
    cols.insert(cols.end(), hubs_of[r].begin(), hubs_of[r].end());
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (std::uint32_t c : cols) b.add(c, c == r ? 4.0 : -1.0);
    b.end_row();
  }
  return b.csr;
}

template <class T, class>
HostCsr<T> permuted_symmetric(const HostCsr<T>& a, std::uint64_t seed) {
  if (a.rows != a.cols) throw Error("permuted_symmetric: the matrix must be square");
  std::vector<std::uint32_t> to(a.rows);  // old number -> new number
  for (std::size_t i = 0; i < a.rows; ++i) to[i] = static_cast<std::uint32_t>(i);
  std::shuffle(to.begin(), to.end(), std::mt19937_64(seed));
  std::vector<std::uint32_t> from(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i) from[to[i]] = static_cast<std::uint32_t>(i);
  CsrBuilder<T> b(a.rows, a.cols, a.nnz());
  std::vector<std::pair<std::uint32_t, T>> row;
  for (std::size_t r = 0; r < a.rows; ++r) {
    const std::size_t old = from[r];
    row.clear();
    for (std::uint64_t k = a.row_ptr[old]; k < a.row_ptr[old + 1]; ++k) row.emplace_back(to[a.col[k]], a.value[k]);
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, v] : row) b.add(c, double(v));
    b.end_row();
  }
  return b.csr;
}

template <class T, class>
HostCsr<T> tall_random(std::size_t rows, std::size_t cols, std::size_t per_row, std::uint64_t seed) {
  if (per_row > cols)
    throw Error("tall_random: " + std::to_string(per_row) + " entries a row in " + std::to_string(cols) + " columns");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<std::uint32_t> column(0, static_cast<std::uint32_t>(cols ? cols - 1 : 0));
  CsrBuilder<T> b(rows, cols, checked_product(rows, per_row, "tall_random entries"));
  std::vector<std::uint32_t> picked;
  for (std::size_t r = 0; r < rows; ++r) {
    distinct_columns(picked, per_row, [&] { return column(rng); });
    for (std::uint32_t c : picked) b.add(c, unit(rng) * 2 - 1);
    b.end_row();
  }
  return b.csr;
}

template <class T, class>
HostCsr<T> block_poisson3d(std::size_t n) {
  const HostCsr<double> nodes = poisson3d27<double>(n);
  const std::size_t rows = checked_product(nodes.rows, 3, "block_poisson3d rows");
  CsrBuilder<T> b(rows, rows, checked_product(nodes.nnz(), 9, "block_poisson3d entries"));
  for (std::size_t node = 0; node < nodes.rows; ++node)
    for (std::size_t u = 0; u < 3; ++u) {
      for (std::uint64_t k = nodes.row_ptr[node]; k < nodes.row_ptr[node + 1]; ++k)
        for (std::size_t v = 0; v < 3; ++v) b.add(3 * std::size_t(nodes.col[k]) + v, nodes.value[k] * (u == v ? 3 : 1));
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
template HostCsr<float> web_graph<float>(std::size_t, std::uint64_t);
template HostCsr<double> web_graph<double>(std::size_t, std::uint64_t);
template HostCsr<float> circuit<float>(std::size_t, std::uint64_t);
template HostCsr<double> circuit<double>(std::size_t, std::uint64_t);
template HostCsr<float> permuted_symmetric<float>(const HostCsr<float>&, std::uint64_t);
template HostCsr<double> permuted_symmetric<double>(const HostCsr<double>&, std::uint64_t);
template HostCsr<float> tall_random<float>(std::size_t, std::size_t, std::size_t, std::uint64_t);
template HostCsr<double> tall_random<double>(std::size_t, std::size_t, std::size_t, std::uint64_t);
template HostCsr<float> block_poisson3d<float>(std::size_t);
template HostCsr<double> block_poisson3d<double>(std::size_t);

}  // namespace portacl
