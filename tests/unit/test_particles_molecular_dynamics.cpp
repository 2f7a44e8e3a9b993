// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "particles_leapfrog_margins.hpp"
#include "test_support.hpp"
#include "tuning/particles_lj_liquid.hpp"
#include "tuning/particles_lj_reference.hpp"

using namespace portacl;

namespace {

// One velocity-Verlet step's rounding of the total momentum (unit masses)
// in T, to first order: test::step_rounding's kicks, with the exact LJ
// forces at (x, v)'s positions. Each pair's two force terms are exact
// negatives on the device, so only the rounding of each particle's sum of
// its terms reaches the total: (pairs + 1) roundings of the sum of their
// magnitudes (reference::lennard_jones_bounds's `sums` part), one pass
// over the pairs.
template <class T>
std::array<double, 3> momentum_rounding(const std::vector<T>& x, const std::vector<T>& v, const PeriodicBox& box,
                                        const LennardJones& lj, double dt) {
  const double lengths[3] = {box.x, box.y, box.z}, unit = sizeof(T) == 4 ? test::kFloatU : test::kDoubleU;
  const reference::LjExact f = reference::lennard_jones(x, lengths, lj);
  const std::size_t n = x.size() / 4;
  std::vector<reference::NbodyExact> exact(n);
  std::vector<T> unit_masses = x;
  for (std::size_t i = 0; i < n; ++i) {
    unit_masses[4 * i + 3] = 1;
    for (int c = 0; c < 3; ++c) {
      exact[i].a[c] = f.force[3 * i + c];
      exact[i].a_margin[c] = double(f.pairs[i] + 1) * unit * f.magnitude[3 * i + c];
    }
  }
  const test::StepRounding r = test::step_rounding(unit_masses, v, exact, dt, unit);
  return {r.momentum[0], r.momentum[1], r.momentum[2]};
}

}  // namespace

namespace {

// The liquid of 500 atoms over 1000 steps in T: its worst energy error per
// atom (in epsilon), with the invariants checked.
template <class T>
double nve_drift(Context& ctx, bool half) {
  INFO((half ? "half" : "full") << " lists, " << (sizeof(T) == 4 ? "float" : "double"));
  std::vector<float> p, v;
  PeriodicBox box;
  reference::fcc_liquid(5, 0.8442, 0.72, test::rng(), p, v, box);  // 500 atoms
  Buffer<T> positions(ctx, std::vector<T>(p.begin(), p.end())), velocities(ctx, std::vector<T>(v.begin(), v.end()));
  LennardJones lj;
  lj.cutoff = 2.5f;
  MdOptions o;
  o.dt = 0.005f;
  o.half_list = half;
  BasicLennardJonesMd<T> md(ctx, positions, velocities, box, lj, o);
  const double e0 = md.energy().total();
  const std::vector<T> ones(4 * 500, T(1));
  const test::Momentum p0 = test::momentum_of(ones, velocities.download());
  std::array<double, 3> rounding{0, 0, 0};
  double worst = 0;
  for (int step = 1; step <= 1000; ++step) {
    const std::array<double, 3> r = momentum_rounding(positions.download(), velocities.download(), box, lj, o.dt);
    for (int c = 0; c < 3; ++c) rounding[c] += r[c];
    md.run(1);
    if (step % 100 == 0) worst = std::max(worst, std::fabs(md.energy().total() - e0));
  }
  const MdEnergy end = md.energy();
  INFO("N = 500, E0 = " << e0 << ", E(1000 steps) = " << end.total() << ", kinetic " << end.kinetic
                        << ", worst |E - E0| per atom " << worst / 500 << ", rebuilds " << md.rebuilds());
  CHECK(md.steps_done() == 1000);
  CHECK(md.rebuilds() > 1);              // the liquid moves: the list was rebuilt on demand
  CHECK(end.kinetic > 0.5 * 500 * 0.3);  // it melted and stayed hot, not frozen or exploded
  // The time step's criterion, not a float bound: the energy of an NVE run
  // at dt = 0.005 stays within 1e-3 epsilon an atom (the force's jump at
  // the cutoff and the step's error; double drifts about as much).
  CHECK(worst / 500 < 1e-3);
  // Momentum is kept to the rounding of each step's kicks and T's force
  // sums (each pair's two forces are exact negatives).
  const test::Momentum p1 = test::momentum_of(ones, velocities.download());
  for (int c = 0; c < 3; ++c)
    CHECK(std::fabs(p1.p[c] - p0.p[c]) <= rounding[c] + 4 * 500 * test::kDoubleU * (p0.magnitude[c] + p1.magnitude[c]));
  return worst / 500;
}

}  // namespace

