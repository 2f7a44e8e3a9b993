// SPDX-License-Identifier: Apache-2.0
// How the all-pairs N-body sum is laid out on a device
// (src/kernels/particles/nbody.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

enum class NbodyLayout {
  float4_tiles,   ///< (x, y, z, m) as a 4-vector (float4 or double4), tiles of bodies in local memory
  split_vectors,  ///< separate x, y, z, m arrays, j in vectors
};

struct NbodyShape {
  NbodyLayout layout = NbodyLayout::float4_tiles;
  unsigned unroll = 1;        ///< tiles: the inner loop's unroll
  unsigned bodies = 1;        ///< bodies i per work-item, sharing every body j it reads
  std::size_t padded = 0;     ///< split vectors: the arrays' length, a multiple of the vector width
  bool newton_rsqrt = false;  ///< split vectors: 1/sqrt by Newton steps, not the built-in rsqrt
};

/// The layout for `n` bodies under `plan` (tuned knobs from `space`): on
/// barrier-free plans (CPUs, Xeon Phi) split arrays walked in the plan's
/// vectors; elsewhere float4 bodies in local-memory tiles of a work-group,
/// the inner loop unrolled 4 times unless UNROLL is tuned (rules
/// particles.nbody-layout and particles.nbody-unroll); 1 body i per
/// work-item unless BODIES is tuned (rule particles.nbody-bodies-per-item);
/// the split layout takes 1/sqrt by Newton steps unless NEWTON_RSQRT is
/// tuned (rule particles.nbody-rsqrt: the built-in rsqrt where `device` is
/// an AMD CPU with 16 float lanes). The plan carries the choice as
/// particles_nbody.cl's macros: UNROLL, BODIES, NEWTON_RSQRT and NBODY_SPLIT (1 for
/// the split layout: the host references read it, the kernel entry
/// follows it).
NbodyShape choose_nbody(LaunchPlan& plan, const TuningSpace& space, std::size_t n, const DeviceInfo& device);

/// The force sum over `n` bodies for a slice of `count` of them (count > 0)
/// under `plan`, whole: choose_nbody's shape, POTENTIAL, and a grid that
/// gives each work-item its bodies of the slice (rule general.cover-problem).
struct NbodyLaunches {
  NbodyShape shape;
  LaunchPlan forces;
};
NbodyLaunches plan_nbody_launches(LaunchPlan plan, const TuningSpace& space, std::size_t n, std::size_t count,
                                  bool potential, const DeviceInfo& device);

/// The leapfrog's halves over `count` bodies: streaming updates under the
/// force sum's plan, one body a work-item.
LaunchPlan nbody_half_step(LaunchPlan plan, std::size_t count, bool potential);

}  // namespace portacl
