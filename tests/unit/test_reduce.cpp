// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "rules/tuning_database.hpp"
#include "rules/tuning_space.hpp"
#include "test_support.hpp"
#include "kernels/reduce_tunables.hpp"

using namespace portacl;

namespace {

// Every reduction once at size n under `opt`, on inputs whose sums and
// products are exact in T (so any order of addition gives the same bits).
// `all` false: one additive and one arg reduction (they share the combining code).
template <class T>
void check_all_reductions(Context& ctx, std::size_t n, const PlanOptions& opt, bool all = true) {
  INFO("n = " << n);
  const std::vector<T> x = test::random_dyadic<T>(n, 2, 8), y = test::random_dyadic<T>(n, 2, 4);
  Buffer<T> dx(ctx, x), dy(ctx, y);
  // Exact in T only while every partial sum fits T's significand: x is a
  // multiple of 2^-3, x^2 of 2^-6, x y of 2^-5; partial sums are at most
  // the sums of magnitudes.
  double abs_x = 0, squares = 0, abs_xy = 0;
  for (std::size_t i = 0; i < n; ++i)
    abs_x += std::fabs(double(x[i])), squares += double(x[i]) * double(x[i]),
        abs_xy += std::fabs(double(x[i]) * double(y[i]));
  const double significand = std::ldexp(1.0, std::numeric_limits<T>::digits);
  REQUIRE(abs_x * 8 <= significand);
  REQUIRE(squares * 64 <= significand);
  REQUIRE(abs_xy * 32 <= significand);
  const double s = reference::sum(x).value, d = reference::dot(x, y).value, norm = reference::nrm2(x).value;
  const std::size_t above = reference::count_if(x, [](T v) { return v > T(0.5); });
  CHECK(double(sum(ctx, dx, opt)) == s);
  if (!all) {
    if (n) CHECK(argmax(ctx, dx, opt).index == reference::extremum(x, std::greater<double>(), false).index);
    return;
  }
  CHECK(double(dot(ctx, dx, dy, opt)) == d);
  // The sum of dyadic squares is exact; the square root within 3 ulp.
  CHECK(std::fabs(double(nrm2(ctx, dx, opt)) - norm) <=
        test::kSqrtU * double(std::numeric_limits<T>::epsilon()) / 2 * norm);
  CHECK(count_if(ctx, "x > (T)0.5", dx, opt) == above);
  if (n == 0) return;
  CHECK(min(ctx, dx, opt) == *std::min_element(x.begin(), x.end()));
  CHECK(max(ctx, dx, opt) == *std::max_element(x.begin(), x.end()));
  // Few distinct values: ties are everywhere, so first-index rules matter.
  reference::Extremum lo = reference::extremum(x, std::less<double>(), false),
                      hi = reference::extremum(x, std::greater<double>(), false),
                      amax = reference::extremum(x, std::greater<double>(), true);
  Extremum<T> got = argmin(ctx, dx, opt);
  CHECK(got.index == lo.index);
  CHECK(double(got.value) == lo.value);
  got = argmax(ctx, dx, opt);
  CHECK(got.index == hi.index);
  CHECK(double(got.value) == hi.value);
  got = iamax(ctx, dx, opt);
  CHECK(got.index == amax.index);
  CHECK(double(got.value) == amax.value);
}

}  // namespace

TEMPLATE_TEST_CASE("reductions match the host reference at awkward sizes", "[reduce]", float, double) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes) check_all_reductions<TestType>(ctx, n, {});
}

TEMPLATE_TEST_CASE("reductions run single- and two-pass under every device class's plan", "[reduce]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    for (int passes : {1, 2}) {
      INFO(f << ", " << passes << " pass(es)");
      for (std::size_t n : test::class_plan_sizes)
        check_all_reductions<TestType>(ctx, n, test::with_passes(opt, passes), passes == 1);
    }
    // The plan really is that class's, with the variant its rules ask for.
    Buffer<TestType> x(ctx, std::vector<TestType>(1000, TestType(1)));
    LaunchPlan p;
    CHECK(sum(ctx, x, opt, &p) == TestType(1000));
    CHECK(p.device_class == classify(*opt.plan_as).device_class);
    bool cpu_like = p.device_class == DeviceClass::cpu || p.device_class == DeviceClass::intel_mic;
    CHECK(p.barrier_free_variant == cpu_like);
    if (p.device_class == DeviceClass::nvidia_gpu || p.device_class == DeviceClass::amd_gcn_gpu)
      CHECK(p.use_local_memory);
  }
}

TEST_CASE("large reductions count every element exactly once", "[reduce]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = (std::size_t{1} << 21) + 13;
  // Multiples of 1/16 in [-1, 1] (products: of 1/256): every partial sum of
  // random signs stays far below 2^24 / 256, so any order of addition is
  // exact and the result must equal the reference bit for bit. A lost or
  // doubled element (at least 1/256) cannot hide in a rounding tolerance,
  // and no statistical bound on rounding can fail by chance.
  const std::vector<float> x = test::random_dyadic<float>(n, 1, 16), y = test::random_dyadic<float>(n, 1, 16);
  Buffer<float> dx(ctx, x), dy(ctx, y);
  CHECK(double(sum(ctx, dx)) == reference::sum(x).value);
  CHECK(double(dot(ctx, dx, dy)) == reference::dot(x, y).value);
}

