// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>

#include "particles_leapfrog_margins.hpp"
#include "test_support.hpp"
#include "tuning/particles_nbody_reference.hpp"

using namespace portacl;

namespace {

template <class T = float>
std::vector<T> poisoned(std::size_t elements) {
  return std::vector<T>(elements, std::numeric_limits<T>::quiet_NaN());
}

// Bodies of T: test::random_bodies' distribution (positions in -1..1,
// masses 0.5..1.5 over n), drawn in T.
template <class T>
std::vector<T> bodies_of(std::size_t n) {
  if constexpr (std::is_same<T, float>::value) {
    return test::random_bodies(n);
  } else {
    std::uniform_real_distribution<double> pos(-1.0, 1.0), mass(0.5, 1.5);
    std::vector<double> b(4 * n);
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) b[4 * i + c] = pos(test::rng());
      b[4 * i + 3] = mass(test::rng()) / double(n);
    }
    return b;
  }
}

// Accelerations and potentials of every body against the double host sum
// (its margins in T's rounding).
template <class T>
LaunchPlan check_nbody(Context& ctx, const std::vector<T>& bodies, const NbodyOptions& o) {
  const std::size_t n = bodies.size() / 4;
  INFO("n = " << n << ", " << cl_type_name(element_of<T>::value) << ", eps " << o.softening << ", G " << o.gravity);
  Buffer<T> b(ctx, bodies), a(ctx, poisoned<T>(bodies.size()));
  const LaunchPlan p = nbody_accelerations(ctx, b, a, o);
  // The margins' running sums follow the plan's layout (its macro, which
  // the decision explains).
  if (n > 0) {
    const Decision* layout = p.decision("layout");
    REQUIRE(layout);
    const bool split = layout->value.rfind("split", 0) == 0;
    CHECK(p.macros.at("NBODY_SPLIT") == (split ? "1" : "0"));
    CHECK(reference::nbody_chains(p) == (split ? std::max<std::size_t>(p.vector_width, 1) : 1));
  }
  const std::vector<T> got = a.download();
  for (std::size_t i = 0; i < n; ++i) {
    const auto want = reference::nbody_body(bodies, i, o.softening, o.gravity, reference::nbody_chains(p));
    const std::string wrong = reference::compare_nbody_body(got, i, want, o.potential);
    CHECK(wrong == "");
    if (!wrong.empty()) break;
  }
  return p;
}

NbodyOptions options(double eps, double g = 1.0) {
  NbodyOptions o;
  o.softening = eps;
  o.gravity = g;
  return o;
}

}  // namespace

TEST_CASE("nbody accelerations and potentials match the double all-pairs sum at awkward sizes", "[nbody]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes)
    if (n <= 4099) check_nbody(ctx, test::random_bodies(n), options(0.05f, 0.7f));
  NbodyOptions no_potential = options(0.01f);
  no_potential.potential = false;
  const LaunchPlan p = check_nbody(ctx, test::random_bodies(1021), no_potential);
  CHECK(p.macros.at("POTENTIAL") == "0");
}

