// SPDX-License-Identifier: Apache-2.0
/// \file
/// A Lennard-Jones molecular-dynamics run in the NVE ensemble: velocity
/// Verlet steps of dt (v += f/m dt/2; x += v dt; forces; v += f/m dt/2)
/// with the neighbour list rebuilt whenever a particle has moved more than
/// half the skin since the last build (checked on the device by the drift
/// itself, one small read a step), positions wrapped into the box at each
/// rebuild. The Lennard-Jones pair table is made once, and the particles'
/// types are checked once at each run() (the steps keep them; a caller
/// may have changed the positions in between).
/// Positions are 4 floats a particle (x, y, z, type), velocities 4 floats
/// (vx, vy, vz, unused); both stay the caller's buffers and are updated in
/// place. Masses are per type.
///
/// Errors, at construction: a time step not finite or not above 0, masses
/// not one per type or not above 0, and whatever the neighbour list and
/// the Lennard-Jones forces refuse (box, cutoff, tables, types); at run(),
/// before any step, a particle whose type is not one of the types.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "portacl/kernels/particles/lennard_jones.hpp"
#include "portacl/kernels/particles/neighbours.hpp"

namespace portacl {

/// Double, as the box and the Lennard-Jones tables are: a double run
/// steps with dt and the masses whole, a float run rounds them once.
struct MdOptions {
  double dt = 0.005;
  std::vector<double> masses{1.0};  ///< one a type
  double skin = 0.3;
  /// Half lists with atomic shares (true) or full lists (false); unset,
  /// the device class decides (rule particles.md-list): half on CPUs, where
  /// the shares rarely collide, full on GPUs, where they contend. Double
  /// runs take full lists only.
  std::optional<bool> half_list;
  PlanOptions plan;
};

struct MdEnergy {
  double kinetic = 0, potential = 0;
  double total() const { return kinetic + potential; }
};

/// T is the precision of the positions, velocities, forces and their
/// arithmetic: float, or double (the neighbour list searches narrowed
/// float copies either way, and double runs take full lists only).
template <class T>
class BasicLennardJonesMd {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "molecular dynamics runs in float or double");

 public:
  BasicLennardJonesMd(Context& ctx, Buffer<T>& positions, Buffer<T>& velocities, const PeriodicBox& box,
                      const LennardJones& lj, const MdOptions& options = {});
  ~BasicLennardJonesMd();
  BasicLennardJonesMd(BasicLennardJonesMd&&) noexcept;

  /// `steps` velocity-Verlet steps.
  void run(std::size_t steps);
  /// The kinetic and potential energy now (reads the velocities and the
  /// forces' energies back to the host, sums in double).
  MdEnergy energy() const;
  std::size_t steps_done() const;
  std::size_t rebuilds() const;  ///< neighbour-list builds, the first included
  const NeighbourList& list() const;
  const Buffer<T>& forces() const;  ///< (fx, fy, fz, e) a particle, for the current positions

 private:
  struct State;
  std::unique_ptr<State> s_;
};

using LennardJonesMd = BasicLennardJonesMd<float>;
using LennardJonesMdDouble = BasicLennardJonesMd<double>;

extern template class BasicLennardJonesMd<float>;
extern template class BasicLennardJonesMd<double>;

}  // namespace portacl
