// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"

using namespace portacl;

namespace {

const PeriodicBox kBox{6.0f, 5.0f, 7.0f};

// One bond in double, by the minimum image: the raw difference, its image,
// the length, the stretch, the energy and the force on the second atom.
struct BondTerm {
  double raw[3], shift[3], d[3], r, stretch, energy, force[3];
};

std::vector<BondTerm> bond_terms(const std::vector<float>& p, const std::vector<std::uint32_t>& pairs,
                                 const std::vector<std::uint32_t>& types, const BondTypes& bt) {
  const double box[3] = {kBox.x, kBox.y, kBox.z};
  std::vector<BondTerm> terms(types.size());
  for (std::size_t b = 0; b < types.size(); ++b) {
    BondTerm& t = terms[b];
    double r2 = 0;
    for (int c = 0; c < 3; ++c) {
      t.raw[c] = double(p[4 * pairs[2 * b + 1] + c]) - double(p[4 * pairs[2 * b] + c]);
      t.shift[c] = box[c] * std::nearbyint(t.raw[c] / box[c]);
      t.d[c] = t.raw[c] - t.shift[c];
      r2 += t.d[c] * t.d[c];
    }
    t.r = std::sqrt(r2);
    const double k = bt.k[types[b]];
    t.stretch = t.r - bt.r0[types[b]];
    t.energy = 0.5 * k * t.stretch * t.stretch;
    for (int c = 0; c < 3; ++c) t.force[c] = t.r > 0 ? k * t.stretch / t.r * t.d[c] : 0.0;
  }
  return terms;
}

double bond_energy(const std::vector<float>& p, const std::vector<std::uint32_t>& pairs,
                   const std::vector<std::uint32_t>& types, const BondTypes& bt) {
  double e = 0;
  for (const BondTerm& t : bond_terms(p, pairs, types, bt)) e += t.energy;
  return e;
}

// How far the device's bond slot (force, energy) may stand from the
// double one, to first order in kFloatU, following bond_forces: each image
// component d rounded by the subtraction, the box multiple and the
// image's subtraction; the length by the 3-term dot (3 roundings, half of
// it in the root) and sqrt; the stretch once more; the energy 0.5 k s s by
// two products; the force k s / r d by a product, a division and a product.
struct SlotError {
  double force[3], energy;
};
SlotError slot_error(const BondTerm& t, double k) {
  SlotError e{};
  if (!(t.r > 0)) return e;
  double dd[3], dr = 0;
  for (int c = 0; c < 3; ++c) {
    dd[c] = test::kFloatU * (std::fabs(t.raw[c]) + std::fabs(t.shift[c]) + std::fabs(t.d[c]));
    dr += std::fabs(t.d[c]) * dd[c] / t.r;
  }
  dr += (1.5 + test::kSqrtU) * test::kFloatU * t.r;
  const double ds = dr + test::kFloatU * std::fabs(t.stretch);
  e.energy = k * std::fabs(t.stretch) * ds + 2 * test::kFloatU * t.energy;
  for (int c = 0; c < 3; ++c)
    e.force[c] = k * (std::fabs(t.d[c]) * ds + std::fabs(t.stretch) * dd[c]) / t.r +
                 std::fabs(t.force[c]) * (dr / t.r + (2 + test::kDivisionU) * test::kFloatU);
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
  // Each atom's slots added in float (one rounding of the running sum's
  // magnitude each) and then onto 1.0 (one rounding of the result): the
  // margins below. A slot enters its two atoms with opposite signs, so the
  // slots' own errors cancel in the total force but not in the energy.
  const std::vector<BondTerm> terms = bond_terms(m.p, m.pairs, m.types, kTypes);
  std::vector<std::vector<std::size_t>> of(atoms);
  for (std::size_t b = 0; b < terms.size(); ++b) {
    of[m.pairs[2 * b]].push_back(b);
    of[m.pairs[2 * b + 1]].push_back(b);
  }
  double energy = 0, total[3] = {0, 0, 0}, energy_margin = 0, total_margin[3] = {0, 0, 0};
  for (std::size_t a = 0; a < atoms; ++a) {
    energy += f[4 * a + 3] - 1.0;
    const double adds = double(of[a].size());
    energy_margin += test::kFloatU * std::fabs(f[4 * a + 3]);
    for (std::size_t b : of[a]) {
      const SlotError se = slot_error(terms[b], kTypes.k[m.types[b]]);
      energy_margin += 0.5 * se.energy + adds * test::kFloatU * 0.5 * terms[b].energy;
      for (int c = 0; c < 3; ++c) total_margin[c] += adds * test::kFloatU * std::fabs(terms[b].force[c]);
    }
    for (int c = 0; c < 3; ++c) {
      total[c] += f[4 * a + c] - 1.0;
      total_margin[c] += test::kFloatU * std::fabs(f[4 * a + c]);
    }
  }
  const double want = bond_energy(m.p, m.pairs, m.types, kTypes);
  CHECK(std::fabs(energy - want) <= energy_margin);
  for (int c = 0; c < 3; ++c) CHECK(std::fabs(total[c]) <= total_margin[c]);
  // The central difference of the double energy with step h errs by h^2 / 6
  // times the third derivative along the axis, for a bond at most
  // 3 k / r (1 + |s| / r) (r and |s| taken h nearer the worst case), plus
  // the double energies' rounding over 2 h.
  const double h = 1e-3;
  for (std::size_t a = 0; a < atoms; a += std::max<std::size_t>(1, atoms / 7))
    for (int c = 0; c < 3; ++c) {
      std::vector<float> plus = m.p, minus = m.p;
      plus[4 * a + c] = float(double(m.p[4 * a + c]) + h);
      minus[4 * a + c] = float(double(m.p[4 * a + c]) - h);
      const double gradient =
          (bond_energy(plus, m.pairs, m.types, kTypes) - bond_energy(minus, m.pairs, m.types, kTypes)) /
          (double(plus[4 * a + c]) - double(minus[4 * a + c]));
      // Float steps are not quite symmetric: (up - down) / 2 times the
      // second derivative, at most k (1 + |s| / r) a bond, moves it too.
      const double up = double(plus[4 * a + c]) - m.p[4 * a + c], down = m.p[4 * a + c] - double(minus[4 * a + c]);
      double margin = test::kFloatU * std::fabs(f[4 * a + c]) + 8 * test::kDoubleU * double(terms.size()) * want / h;
      for (std::size_t b : of[a]) {
        const BondTerm& t = terms[b];
        const double k = kTypes.k[m.types[b]], near = t.r - h, bend = (std::fabs(t.stretch) + h) / near;
        margin += slot_error(t, k).force[c] + double(of[a].size()) * test::kFloatU * std::fabs(t.force[c]) +
                  h * h / 6 * 3 * k / near * (1 + bend) + std::fabs(up - down) / 2 * k * (1 + bend);
      }
      INFO("atom " << a << " component " << c << ": force " << f[4 * a + c] - 1.0 << ", gradient " << gradient);
      CHECK(std::fabs((f[4 * a + c] - 1.0) + gradient) <= margin);
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
    // The margins: the separation r = 0.5 carries the inputs' rounding
    // (0.2f and 5.7f, u of each), the difference's and the image's (u of
    // 5.5 each) and the length's (the square, its root: 2 + kSqrtU units
    // of r); the force k (r - r0) d / r carries k times that, and
    // k |r - r0| times the direction's relative error (twice r's, over r)
    // and the subtraction, division and two products; the energy
    // k (r - r0)^2 / 2 carries k |r - r0| times r's error and three
    // roundings of itself.
    const double u = test::kFloatU, stretch = std::fabs(0.5 - double(r0));
    const double dr = u * (5.7 + 0.2 + 2 * 5.5) + (2 + test::kSqrtU) * u * 0.5;
    const double force_margin = 10 * dr + 10 * stretch * (2 * dr / 0.5 + (3 + test::kDivisionU) * u);
    const double energy = 0.5 * 10 * stretch * stretch, energy_margin = 10 * stretch * dr + 3 * u * energy;
    if (r0 < 0.5f) {  // stretched: atom 0 pulled towards -x, atom 1 towards +x (through the boundary)
      CHECK(std::fabs(f[0] - -10.0 * stretch) <= force_margin);
      CHECK(std::fabs(f[4] - 10.0 * stretch) <= force_margin);
    } else {  // compressed: pushed apart
      CHECK(std::fabs(f[0] - 10.0 * stretch) <= force_margin);
      CHECK(std::fabs(f[4] - -10.0 * stretch) <= force_margin);
    }
    CHECK(f[1] == 0.0f);
    CHECK(std::fabs(double(f[3]) + double(f[7]) - energy) <= energy_margin + u * energy);
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