TEST_CASE("an LJ liquid (fcc start, density 0.8442, rc 2.5, dt 0.005) holds its energy over 1000 NVE steps", "[md]") {
  // Measured: 1.1e-4 (full lists) and 1.6e-4 (half) an atom in float; the
  // error is the time step's, so double gives about the same.
  Context& ctx = test::cpu_context();
  for (bool half : {false, true}) nve_drift<float>(ctx, half);
}

TEST_CASE("the same LJ liquid in double holds its energy as well, and keeps momentum to double rounding", "[md]") {
  Context& ctx = test::cpu_context();
  const double drift = nve_drift<double>(ctx, false);
  UNSCOPED_INFO("double drift per atom " << drift);
  CHECK(drift > 0);  // a real run, not a frozen one
  // Half lists in double are refused, naming why.
  std::vector<float> p, v;
  PeriodicBox box;
  reference::fcc_liquid(3, 0.8442, 0.72, test::rng(), p, v, box);
  Buffer<double> positions(ctx, std::vector<double>(p.begin(), p.end())),
      velocities(ctx, std::vector<double>(v.begin(), v.end()));
  LennardJones lj;
  lj.cutoff = 2.0f;
  MdOptions o;
  o.half_list = true;
  CHECK_THROWS_WITH(LennardJonesMdDouble(ctx, positions, velocities, box, lj, o),
                    Catch::Contains("half list in double"));
}

TEST_CASE("the list type follows the device class unless asked: half on CPUs, full on GPUs and in double", "[md]") {
  // Rule particles.md-list, under every class's plan; each run takes a
  // few steps, so both list types also run under every class.
  Context& ctx = test::cpu_context();
  std::vector<float> p, v;
  PeriodicBox box;
  reference::fcc_liquid(3, 0.8442, 0.72, test::rng(), p, v, box);  // 108 atoms
  LennardJones lj;
  lj.cutoff = 2.0f;
  for (const auto& c : test::class_plans(ElementType::f32)) {
    INFO(c.fixture);
    const DeviceClass cls = classify(*c.options.plan_as).device_class;
    const bool cpu_like = cls == DeviceClass::cpu || cls == DeviceClass::intel_mic;
    MdOptions o;
    o.plan = c.options;
    Buffer<float> positions(ctx, p), velocities(ctx, v);
    LennardJonesMd md(ctx, positions, velocities, box, lj, o);
    CHECK(md.list().half() == cpu_like);
    const double e0 = md.energy().total();
    md.run(20);
    // The time step's criterion (not a float bound): the energy holds to
    // 1e-2 epsilon an atom over 20 steps under every class's list.
    CHECK(std::fabs(md.energy().total() - e0) < 1e-2 * 108);
    o.half_list = !cpu_like;  // the caller's choice wins
    Buffer<float> positions2(ctx, p), velocities2(ctx, v);
    CHECK(LennardJonesMd(ctx, positions2, velocities2, box, lj, o).list().half() == !cpu_like);
  }
  for (const auto& c : test::class_plans(ElementType::f64)) {
    INFO(c.fixture << ", double");
    MdOptions o;
    o.plan = c.options;
    Buffer<double> dp(ctx, std::vector<double>(p.begin(), p.end())), dv(ctx, std::vector<double>(v.begin(), v.end()));
    CHECK_FALSE(LennardJonesMdDouble(ctx, dp, dv, box, lj, o).list().half());
  }
}