TEST_CASE("nbody in double matches the all-pairs sum within double's rounding, under every class's plan", "[nbody]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes)
    if (n <= 2053) check_nbody(ctx, bodies_of<double>(n), options(0.05, 0.7));
  for (const auto& [f, opt] : test::class_plans(ElementType::f64)) {
    INFO(f);
    NbodyOptions o = options(0.02);
    o.plan = opt;
    for (std::size_t n : {std::size_t{1}, std::size_t{61}, std::size_t{1031}}) {
      const LaunchPlan p = check_nbody(ctx, bodies_of<double>(n), o);
      const DeviceClass c = classify(*opt.plan_as).device_class;
      CHECK(p.macros.at("T") == "double");
      CHECK(p.decision("layout")->value ==
            (c == DeviceClass::cpu || c == DeviceClass::intel_mic ? "split x, y, z, m arrays" : "double4 tiles"));
      // Rule particles.nbody-rsqrt explains the double's four Newton steps
      // (or the built-in rsqrt it keeps on AMD's AVX-512 CPUs).
      if (const Decision* newton = p.decision("NEWTON_RSQRT"))
        CHECK(newton->why.find(newton->value == "0" ? "built-in" : "four Newton steps") != std::string::npos);
    }
    // Either 1/sqrt (Newton's four steps from the 64-bit guess, or the
    // built-in) and other widths, on a count none of them divides.
    for (const auto& [vw, per_item, newton] : std::vector<std::array<unsigned, 3>>{{1, 1, 1}, {4, 2, 0}, {8, 4, 1}}) {
      INFO("VW " << vw << ", BODIES " << per_item << ", NEWTON_RSQRT " << newton);
      PlanOverride tuned;
      tuned.macros = {{"BODIES", std::to_string(per_item)}, {"NEWTON_RSQRT", std::to_string(newton)}};
      tuned.vector_width = vw;
      o.plan.override_values = tuned;
      check_nbody(ctx, bodies_of<double>(257), o);
    }
    o.plan.override_values.reset();
  }
  // A double run resolves what float cannot: two unit masses 1 + 2^-40
  // apart, whose pull differs from that at distance 1 by 3 parts in 2^40,
  // far beyond double's margin and below float's rounding.
  const double r = 1 + std::ldexp(1.0, -40), eps = 1e-3;
  const std::vector<double> pair{0, 0, 0, 1, r, 0, 0, 1};
  Buffer<double> two(ctx, pair), a(ctx, poisoned<double>(8));
  const std::size_t chains = reference::nbody_chains(nbody_accelerations(ctx, two, a, options(eps)));
  const std::vector<double> got = a.download();
  const reference::NbodyExact want = reference::nbody_body(pair, 0, eps, 1.0, chains);
  const double at_one = 1 / std::pow(1 + eps * eps, 1.5);
  CHECK(std::fabs(want.a[0] - at_one) > 100 * want.a_margin[0]);  // the check below can tell them apart
  CHECK(std::fabs(got[0] - want.a[0]) <= want.a_margin[0]);
  CHECK(std::fabs(got[4] + want.a[0]) <= want.a_margin[0]);
}

TEST_CASE("nbody potentials keep their digits at small softening: two bodies, a lone body, coincident bodies",
          "[nbody]") {
  // phi of two unit masses 1 apart is -1 / sqrt(1 + eps^2), whatever eps;
  // a lone body's is exactly 0. Two bodies at one place see each other's
  // m / eps (only a body's own term is left out). The bound, relative:
  // eps^2 and r^2 rounded (u each, halved by the square root), rsqrt's 2
  // ulp (4u; Newton's three steps end within 3u), m inv and G phi (u
  // each): 7u; 8u allowed.
  Context& ctx = test::cpu_context();
  const double u = std::ldexp(1.0, -24);
  for (const auto& [fixture, plan] : test::rules_and_class_plans(ElementType::f32)) {
    INFO(fixture);
    for (float eps : {1e-2f, 1e-4f, 1e-5f}) {
      INFO("eps " << eps);
      NbodyOptions o = options(eps);
      o.plan = plan;
      Buffer<float> two(ctx, std::vector<float>{0, 0, 0, 1, 1, 0, 0, 1}), a(ctx, poisoned(8));
      nbody_accelerations(ctx, two, a, o);
      std::vector<float> got = a.download();
      const double want = -1 / std::sqrt(1 + double(eps) * eps);
      CHECK(std::fabs(got[3] - want) <= 8 * u);
      CHECK(std::fabs(got[7] - want) <= 8 * u);
      Buffer<float> lone(ctx, std::vector<float>{0.25f, -3, 7, 2}), b(ctx, poisoned(4));
      nbody_accelerations(ctx, lone, b, o);
      got = b.download();
      CHECK(got == std::vector<float>{0, 0, 0, 0});
      Buffer<float> same(ctx, std::vector<float>{0.5f, 0.5f, 0.5f, 1, 0.5f, 0.5f, 0.5f, 3}), c(ctx, poisoned(8));
      nbody_accelerations(ctx, same, c, o);
      got = c.download();
      // phi_0 = -3 / eps, phi_1 = -1 / eps: one term each, a few roundings.
      CHECK(std::fabs(got[3] + 3 / double(eps)) <= 8 * u * 3 / double(eps));
      CHECK(std::fabs(got[7] + 1 / double(eps)) <= 8 * u / double(eps));
      CHECK(got[0] == 0.0f);
    }
  }
}

