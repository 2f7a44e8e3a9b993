// SPDX-License-Identifier: Apache-2.0
// The traits of the particle kernels that take one particle per work-item
// without local memory or vectors (neighbour searches, pair forces over a
// list): only the work-group size is theirs to tune; and the plan of such
// a pass. Library internals, not user API: never installed.
#pragma once

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

}  // namespace portacl
