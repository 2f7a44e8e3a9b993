// SPDX-License-Identifier: Apache-2.0
// N-body over a device group of PoCL halves: after several leapfrog steps,
// positions, velocities and accelerations equal single-device nbody_step's
// bit for bit, under even, uneven and empty splits, with and without the
// potential, and under every device class's plan; total momentum stays
// where it started; bad input is refused by name.
#include <catch2/catch.hpp>

#include <cmath>

#include "portacl/particles.hpp"
#include "particles_leapfrog_margins.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

void check_group_nbody(std::size_t n, NbodyOptions o, std::size_t steps) {
  const std::vector<float> bodies = test::random_bodies(n);
  std::vector<float> velocities = test::random_vector<float>(4 * n, -0.1, 0.1);
  Context& ctx = test::whole_cpu_context();
  Buffer<float> b(ctx, bodies), v(ctx, velocities), a(ctx, 4 * n);
  nbody_accelerations(ctx, b, a, o);
  GroupNbody group(test::cpu_halves(), bodies, velocities, o);
  INFO(n << " bodies, " << steps << " steps\n" << group.describe());
  for (std::size_t s = 0; s < steps; ++s) {
    nbody_step(ctx, b, v, a, 0.01f, o);
    group.step(0.01f);
  }
  CHECK(test::first_difference(group.bodies(), b.download()) == "equal");
  CHECK(test::first_difference(group.velocities(), v.download()) == "equal");
  CHECK(test::first_difference(group.accelerations(), a.download()) == "equal");
}

}  // namespace

TEST_CASE("group N-body equals single-device N-body bit for bit", "[group_particles]") {
  NbodyOptions o;
  o.softening = 0.05f;
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {1, 0}, {0, 1}}) {
    test::cpu_halves().set_weights(weights);
    INFO("weights " << weights[0] << ":" << weights[1]);
    for (std::size_t n : {1, 2, 3, 67, 257}) {
      o.potential = n % 2 == 1;
      check_group_nbody(n, o, 3);
    }
  }
  test::cpu_halves().set_weights({1, 1});
}

TEST_CASE("group N-body under every device class's plan, momentum kept", "[group_particles]") {
  test::cpu_halves().set_weights({1, 2});
  NbodyOptions o;
  o.softening = 0.05f;
  for (const test::ClassPlan& p : test::rules_and_class_plans(ElementType::f32)) {
    INFO(p.fixture);
    o.plan = p.options;
    check_group_nbody(101, o, 2);
  }
  // Pairwise forces cancel: the total momentum stays 0 but for each step's
  // rounding (test::step_rounding, with the margins of the worst of the
  // running sums a member's plan may keep).
  const std::size_t n = 200;
  const std::vector<float> bodies = test::random_bodies(n);
  o.plan = {};
  GroupNbody group(test::cpu_halves(), bodies, std::vector<float>(4 * n, 0.0f), o);
  double margin[3] = {0, 0, 0};
  for (int s = 0; s < 5; ++s) {
    const std::vector<float> x = group.bodies(), u = group.velocities();
    std::vector<reference::NbodyExact> worst;
    for (std::size_t chains : {1, 2, 4, 8, 16}) {
      const std::vector<reference::NbodyExact> exact = test::leapfrog_state(x, u, o.softening, chains).exact;
      if (worst.empty()) worst = exact;
      for (std::size_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) worst[i].a_margin[c] = std::max(worst[i].a_margin[c], exact[i].a_margin[c]);
    }
    const test::StepRounding r = test::step_rounding(x, u, worst, 0.01f);
    for (int c = 0; c < 3; ++c) margin[c] += r.momentum[c];
    group.step(0.01f);
  }
  const test::Momentum p = test::momentum_of(group.bodies(), group.velocities());
  for (int c = 0; c < 3; ++c) CHECK(std::fabs(p.p[c]) <= margin[c] + 4 * double(n) * test::kDoubleU * p.magnitude[c]);
  test::cpu_halves().set_weights({1, 1});
}

TEST_CASE("group N-body refuses bad input by name", "[group_particles]") {
  NbodyOptions o;
  const std::vector<float> b = test::random_bodies(3);
  CHECK_THROWS_WITH(GroupNbody(test::cpu_halves(), b, std::vector<float>(12), o), Catch::Contains("softening"));
  o.softening = 0.1f;
  CHECK_THROWS_WITH(GroupNbody(test::cpu_halves(), std::vector<float>(10), std::vector<float>(10), o),
                    Catch::Contains("not 4 per body"));
  CHECK_THROWS_WITH(GroupNbody(test::cpu_halves(), b, std::vector<float>(8), o),
                    Catch::Contains("velocities has 8 floats"));
  GroupNbody group(test::cpu_halves(), b, std::vector<float>(12), o);
  CHECK_THROWS_WITH(group.step(NAN), Catch::Contains("must be finite"));
}
