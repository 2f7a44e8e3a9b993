// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>

#include "test_support.hpp"
#include "tuning/particles_lj_liquid.hpp"
#include "tuning/particles_lj_reference.hpp"

using namespace portacl;

namespace {

// The minimum-image distance of particles i and j, in double.
double image_distance(const std::vector<float>& p, std::size_t i, std::size_t j, const double lengths[3]) {
  double r2 = 0;
  for (int c = 0; c < 3; ++c) {
    double d = double(p[4 * j + c]) - double(p[4 * i + c]);
    d -= lengths[c] * std::nearbyint(d / lengths[c]);
    r2 += d * d;
  }
  return std::sqrt(r2);
}

// A simple cubic lattice of side `per_side` and spacing 1.12 sigma, each
// site moved by up to 0.12 in each direction (no pair closer than 0.88),
// types alternating over `types`, in the box the lattice fills.
std::vector<float> jittered_lattice(int per_side, std::size_t types, PeriodicBox& box) {
  const float spacing = 1.12f;
  std::uniform_real_distribution<float> jitter(-0.12f, 0.12f);
  std::vector<float> p;
  for (int z = 0; z < per_side; ++z)
    for (int y = 0; y < per_side; ++y)
      for (int x = 0; x < per_side; ++x) {
        p.push_back(spacing * x + jitter(test::rng()));
        p.push_back(spacing * y + jitter(test::rng()));
        p.push_back(spacing * z + jitter(test::rng()));
        p.push_back(float((x + y + z) % types));
      }
  box = PeriodicBox{spacing * per_side, spacing * per_side, spacing * per_side};
  return p;
}

LennardJones two_types() { return test::two_type_lj(); }

// "" when every force component and the total energy of `got` (4 a
// particle: force, energy) lie within `bound` of `want`; else the first
// that does not, with its error and bound.
template <class T>
std::string lj_violations(const std::vector<T>& got, const reference::LjExact& want, const reference::LjBounds& bound) {
  std::ostringstream out;
  out.precision(4);
  double energy = 0;
  for (std::size_t i = 0; i < got.size() / 4; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double error = std::fabs(got[4 * i + c] - want.force[3 * i + c]);
      if (!(error <= bound.force[3 * i + c])) {
        out << "particle " << i << " component " << c << ": got " << got[4 * i + c] << ", want "
            << want.force[3 * i + c] << ", |error| " << error << " against a bound of " << bound.force[3 * i + c];
        return out.str();
      }
    }
    energy += got[4 * i + 3];
  }
  if (!(std::fabs(energy - want.energy) <= bound.energy))
    out << "energy " << energy << ", want " << want.energy << ", |error| " << std::fabs(energy - want.energy)
        << " against a bound of " << bound.energy;
  return out.str();
}

// Forces and energies from a list of `half` kind, against the double sums;
// T the precision of the positions, forces and arithmetic.
template <class T>
std::vector<T> check_forces(Context& ctx, const std::vector<T>& p, const PeriodicBox& box, const LennardJones& lj,
                            bool half, const PlanOptions& plan = {}) {
  INFO((half ? "half" : "full") << " list, " << p.size() / 4 << " particles, shift " << lj.shift << ", "
                                << (sizeof(T) == 4 ? "float" : "double"));
  Buffer<T> positions(ctx, p), forces(ctx, std::vector<T>(p.size(), T(std::nan(""))));
  NeighbourOptions o;
  o.cutoff = lj.cutoff;
  o.skin = 0.3f;
  o.half = half;
  o.plan = plan;
  NeighbourList list(ctx, o);
  list.build(positions, box);
  const LaunchPlan used = lennard_jones(ctx, positions, list, lj, forces, plan);
  CHECK(used.decision("scatter")->value == (half ? "atomic shares" : "own sums"));
  const std::vector<T> got = forces.download();
  const double lengths[3] = {box.x, box.y, box.z};
  // Each component within the rounding particles_lennard_jones.cl's arithmetic can
  // make (reference::lennard_jones_bounds says how it is counted).
  const reference::LjExact want = reference::lennard_jones(p, lengths, lj);
  const reference::LjBounds bound = reference::lennard_jones_bounds<T>(p, lengths, lj);
  CHECK(lj_violations(got, want, bound) == "");
  return got;
}

}  // namespace