TEST_CASE("nbody runs right under every device class's plan, each layout where its class takes it", "[nbody]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    NbodyOptions o = options(0.02f);
    o.plan = opt;
    for (std::size_t n : {std::size_t{1}, std::size_t{61}, std::size_t{1031}}) {
      const LaunchPlan p = check_nbody(ctx, test::random_bodies(n), o);
      const Decision* layout = p.decision("layout");
      REQUIRE(layout);
      const DeviceClass c = classify(*opt.plan_as).device_class;
      CHECK(layout->value ==
            (c == DeviceClass::cpu || c == DeviceClass::intel_mic ? "split x, y, z, m arrays" : "float4 tiles"));
    }
    // Rule particles.nbody-rsqrt: Newton's 1/sqrt on the split layout, the
    // built-in one on AMD's AVX-512 CPUs.
    {
      const LaunchPlan p = check_nbody(ctx, test::random_bodies(61), o);
      const Decision* rsqrt = p.decision("NEWTON_RSQRT");
      CHECK(p.macros.at("NEWTON_RSQRT") == (rsqrt ? rsqrt->value : "0"));
      const DeviceInfo& d = *opt.plan_as;
      if (rsqrt)
        CHECK(rsqrt->value ==
              (d.vendor.find("AMD") != std::string::npos && d.native_vector_width.of(ElementType::f32) >= 16 ? "0"
                                                                                                             : "1"));
    }
    // Tuned unrolls, vector widths, bodies per work-item and either
    // 1/sqrt, on a count that none of them divides.
    for (const auto& [unroll, vw, per_item, newton] :
         std::vector<std::array<unsigned, 4>>{{1, 1, 1, 1}, {4, 4, 2, 0}, {16, 16, 4, 1}, {8, 8, 1, 0}}) {
      INFO("UNROLL " << unroll << ", VW " << vw << ", BODIES " << per_item << ", NEWTON_RSQRT " << newton);
      PlanOverride tuned;
      tuned.macros = {{"UNROLL", std::to_string(unroll)},
                      {"BODIES", std::to_string(per_item)},
                      {"NEWTON_RSQRT", std::to_string(newton)}};
      tuned.vector_width = vw;
      o.plan.override_values = tuned;
      const LaunchPlan p = check_nbody(ctx, test::random_bodies(257), o);
      CHECK(p.macros.at("BODIES") == std::to_string(per_item));
      // The knob shapes the split layout only; tiles keep the built-in rsqrt.
      const bool split = p.decision("layout")->value == "split x, y, z, m arrays";
      CHECK(p.macros.at("NEWTON_RSQRT") == (split ? std::to_string(newton) : "0"));
    }
    o.plan.override_values.reset();
  }
}

TEST_CASE("nbody forces are antisymmetric and a closed system's momentum does not change", "[nbody]") {
  Context& ctx = test::cpu_context();
  // Two bodies: m1 a1 = -m2 a2, along the line between them, pulling together.
  const std::vector<float> two = {0.0f, 0.0f, 0.0f, 2.0f, 1.0f, 0.5f, -0.25f, 0.5f};
  Buffer<float> b(ctx, two), a(ctx, poisoned(8));
  const std::size_t pair_chains = reference::nbody_chains(nbody_accelerations(ctx, b, a, options(0.01f)));
  const std::vector<float> got = a.download();
  const reference::NbodyExact one = reference::nbody_body(two, 0, 0.01f, 1.0, pair_chains),
                              other = reference::nbody_body(two, 1, 0.01f, 1.0, pair_chains);
  for (int c = 0; c < 3; ++c) {
    CHECK(std::fabs(double(two[3]) * got[c] + double(two[7]) * got[4 + c]) <=
          double(two[3]) * one.a_margin[c] + double(two[7]) * other.a_margin[c]);
    CHECK(got[c] * (two[4 + c] - two[c]) >= 0);  // body 0 accelerates towards body 1
  }
  // Many bodies: sum_i m_i a_i = 0 exactly, so the device's sum lies within
  // the masses times each body's margin (and the double sum's rounding).
  const std::size_t n = 3001;
  const std::vector<float> bodies = test::random_bodies(n);
  Buffer<float> many(ctx, bodies), acc(ctx, poisoned(4 * n));
  const LaunchPlan plan = nbody_accelerations(ctx, many, acc, options(0.05f));
  const std::vector<float> all = acc.download();
  double momentum[3] = {0, 0, 0}, margin[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    const auto want = reference::nbody_body(bodies, i, 0.05, 1.0, reference::nbody_chains(plan));
    for (int c = 0; c < 3; ++c) {
      const double p = double(bodies[4 * i + 3]) * all[4 * i + c];
      momentum[c] += p;
      margin[c] += double(bodies[4 * i + 3]) * want.a_margin[c] + double(n) * 2 * test::kDoubleU * std::fabs(p);
    }
  }
  for (int c = 0; c < 3; ++c) CHECK(std::fabs(momentum[c]) <= margin[c]);
}