TEST_CASE("molecular dynamics on awkward sizes: no atoms, one atom in flight, a prime count of atoms", "[md]") {
  Context& ctx = test::cpu_context();
  const PeriodicBox box{6.0f, 6.0f, 6.0f};
  LennardJones lj;
  MdOptions o;
  {  // No atoms: steps are counted, nothing launches.
    Buffer<float> positions(ctx, std::size_t{0}), velocities(ctx, std::size_t{0});
    LennardJonesMd md(ctx, positions, velocities, box, lj, o);
    md.run(5);
    CHECK(md.steps_done() == 5);
    CHECK(md.energy().total() == 0.0);
  }
  {  // One atom: no forces, so it flies straight through the periodic
     // boundaries: x(t) = x0 + v t, wrapped at every rebuild.
    const std::vector<float> p = {5.9f, 0.1f, 3.0f, 0.0f}, v = {2.0f, -1.5f, 0.25f, 0.0f};
    Buffer<float> positions(ctx, p), velocities(ctx, v);
    LennardJonesMd md(ctx, positions, velocities, box, lj, o);
    md.run(400);  // t = 2
    const std::vector<float> x = positions.download();
    for (int c = 0; c < 3; ++c) {
      const double want = double(p[c]) + 2.0 * v[c];
      double d = double(x[c]) - want;
      d -= 6.0 * std::nearbyint(d / 6.0);
      // Each step x += dt v rounds the product and the sum, and a wrap
      // into the box rounds once more; positions stay within [-2L, 3L).
      // The step dt itself is a float.
      const double dt = float(o.dt), drift = std::fabs(dt * v[c]);
      const double margin =
          400 * test::kFloatU * (drift + 3 * 6.0 + (3 * 6.0 + 6.0)) + 400 * std::fabs(dt - o.dt) * std::fabs(v[c]);
      INFO("component " << c << ": " << x[c] << ", want " << want << " (mod 6), margin " << margin);
      CHECK(std::fabs(d) <= margin);
    }
    CHECK(velocities.download() == v);
    CHECK(md.rebuilds() > 1);  // it moved 5 box lengths' worth of half-skins
    CHECK(md.energy().potential == 0.0);
  }
  {  // 31 atoms of a dilute gas: momentum is kept, and energy to 1e-3 an atom.
    const std::vector<float> p = reference::dilute_gas(31, 6.0f, 1.0, 1, test::rng());
    std::vector<float> v;
    std::uniform_real_distribution<float> speed(-1.0f, 1.0f);
    double mean[3] = {0, 0, 0};
    for (std::size_t i = 0; i < 31; ++i) {
      const float w[3] = {speed(test::rng()), speed(test::rng()), speed(test::rng())};
      v.insert(v.end(), {w[0], w[1], w[2], 0.0f});
      for (int c = 0; c < 3; ++c) mean[c] += w[c] / 31.0;
    }
    for (std::size_t i = 0; i < 31; ++i)
      for (int c = 0; c < 3; ++c) v[4 * i + c] = float(v[4 * i + c] - mean[c]);
    Buffer<float> positions(ctx, p), velocities(ctx, v);
    LennardJonesMd md(ctx, positions, velocities, box, lj, o);
    const double e0 = md.energy().total();
    // Step by step, the momentum's rounding carried along.
    const test::Momentum p0 = test::momentum_of(std::vector<float>(4 * 31, 1.0f), v);
    std::array<double, 3> margin{0, 0, 0};
    for (int step = 0; step < 500; ++step) {
      const std::array<double, 3> r = momentum_rounding(positions.download(), velocities.download(), box, lj, o.dt);
      for (int c = 0; c < 3; ++c) margin[c] += r[c];
      md.run(1);
    }
    INFO("E0 " << e0 << ", E(500) " << md.energy().total());
    // The time step's criterion (not a float bound): 1e-3 epsilon an atom.
    CHECK(std::fabs(md.energy().total() - e0) / 31 < 1e-3);
    const test::Momentum p1 = test::momentum_of(std::vector<float>(4 * 31, 1.0f), velocities.download());
    for (int c = 0; c < 3; ++c)
      CHECK(std::fabs(p1.p[c] - p0.p[c]) <= margin[c] + 4 * 31 * test::kDoubleU * (p0.magnitude[c] + p1.magnitude[c]));
  }
}

TEST_CASE("molecular dynamics checks the types at each run, after the caller's changes", "[md]") {
  Context& ctx = test::cpu_context();
  std::vector<float> p, v;
  PeriodicBox box;
  reference::fcc_liquid(3, 0.8442, 0.72, test::rng(), p, v, box);
  Buffer<float> positions(ctx, p), velocities(ctx, v);
  LennardJones lj;
  lj.cutoff = 2.0f;
  MdOptions o;
  LennardJonesMd md(ctx, positions, velocities, box, lj, o);
  md.run(2);
  p = positions.download();
  p[4 * 7 + 3] = 1.0f;  // type 1 of a single type
  positions.upload(p);
  CHECK_THROWS_WITH(md.run(1), Catch::Contains("LennardJonesMd::run") && Catch::Contains("type"));
  CHECK(md.steps_done() == 2);
}