TEMPLATE_TEST_CASE("reductions follow IEEE for NaN and infinity", "[reduce]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t n = 10007;
  for (std::size_t at : {std::size_t{0}, std::size_t{4242}, n - 1}) {
    INFO("special value at " << at);
    std::vector<T> x = test::random_vector<T>(n);
    x[at] = nan;
    x[(at + 17) % n] = nan;  // a second NaN: the first index wins
    Buffer<T> dx(ctx, x);
    CHECK(std::isnan(sum(ctx, dx)));
    CHECK(std::isnan(min(ctx, dx)));
    CHECK(std::isnan(max(ctx, dx)));
    CHECK(std::isnan(nrm2(ctx, dx)));
    CHECK(argmin(ctx, dx).index == std::min(at, (at + 17) % n));
    CHECK(argmax(ctx, dx).index == std::min(at, (at + 17) % n));
    CHECK(count_if(ctx, "isnan(x)", dx) == 2);

    x = test::random_vector<T>(n);
    x[at] = inf;
    dx.upload(x);
    CHECK(sum(ctx, dx) == inf);
    CHECK(max(ctx, dx) == inf);
    CHECK(argmax(ctx, dx).index == at);
    CHECK(iamax(ctx, dx).index == at);
    x[(at + 17) % n] = -inf;
    dx.upload(x);
    CHECK(std::isnan(sum(ctx, dx)));  // inf + -inf
    CHECK(min(ctx, dx) == -inf);
    CHECK(argmin(ctx, dx).index == (at + 17) % n);
    CHECK(iamax(ctx, dx).index == std::min(at, (at + 17) % n));  // |inf| ties
  }
}

TEST_CASE("float nrm2 does not overflow where the squares would", "[reduce]") {
  Context& ctx = test::cpu_context();
  if (!ctx.info().fp64) return;
  std::vector<float> x(1001, 1e30f);
  Buffer<float> dx(ctx, x);
  // Squares added in double (1001 roundings at most), a double root and
  // one rounding to float.
  const double want = double(1e30f) * std::sqrt(1001.0);
  CHECK(std::fabs(nrm2(ctx, dx) - want) <= (test::kFloatU + 1003 * test::kDoubleU) * want);
}

TEST_CASE("reductions refuse bad operands", "[reduce]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, 10), b(ctx, 11), empty(ctx, 0);
  CHECK_THROWS_WITH(dot(ctx, a, b), Catch::Contains("dot: x has 10 elements but y has 11"));
  CHECK_THROWS_WITH(dot(ctx, empty, a), Catch::Contains("dot: x has 0 elements but y has 10"));
  CHECK_THROWS_WITH(min(ctx, empty), Catch::Contains("min: the buffer is empty"));
  CHECK_THROWS_WITH(argmax(ctx, empty), Catch::Contains("argmax: the buffer is empty"));
  CHECK(sum(ctx, empty) == 0.0f);
  Context& other = test::another_context();
  Buffer<float> foreign(other, 10);
  CHECK_THROWS_WITH(sum(ctx, foreign), Catch::Contains("sum: buffer x belongs to another context"));
  CHECK_THROWS_WITH(dot(ctx, a, foreign), Catch::Contains("dot: buffer y belongs to another context"));
  CHECK_THROWS_WITH(count_if(ctx, "", a), Catch::Contains("count_if: the predicate is empty"));
  try {
    count_if(ctx, "x > no_such_name", a);
    FAIL("no exception");
  } catch (const BuildError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("count_if.cl"));
    CHECK_THAT(e.build_log(), Catch::Contains("no_such_name"));
  }
}