TEST_CASE("Lennard-Jones forces and energy match the double sums, full and half lists, with and without the shift",
          "[lj]") {
  Context& ctx = test::cpu_context();
  PeriodicBox box;
  for (int side : {6, 11}) {
    const std::vector<float> p = jittered_lattice(side, 2, box);
    for (bool shift : {true, false}) {
      LennardJones lj = two_types();
      lj.shift = shift;
      for (bool half : {false, true}) check_forces(ctx, p, box, lj, half);
    }
  }
}

TEST_CASE("Lennard-Jones in double matches the double sums to 1e-12; half lists are refused there", "[lj]") {
  Context& ctx = test::cpu_context();
  PeriodicBox box;
  for (int side : {5, 7}) {
    const std::vector<float> narrow = jittered_lattice(side, 2, box);
    const std::vector<double> p(narrow.begin(), narrow.end());
    for (bool shift : {true, false}) {
      LennardJones lj = two_types();
      lj.shift = shift;
      check_forces(ctx, p, box, lj, false);
    }
    // The same positions in float agree with double within the two runs'
    // bounds added.
    const std::vector<float> f32 = check_forces(ctx, narrow, box, two_types(), false);
    const std::vector<double> f64 = check_forces(ctx, p, box, two_types(), false);
    const double lengths[3] = {box.x, box.y, box.z};
    const reference::LjBounds b32 = reference::lennard_jones_bounds<float>(narrow, lengths, two_types());
    const reference::LjBounds b64 = reference::lennard_jones_bounds<double>(p, lengths, two_types());
    for (std::size_t i = 0; i < f32.size() / 4; ++i)
      for (int c = 0; c < 3; ++c) {
        INFO("particle " << i << " component " << c);
        CHECK(std::fabs(double(f32[4 * i + c]) - f64[4 * i + c]) <= b32.force[3 * i + c] + b64.force[3 * i + c]);
      }
  }
  const std::vector<float> narrow = jittered_lattice(5, 2, box);
  Buffer<double> positions(ctx, std::vector<double>(narrow.begin(), narrow.end())), forces(ctx, narrow.size());
  NeighbourOptions o;
  o.cutoff = 2.5f;
  o.half = true;
  NeighbourList list(ctx, o);
  list.build(positions, box);
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, two_types(), forces), Catch::Contains("half list in double"));
}

TEST_CASE("Lennard-Jones on awkward particle counts: none, one, two, primes", "[lj]") {
  Context& ctx = test::cpu_context();
  // A gas drawn at random in a 6.5 box (more than twice cutoff + skin), no
  // two particles closer than 0.9 by the minimum image.
  const PeriodicBox box{6.5f, 6.5f, 6.5f};
  const LennardJones lj = two_types();
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{13}, std::size_t{61}, std::size_t{127}}) {
    const std::vector<float> p = reference::dilute_gas(n, 6.5f, 0.9, 2, test::rng());
    for (bool half : {false, true}) {
      if (n == 0) {  // nothing to compute, nothing written, no error
        Buffer<float> positions(ctx, std::size_t{0}), forces(ctx, std::size_t{0});
        NeighbourOptions o;
        o.cutoff = lj.cutoff;
        o.half = half;
        NeighbourList list(ctx, o);
        list.build(positions, box);
        lennard_jones(ctx, positions, list, lj, forces);
        continue;
      }
      const std::vector<float> f = check_forces(ctx, p, box, lj, half);
      if (n == 1)  // alone: its nearest image is a box length away, past the cutoff
        CHECK(f == std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f});
    }
  }
}