TEST_CASE("molecular dynamics refuses what it cannot run, naming the problem", "[md]") {
  Context& ctx = test::cpu_context();
  std::vector<float> p, v;
  PeriodicBox box;
  reference::fcc_liquid(3, 0.8442, 0.72, test::rng(), p, v, box);
  Buffer<float> positions(ctx, p), velocities(ctx, v), short_v(ctx, 8);
  LennardJones lj;
  MdOptions o;
  o.dt = 0.0f;
  CHECK_THROWS_WITH(LennardJonesMd(ctx, positions, velocities, box, lj, o), Catch::Contains("time step"));
  o.dt = 0.005f;
  o.masses = {1.0f, 2.0f};
  CHECK_THROWS_WITH(LennardJonesMd(ctx, positions, velocities, box, lj, o), Catch::Contains("one a type"));
  o.masses = {-1.0f};
  CHECK_THROWS_WITH(LennardJonesMd(ctx, positions, velocities, box, lj, o), Catch::Contains("mass"));
  o.masses = {1.0f};
  CHECK_THROWS_WITH(LennardJonesMd(ctx, positions, short_v, box, lj, o), Catch::Contains("4 floats a particle"));
  lj.cutoff = 3.0f;  // 3.3 is more than half of this 5.04 box
  CHECK_THROWS_WITH(LennardJonesMd(ctx, positions, velocities, box, lj, o), Catch::Contains("half the box"));
}

TEST_CASE("a double run takes the box, the LJ tables, dt and the masses whole, not rounded to float", "[md]") {
  // A box of 7.3, sigma 0.9 and 0.85, dt 0.001 and masses 1.3 and 0.7: none
  // a float. Double positions on a jittered 6^3 lattice, at rest. The
  // forces match the double reference in that box within the double bound
  // (a float box would move every pair across the boundary by 2e-7, a
  // relative force error near 1e-6), and one step matches the host's
  // velocity-Verlet step in double.
  Context& ctx = test::cpu_context();
  const double length = 7.3, spacing = length / 6, dt = 0.001;
  const PeriodicBox box{length, length, length};
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  std::vector<double> p;
  for (int z = 0; z < 6; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 6; ++x) {
        for (int c : {x, y, z}) p.push_back(spacing * (c + 0.5) + jitter(test::rng()));
        p.push_back(double((x + y + z) % 2));
      }
  const LennardJones lj = test::two_type_lj();
  MdOptions o;
  o.dt = dt;
  o.masses = {1.3, 0.7};
  Buffer<double> positions(ctx, p), velocities(ctx, std::vector<double>(p.size(), 0.0));
  LennardJonesMdDouble md(ctx, positions, velocities, box, lj, o);
  const double lengths[3] = {length, length, length};
  const reference::LjExact f0 = reference::lennard_jones(p, lengths, lj);
  const reference::LjBounds b0 = reference::lennard_jones_bounds<double>(p, lengths, lj);
  const std::vector<double> got_f = md.forces().download();
  for (std::size_t i = 0; i < p.size() / 4; ++i)
    for (int c = 0; c < 3; ++c) {
      INFO("particle " << i << " component " << c);
      CHECK(std::fabs(got_f[4 * i + c] - f0.force[3 * i + c]) <= b0.force[3 * i + c]);
    }
  md.run(1);
  REQUIRE(md.rebuilds() == 1);  // no rebuild, so no wrap: x1 = x0 + dt v_half
  const std::vector<double> x1 = positions.download();
  const double u = std::ldexp(1.0, -53);
  for (std::size_t i = 0; i < p.size() / 4; ++i) {
    const double inverse_mass = 1 / o.masses[std::size_t(p[4 * i + 3])];
    for (int c = 0; c < 3; ++c) {
      // v_half = 0.5 dt (1/m) F: the inverse, two products, F's own error;
      // x1 = x0 + dt v_half: a product and a sum.
      const double force = f0.force[3 * i + c], v_half = 0.5 * dt * inverse_mass * force;
      const double want = p[4 * i + c] + dt * v_half;
      const double v_error = 4 * u * std::fabs(v_half) + 0.5 * dt * inverse_mass * b0.force[3 * i + c];
      const double bound = u * std::fabs(want) + 2 * u * std::fabs(dt * v_half) + dt * v_error;
      INFO("particle " << i << " component " << c << ": moved " << x1[4 * i + c] - p[4 * i + c] << ", want "
                       << want - p[4 * i + c]);
      CHECK(std::fabs(x1[4 * i + c] - want) <= bound);
    }
  }
}
