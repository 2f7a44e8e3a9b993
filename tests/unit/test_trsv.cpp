// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test_support.hpp"

using namespace portacl;

namespace {

// Solves L x = b on a fresh diagonally dominant L (well conditioned) and
// checks the residual ||L x - b|| / (||L|| ||x|| + ||b||) in double, plus
// every element of the x buffer outside the vector unchanged. The upper
// triangle holds NaN: it must never be read.
template <class T>
void check_trsv(Context& ctx, Layout layout, std::size_t n, std::size_t incx, Diagonal diag, const PlanOptions& opt,
                std::size_t pad = 3, std::size_t offset = 5) {
  INFO("layout " << (layout == Layout::row_major ? "row" : "col") << ", n " << n << ", incx " << incx << ", unit "
                 << (diag == Diagonal::unit));
  const std::size_t ld = n + pad;
  std::vector<T> l(offset + n * ld + 1, std::numeric_limits<T>::quiet_NaN());
  const std::vector<T> r = test::random_vector<T>(n * n, 0.0, 1.0);
  auto at = [&](std::size_t i, std::size_t j) {
    return offset + (layout == Layout::row_major ? i * ld + j : j * ld + i);
  };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j)
      l[at(i, j)] = i == j ? (diag == Diagonal::unit ? std::numeric_limits<T>::quiet_NaN() : T(2 + r[i * n + j]))
                           : T(r[i * n + j] / double(n));  // off-diagonal row sums below 1
  const std::vector<T> x0 = test::random_vector<T>(offset + n * incx + 1);
  Buffer<T> dl(ctx, l), dx(ctx, x0);
  trsv(ctx, layout, n, MatrixRef<T>{dl, offset, ld}, dx, offset, incx, diag, opt);
  const std::vector<T> x = dx.download();
  double res = 0, bnorm = 0, scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double lx = 0, mag = 0;
    for (std::size_t j = 0; j <= i; ++j) {
      const double lij = i == j && diag == Diagonal::unit ? 1.0 : double(l[at(i, j)]);
      lx += lij * double(x[offset + j * incx]);
      mag += std::fabs(lij * double(x[offset + j * incx]));
    }
    const double b = x0[offset + i * incx];
    res = std::max(res, std::fabs(lx - b));
    bnorm = std::max(bnorm, std::fabs(b));
    scale = std::max(scale, mag);
  }
  const double tol = 4 * (n + 2) * std::numeric_limits<T>::epsilon();
  CHECK(res / (scale + bnorm + 1e-300) <= tol);
  CHECK(std::isfinite(res));
  std::size_t changed = 0;
  for (std::size_t e = 0; e < x.size(); ++e)
    if (!(e >= offset && (e - offset) % incx == 0 && (e - offset) / incx < n) && !(x[e] == x0[e])) ++changed;
  CHECK(changed == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("trsv solves lower-triangular systems in place", "[trsv]", float, double) {
  Context& ctx = test::cpu_context();
  for (Layout layout : {Layout::row_major, Layout::column_major})
    for (std::size_t n : {1, 2, 3, 17, 31, 32, 33, 65, 127, 257, 601})
      for (Diagonal diag : {Diagonal::non_unit, Diagonal::unit}) check_trsv<TestType>(ctx, layout, n, 1, diag, {});
  check_trsv<TestType>(ctx, Layout::row_major, 45, 3, Diagonal::non_unit, {});
  check_trsv<TestType>(ctx, Layout::row_major, 0, 1, Diagonal::non_unit, {});
}

TEMPLATE_TEST_CASE("trsv runs under every device class's plan, block and row team", "[trsv]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    for (Layout layout : {Layout::row_major, Layout::column_major})
      check_trsv<TestType>(ctx, layout, 201, 1, Diagonal::non_unit, opt);
  }
  // Blocks from 8 to 128 unknowns, row teams from 1 to 32 work-items (the
  // CPU form takes the blocks and has no teams).
  for (const auto& [block, tpr] : std::vector<std::pair<long, long>>{{8, 32}, {16, 1}, {64, 4}, {128, 8}}) {
    PlanOptions o;
    PlanOverride ov;
    ov.work_group_size = 64;
    ov.work_groups = 2;
    ov.macros = {{"BLOCK", std::to_string(block)}, {"TPR", std::to_string(tpr)}};
    ov.provenance = "test";
    o.override_values = ov;
    INFO("BLOCK " << block << " TPR " << tpr);
    check_trsv<TestType>(ctx, Layout::row_major, 150, 2, Diagonal::non_unit, o);
  }
}

TEST_CASE("trsv refuses bad shapes before any launch", "[trsv]") {
  Context& ctx = test::cpu_context();
  Buffer<float> l(ctx, 16), x(ctx, 4);
  CHECK_THROWS_WITH(trsv(ctx, Layout::row_major, 4, MatrixRef<float>{l, 0, 3}, x),
                    Catch::Contains("trsv: ldL is 3 but a stored row of L has 4"));
  CHECK_THROWS_WITH(trsv(ctx, Layout::column_major, 4, MatrixRef<float>{l, 1, 4}, x),
                    Catch::Contains("trsv: L needs 17 elements"));
  CHECK_THROWS_WITH(trsv(ctx, Layout::row_major, 4, MatrixRef<float>{l, 0, 4}, x, 0, 0), Catch::Contains("incx is 0"));
  CHECK_THROWS_WITH(trsv(ctx, Layout::row_major, 4, MatrixRef<float>{l, 0, 4}, x, 1, 1),
                    Catch::Contains("trsv: x needs 5 elements"));
}
