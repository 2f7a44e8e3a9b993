// SPDX-License-Identifier: Apache-2.0
/// \file
/// Harmonic bond stretching in a periodic box: bond (i, j) of type t has
/// E = 0.5 k_t (r - r0_t)^2 with r the minimum-image distance, and pulls
/// i and j together when stretched (r > r0), apart when compressed. The
/// forces are computed a bond at a time into the bond's own slot, then each
/// atom gathers its bonds' slots (no atomics): the atoms' bonds are found
/// once, when the Bonds are made.
///
/// Errors, when the Bonds are made: a bond naming an atom past the atoms
/// or the same atom twice, a type past the types, k below 0 or r0 not
/// finite, more bonds at an atom than `max_per_atom`; when adding forces:
/// positions or forces that are not 4 floats for each of the atoms,
/// buffers of another context or sharing memory, a box length not above 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "portacl/kernels/particles/neighbours.hpp"

namespace portacl {

struct BondTypes {
  std::vector<float> k{1.0f};   ///< stiffness a type
  std::vector<float> r0{1.0f};  ///< rest length a type
};

class Bonds {
 public:
  /// `pairs` holds 2 atom indices a bond, `types` one type a bond.
  Bonds(Context& ctx, std::size_t atoms, const std::vector<std::uint32_t>& pairs,
        const std::vector<std::uint32_t>& types, const BondTypes& bond_types, std::size_t max_per_atom);
  ~Bonds();
  Bonds(Bonds&&) noexcept;

  /// forces[4a..4a+3] += (F_a, e_a), e_a half the energy of a's bonds: the
  /// sum of e over the atoms is the bonds' energy.
  LaunchPlan add_forces(const Buffer<float>& positions, const PeriodicBox& box, Buffer<float>& forces,
                        const PlanOptions& options = {}) const;
  std::size_t bonds() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace portacl
