// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"

using namespace portacl;

namespace {

const PeriodicBox kBox{6.0f, 5.0f, 7.0f};

// The double energy of every bond, by the minimum image.
double bond_energy(const std::vector<float>& p, const std::vector<std::uint32_t>& pairs,
                   const std::vector<std::uint32_t>& types, const BondTypes& bt) {
  const double box[3] = {kBox.x, kBox.y, kBox.z};
  double e = 0;
  for (std::size_t b = 0; b < types.size(); ++b) {
    double r2 = 0;
    for (int c = 0; c < 3; ++c) {
      double d = double(p[4 * pairs[2 * b + 1] + c]) - double(p[4 * pairs[2 * b] + c]);
      d -= box[c] * std::nearbyint(d / box[c]);
      r2 += d * d;
    }
    const double stretch = std::sqrt(r2) - bt.r0[types[b]];
    e += 0.5 * bt.k[types[b]] * stretch * stretch;
  }
  return e;
}

// A chain through every atom plus random cross-links (at most 4 bonds an
// atom), positions near their predecessor so lengths stay near r0.
struct Molecule {
  std::vector<float> p;
  std::vector<std::uint32_t> pairs, types;
};

Molecule random_molecule(std::size_t atoms) {
  Molecule m;
  std::uniform_real_distribution<float> step(-0.8f, 0.8f), anywhere(0.0f, 1.0f);
  std::uniform_int_distribution<std::size_t> pick(0, atoms - 1);
  float x[3] = {anywhere(test::rng()) * float(kBox.x), anywhere(test::rng()) * float(kBox.y),
                anywhere(test::rng()) * float(kBox.z)};
  std::vector<int> count(atoms, 0);
  for (std::size_t a = 0; a < atoms; ++a) {
    for (float& c : x) c += step(test::rng());
    m.p.insert(m.p.end(), {x[0], x[1], x[2], 0.0f});
    if (a > 0) {
      m.pairs.insert(m.pairs.end(), {std::uint32_t(a - 1), std::uint32_t(a)});
      m.types.push_back(a % 2);
      ++count[a - 1];
      ++count[a];
    }
  }
  // Cross-links only between atoms whose minimum image is unambiguous: at
  // most 0.4 of the box apart along every axis. Near half the box the
  // image flips, the energy has a kink there, and a central difference
  // across it (or float against double choosing the other image) would
  // judge the wrong thing (seed 17345535670246781590 drew one).
  const auto unambiguous = [&](std::size_t i, std::size_t j) {
    const double box[3] = {kBox.x, kBox.y, kBox.z};
    for (int c = 0; c < 3; ++c) {
      double d = double(m.p[4 * j + c]) - double(m.p[4 * i + c]);
      d -= box[c] * std::nearbyint(d / box[c]);
      if (std::fabs(d) > 0.4 * box[c]) return false;
    }
    return true;
  };
  for (std::size_t t = 0; t < atoms / 3; ++t) {
    const std::size_t i = pick(test::rng()), j = pick(test::rng());
    if (i == j || count[i] >= 4 || count[j] >= 4 || !unambiguous(i, j)) continue;
    m.pairs.insert(m.pairs.end(), {std::uint32_t(i), std::uint32_t(j)});
    m.types.push_back(2);
    ++count[i];
    ++count[j];
  }
  return m;
}

const BondTypes kTypes{{100.0f, 50.0f, 5.0f}, {1.0f, 1.2f, 2.0f}};

// Forces added onto 1.0s, against minus the central-difference gradient of
// the double energy, and the energy's sum.
void check_bonds(Context& ctx, const Molecule& m, const PlanOptions& plan = {}) {
  const std::size_t atoms = m.p.size() / 4;
  INFO(atoms << " atoms, " << m.types.size() << " bonds");
  Bonds bonds(ctx, atoms, m.pairs, m.types, kTypes, 4);
  Buffer<float> positions(ctx, m.p), forces(ctx, std::vector<float>(m.p.size(), 1.0f));
  bonds.add_forces(positions, kBox, forces, plan);
  const std::vector<float> f = forces.download();
  double energy = 0, total[3] = {0, 0, 0}, scale = 0;
  for (std::size_t a = 0; a < atoms; ++a) {
    energy += f[4 * a + 3] - 1.0;
    for (int c = 0; c < 3; ++c) {
      total[c] += f[4 * a + c] - 1.0;
      scale += std::fabs(f[4 * a + c] - 1.0);
    }
  }
  const double want = bond_energy(m.p, m.pairs, m.types, kTypes);
  CHECK(std::fabs(energy - want) <= 1e-5 * want + 1e-5);
  for (double t : total) CHECK(std::fabs(t) <= 1e-5 * scale + 1e-5);
  for (std::size_t a = 0; a < atoms; a += std::max<std::size_t>(1, atoms / 7))
    for (int c = 0; c < 3; ++c) {
      std::vector<float> plus = m.p, minus = m.p;
      plus[4 * a + c] = float(double(m.p[4 * a + c]) + 1e-3);
      minus[4 * a + c] = float(double(m.p[4 * a + c]) - 1e-3);
      const double gradient =
          (bond_energy(plus, m.pairs, m.types, kTypes) - bond_energy(minus, m.pairs, m.types, kTypes)) /
          (double(plus[4 * a + c]) - double(minus[4 * a + c]));
      INFO("atom " << a << " component " << c);
      CHECK(std::fabs((f[4 * a + c] - 1.0) + gradient) <= 1e-3 * (std::fabs(gradient) + 1.0));
    }
}

}  // namespace

