// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "portacl/particles.hpp"
#include "test_support.hpp"
#include "tuning/particles_neighbour_reference.hpp"

using namespace portacl;

namespace {

// One coordinate of a particle moved by `shift` whole box lengths, u in
// [0, 1). Float rounding of len * (u + 2) reaches 3 len when u is within an
// ulp of 1, and 3 len is outside the positions the library accepts
// ([-2L, 3L)): such a draw takes the largest float below 3 len.
float shifted_coordinate(float len, float u, int shift) {
  const float x = len * (u + float(shift));
  return x < 3.0f * len ? x : std::nextafter(3.0f * len, 0.0f);
}

// n particles uniform over the box, a quarter of them moved by whole box
// lengths (their images are what counts).
std::vector<float> random_positions(std::size_t n, const PeriodicBox& box) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::uniform_int_distribution<int> shift(-2, 2);
  std::vector<float> p(4 * n);
  const float len[3] = {float(box.x), float(box.y), float(box.z)};
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c)
      p[4 * i + c] = shifted_coordinate(len[c], u(test::rng()), i % 4 == 0 ? shift(test::rng()) : 0);
    p[4 * i + 3] = float(i % 3);
  }
  return p;
}

// Builds and checks the list against the host's pairs; returns it.
NeighbourList check_list(Context& ctx, const std::vector<float>& p, const PeriodicBox& box, NeighbourOptions o) {
  INFO("n = " << p.size() / 4 << ", box " << box.x << " x " << box.y << " x " << box.z << ", cutoff " << o.cutoff
              << ", skin " << o.skin << (o.half ? ", half" : ", full"));
  Buffer<float> positions(ctx, p);
  NeighbourList list(ctx, o);
  list.build(positions, box);
  const double lengths[3] = {box.x, box.y, box.z};
  const double reach = double(o.cutoff) + o.skin;
  CHECK(reference::compare_pairs(list.pairs(), reference::neighbour_pairs(p, lengths, reach, o.half), p, lengths,
                                 reach) == "");
  return list;
}

NeighbourOptions options(float cutoff, float skin, bool half, NeighbourSearch search = NeighbourSearch::automatic) {
  NeighbourOptions o;
  o.cutoff = cutoff;
  o.skin = skin;
  o.half = half;
  o.search = search;
  return o;
}

}  // namespace

TEST_CASE("the tests' particle generator stays inside the accepted range at the ends of its draws", "[neighbours]") {
  // u just below 1 with two box lengths added rounds to 3L in float: the
  // position check refuses it, rightly, so the generator must not make it.
  const float below_one = std::nextafter(1.0f, 0.0f);
  for (float len : {10.0f, 6.0f, 4.0f, 1.7f, 3.0f})
    for (int shift : {-2, -1, 0, 1, 2})
      for (float u : {0.0f, 0.5f, below_one}) {
        INFO("box length " << len << ", shift " << shift << ", u " << u);
        const float x = shifted_coordinate(len, u, shift);
        CHECK(x >= -2.0f * len);
        CHECK(x < 3.0f * len);
      }
}

TEST_CASE("neighbour lists hold every pair within reach across periodic boundaries, both searches, full and half",
          "[neighbours]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{10.0f, 8.0f, 12.5f};
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{61}, std::size_t{1021}, std::size_t{3001}})
    for (bool half : {false, true})
      for (NeighbourSearch search : {NeighbourSearch::cells, NeighbourSearch::all_pairs}) {
        const NeighbourList l = check_list(ctx, random_positions(n, box), box, options(1.7f, 0.3f, half, search));
        if (n > 0)
          CHECK(l.plan().decision("search")->value == (search == NeighbourSearch::cells ? "cells" : "all pairs"));
      }
  // The rule's own choice: cells from 1000 particles in a box of 3 cells a side or more.
  const NeighbourList l = check_list(ctx, random_positions(3001, box), box, options(1.7f, 0.3f, false));
  CHECK(l.plan().decision("search")->value == "cells");
}

TEST_CASE("neighbour lists grow their capacity and build again where a particle overflows it", "[neighbours]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{6.0f, 6.0f, 6.0f};
  // A dense clump in one corner: far more neighbours there than the
  // density estimate gives.
  std::vector<float> p = random_positions(2000, box);
  std::uniform_real_distribution<float> near(0.0f, 0.8f);
  for (std::size_t i = 0; i < 400; ++i)
    for (int c = 0; c < 3; ++c) p[4 * i + c] = near(test::rng());
  for (bool half : {false, true}) {
    const NeighbourList grown = check_list(ctx, p, box, options(1.0f, 0.2f, half));
    CHECK(grown.retries() >= 1);
    NeighbourOptions tiny = options(1.0f, 0.2f, half, NeighbourSearch::all_pairs);
    tiny.capacity = 2;
    const NeighbourList again = check_list(ctx, p, box, tiny);
    CHECK(again.retries() >= 1);
    CHECK(again.capacity() > 2);
  }
}

