// SPDX-License-Identifier: Apache-2.0
/// \file
/// All-pairs N-body (nbody.hpp) on a device group: each member owns a
/// contiguous slice of the bodies (rule group.split: weigh a faster device
/// more) and keeps a copy of every position. A leapfrog step is: each
/// member kicks and drifts its own slice; the new positions of every slice
/// travel to every other member through pinned host memory (n x 16 bytes a
/// member a step, against n^2 pair interactions: the exchange's share
/// falls as n grows); each member sums the forces on its slice over all
/// bodies and kicks again.
///
/// Results: bit for bit those of nbody_step on one device of the same kind
/// (each body's sum runs over all bodies in the same order in both).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "portacl/kernels/particles/nbody.hpp"
#include "portacl/runtime/device_group.hpp"

namespace portacl {

class GroupNbody {
 public:
  /// Bodies (x, y, z, m) and velocities (vx, vy, vz, unused), 4 floats a
  /// body, split over `group` by its weights; the accelerations of these
  /// positions are computed here, so that step() can follow. Errors: as
  /// nbody_accelerations' (softening, lengths), and velocities of another
  /// length than bodies.
  GroupNbody(DeviceGroup& group, const std::vector<float>& bodies, const std::vector<float>& velocities,
             const NbodyOptions& options);
  ~GroupNbody();
  GroupNbody(const GroupNbody&) = delete;
  GroupNbody& operator=(const GroupNbody&) = delete;

  /// One leapfrog step of dt (a finite number), as nbody_step.
  void step(float dt);
  /// The current state, read back from every member, 4 floats a body.
  std::vector<float> bodies() const;
  std::vector<float> velocities() const;
  std::vector<float> accelerations() const;
  /// A line a member (its slice), and the split's reason.
  std::string describe() const;
  /// Seconds in the position exchange: from the moment every slice had
  /// drifted to the moment every member holds every position, summed.
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