TEST_CASE("bond forces are minus the gradient of the bond energy and add up to zero, across periodic boundaries",
          "[bonds]") {
  Context& ctx = test::cpu_context();
  for (std::size_t atoms : {std::size_t{2}, std::size_t{61}, std::size_t{1021}})
    check_bonds(ctx, random_molecule(atoms));
}

TEST_CASE("bonds on awkward sizes: no bonds, no atoms, one bond, a prime count of atoms", "[bonds]") {
  Context& ctx = test::cpu_context();
  // Atoms without bonds: the forces are left as they were (added onto).
  const std::vector<float> p = {0.5f, 0.5f, 0.5f, 0.0f, 1.5f, 0.5f, 0.5f, 0.0f, 2.5f, 0.5f, 0.5f, 0.0f};
  Bonds none(ctx, 3, {}, {}, kTypes, 1);
  CHECK(none.bonds() == 0);
  Buffer<float> positions(ctx, p), forces(ctx, std::vector<float>(12, 3.0f));
  none.add_forces(positions, kBox, forces);
  CHECK(forces.download() == std::vector<float>(12, 3.0f));
  // No atoms at all.
  Bonds empty(ctx, 0, {}, {}, kTypes, 1);
  Buffer<float> no_positions(ctx, std::size_t{0}), no_forces(ctx, std::size_t{0});
  empty.add_forces(no_positions, kBox, no_forces);
  CHECK(no_forces.size() == 0);
  // Prime counts: a chain of 2 atoms (one bond) up to 127.
  for (std::size_t atoms : {std::size_t{2}, std::size_t{3}, std::size_t{13}, std::size_t{127}})
    check_bonds(ctx, random_molecule(atoms));
}

TEST_CASE("a stretched bond pulls its atoms together and a compressed one pushes them apart, by the minimum image",
          "[bonds]") {
  Context& ctx = test::cpu_context();
  // Atom 0 at x = 0.2, atom 1 at x = 5.7: by the image 0.5 apart, atom 1
  // on atom 0's -x side.
  for (float r0 : {0.3f, 1.0f}) {
    const std::vector<float> p = {0.2f, 1.0f, 1.0f, 0.0f, 5.7f, 1.0f, 1.0f, 0.0f};
    Bonds bond(ctx, 2, {0, 1}, {0}, BondTypes{{10.0f}, {r0}}, 1);
    Buffer<float> positions(ctx, p), forces(ctx, std::vector<float>(8, 0.0f));
    bond.add_forces(positions, kBox, forces);
    const std::vector<float> f = forces.download();
    INFO("r0 " << r0);
    if (r0 < 0.5f) {  // stretched: atom 0 pulled towards -x, atom 1 towards +x (through the boundary)
      CHECK(f[0] == Approx(-10.0f * 0.2f));
      CHECK(f[4] == Approx(10.0f * 0.2f));
    } else {  // compressed: pushed apart
      CHECK(f[0] == Approx(10.0f * 0.5f));
      CHECK(f[4] == Approx(-10.0f * 0.5f));
    }
    CHECK(f[1] == 0.0f);
    CHECK(f[3] + f[7] == Approx(0.5 * 10.0 * (0.5 - r0) * (0.5 - r0)));
  }
}

TEST_CASE("bonds run right under every device class's plan", "[bonds]") {
  Context& ctx = test::cpu_context();
  const Molecule m = random_molecule(257);
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    check_bonds(ctx, m, opt);
  }
}

TEST_CASE("bonds refuse what they cannot compute, naming the problem", "[bonds]") {
  Context& ctx = test::cpu_context();
  CHECK_THROWS_WITH(Bonds(ctx, 3, {0, 3}, {0}, kTypes, 2), Catch::Contains("past the 3 atoms"));
  CHECK_THROWS_WITH(Bonds(ctx, 3, {1, 1}, {0}, kTypes, 2), Catch::Contains("itself"));
  CHECK_THROWS_WITH(Bonds(ctx, 3, {0, 1}, {3}, kTypes, 2), Catch::Contains("type 3"));
  CHECK_THROWS_WITH(Bonds(ctx, 3, {0, 1, 0, 2}, {0, 0}, kTypes, 1), Catch::Contains("more than the declared 1"));
  CHECK_THROWS_WITH(Bonds(ctx, 3, {0, 1, 2}, {0}, kTypes, 2), Catch::Contains("not 2 a bond"));
  CHECK_THROWS_WITH(Bonds(ctx, 3, {0, 1}, {0}, BondTypes{{-1.0f}, {1.0f}}, 2), Catch::Contains("not negative"));
  Bonds ok(ctx, 3, {0, 1}, {0}, kTypes, 2);
  Buffer<float> p(ctx, 12), wrong(ctx, 8);
  CHECK_THROWS_WITH(ok.add_forces(wrong, kBox, p), Catch::Contains("positions"));
  CHECK_THROWS_WITH(ok.add_forces(p, kBox, p), Catch::Contains("share"));
  CHECK_THROWS_WITH(ok.add_forces(p, PeriodicBox{1.0f, 0.0f, 1.0f}, wrong), Catch::Contains("forces"));
}
