// SPDX-License-Identifier: Apache-2.0
/// \file
/// All-pairs N-body gravity with Plummer softening:
///   a_i   = G sum_j m_j d_ij / (|d_ij|^2 + eps^2)^(3/2),  d_ij = x_j - x_i
///   phi_i = -G sum_(j != i) m_j / (|d_ij|^2 + eps^2)^(1/2)
/// and a kick-drift-kick leapfrog (velocity Verlet) step. Bodies are 4
/// floats each, (x, y, z, m); accelerations (ax, ay, az, phi); velocities
/// (vx, vy, vz, unused). The potential energy is 0.5 sum_i m_i phi_i
/// (nbody_energy). The plan says how the pairs are walked: tiles of bodies
/// in local memory on GPUs, the bodies as separate x, y, z and m arrays in
/// vectors on CPUs (made from yours on each call, an O(n) copy).
///
/// Errors, before any launch: softening not above 0 (the i = j term would
/// be 0/0), a buffer length that is not 4 per body, accelerations sharing
/// memory with bodies or velocities, buffers of another context, a time
/// step that is not finite.
#pragma once

#include <cstddef>
#include <vector>

#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/mapping_rules.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct NbodyOptions {
  float softening = 0;    ///< eps, > 0: no default, a length of the user's problem
  float gravity = 1;      ///< G
  bool potential = true;  ///< also each body's potential (one more multiply-add a pair)
  PlanOptions plan;
};

/// accelerations[4i..4i+3] = (a_i, phi_i), phi_i 0 unless options.potential.
LaunchPlan nbody_accelerations(Context& ctx, const Buffer<float>& bodies, Buffer<float>& accelerations,
                               const NbodyOptions& options);

/// One leapfrog step of dt: v += a dt/2; x += v dt; a = a(x); v += a dt/2.
/// `accelerations` must hold those of the current positions (from
/// nbody_accelerations or the step before); all three move to t + dt.
LaunchPlan nbody_step(Context& ctx, Buffer<float>& bodies, Buffer<float>& velocities, Buffer<float>& accelerations,
                      float dt, const NbodyOptions& options);

/// Kinetic and potential energy from host copies of the three arrays (the
/// potential from the stored phi_i), summed in double.
struct NbodyEnergy {
  double kinetic = 0, potential = 0;
  double total() const { return kinetic + potential; }
};
NbodyEnergy nbody_energy(const std::vector<float>& bodies, const std::vector<float>& velocities,
                         const std::vector<float>& accelerations);

}  // namespace portacl
