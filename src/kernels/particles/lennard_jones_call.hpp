// SPDX-License-Identifier: Apache-2.0
// A Lennard-Jones force call in its parts: what is set once for a list and
// a parameter set (the checks, the pair table on the device, the plan and
// kernels), the check of the particles' types (one small read), and the
// launch. lennard_jones() does all three each call; a driver that keeps
// the types (the MD run) prepares once and checks the types once a run.
#pragma once

#include <optional>
#include <type_traits>

#include "portacl/particles.hpp"

namespace portacl {

/// The box as a kernel's (x, y, z, 0) argument in T (float4 or double4).
template <class T>
auto box_argument(const PeriodicBox& b) {
  if constexpr (std::is_same<T, float>::value)
    return cl_float4{{float(b.x), float(b.y), float(b.z), 0.0f}};
  else
    return cl_double4{{b.x, b.y, b.z, 0.0}};
}

template <class T>
struct LennardJonesCall {
  std::size_t n = 0;  ///< particles; 0: nothing to launch
  LaunchPlan plan;
  PreparedKernel check_types, forces;
  std::optional<Buffer<T>> pairs;  ///< (c12, c6, E_shift, 0) of each type pair
  T cutoff = 0;
  std::size_t types = 0;
  bool atomic_shares = false;  ///< a half list: the other particle's share added atomically
};

/// Checks everything but the particles' types (errors as lennard_jones()
/// documents them) and prepares the call for `list` as built now: its
/// particles, its layout and whether it is half. T: float or double.
template <class T>
LennardJonesCall<T> prepare_lennard_jones(Context& ctx, const Buffer<T>& positions, const NeighbourList& list,
                                          const LennardJones& lj, const Buffer<T>& forces, const PlanOptions& options);

/// Throws portacl::Error, naming `op`, when a particle's type is not one of
/// the call's types (checked on the device, one small read).
template <class T>
void check_lennard_jones_types(Context& ctx, const LennardJonesCall<T>& call, const Buffer<T>& positions,
                               const char* op);

/// Launches the forces over `list` as it is now (it may have been rebuilt
/// since the call was prepared, for the same particles).
template <class T>
void launch_lennard_jones(Context& ctx, const LennardJonesCall<T>& call, const Buffer<T>& positions,
                          const NeighbourList& list, Buffer<T>& forces);

}  // namespace portacl
