// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"
#include "tuning/lj_liquid.hpp"

using namespace portacl;

TEST_CASE("an LJ liquid (fcc start, density 0.8442, rc 2.5, dt 0.005) holds its energy over 1000 NVE steps", "[md]") {
  Context& ctx = test::cpu_context();
  for (bool half : {false, true}) {
    INFO((half ? "half" : "full") << " lists");
    std::vector<float> p, v;
    PeriodicBox box;
    reference::fcc_liquid(5, 0.8442, 0.72, test::rng(), p, v, box);  // 500 atoms
    Buffer<float> positions(ctx, p), velocities(ctx, v);
    LennardJones lj;
    lj.cutoff = 2.5f;
    MdOptions o;
    o.dt = 0.005f;
    o.half_list = half;
    LennardJonesMd md(ctx, positions, velocities, box, lj, o);
    const double e0 = md.energy().total();
    double worst = 0;
    for (int block = 0; block < 10; ++block) {
      md.run(100);
      worst = std::max(worst, std::fabs(md.energy().total() - e0));
    }
    const MdEnergy end = md.energy();
    INFO("N = 500, E0 = " << e0 << ", E(1000 steps) = " << end.total() << ", kinetic " << end.kinetic
                          << ", worst |E - E0| per atom " << worst / 500 << ", rebuilds " << md.rebuilds());
    CHECK(md.steps_done() == 1000);
    CHECK(md.rebuilds() > 1);              // the liquid moves: the list was rebuilt on demand
    CHECK(end.kinetic > 0.5 * 500 * 0.3);  // it melted and stayed hot, not frozen or exploded
    CHECK(worst / 500 < 1e-3);             // per atom, in units of epsilon (measured: 1.1e-4, 1.6e-4)
    // Momentum stays at rest.
    const std::vector<float> vel = velocities.download();
    for (int c = 0; c < 3; ++c) {
      double total = 0, scale = 0;
      for (std::size_t i = 0; i < 500; ++i) {
        total += vel[4 * i + c];
        scale += std::fabs(vel[4 * i + c]);
      }
      CHECK(std::fabs(total) <= 1e-4 * scale);
    }
  }
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
