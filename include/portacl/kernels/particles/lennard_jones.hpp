// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lennard-Jones forces and energies over a neighbour list, in its periodic
/// box: for each listed pair closer than the cutoff,
///   E(r) = 4 eps ((sigma / r)^12 - (sigma / r)^6) - E_shift,
/// eps and sigma those of the two particles' types, E_shift = E(cutoff)
/// without the shift where `shift` is set (the energy then falls to 0 at the
/// cutoff), else 0. Positions are 4 floats a particle, the fourth its type
/// (0, 1, ..., types - 1, stored as a float). forces is 4 floats a particle:
/// (fx, fy, fz, e) with e half the energy of the particle's pairs, so the
/// potential energy is the sum of e.
///
/// A full list gives each particle its own sum (no atomics, every pair
/// computed twice); a half list computes a pair once and adds its share to
/// the other particle with atomic adds, in an order that varies from run to
/// run (the plan says which).
///
/// Errors, before the force launch: a list never built or built for
/// another number of particles, a cutoff not above 0 or beyond the list's
/// cutoff + skin (the list must cover it), tables that are not types x
/// types, not symmetric, a sigma not above 0 or an epsilon below 0, a
/// particle whose type is not one of the types (checked on the device, one
/// small read), buffers of another context or sharing memory.
#pragma once

#include <cstddef>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/particles/neighbours.hpp"

namespace portacl {

/// The parameters are double: a double run takes them whole, a float run
/// rounds its table (4 eps sigma^12, 4 eps sigma^6, the shift, each made
/// in double) and the cutoff to float once.
struct LennardJones {
  std::size_t types = 1;
  std::vector<double> epsilon{1.0};  ///< types x types, row-major, symmetric
  std::vector<double> sigma{1.0};    ///< types x types, row-major, symmetric
  double cutoff = 2.5;
  bool shift = true;
};

/// T is float or double (positions, forces and the arithmetic; the list
/// is built from float positions either way, see NeighbourList::build).
/// In double, only full lists: a half list's atomic shares are float
/// compare-and-swap (an error otherwise).
template <class T, class = only_for<T, float, double>>
LaunchPlan lennard_jones(Context& ctx, const Buffer<T>& positions, const NeighbourList& list, const LennardJones& lj,
                         Buffer<T>& forces, const PlanOptions& options = {});

}  // namespace portacl