TEST_CASE("the derived Lennard-Jones bound fails a list that drops one pair and forces scaled by 1 + 1e-4", "[lj]") {
  // The bound check_forces uses must still see a real mistake: the
  // device's forces with one pair taken out (each pair inside the cutoff
  // in turn), or every force 1e-4 too large, fail it.
  Context& ctx = test::cpu_context();
  const LennardJones lj = two_types();
  PeriodicBox lattice_box;
  const std::vector<float> lattice = jittered_lattice(6, 2, lattice_box);
  const PeriodicBox gas_box{6.5f, 6.5f, 6.5f};
  const std::vector<float> gas = reference::dilute_gas(13, 6.5f, 0.9, 2, test::rng());
  for (const auto& [p, box] : {std::make_pair(gas, gas_box), std::make_pair(lattice, lattice_box)}) {
    const std::size_t n = p.size() / 4;
    INFO(n << " particles");
    const std::vector<float> got = check_forces(ctx, p, box, lj, false);
    const double lengths[3] = {box.x, box.y, box.z};
    const reference::LjExact want = reference::lennard_jones(p, lengths, lj);
    const reference::LjBounds bound = reference::lennard_jones_bounds<float>(p, lengths, lj);
    REQUIRE(lj_violations(got, want, bound) == "");
    std::vector<float> scaled = got;
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) scaled[4 * i + c] = float(double(got[4 * i + c]) * (1 + 1e-4));
    CHECK(lj_violations(scaled, want, bound) != "");
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const reference::LjPair q = reference::lj_pair(p, i, j, lengths, lj);
        const double r = std::sqrt(q.d[0] * q.d[0] + q.d[1] * q.d[1] + q.d[2] * q.d[2]);
        if (!q.within || r > lj.cutoff - 1e-3) continue;  // at the cutoff itself either answer is right
        std::vector<float> missing = got;
        for (int c = 0; c < 3; ++c) {
          missing[4 * i + c] = float(double(got[4 * i + c]) - q.f_over_r * q.d[c]);
          missing[4 * j + c] = float(double(got[4 * j + c]) + q.f_over_r * q.d[c]);
        }
        missing[4 * i + 3] = float(double(got[4 * i + 3]) - 0.5 * q.energy);
        missing[4 * j + 3] = float(double(got[4 * j + 3]) - 0.5 * q.energy);
        INFO("pair " << i << ", " << j << " at r = " << r);
        CHECK(lj_violations(missing, want, bound) != "");
        ++dropped;
      }
    CHECK(dropped > 0);
  }
}

TEST_CASE("Lennard-Jones forces add up to zero and are minus the gradient of the energy", "[lj]") {
  Context& ctx = test::cpu_context();
  PeriodicBox box;
  const std::vector<float> p = jittered_lattice(7, 2, box);
  const LennardJones lj = two_types();
  const double lengths[3] = {box.x, box.y, box.z};
  for (bool half : {false, true}) {
    // Each pair's two terms are exact negatives (the same arithmetic on d
    // and -d), so the forces add to zero but for the rounding of each
    // particle's sum of its terms.
    const std::vector<float> f = check_forces(ctx, p, box, lj, half);
    const reference::LjBounds bound = reference::lennard_jones_bounds<float>(p, lengths, lj);
    for (int c = 0; c < 3; ++c) {
      double total = 0, allowed = 0;
      for (std::size_t i = 0; i < p.size() / 4; ++i) {
        total += f[4 * i + c];
        allowed += bound.sums[3 * i + c];
      }
      CHECK(std::fabs(total) <= allowed);
    }
  }
  // Central differences of the double energy at a few particles, against
  // the device's float forces: F = -dE/dx.
  Buffer<float> positions(ctx, p), forces(ctx, p.size());
  NeighbourOptions o;
  o.cutoff = lj.cutoff;
  NeighbourList list(ctx, o);
  list.build(positions, box);
  lennard_jones(ctx, positions, list, lj, forces);
  const std::vector<float> got = forces.download();
  // Particles none of whose pairs lies within 1e-3 of the cutoff: there the
  // energy has a kink (the force jumps to 0), and a central difference
  // across it is not the force (seed 8470831999134598525 drew such a pair).
  const auto clear_of_cutoff = [&](std::size_t i) {
    for (std::size_t j = 0; j < p.size() / 4; ++j) {
      if (j == i) continue;
      if (std::fabs(image_distance(p, i, j, lengths) - lj.cutoff) < 1e-3) return false;
    }
    return true;
  };
  std::vector<std::size_t> probes;
  for (std::size_t i : {0, 17, 200, 5, 61, 143, 250, 300})
    if (probes.size() < 3 && clear_of_cutoff(i)) probes.push_back(i);
  REQUIRE(probes.size() == 3);
  const reference::LjBounds force_bound = reference::lennard_jones_bounds<float>(p, lengths, lj);
  const double h = 1e-4;
  // The central difference's own error along axis c at particle i: h^2 / 6
  // times the energy's third derivative, for a pair potential phi(r) at
  // most |phi'''| + 3 |phi''| / r + 3 |phi'| / r^2 (the chain rule along
  // one axis), taken term by term at r - h; float steps not quite
  // symmetric, (up - down) / 2 times the second derivative, at most
  // |phi''| + |phi'| / r; the double energies' rounding over the step.
  const auto difference_margin = [&](std::size_t i, double up, double down, double step) {
    double third = 0, second = 0, energy = 0;
    for (std::size_t j = 0; j < p.size() / 4; ++j) {
      if (j == i) continue;
      const double distance = image_distance(p, i, j, lengths);
      if (distance >= lj.cutoff) continue;
      const std::size_t t = static_cast<std::size_t>(p[4 * i + 3]) * lj.types + static_cast<std::size_t>(p[4 * j + 3]);
      const double r = distance - h, e4 = 4 * lj.epsilon[t], s6 = std::pow(lj.sigma[t] / r, 6);
      const double d1 = e4 * (12 * s6 * s6 + 6 * s6) / r, d2 = e4 * (156 * s6 * s6 + 42 * s6) / (r * r),
                   d3 = e4 * (2184 * s6 * s6 + 336 * s6) / (r * r * r);
      third += d3 + 3 * d2 / r + 3 * d1 / (r * r);
      second += d2 + d1 / r;
      energy += e4 * (s6 * s6 + s6);
    }
    return h * h / 6 * third + std::fabs(up - down) / 2 * second +
           4 * double(p.size()) * test::kDoubleU * energy / step;
  };
  for (std::size_t i : probes) {
    for (int c = 0; c < 3; ++c) {
      std::vector<float> plus = p, minus = p;
      // Moved in double through the float positions: the step is the
      // difference the floats actually hold.
      plus[4 * i + c] = float(double(p[4 * i + c]) + h);
      minus[4 * i + c] = float(double(p[4 * i + c]) - h);
      const double step = double(plus[4 * i + c]) - double(minus[4 * i + c]);
      const double gradient =
          (reference::lennard_jones(plus, lengths, lj).energy - reference::lennard_jones(minus, lengths, lj).energy) /
          step;
      const double up = double(plus[4 * i + c]) - p[4 * i + c], down = p[4 * i + c] - double(minus[4 * i + c]);
      const double margin = force_bound.force[3 * i + c] + difference_margin(i, up, down, step);
      INFO("particle " << i << " component " << c << ": force " << got[4 * i + c] << ", -dE/dx " << -gradient
                       << ", margin " << margin);
      CHECK(std::fabs(got[4 * i + c] + gradient) <= margin);
    }
  }
}

