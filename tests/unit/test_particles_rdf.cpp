// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "test_support.hpp"
#include "tuning/particles_rdf_reference.hpp"

using namespace portacl;

namespace {

std::vector<float> uniform_positions(std::size_t n, const PeriodicBox& box) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> p(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    p[4 * i] = u(test::rng()) * box.x;
    p[4 * i + 1] = u(test::rng()) * box.y;
    p[4 * i + 2] = u(test::rng()) * box.z;
  }
  return p;
}

// Every shell's count against the double distances.
void check_counts(Context& ctx, const std::vector<float>& p, const PeriodicBox& box, const RdfOptions& o) {
  const std::size_t n = p.size() / 4;
  INFO(n << " particles, r_max " << o.r_max << ", " << o.shells << " shells");
  Buffer<float> positions(ctx, p);
  const RadialDistribution rdf = radial_distribution(ctx, positions, box, o);
  const double lengths[3] = {box.x, box.y, box.z};
  REQUIRE(rdf.counts.size() == o.shells);
  CHECK(reference::compare_rdf_counts(rdf.counts, reference::rdf_counts(p, lengths, o.r_max, o.shells)) == "");
}

}  // namespace

TEST_CASE("the RDF counts every pair distance into its shell and drops those past r_max", "[rdf]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{7.0f, 9.0f, 8.0f};
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{61}, std::size_t{1000}, std::size_t{2001}})
    for (std::size_t shells : {std::size_t{1}, std::size_t{37}, std::size_t{1000}}) {
      RdfOptions o;
      o.r_max = 3.3f;
      o.shells = shells;
      check_counts(ctx, uniform_positions(n, box), box, o);
    }
}

TEST_CASE("the RDF holds all N(N-1)/2 pairs when r_max covers the box, and g(r) = 1 for an ideal gas", "[rdf]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{10.0f, 10.0f, 10.0f};
  const std::size_t n = 4000;
  Buffer<float> positions(ctx, uniform_positions(n, box));
  RdfOptions all;
  all.r_max = 8.7f;  // the longest minimum-image distance is sqrt(3)/2 x 10 = 8.66
  all.shells = 200;
  const RadialDistribution every = radial_distribution(ctx, positions, box, all);
  CHECK(std::accumulate(every.counts.begin(), every.counts.end(), std::uint64_t{0}) == n * (n - 1) / 2);
  RdfOptions half;
  half.r_max = 5.0f;
  half.shells = 50;
  const RadialDistribution gas = radial_distribution(ctx, positions, box, half);
  for (std::size_t s = 0; s < half.shells; ++s) {
    // Poisson counts: within 6 standard deviations of the ideal gas's.
    const double expected = double(gas.counts[s]) / gas.g[s];
    if (gas.counts[s] == 0 || expected < 20) continue;
    INFO("shell " << s << " at r " << gas.r[s] << ": g " << gas.g[s] << ", expected count " << expected);
    CHECK(std::fabs(double(gas.counts[s]) - expected) <= 6 * std::sqrt(expected) + 1);
  }
  CHECK(gas.g[49] == Approx(1.0).epsilon(0.05));
}

TEST_CASE("the RDF runs right under every device class's plan, each histogram variant where its class takes it",
          "[rdf]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{7.0f, 7.0f, 7.0f};
  const std::vector<float> p = uniform_positions(1501, box);
  for (const auto& [f, opt] : test::class_plans(ElementType::f32))
    for (std::size_t shells : {std::size_t{100}, std::size_t{1} << 18}) {
      INFO(f);
      RdfOptions o;
      o.r_max = 3.4f;
      o.shells = shells;
      o.plan = opt;
      check_counts(ctx, p, box, o);
    }
}

TEST_CASE("the RDF refuses what it cannot count, naming the problem", "[rdf]") {
  Context& ctx = test::cpu_context();
  Buffer<float> p(ctx, uniform_positions(10, {5.0f, 5.0f, 5.0f})), odd(ctx, 7);
  RdfOptions o;
  CHECK_THROWS_WITH(radial_distribution(ctx, p, {5.0f, 5.0f, 5.0f}, o), Catch::Contains("r_max 0"));
  o.r_max = 2.0f;
  o.shells = 0;
  CHECK_THROWS_WITH(radial_distribution(ctx, p, {5.0f, 5.0f, 5.0f}, o), Catch::Contains("0 shells"));
  o.shells = 10;
  CHECK_THROWS_WITH(radial_distribution(ctx, odd, {5.0f, 5.0f, 5.0f}, o), Catch::Contains("not 4 a particle"));
  CHECK_THROWS_WITH(radial_distribution(ctx, p, {5.0f, -1.0f, 5.0f}, o), Catch::Contains("box length"));
  Buffer<float> many(ctx, 4 * 92682);
  CHECK_THROWS_WITH(radial_distribution(ctx, many, {5.0f, 5.0f, 5.0f}, o), Catch::Contains("at most 92681"));
}
