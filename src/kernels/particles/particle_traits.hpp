// SPDX-License-Identifier: Apache-2.0
// The traits of the particle kernels that take one particle per work-item
// without local memory or vectors (neighbour searches, pair forces over a
// list): only the work-group size is theirs to tune; and the plan of such
// a pass. Library internals, not user API: never installed.
#pragma once

#include <array>
#include <cstddef>

#include "../kernel_call.hpp"
#include "portacl/plan.hpp"
#include "rules/histogram_rules.hpp"
#include "portacl/context.hpp"
#include "rules/tuning_space.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/particles_neighbour_rules.hpp"

namespace portacl {

/// `name` (the tuning key), `element` (float unless given),
/// `bytes_per_item` of memory traffic a particle; tunable: the work-group
/// size.
inline KernelTraits particle_pass_traits(const char* name, double bytes_per_item,
                                         ElementType element = ElementType::f32) {
  KernelTraits t;
  t.name = name;
  t.element = element;
  t.dimensions = 1;
  t.vectorizable = false;
  t.bytes_per_item = bytes_per_item;
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512})}, nullptr};
  t.tunables = &space;
  return t;
}

/// The plan of a pass over n > 0 particles, one a work-item: the rules'
/// work-group size for `traits`, the grid rounded up to it.
inline LaunchPlan particle_pass_plan(Context& ctx, const KernelTraits& traits, std::size_t n,
                                     const PlanOptions& options) {
  LaunchPlan p = ctx.plan(traits, ProblemSize(n), options);
  cover_items(p, n, 1, "particles");
  return p;
}

/// The same for the helper kernels of particles_neighbours.cl (its search kernels
/// need HALF defined; these ignore it).
inline LaunchPlan neighbours_cl_pass_plan(Context& ctx, const KernelTraits& traits, std::size_t n,
                                          const PlanOptions& options) {
  return neighbour_helper_plan(particle_pass_plan(ctx, traits, n, options));
}

struct Planner;
/// The radial distribution's counting of n particles' pair distances into
/// `shells`, planned whole by the rules (plan_rdf_launches).
RdfLaunches plan_rdf(const Planner& planner, std::size_t n, std::size_t shells);

/// The neighbour search over n > 0 particles in a box of `box` lengths,
/// pairs within `reach`: the rules' search (choose_neighbour_search;
/// `forced` as there), the first list's capacity where `first_build`
/// (first_list_capacity), and the search's plan made whole
/// (neighbour_search_plan, HALF where `half`).
struct NeighbourLaunch {
  LaunchPlan plan;
  NeighbourShape shape;
  std::size_t capacity = 0;  ///< first_build: the first capacity a particle
};
NeighbourLaunch plan_neighbour_search(const Planner& planner, std::size_t n, const std::array<float, 3>& box,
                                      float reach, int forced, bool half, bool first_build);

/// Lennard-Jones forces over a neighbour list of n particles of `types`
/// types (`element`: float or double), the list's layout and halves as
/// built; made whole by lj_forces_plan where n > 0. atomic_shares: forces
/// reach both particles of a pair by atomic shares (a half list).
struct LjLaunch {
  LaunchPlan plan;
  bool atomic_shares = false;
};
LjLaunch plan_lj(const Planner& planner, std::size_t n, std::size_t types, bool slots_by_neighbour, bool half,
                 ElementType element);

/// Bonded forces: a work-item a bond (per_bond), then a gather a work-item
/// an atom (gather), by bond_plans.
struct BondLaunches {
  LaunchPlan gather, per_bond;
};
BondLaunches plan_bonds(const Planner& planner, std::size_t atoms, std::size_t bonds, std::size_t max_per_atom);

}  // namespace portacl