TEST_CASE("neighbour lists in a box of fewer than three cells a side test every pair", "[neighbours]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{5.0f, 9.0f, 5.0f};  // reach 2.4: 2 cells a side in x and z
  const NeighbourList l =
      check_list(ctx, random_positions(1500, box), box, options(2.0f, 0.4f, false, NeighbourSearch::cells));
  CHECK(l.plan().decision("search")->value == "all pairs");
}

TEST_CASE("neighbour lists run right under every device class's plan", "[neighbours]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{9.0f, 9.0f, 9.0f};
  for (const auto& [f, opt] : test::class_plans(ElementType::f32))
    for (bool half : {false, true}) {
      INFO(f);
      NeighbourOptions o = options(1.5f, 0.25f, half);
      o.plan = opt;
      const NeighbourList l = check_list(ctx, random_positions(2003, box), box, o);
      const DeviceClass c = classify(*opt.plan_as).device_class;
      CHECK(l.plan().decision("list_slots")->value ==
            (c == DeviceClass::cpu || c == DeviceClass::intel_mic ? "i capacity + k" : "k n + i"));
    }
}

TEST_CASE("a neighbour list asks for a rebuild once a particle has moved more than half the skin", "[neighbours]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{8.0f, 8.0f, 8.0f};
  std::vector<float> p = random_positions(500, box);
  p[0] = 0.05f;  // a particle by the boundary
  Buffer<float> positions(ctx, p);
  NeighbourList list(ctx, options(1.2f, 0.4f, false));
  list.build(positions, box);
  CHECK_FALSE(list.needs_rebuild(positions));
  std::vector<float> moved = p;
  moved[0] = 0.05f - 0.19f;  // across the boundary, 0.19 < 0.2 by the minimum image
  positions.upload(moved);
  CHECK_FALSE(list.needs_rebuild(positions));
  moved[4 * 7 + 1] += 0.21f;  // another, just past half the skin
  positions.upload(moved);
  CHECK(list.needs_rebuild(positions));
}

TEST_CASE("neighbour lists refuse what they cannot search, naming the problem", "[neighbours]") {
  Context& ctx = test::cpu_context();
  CHECK_THROWS_WITH(NeighbourList(ctx, options(0.0f, 0.3f, false)), Catch::Contains("cutoff 0"));
  CHECK_THROWS_WITH(NeighbourList(ctx, options(1.0f, -0.1f, false)), Catch::Contains("skin"));
  Buffer<float> p(ctx, random_positions(10, {4.0f, 4.0f, 4.0f})), odd(ctx, 7);
  NeighbourList list(ctx, options(1.8f, 0.3f, false));
  CHECK_THROWS_WITH(list.build(p, {4.0f, 4.0f, 4.0f}), Catch::Contains("more than half the box"));
  CHECK_THROWS_WITH(list.build(p, {4.0f, 0.0f, 9.0f}), Catch::Contains("box length 0"));
  CHECK_THROWS_WITH(list.build(odd, {9.0f, 9.0f, 9.0f}), Catch::Contains("not 4 a particle"));
  CHECK_THROWS_WITH(list.needs_rebuild(p), Catch::Contains("never built"));
}