TEST_CASE("nbody leapfrog keeps momentum and holds energy over 1000 steps", "[nbody]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 64;
  std::vector<float> bodies = test::random_bodies(n), velocities(4 * n, 0.0f);
  // Small random velocities, the centre of mass at rest.
  std::normal_distribution<float> kick(0.0f, 0.3f);
  double p[3] = {0, 0, 0}, mass = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) {
      velocities[4 * i + c] = kick(test::rng());
      p[c] += double(bodies[4 * i + 3]) * velocities[4 * i + c];
    }
    mass += bodies[4 * i + 3];
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) velocities[4 * i + c] -= float(p[c] / mass);
  const NbodyOptions o = options(0.1f);
  const double eps = o.softening, h = 1e-3f;
  Buffer<float> b(ctx, bodies), v(ctx, velocities), a(ctx, poisoned(4 * n));
  const std::size_t chains = reference::nbody_chains(nbody_accelerations(ctx, b, a, o));
  const test::LeapfrogState first = test::leapfrog_state(bodies, velocities, eps, chains);
  // The library's energy (from the device's potentials) is the exact one
  // within the potentials' margins.
  double phi_margin = 0;
  for (std::size_t i = 0; i < n; ++i) phi_margin += 0.5 * bodies[4 * i + 3] * first.exact[i].phi_margin;
  CHECK(std::fabs(nbody_energy(bodies, velocities, a.download()).total() - first.energy) <=
        phi_margin + 8 * double(n) * test::kDoubleU * std::fabs(first.energy));
  std::vector<float> x = bodies, u = velocities;
  test::LeapfrogState now = first;
  const test::Momentum p0 = test::momentum_of(x, u);
  double rounding = 0, momentum_rounding[3] = {0, 0, 0}, worst = 0;
  for (int step = 1; step <= 1000; ++step) {
    const test::StepRounding r = test::step_rounding(x, u, now.exact, h);
    rounding += r.energy;
    for (int c = 0; c < 3; ++c) momentum_rounding[c] += r.momentum[c];
    nbody_step(ctx, b, v, a, float(h), o);
    x = b.download();
    u = v.download();
    now = test::leapfrog_state(x, u, eps, chains);
    const double change = std::fabs(now.energy - first.energy);
    const double margin = h * h * (std::fabs(first.w) + std::fabs(now.w)) + rounding +
                          8 * double(n) * test::kDoubleU * (std::fabs(first.energy) + std::fabs(now.energy));
    worst = std::max(worst, change / margin);
    if (!(change <= margin) || step % 250 == 0) {
      INFO("step " << step << ": |E - E0| " << change << ", time step's share "
                   << h * h * (std::fabs(first.w) + std::fabs(now.w)) << ", rounding's " << rounding);
      REQUIRE(change <= margin);
    }
  }
  UNSCOPED_INFO("worst |E - E0| over its margin: " << worst);
  const test::Momentum p1 = test::momentum_of(x, u);
  for (int c = 0; c < 3; ++c)
    CHECK(std::fabs(p1.p[c] - p0.p[c]) <=
          momentum_rounding[c] + 4 * double(n) * test::kDoubleU * (p0.magnitude[c] + p1.magnitude[c]));
}

TEST_CASE("nbody refuses what it cannot compute, naming the problem", "[nbody]") {
  Context& ctx = test::cpu_context();
  Buffer<float> b(ctx, test::random_bodies(3)), a(ctx, 12), odd(ctx, 10), v(ctx, 12);
  CHECK_THROWS_WITH(nbody_accelerations(ctx, b, a, options(0.0f)), Catch::Contains("softening 0"));
  CHECK_THROWS_WITH(nbody_accelerations(ctx, b, a, options(-1.0f)), Catch::Contains("above 0"));
  CHECK_THROWS_WITH(nbody_accelerations(ctx, b, odd, options(0.1f)), Catch::Contains("not 4 per body"));
  CHECK_THROWS_WITH(nbody_accelerations(ctx, b, b, options(0.1f)), Catch::Contains("share"));
  CHECK_THROWS_WITH(nbody_step(ctx, b, v, a, std::numeric_limits<float>::infinity(), options(0.1f)),
                    Catch::Contains("time step"));
  CHECK_THROWS_WITH(nbody_step(ctx, b, a, a, 0.1f, options(0.1f)), Catch::Contains("share"));
  CHECK_THROWS_WITH(nbody_accelerations(test::another_context(), b, a, options(0.1f)),
                    Catch::Contains("another context"));
}
