// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>

#include "test_support.hpp"

using namespace portacl;

namespace {

using test::random_vector;

// Compares with the shared host reference, `ulps` roundings per element.
template <class T>
void check_close(const std::vector<T>& out, const std::vector<reference::Exact>& want, double ulps) {
  REQUIRE(out.size() == want.size());
  CHECK(reference::compare(out, want, ulps) == "");
}

// Runs every streaming operation once at size n under `opt` and checks it.
template <class T>
void check_all_streams(Context& ctx, std::size_t n, const PlanOptions& opt) {
  INFO("n = " << n);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> poison(n, nan);  // output-only buffers start as NaN
  std::vector<T> x = random_vector<T>(n), y = random_vector<T>(n);
  const T a = random_vector<T>(1)[0], b = random_vector<T>(1)[0];
  Buffer<T> dx(ctx, x);

  {  // copy: exact
    Buffer<T> dy(ctx, poison);
    copy(ctx, dx, dy, opt);
    CHECK(dy.download() == x);
  }
  {  // fill: exact
    Buffer<T> dy(ctx, poison);
    fill(ctx, dy, a, opt);
    CHECK(dy.download() == std::vector<T>(n, a));
  }
  {  // scale: one rounding
    Buffer<T> dy(ctx, y);
    scale(ctx, a, dy, opt);
    check_close(dy.download(), reference::scale(a, y), 1);
  }
  {  // axpby: cancellation possible, so scaled by the terms
    Buffer<T> dy(ctx, y);
    axpby(ctx, a, dx, b, dy, opt);
    check_close(dy.download(), reference::axpby(a, x, b, y), 3);
  }
  {  // map with a user expression
    Buffer<T> dy(ctx, poison);
    map(ctx, "x * x + (T)1", dx, dy, opt);
    check_close(dy.download(), reference::map(x, [](double v) { return v * v + 1; }), 2);
  }
  // Two operands: x y - y, two roundings over |x y| + |y| (one where the
  // compiler contracts it into an fma).
  const auto product_less = [](double u, double v) {
    return reference::Exact{u * v - v, std::fabs(u * v) + std::fabs(v)};
  };
  {  // two arrays
    Buffer<T> dy(ctx, y), dz(ctx, poison);
    map(ctx, "x * y - y", dx, dy, dz, opt);
    check_close(dz.download(), reference::map2(x, y, product_less), 2);
  }
  {  // an array and one value, given as the kernel's argument
    Buffer<T> dz(ctx, poison);
    map(ctx, "x * y - y", dx, a, dz, opt);
    check_close(dz.download(), reference::map2(x, std::vector<T>(n, a), product_less), 2);
  }
}

// Fresh random integers of T. Unsigned ones span T's whole range (their
// products wrap, modulo 2^bits, as C's unsigned arithmetic does); signed ones
// stay below 2^(bits/2 - 1) in magnitude, so that x * y - y and x * x + 3
// cannot overflow (C leaves signed overflow undefined).
template <class T>
std::vector<T> random_integers(std::size_t n) {
  const T hi =
      std::is_unsigned<T>::value ? std::numeric_limits<T>::max() : T(T(1) << (std::numeric_limits<T>::digits / 2 - 1));
  std::uniform_int_distribution<T> pick(std::is_unsigned<T>::value ? T(0) : T(-hi), hi);
  std::vector<T> v(n);
  for (T& e : v) e = pick(test::rng());
  return v;
}

// The exact values in T: unsigned ones wrapped modulo 2^bits, signed ones
// REQUIREd to fit.
template <class T>
std::vector<T> in_type(const std::vector<unsigned __int128>& exact) {
  std::vector<T> out;
  bool fits = true;
  for (unsigned __int128 bits : exact) {
    const __int128 v = static_cast<__int128>(bits);  // two's complement: the signed value
    fits = fits &&
           (std::is_unsigned<T>::value || (v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max()));
    out.push_back(std::is_unsigned<T>::value ? static_cast<T>(bits) : static_cast<T>(v));
  }
  REQUIRE(fits);
  return out;
}

// copy, fill and the maps over integers at size n under `opt`: exact.
template <class T>
void check_integer_streams(Context& ctx, std::size_t n, const PlanOptions& opt) {
  INFO("n = " << n);
  const std::vector<T> poison(n, T(std::numeric_limits<T>::max() - 7));
  const std::vector<T> x = random_integers<T>(n), y = random_integers<T>(n);
  const T a = random_integers<T>(1)[0];
  Buffer<T> dx(ctx, x);
  {
    Buffer<T> dy(ctx, poison);
    copy(ctx, dx, dy, opt);
    CHECK(dy.download() == x);
    fill(ctx, dy, a, opt);
    CHECK(dy.download() == std::vector<T>(n, a));
  }
  {
    Buffer<T> dy(ctx, poison);
    map(ctx, "x * x + (T)3", dx, dy, opt);
    CHECK(dy.download() == in_type<T>(reference::integer_map([](unsigned __int128 v) { return v * v + 3; }, x)));
  }
  const auto product_less = [](unsigned __int128 u, unsigned __int128 v) { return u * v - v; };
  {
    Buffer<T> dy(ctx, y), dz(ctx, poison);
    map(ctx, "x * y - y", dx, dy, dz, opt);
    CHECK(dz.download() == in_type<T>(reference::integer_map(product_less, x, y)));
  }
  {
    Buffer<T> dz(ctx, poison);
    map(ctx, "x * y - y", dx, a, dz, opt);
    CHECK(dz.download() == in_type<T>(reference::integer_map(product_less, x, std::vector<T>(n, a))));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("integer copy, fill and maps are exact at awkward sizes and under every device class's plan",
                   "[stream]", int, std::int64_t, std::uint32_t, std::uint64_t) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes) check_integer_streams<TestType>(ctx, n, {});
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    for (std::size_t n : test::class_plan_sizes) check_integer_streams<TestType>(ctx, n, opt);
  }
}

