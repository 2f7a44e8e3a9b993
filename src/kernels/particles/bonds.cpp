// SPDX-License-Identifier: Apache-2.0
// Harmonic bonds (kernels/particles_bonds.cl): validate and find each atom's bonds
// once, then per call a force slot per bond and a gather per atom.
#include "portacl/particles.hpp"

#include <cmath>
#include <string>

#include "../aliasing.hpp"
#include "../kernel_call.hpp"
#include "particle_traits.hpp"
#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/particles_neighbour_rules.hpp"
#include "kernels/planner.hpp"

namespace portacl {

struct Bonds::State {
  State(Context& c) : ctx(c) {}
  Context& ctx;
  std::size_t atoms = 0, bonds = 0, max_per_atom = 0;
  std::optional<Buffer<std::uint32_t>> pairs, types, counts, atom_bonds;
  std::optional<Buffer<float>> params, slots;
};

BondLaunches plan_bonds(const Planner& planner, std::size_t atoms, std::size_t bonds, std::size_t max_per_atom) {
  BondLaunches l;
  l.gather = planner.plan(particle_pass_traits("bonds", 32), ProblemSize(std::max<std::size_t>(atoms, 1)));
  l.per_bond = bond_plans(l.gather, atoms, bonds, max_per_atom);
  return l;
}

Bonds::Bonds(Context& ctx, std::size_t atoms, const std::vector<std::uint32_t>& pairs,
             const std::vector<std::uint32_t>& types, const BondTypes& bond_types, std::size_t max_per_atom)
    : s_(std::make_unique<State>(ctx)) {
  const char* op = "Bonds";
  if (pairs.size() % 2)
    throw Error(std::string(op) + ": pairs has " + std::to_string(pairs.size()) + " indices, not 2 a bond");
  const std::size_t bonds = pairs.size() / 2;
  kernel_call::same_length(op, "bonds (pairs / 2)", bonds, "types", types.size());
  if (bond_types.k.size() != bond_types.r0.size() || bond_types.k.empty())
    throw Error(std::string(op) + ": k has " + std::to_string(bond_types.k.size()) + " types and r0 " +
                std::to_string(bond_types.r0.size()) + "; one of each a type, at least one");
  std::vector<float> params;
  for (std::size_t t = 0; t < bond_types.k.size(); ++t) {
    if (!(bond_types.k[t] >= 0) || !std::isfinite(bond_types.k[t]) || !std::isfinite(bond_types.r0[t]) ||
        bond_types.r0[t] < 0)
      throw Error(std::string(op) + ": bond type " + std::to_string(t) + " has k " + std::to_string(bond_types.k[t]) +
                  " and r0 " + std::to_string(bond_types.r0[t]) + "; both must be finite and not negative");
    params.push_back(bond_types.k[t]);
    params.push_back(bond_types.r0[t]);
  }
  if (max_per_atom == 0 && bonds > 0) throw Error(std::string(op) + ": max_per_atom must be at least 1");
  std::vector<std::uint32_t> counts(atoms, 0), atom_bonds(std::max<std::size_t>(atoms * max_per_atom, 1), 0);
  for (std::size_t b = 0; b < bonds; ++b) {
    const std::uint32_t i = pairs[2 * b], j = pairs[2 * b + 1];
    const std::string which = "bond " + std::to_string(b) + " (" + std::to_string(i) + ", " + std::to_string(j) + ")";
    if (i >= atoms || j >= atoms)
      throw Error(std::string(op) + ": " + which + " names an atom past the " + std::to_string(atoms) + " atoms");
    if (i == j) throw Error(std::string(op) + ": " + which + " joins an atom to itself");
    if (types[b] >= bond_types.k.size())
      throw Error(std::string(op) + ": " + which + " has type " + std::to_string(types[b]) + ", past the " +
                  std::to_string(bond_types.k.size()) + " bond types");
    for (int side = 0; side < 2; ++side) {
      const std::uint32_t a = side ? j : i;
      if (counts[a] == max_per_atom)
        throw Error(std::string(op) + ": atom " + std::to_string(a) + " has more than the declared " +
                    std::to_string(max_per_atom) + " bonds (max_per_atom)");
      atom_bonds[a * max_per_atom + counts[a]++] = static_cast<std::uint32_t>(2 * b + side);
    }
  }
  State& s = *s_;
  s.atoms = atoms;
  s.bonds = bonds;
  s.max_per_atom = std::max<std::size_t>(max_per_atom, 1);
  std::vector<std::uint32_t> flat_pairs = pairs, flat_types = types;
  if (flat_pairs.empty()) flat_pairs = {0, 0};
  if (flat_types.empty()) flat_types = {0};
  s.pairs.emplace(ctx, flat_pairs);
  s.types.emplace(ctx, flat_types);
  s.counts.emplace(ctx, counts.empty() ? std::vector<std::uint32_t>{0} : counts);
  s.atom_bonds.emplace(ctx, atom_bonds);
  s.params.emplace(ctx, params);
  s.slots.emplace(ctx, std::max<std::size_t>(4 * bonds, 4));
}

Bonds::~Bonds() = default;
Bonds::Bonds(Bonds&&) noexcept = default;

std::size_t Bonds::bonds() const { return s_->bonds; }

LaunchPlan Bonds::add_forces(const Buffer<float>& positions, const PeriodicBox& box, Buffer<float>& forces,
                             const PlanOptions& options) const {
  const State& s = *s_;
  Context& ctx = s.ctx;
  const char* op = "Bonds::add_forces";
  kernel_call::same_context(ctx, positions, op, "positions");
  kernel_call::same_context(ctx, forces, op, "forces");
  kernel_call::same_length(op, "positions", positions.size(), "4 x atoms", 4 * s.atoms);
  kernel_call::same_length(op, "forces", forces.size(), "4 x atoms", 4 * s.atoms);
  for (double length : {box.x, box.y, box.z})
    if (!(length > 0) || !std::isfinite(length))
      throw Error(std::string(op) + ": box length " + std::to_string(length) + " must be finite and above 0");
  aliasing::refuse_overlap(op, aliasing::whole(forces), "forces", aliasing::whole(positions), "positions",
                           "positions are read while forces are written");
  const BondLaunches l = plan_bonds(live_planner(ctx, options), s.atoms, s.bonds, s.max_per_atom);
  const LaunchPlan &plan = l.gather, &per_bond = l.per_bond;
  if (s.bonds == 0 || s.atoms == 0) return plan;
  const cl_float4 box4{{float(box.x), float(box.y), float(box.z), 0.0f}};
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_bonds.cl", "bond_forces", ""}, per_bond),
                      static_cast<cl_uint>(s.bonds), box4, positions, *s.pairs, *s.types, *s.params, *s.slots);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_bonds.cl", "bond_gather", ""}, plan),
                      static_cast<cl_uint>(s.atoms), *s.counts, *s.atom_bonds, *s.slots, forces);
  return plan;
}

}  // namespace portacl
