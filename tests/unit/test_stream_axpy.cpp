// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"
#include "kernels/stream_tunables.hpp"

using namespace portacl;

namespace {

template <class T>
struct Problem {
  T a;
  std::vector<T> x, y;
};

// Fresh random operands with |a*x| bounded away from 0, so an element the
// kernel never wrote (still y) cannot pass for a*x + y.
template <class T>
Problem<T> random_problem(std::size_t n) {
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  std::bernoulli_distribution sign(0.5);
  auto r = [&] { return static_cast<T>(sign(test::rng()) ? mag(test::rng()) : -mag(test::rng())); };
  Problem<T> p;
  p.a = r();
  p.x.resize(n);
  p.y.resize(n);
  for (auto& v : p.x) v = r();
  for (auto& v : p.y) v = r();
  return p;
}

// Compare with the shared host reference, error scaled by |a*x| + |y|
// (a*x + y may cancel): at most one rounding of each product and sum.
template <class T>
void check_result(const Problem<T>& p, const std::vector<T>& out) {
  REQUIRE(out.size() == p.x.size());
  CHECK(reference::compare(out, reference::axpby(p.a, p.x, 1.0, p.y), 2) == "");
}

template <class T>
ElementType element() {
  return sizeof(T) == 4 ? ElementType::f32 : ElementType::f64;
}

const std::vector<std::size_t>& awkward_sizes() {
  // 0, 1, primes, and sizes that are no multiple of any vector width (16) or
  // work-group size (64, 256); one beyond a grid-stride pass.
  static const std::vector<std::size_t> s = {0,  1,  2,   3,   5,    7,    13,    17,
                                             31, 61, 127, 257, 1021, 4099, 65537, (1u << 20) + 3};
  return s;
}

}  // namespace

TEMPLATE_TEST_CASE("axpy matches the host reference at awkward sizes", "[axpy]", float, double) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : awkward_sizes()) {
    INFO("n = " << n);
    Problem<TestType> p = random_problem<TestType>(n);
    Buffer<TestType> x(ctx, p.x), y(ctx, p.y);
    LaunchPlan plan = axpy(ctx, p.a, x, y);
    CHECK(plan.device_class == ctx.device().classification().device_class);
    check_result(p, y.download());
    CHECK(x.download() == p.x);  // x is read-only
  }
}

TEMPLATE_TEST_CASE("axpy runs correctly under every device class's plan", "[axpy]", float, double) {
  Context& ctx = test::cpu_context();
  DeviceLimits live = DeviceLimits::of(ctx.info());
  for (const auto& f : test::fixture_files()) {
    DeviceInfo d = test::load_fixture(f);
    if (element<TestType>() == ElementType::f64 && !d.fp64) continue;
    for (std::size_t n : {std::size_t{1}, std::size_t{61}, std::size_t{4099}, std::size_t{(1u << 18) + 5}}) {
      PlanOptions opt;
      opt.live_limits = live;  // the fixture's rules, the real device's limits
      LaunchPlan plan = make_plan(d, axpy_traits(element<TestType>()), ProblemSize(n), opt);
      INFO(f << " n = " << n << "\n" << plan.explain());
      CHECK(plan.device_class == classify(d).device_class);
      Problem<TestType> p = random_problem<TestType>(n);
      Buffer<TestType> x(ctx, p.x), y(ctx, p.y, plan.memory);
      axpy(ctx, p.a, x, y, plan);
      check_result(p, y.download());
    }
  }
}

TEMPLATE_TEST_CASE("axpy gives identical results whatever the memory strategy", "[axpy]", float, double) {
  Context& ctx = test::cpu_context();
  Problem<TestType> p = random_problem<TestType>(10007);
  std::vector<std::vector<TestType>> results;
  for (auto s : {MemoryStrategy::map_host_memory, MemoryStrategy::pinned_staging, MemoryStrategy::direct_copy}) {
    Buffer<TestType> x(ctx, p.x.size(), s), y(ctx, p.y.size(), s);
    x.upload(p.x);
    y.upload(p.y);
    axpy(ctx, p.a, x, y);
    results.push_back(y.download());
  }
  check_result(p, results[0]);
  CHECK(results[0] == results[1]);
  CHECK(results[0] == results[2]);
}

TEST_CASE("axpy refuses bad operands before any launch", "[axpy]") {
  Context& ctx = test::cpu_context();
  Buffer<float> x(ctx, 10), y(ctx, 11);
  CHECK_THROWS_WITH(axpy(ctx, 1.0f, x, y), Catch::Contains("x has 10 elements but y has 11"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 10), y10(ctx, 10);
  CHECK_THROWS_WITH(axpy(ctx, 1.0f, foreign, y10), Catch::Contains("buffer x belongs to another context"));
  CHECK_THROWS_WITH(axpy(ctx, 1.0f, y10, foreign), Catch::Contains("buffer y belongs to another context"));
  LaunchPlan double_plan = ctx.plan(axpy_traits(ElementType::f64), ProblemSize(10));
  CHECK_THROWS_WITH(axpy(ctx, 1.0f, y10, y10, double_plan), Catch::Contains("made for element type 'double'"));
}