TEST_CASE("neighbour lists and the RDF refuse positions far outside the box or not finite, naming the first",
          "[neighbours]") {
  // A particle at x = 3e7 in a box of 10 lost 36-68 real neighbours and
  // gained 66-80 false ones; NaN positions silently had no neighbours.
  Context& ctx = test::cpu_context();
  const PeriodicBox box{10.0, 10.0, 10.0};
  const float bad_values[] = {3e7f,
                              -1e30f,
                              1e30f,
                              30.0f,
                              -20.5f,
                              std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity()};
  for (NeighbourSearch search : {NeighbourSearch::cells, NeighbourSearch::all_pairs}) {
    for (float bad : bad_values) {
      INFO("x = " << bad << (search == NeighbourSearch::cells ? ", cells" : ", all pairs"));
      std::vector<float> p = random_positions(200, box);
      p[4 * 57 + 0] = bad;
      p[4 * 123 + 2] = bad;
      Buffer<float> positions(ctx, p);
      NeighbourOptions o = options(2.0f, 0.3f, false);
      o.search = search;
      NeighbourList list(ctx, o);
      CHECK_THROWS_WITH(list.build(positions, box),
                        Catch::Contains("NeighbourList::build: particle 57 at (") &&
                            (std::isfinite(bad) ? Catch::Contains("[-2L, 3L)") : Catch::Contains("is not finite")));
      CHECK_THROWS_WITH(list.neighbours(), Catch::Contains("never built"));  // nothing half built is left
      RdfOptions r;
      r.r_max = 4.0f;
      CHECK_THROWS_WITH(radial_distribution(ctx, positions, box, r),
                        Catch::Contains("radial_distribution: particle 57 at ("));
      std::vector<double> wide(p.begin(), p.end());
      wide[4 * 57] = std::isfinite(bad) ? double(bad) : 1e300;  // beyond float: narrowed to infinity
      Buffer<double> positions64(ctx, wide);
      CHECK_THROWS_WITH(list.build(positions64, box), Catch::Contains("NeighbourList::build: particle 57 at ("));
    }
  }
  // Two box lengths out either way still pass, and their images count.
  std::vector<float> p = random_positions(200, box);
  p[4 * 5] = -19.99f;
  p[4 * 6 + 1] = 29.99f;
  Buffer<float> positions(ctx, p);
  NeighbourList list(ctx, options(2.0f, 0.3f, false));
  list.build(positions, box);
  CHECK(list.particles() == 200);
}

TEST_CASE("the position check names the lowest bad index under every device class's plan, at awkward counts",
          "[neighbours]") {
  // The check runs one work-item a particle and keeps the lowest bad index
  // across work-groups: a plan's group size, a count that is not a multiple
  // of it, and bad particles in the last partial group must not change the
  // particle named.
  Context& ctx = test::cpu_context();
  const PeriodicBox box{10.0, 10.0, 10.0};
  for (const test::ClassPlan& c : test::rules_and_class_plans(ElementType::f32))
    for (std::size_t n : test::awkward_sizes) {
      if (n == 0) continue;
      std::uniform_int_distribution<std::size_t> pick(0, n - 1);
      const std::size_t first = pick(test::rng()), later = first + (n - 1 - first) / 2 + (first + 1 < n ? 1 : 0);
      INFO(c.fixture << ", " << n << " particles, bad at " << first << " and " << later);
      std::vector<float> p = random_positions(n, box);
      p[4 * first + 1] = std::numeric_limits<float>::quiet_NaN();
      if (later < n) p[4 * later] = -1e30f;
      Buffer<float> positions(ctx, p);
      NeighbourOptions o = options(2.0f, 0.3f, false);
      o.plan = c.options;
      NeighbourList list(ctx, o);
      CHECK_THROWS_WITH(list.build(positions, box), Catch::Contains("particle " + std::to_string(first) + " at (") &&
                                                        Catch::Contains("is not finite"));
    }
}

TEST_CASE("a neighbour list of no particles is built: no counts, an empty list", "[neighbours]") {
  Context& ctx = test::cpu_context();
  for (bool half : {false, true}) {
    NeighbourList list(ctx, options(1.0f, 0.3f, half));
    Buffer<float> none(ctx, std::size_t{0});
    list.build(none, {4.0, 4.0, 4.0});
    CHECK(list.particles() == 0);
    CHECK(list.counts().size() == 0);
    CHECK(list.neighbours().size() == 0);
    CHECK(list.pairs().empty());
    CHECK_FALSE(list.needs_rebuild(none));
  }
}

TEST_CASE("a pair exactly at cutoff + skin is not listed, one just inside is", "[neighbours]") {
  Context& ctx = test::cpu_context();
  // cutoff 2.25 + skin 0.25 = 2.5: distances 2.5 (exactly) and 2.4999998
  // (the float below), along x and across the boundary.
  const float inside = std::nextafter(2.5f, 0.0f);
  for (NeighbourSearch search : {NeighbourSearch::cells, NeighbourSearch::all_pairs}) {
    Buffer<float> p(ctx, std::vector<float>{1.0f, 1, 1, 0, 3.5f,          1, 1, 0,    // 2.5 apart
                                            1.0f, 5, 5, 0, 1.0f + inside, 5, 5, 0,    // just inside
                                            0.5f, 9, 9, 0, 8.0f,          9, 9, 0});  // 2.5 across x = 0
    NeighbourList list(ctx, options(2.25f, 0.25f, true, search));
    list.build(p, {10.0, 10.0, 10.0});
    const auto pairs = list.pairs();
    CHECK(pairs == std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 3}});
  }
}