TEMPLATE_TEST_CASE("arg reductions keep the first index at every vector width, ties and NaNs in any lane", "[reduce]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  auto first_best = [](const std::vector<T>& x, bool smallest, bool absolute) {
    return smallest ? reference::extremum(x, std::less<double>(), absolute).index
                    : reference::extremum(x, std::greater<double>(), absolute).index;
  };
  for (unsigned width : {1u, 2u, 4u, 8u, 16u}) {
    PlanOptions o;
    o.override_values = PlanOverride{};
    o.override_values->vector_width = width;
    o.override_values->provenance = "test";
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{15}, std::size_t{17}, std::size_t{1000}, std::size_t{10007}}) {
      // Equal extremes in another lane just before, in the same lane one
      // vector later, and in the scalar tail; then a NaN after them and
      // one before.
      std::vector<T> x = test::random_vector<T>(n);
      const std::size_t p = n / 3;
      for (std::size_t q : {p + 1, p + width, n - 1, p})
        if (q < n) x[q] = T(-4);
      for (std::size_t q : {p + 2 * width + 1, p})
        if (q < n) x[q] = T(4);
      for (int round = 0; round < 3; ++round) {
        if (round == 1 && p + 3 < n) x[p + 3] = nan;
        if (round == 2 && n > 1) x[n / 5] = nan;
        INFO("vector width " << width << ", n " << n << ", round " << round);
        Buffer<T> dx(ctx, x);
        CHECK(argmin(ctx, dx, o).index == first_best(x, true, false));
        CHECK(argmax(ctx, dx, o).index == first_best(x, false, false));
        CHECK(iamax(ctx, dx, o).index == first_best(x, false, true));
      }
    }
  }
  // A tuned record's vector width is taken, with the same index.
  Buffer<float> x(ctx, test::random_vector<float>(1000));
  const std::string path = test::scratch_dir("argmax-tuning") + "/db.json";
  TuningDatabase::merge_into_file(path, {test::record_for(ctx.info(), "argmax", 10, {{"vector_width", 4}})});
  test::TuningDbScope scope(path);
  LaunchPlan plan;
  const Extremum<float> got = argmax(ctx, x, {}, &plan);
  const std::vector<float> host = x.download();
  CHECK(got.index == std::size_t(std::max_element(host.begin(), host.end()) - host.begin()));
  CHECK_THAT(plan.provenance, Catch::StartsWith("tuning database"));
  CHECK(plan.vector_width == 4);
}

TEMPLATE_TEST_CASE("integer min and max are exact over the whole range and at the type's ends", "[reduce]", int,
                   std::int64_t, std::uint32_t, std::uint64_t) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  std::uniform_int_distribution<T> any(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
  auto check = [&](const std::vector<T>& x, const PlanOptions& opt) {
    Buffer<T> d(ctx, x);
    CHECK(min(ctx, d, opt) == *std::min_element(x.begin(), x.end()));
    CHECK(max(ctx, d, opt) == *std::max_element(x.begin(), x.end()));
    CHECK(min_async(ctx, d, opt).get() == *std::min_element(x.begin(), x.end()));
    CHECK(max_async(ctx, d, opt).get() == *std::max_element(x.begin(), x.end()));
  };
  auto sizes = [&](std::size_t n, const PlanOptions& opt) {
    INFO("n = " << n);
    std::vector<T> x(n);
    for (T& e : x) e = any(test::rng());
    check(x, opt);
    // Every element at one end of T: the other end is the reduction's
    // identity, so a wrong identity (0 for a signed max, or int's for
    // long's) shows.
    check(std::vector<T>(n, std::numeric_limits<T>::lowest()), opt);
    check(std::vector<T>(n, std::numeric_limits<T>::max()), opt);
  };
  for (std::size_t n : test::awkward_sizes)
    if (n) sizes(n, {});
  for (const auto& [f, opt] : test::class_plans(element_of<T>::value)) {
    INFO(f);
    for (int passes : {1, 2})
      for (std::size_t n : test::class_plan_sizes) sizes(n, test::with_passes(opt, passes));
  }
}

TEST_CASE("integer sums are exact in 64 bits under every device class's plan", "[reduce]") {
  Context& ctx = test::cpu_context();
  // int elements near INT_MAX: their sum leaves 32 bits after 2 elements,
  // so a sum accumulated in int would wrap; it must come back exact.
  std::uniform_int_distribution<int> wide(std::numeric_limits<int>::max() - 1000, std::numeric_limits<int>::max());
  std::uniform_int_distribution<int> any(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  // int64 elements of up to 2^45 in magnitude: the 100003 of the largest
  // size stay inside 64 bits (REQUIREd below), far outside 32.
  std::uniform_int_distribution<std::int64_t> big(-(std::int64_t{1} << 45), std::int64_t{1} << 45);
  auto check = [&](std::size_t n, const PlanOptions& opt) {
    INFO("n = " << n);
    std::vector<int> near_max(n), mixed(n);
    std::vector<std::int64_t> longs(n);
    for (std::size_t i = 0; i < n; ++i) near_max[i] = wide(test::rng()), mixed[i] = any(test::rng());
    for (std::size_t i = 0; i < n; ++i) longs[i] = big(test::rng());
    for (const auto* v : {&near_max, &mixed}) {
      const __int128 want = reference::integer_sum(*v);
      REQUIRE(want == __int128(std::int64_t(want)));  // the premise: it fits 64 bits
      Buffer<int> d(ctx, *v);
      CHECK(sum(ctx, d, opt) == std::int64_t(want));
      CHECK(sum_async(ctx, d, opt).get() == std::int64_t(want));
    }
    const __int128 want = reference::integer_sum(longs);
    REQUIRE(want == __int128(std::int64_t(want)));
    Buffer<std::int64_t> d(ctx, longs);
    CHECK(sum(ctx, d, opt) == std::int64_t(want));
  };
  for (std::size_t n : test::awkward_sizes) check(n, {});
  for (const auto& [f, opt] : test::class_plans(ElementType::i32)) {
    INFO(f);
    for (int passes : {1, 2})
      for (std::size_t n : test::class_plan_sizes) check(n, test::with_passes(opt, passes));
  }
}