TEST_CASE("Lennard-Jones runs right under every device class's plan", "[lj]") {
  Context& ctx = test::cpu_context();
  PeriodicBox box;
  const std::vector<float> p = jittered_lattice(8, 2, box);
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    for (bool half : {false, true}) check_forces(ctx, p, box, two_types(), half, opt);
  }
  const std::vector<double> wide(p.begin(), p.end());
  for (const auto& [f, opt] : test::class_plans(ElementType::f64)) {
    INFO(f << ", double");
    check_forces(ctx, wide, box, two_types(), false, opt);
  }
}

TEST_CASE("Lennard-Jones refuses what it cannot compute, naming the problem", "[lj]") {
  Context& ctx = test::cpu_context();
  PeriodicBox box;
  const std::vector<float> p = jittered_lattice(6, 2, box);
  Buffer<float> positions(ctx, p), forces(ctx, p.size());
  NeighbourOptions o;
  o.cutoff = 2.5f;
  NeighbourList list(ctx, o);
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, two_types(), forces), Catch::Contains("never built"));
  list.build(positions, box);
  LennardJones lj = two_types();
  lj.epsilon[1] = 0.8f;
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, lj, forces), Catch::Contains("symmetric"));
  lj = two_types();
  lj.sigma = {1.0f, 0.0f, 0.0f, 1.0f};
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, lj, forces), Catch::Contains("sigma(0, 1)"));
  lj = two_types();
  lj.epsilon.pop_back();
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, lj, forces), Catch::Contains("types x types"));
  lj = two_types();
  lj.cutoff = 2.9f;
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, lj, forces), Catch::Contains("beyond the list's cutoff"));
  LennardJones one;  // one type, but the positions hold types 0 and 1
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, one, forces), Catch::Contains("type"));
  CHECK_THROWS_WITH(lennard_jones(ctx, positions, list, two_types(), positions), Catch::Contains("share"));
}
