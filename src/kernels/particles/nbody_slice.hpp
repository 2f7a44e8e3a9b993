// SPDX-License-Identifier: Apache-2.0
// The N-body calls on a slice of the bodies: bodies first .. first + count
// - 1 of `bodies` (all n, every one read as a source), with velocities and
// accelerations holding the slice's own. The whole run is the slice 0 .. n
// - 1; a device group member runs its own. Operands are checked by the
// caller.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "portacl/particles.hpp"
#include "portacl/buffer.hpp"

namespace portacl {

/// Each slice body's sum runs over all n in the same order as the whole
/// run's: the results are the whole run's, bit for bit.
/// T is float or double (nbody.cpp instantiates both).
template <class T>
LaunchPlan nbody_slice_accelerations(Context& ctx, const Buffer<T>& bodies, std::size_t first, std::size_t count,
                                     Buffer<T>& accelerations, const NbodyOptions& options);
/// v += a dt/2; x += v dt on the slice (dt rounded to T).
template <class T>
void nbody_slice_kick_drift(Context& ctx, Buffer<T>& bodies, std::size_t first, std::size_t count,
                            Buffer<T>& velocities, const Buffer<T>& accelerations, double dt,
                            const NbodyOptions& options);
/// v += a dt/2 on the slice.
template <class T>
void nbody_slice_kick(Context& ctx, std::size_t count, Buffer<T>& velocities, const Buffer<T>& accelerations, double dt,
                      const NbodyOptions& options);

/// The inputs of a split run (a device group's, an MPI job's), checked as
/// nbody_step checks them; `op` starts the errors.
void check_split_nbody_inputs(const std::string& op, const std::vector<float>& bodies,
                              const std::vector<float>& velocities, const NbodyOptions& options);

/// One part's slice of a split run: its copy of every position, its own
/// velocities and accelerations, and pinned memory for the positions that
/// travel. `owner` names it in errors ("member 1", "rank 2 of 4").
struct NbodySlice {
  NbodySlice(Context& c, std::string owner, std::size_t first, std::size_t count, std::size_t n);
  Context* ctx;
  std::string owner;
  std::size_t first, count;
  Buffer<float> positions;                  ///< every body's (x, y, z, m)
  Buffer<float> velocities, accelerations;  ///< the slice's own
  HostBuffer<float> sent;                   ///< the slice's positions, read back
  HostBuffer<float> received;               ///< every position, written from here
  cl::Event drifted, read, written;

  /// Every position and the slice's velocities, then its accelerations.
  void load(const std::vector<float>& bodies, const std::vector<float>& all_velocities, const NbodyOptions& options);
  /// The first half of a step: kick and drift, then the slice's new
  /// positions read into `into` (4 floats a body) on the same queue, event
  /// `read`; drifted marks the drift.
  void kick_drift_and_read(float dt, float* into, const NbodyOptions& options);
  /// Positions `from` .. + `bodies` of host array `all` (every body's) to
  /// the device copy; event `written`.
  void write_positions(const float* all, std::size_t from, std::size_t bodies);
  /// The second half: forces on the slice from every body, and the kick.
  void forces_and_kick(float dt, const NbodyOptions& options);
};

}  // namespace portacl