TEMPLATE_TEST_CASE("streaming kernels match the host reference at awkward sizes", "[stream]", float, double) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes) check_all_streams<TestType>(ctx, n, {});
}

TEMPLATE_TEST_CASE("streaming kernels run correctly under every device class's plan", "[stream]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    for (std::size_t n : test::class_plan_sizes) check_all_streams<TestType>(ctx, n, opt);
    // The plan really is that class's.
    Buffer<TestType> y(ctx, 100);
    LaunchPlan p = fill(ctx, y, TestType(1), opt);
    CHECK(p.device_class == classify(*opt.plan_as).device_class);
  }
}

TEST_CASE("map takes built-in functions and propagates NaN and infinity", "[stream]") {
  Context& ctx = test::cpu_context();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {4.0f, -9.0f, 0.0f, inf, -inf, nan, 2.25f, 1e-30f, 100.0f};
  Buffer<float> dx(ctx, x), dy(ctx, x.size());
  map(ctx, "sqrt(fabs(x))", dx, dy);
  std::vector<float> out = dy.download();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = std::sqrt(std::fabs(double(x[i])));
    if (std::isnan(want))
      CHECK(std::isnan(out[i]));
    else if (std::isinf(want))
      CHECK(out[i] == want);
    else
      CHECK(std::fabs(out[i] - want) <= test::kSqrtU * test::kFloatU * want);  // OpenCL's sqrt: 3 ulp
  }
}

TEMPLATE_TEST_CASE("a two-operand map runs in place, and takes its scalar anew at each call", "[stream]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const std::vector<T> x = random_vector<T>(1001), y = random_vector<T>(1001);
  Buffer<T> dx(ctx, x), dy(ctx, y);
  map(ctx, "fmax(x, y) - fmin(x, y)", dx, dy, dx);  // z is x: each element read before it is written
  const std::vector<T> got = dx.download();
  for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(got[i] == std::fmax(x[i], y[i]) - std::fmin(x[i], y[i]));
  for (T value : {T(2), T(-0.5), T(1e3)}) {
    Buffer<T> dz(ctx, std::vector<T>(x.size(), std::numeric_limits<T>::quiet_NaN()));
    map(ctx, "y - x", dy, value, dz);  // the value minus each y: one rounding
    check_close(dz.download(),
                reference::map2(std::vector<T>(x.size(), value), y,
                                [](double v, double u) {
                                  return reference::Exact{v - u, std::fabs(v) + std::fabs(u)};
                                }),
                1);
  }
}

TEST_CASE("streaming kernels refuse bad operands", "[stream]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, 10), b(ctx, 11);
  CHECK_THROWS_WITH(copy(ctx, a, b), Catch::Contains("copy: x has 10 elements but y has 11"));
  CHECK_THROWS_WITH(axpby(ctx, 1.0f, a, 2.0f, b), Catch::Contains("axpby: x has 10"));
  CHECK_THROWS_WITH(map(ctx, "x", a, b), Catch::Contains("map: x has 10"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 10);
  CHECK_THROWS_WITH(fill(ctx, foreign, 1.0f), Catch::Contains("fill: buffer y belongs to another context"));
  CHECK_THROWS_WITH(scale(ctx, 2.0f, foreign), Catch::Contains("scale: buffer y belongs to another context"));
  CHECK_THROWS_WITH(copy(ctx, foreign, a), Catch::Contains("copy: buffer x belongs to another context"));
  CHECK_THROWS_WITH(map(ctx, "  ", a, a), Catch::Contains("expression is empty"));
  CHECK_THROWS_WITH(map(ctx, "x\n+1", a, a), Catch::Contains("one line"));
  Buffer<float> c(ctx, 10);
  CHECK_THROWS_WITH(map(ctx, "x + y", a, b, c), Catch::Contains("map: x has 10 elements but y has 11"));
  CHECK_THROWS_WITH(map(ctx, "x + y", a, c, b), Catch::Contains("map: x has 10 elements but z has 11"));
  CHECK_THROWS_WITH(map(ctx, "x + y", a, foreign, c), Catch::Contains("map: buffer y belongs to another context"));
  CHECK_THROWS_WITH(map(ctx, "x + y", a, 2.0f, foreign), Catch::Contains("map: buffer z belongs to another context"));
  CHECK_THROWS_WITH(map(ctx, " ", a, 2.0f, c), Catch::Contains("expression is empty"));
}

TEST_CASE("a map expression that does not compile carries the compiler's log", "[stream]") {
  Context& ctx = test::cpu_context();
  Buffer<float> x(ctx, 16), y(ctx, 16);
  try {
    map(ctx, "x + undefined_thing", x, y);
    FAIL("no exception");
  } catch (const BuildError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("OpenCL build of 'map.cl'"));
    CHECK_THAT(e.build_log(), Catch::Contains("undefined_thing"));
  }
}
