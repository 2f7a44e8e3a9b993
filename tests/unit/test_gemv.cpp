// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test_support.hpp"

using namespace portacl;

namespace {

struct Case {
  std::size_t m, n, incx, incy;
};

// One GEMV against a double-precision host reference: fresh random data,
// a padded leading dimension, offsets and increments, y poisoned where
// beta == 0 and checked untouched between its strided elements.
template <class T>
void check_gemv(Context& ctx, Layout layout, Transpose trans, Case s, T alpha, T beta, const PlanOptions& opt,
                std::size_t pad = 3, std::size_t offset = 5) {
  INFO("layout " << (layout == Layout::row_major ? "row" : "col") << ", trans " << int(trans) << ", m " << s.m << " n "
                 << s.n << " incx " << s.incx << " incy " << s.incy << ", alpha " << alpha << " beta " << beta);
  const bool row = layout == Layout::row_major, t = trans == Transpose::yes;
  const std::size_t rows = t ? s.n : s.m, cols = t ? s.m : s.n;  // stored shape
  const std::size_t ld = (row ? cols : rows) + pad;
  std::vector<T> a = test::random_vector<T>(offset + (row ? rows : cols) * ld + 1);
  std::vector<T> x = test::random_vector<T>(offset + s.n * s.incx + 1);
  std::vector<T> y = test::random_vector<T>(offset + s.m * s.incy + 1);
  for (std::size_t i = 0; i < s.m && beta == T(0); ++i) y[offset + i * s.incy] = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> y0 = y;
  auto op_a = [&](std::size_t i, std::size_t j) {
    const std::size_t r = t ? j : i, c = t ? i : j;
    return double(a[offset + (row ? r * ld + c : c * ld + r)]);
  };
  Buffer<T> da(ctx, a), dx(ctx, x), dy(ctx, y);
  gemv(ctx, layout, trans, s.m, s.n, alpha, MatrixRef<T>{da, offset, ld}, VectorRef<T>{dx, offset, s.incx}, beta, dy,
       offset, s.incy, opt);
  const auto product = reference::matvec(s.m, s.n, op_a, [&](std::size_t j) { return x[offset + j * s.incx]; });
  const std::string wrong = reference::compare_update(
      dy.download(), y0, [&](std::size_t i) { return offset + i * s.incy; }, alpha, beta, s.n, product);
  CHECK(wrong == "");
}

const std::vector<Case> odd_cases = {{1, 1, 1, 1},     {3, 3, 1, 1},    {17, 17, 2, 1},  {33, 65, 1, 3},
                                     {65, 33, 1, 1},   {127, 1, 1, 1},  {1, 127, 1, 1},  {17, 3, 3, 2},
                                     {257, 131, 1, 1}, {5, 1031, 1, 1}, {1031, 5, 1, 1}, {200, 0, 1, 1}};

}  // namespace

TEMPLATE_TEST_CASE("gemv matches the host for every layout, transpose, alpha and beta", "[gemv]", float, double) {
  Context& ctx = test::cpu_context();
  for (Layout layout : {Layout::row_major, Layout::column_major})
    for (Transpose trans : {Transpose::no, Transpose::yes})
      for (const Case& s : odd_cases) {
        check_gemv<TestType>(ctx, layout, trans, s, TestType(1), TestType(0), {});
        check_gemv<TestType>(ctx, layout, trans, s, TestType(-0.75), TestType(1.5), {});
      }
}

TEMPLATE_TEST_CASE("gemv runs under every device class's plan and tuning corner", "[gemv]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    for (Transpose trans : {Transpose::no, Transpose::yes})
      check_gemv<TestType>(ctx, Layout::row_major, trans, {131, 1031, 1, 1}, TestType(1), TestType(0.5), opt);
    // Over contiguous columns GPUs keep scalar lanes (they coalesce); CPUs
    // read their SIMD width of rows per work-item.
    Buffer<TestType> a(ctx, 64 * 64), x(ctx, 64), y(ctx, 64);
    const LaunchPlan p = gemv(ctx, Layout::row_major, Transpose::yes, 64, 64, TestType(1),
                              MatrixRef<TestType>{a, 0, 64}, VectorRef<TestType>{x, 0, 1}, TestType(0), y, 0, 1, opt);
    if (p.device_class == DeviceClass::nvidia_gpu || p.device_class == DeviceClass::amd_gcn_gpu)
      CHECK(p.vector_width == 1);
  }
  // Teams from one work-item to the whole group, every vector width, one
  // chunk of columns or many.
  struct Corner {
    long wg, vw, team, groups;
  };
  for (const Corner& c : std::vector<Corner>{{64, 1, 1, 1}, {64, 4, 64, 4}, {128, 8, 16, 64}, {32, 2, 4, 16}}) {
    PlanOptions o;
    PlanOverride ov;
    ov.work_group_size = static_cast<std::size_t>(c.wg);
    ov.vector_width = static_cast<unsigned>(c.vw);
    ov.work_groups = static_cast<std::size_t>(c.groups);
    ov.macros = {{"TEAM", std::to_string(c.team)}};
    ov.provenance = "test";
    o.override_values = ov;
    INFO("wg " << c.wg << " vw " << c.vw << " team " << c.team << " groups " << c.groups);
    for (Transpose trans : {Transpose::no, Transpose::yes})
      check_gemv<TestType>(ctx, Layout::column_major, trans, {301, 257, 1, 1}, TestType(2), TestType(0), o);
  }
}

TEST_CASE("gemv refuses bad shapes before any launch", "[gemv]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, 12), x(ctx, 4), y(ctx, 3);
  auto call = [&](std::size_t lda, std::size_t incx, std::size_t offy) {
    gemv(ctx, Layout::row_major, Transpose::no, 3, 4, 1.0f, MatrixRef<float>{a, 0, lda}, VectorRef<float>{x, 0, incx},
         0.0f, y, offy, 1);
  };
  CHECK_NOTHROW(call(4, 1, 0));
  CHECK_THROWS_WITH(call(3, 1, 0), Catch::Contains("gemv: ldA is 3 but a stored row of A has 4"));
  CHECK_THROWS_WITH(call(4, 0, 0), Catch::Contains("gemv: incx is 0"));
  CHECK_THROWS_WITH(call(4, 2, 0), Catch::Contains("gemv: x needs 7 elements") && Catch::Contains("has 4"));
  CHECK_THROWS_WITH(call(4, 1, 1), Catch::Contains("gemv: y needs 4 elements"));
  PlanOptions o;
  PlanOverride ov;
  ov.work_group_size = 64;
  ov.macros = {{"TEAM", "48"}};
  o.override_values = ov;
  CHECK_THROWS_WITH(gemv(ctx, Layout::row_major, Transpose::no, 3, 4, 1.0f, MatrixRef<float>{a, 0, 4},
                         VectorRef<float>{x, 0, 1}, 0.0f, y, 0, 1, o),
                    Catch::Contains("TEAM 48 must be a power of two"));
}
