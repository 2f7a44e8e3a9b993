// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test_support.hpp"

using namespace portacl;

namespace {

// One packed SYMV against a double-precision host reference on fresh
// random data, with offsets and increments; y poisoned where beta == 0
// and checked untouched between its strided elements.
template <class T>
void check_spmv(Context& ctx, std::size_t n, std::size_t incx, std::size_t incy, T alpha, T beta,
                const PlanOptions& opt, std::size_t offset = 7) {
  INFO("n " << n << " incx " << incx << " incy " << incy << " alpha " << alpha << " beta " << beta);
  std::vector<T> ap = test::random_vector<T>(offset + n * (n + 1) / 2 + 2);
  std::vector<T> x = test::random_vector<T>(offset + n * incx + 1);
  std::vector<T> y = test::random_vector<T>(offset + n * incy + 1);
  for (std::size_t i = 0; i < n && beta == T(0); ++i) y[offset + i * incy] = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> y0 = y;
  auto a = [&](std::size_t i, std::size_t j) {
    return double(i >= j ? ap[offset + i * (i + 1) / 2 + j] : ap[offset + j * (j + 1) / 2 + i]);
  };
  Buffer<T> dap(ctx, ap), dx(ctx, x), dy(ctx, y);
  packed_symv(ctx, n, alpha, dap, offset, VectorRef<T>{dx, offset, incx}, beta, dy, offset, incy, opt);
  const auto product = reference::matvec(n, n, a, [&](std::size_t j) { return x[offset + j * incx]; });
  const std::string wrong = reference::compare_update(
      dy.download(), y0, [&](std::size_t i) { return offset + i * incy; }, alpha, beta, n, product);
  CHECK(wrong == "");
}

}  // namespace

TEMPLATE_TEST_CASE("packed_symv matches the host on awkward orders", "[packed_symv]", float, double) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {1, 2, 3, 17, 63, 64, 65, 127, 128, 129, 331}) {
    check_spmv<TestType>(ctx, n, 1, 1, TestType(1), TestType(0), {});
    check_spmv<TestType>(ctx, n, 2, 3, TestType(-0.75), TestType(1.5), {});
  }
  check_spmv<TestType>(ctx, 0, 1, 1, TestType(1), TestType(0), {});
}

TEMPLATE_TEST_CASE("packed_symv runs under every device class's plan and block size", "[packed_symv]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    check_spmv<TestType>(ctx, 203, 1, 1, TestType(1), TestType(0.5), opt);
  }
  for (long block : {16, 32, 64})
    for (long wg : {16, 256}) {
      PlanOptions o;
      PlanOverride ov;
      ov.work_group_size = static_cast<std::size_t>(wg);
      ov.work_groups = 3;  // few groups: each walks many blocks
      ov.macros = {{"BLOCK", std::to_string(block)}};
      ov.provenance = "test";
      o.override_values = ov;
      INFO("BLOCK " << block << " work-group " << wg);
      check_spmv<TestType>(ctx, 150, 1, 2, TestType(2), TestType(0), o);
    }
}

TEST_CASE("packed_symv refuses bad shapes before any launch", "[packed_symv]") {
  Context& ctx = test::cpu_context();
  Buffer<float> ap(ctx, 10), x(ctx, 4), y(ctx, 4);
  CHECK_NOTHROW(packed_symv(ctx, 4, 1.0f, ap, 0, VectorRef<float>{x, 0, 1}, 0.0f, y));
  CHECK_THROWS_WITH(packed_symv(ctx, 4, 1.0f, ap, 1, VectorRef<float>{x, 0, 1}, 0.0f, y),
                    Catch::Contains("packed_symv: AP needs 11 elements") && Catch::Contains("has 10"));
  CHECK_THROWS_WITH(packed_symv(ctx, 4, 1.0f, ap, 0, VectorRef<float>{x, 0, 0}, 0.0f, y), Catch::Contains("incx is 0"));
  CHECK_THROWS_WITH(packed_symv(ctx, 4, 1.0f, ap, 0, VectorRef<float>{x, 1, 1}, 0.0f, y),
                    Catch::Contains("packed_symv: x needs 5 elements"));
  CHECK_THROWS_WITH(packed_symv(ctx, 4, 1.0f, ap, 0, VectorRef<float>{x, 0, 1}, 0.0f, y, 0, 2),
                    Catch::Contains("packed_symv: y needs 7 elements"));
}
