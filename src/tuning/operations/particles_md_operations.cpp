// SPDX-License-Identifier: Apache-2.0
// The particle family's MD operations: one velocity-Verlet step of a
// Lennard-Jones liquid (density 0.8442, rc 2.5, skin 0.3, dt 0.005, T
// 0.72) of 4 k^3 atoms, k = round(cbrt(n / 4)) for a workload of n (2^15:
// 32000 atoms, 2^20: 1048576): the list check every step, a rebuild when
// due, the forces and both halves. Atom-steps per second are the atoms
// over the wall time (the table's GB/s and GFLOP/s columns do not apply).
// Beside it, the step's parts on the same liquid held still: the
// neighbour list's build ("neighbour list lj") and the forces over a built
// list ("lj forces"); checked on 64 particles' pairs and forces against the
// brute-force host references.
// Checked: 64 atoms' forces against the host reference's sum over every atom
// (particles_lj_reference.hpp).
#include <cmath>
#include <random>
#include <utility>

#include "../particles_lj_liquid.hpp"
#include "../particles_lj_reference.hpp"
#include "../particles_neighbour_reference.hpp"
#include "family_parts.hpp"
#include "kernels/particles/particle_traits.hpp"
#include "portacl/particles.hpp"

namespace portacl {
namespace {

// fcc cells a side for a workload of n: 4 k^3 atoms near n.
int lattice_cells(std::size_t n) { return std::max(1, static_cast<int>(std::lround(std::cbrt(double(n) / 4.0)))); }

struct MdCase {
  explicit MdCase(Workload& w, const PlanOptions& o) {
    const int k = lattice_cells(w.n);
    std::mt19937_64 draw(0x3d0ull ^ w.n);
    std::vector<float> p, v;
    reference::fcc_liquid(k, 0.8442, 0.72, draw, p, v, box);
    positions.emplace(w.ctx, p);
    velocities.emplace(w.ctx, v);
    lj.cutoff = 2.5f;
    MdOptions options;
    options.plan = o;
    md.emplace(w.ctx, *positions, *velocities, box, lj, options);
  }
  PeriodicBox box;
  LennardJones lj;
  std::optional<Buffer<float>> positions, velocities;
  std::optional<LennardJonesMd> md;
};

// A run per work-group size: the plan is fixed when the run is made.
MdCase& md_case(Workload& w, const PlanOptions& o) {
  const std::size_t wg = o.override_values ? o.override_values->work_group_size.value_or(0) : 0;
  auto& slot = w.derived["md." + std::to_string(wg)];
  if (!slot) slot = std::make_shared<MdCase>(w, o);
  return *std::static_pointer_cast<MdCase>(slot);
}

LaunchPlan run(Workload& w, const PlanOptions& o) {
  MdCase& c = md_case(w, o);
  c.md->run(1);
  return c.md->list().plan();
}

std::string check(Workload& w, const PlanOptions& o) {
  MdCase& c = md_case(w, o);
  c.md->run(3);
  const std::vector<float> p = c.positions->download(), f = c.md->forces().download();
  const double box[3] = {c.box.x, c.box.y, c.box.z};
  return reference::compare_sampled_forces(p, f, box, c.lj);
}

// The parts of a step alone, on the same liquid held still: the list's
// build (cells, the sort, the search) and the forces over a built list.
struct LiquidCase {
  explicit LiquidCase(Workload& w) {
    std::mt19937_64 draw(0x11full ^ w.n);
    std::vector<float> v;
    reference::fcc_liquid(lattice_cells(w.n), 0.8442, 0.72, draw, host, v, box);
    positions.emplace(w.ctx, host);
    forces.emplace(w.ctx, host.size());
    lj.cutoff = 2.5f;
  }
  std::vector<float> host;
  PeriodicBox box;
  LennardJones lj;
  std::optional<Buffer<float>> positions, forces;
  std::optional<NeighbourList> list;
};

LiquidCase& liquid_case(Workload& w) {
  auto& slot = w.derived["md.liquid"];
  if (!slot) slot = std::make_shared<LiquidCase>(w);
  return *std::static_pointer_cast<LiquidCase>(slot);
}

// The list is made anew when the plan options change (a tuner's trial).
// Only a built list is kept: a trial whose build is refused (a shape the
// device cannot launch) leaves the case without one, so the next operation
// builds its own rather than finding an empty list.
NeighbourList& built_list(Workload& w, const PlanOptions& o) {
  LiquidCase& c = liquid_case(w);
  NeighbourOptions options;
  options.cutoff = c.lj.cutoff;
  options.skin = 0.3f;
  options.plan = o;
  c.list.reset();
  NeighbourList list(w.ctx, options);
  list.build(*c.positions, c.box);
  c.list.emplace(std::move(list));
  return *c.list;
}

LaunchPlan run_build(Workload& w, const PlanOptions& o) {
  LiquidCase& c = liquid_case(w);
  if (!c.list) built_list(w, o);
  c.list->build(*c.positions, c.box);
  return c.list->plan();
}

std::string check_build(Workload& w, const PlanOptions& o) {
  LiquidCase& c = liquid_case(w);
  const NeighbourList& list = built_list(w, o);
  const double box[3] = {c.box.x, c.box.y, c.box.z};
  return reference::compare_sampled_pairs(list.pairs(), c.host, box, c.lj.cutoff + 0.3, false);
}

LaunchPlan run_forces(Workload& w, const PlanOptions& o) {
  LiquidCase& c = liquid_case(w);
  if (!c.list) built_list(w, {});
  return lennard_jones(w.ctx, *c.positions, *c.list, c.lj, *c.forces, o);
}

std::string check_forces(Workload& w, const PlanOptions& o) {
  LiquidCase& c = liquid_case(w);
  c.forces->upload(std::vector<float>(c.host.size(), std::nanf("")));
  run_forces(w, o);
  const double box[3] = {c.box.x, c.box.y, c.box.z};
  return reference::compare_sampled_forces(c.host, c.forces->download(), box, c.lj);
}

}  // namespace

std::vector<Operation> md_operations() {
  return {
      Operation{"md step lj", 0, 0, particle_pass_traits("md_step", 64).tunables, run, check},
      Operation{"neighbour list lj", 0, 0, particle_pass_traits("neighbour_list", 16).tunables, run_build, check_build},
      Operation{"lj forces", 0, 0, particle_pass_traits("lennard_jones", 32).tunables, run_forces, check_forces}};
}

}  // namespace portacl
