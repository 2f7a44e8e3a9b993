// SPDX-License-Identifier: Apache-2.0
// How neighbour lists are searched and stored on a device
// (src/kernels/particles/neighbours.cpp carries it out). Each choice
// records its decision and rule in the plan.
#pragma once

#include <array>
#include <cstddef>
#include <optional>

#include "portacl/plan.hpp"

namespace portacl {

struct NeighbourShape {
  bool cells = false;                  ///< cell search (else every pair)
  std::array<int, 3> grid{{1, 1, 1}};  ///< cells a side, each at least the reach wide
  bool slots_by_k = false;             ///< neighbour k of i at k n + i (else i capacity + k)
};

/// `n` particles in a box of `box` lengths with pairs within `reach`:
/// cells where every side holds 3 or more and n is 1000 or more (rule
/// particles.neighbour-cells; `forced` 1 asks for cells, 2 for every pair,
/// 0 leaves it to the rule, and cells are refused below 3 a side); lists
/// by neighbour index on GPUs, by particle on barrier-free plans (rule
/// particles.list-slots).
NeighbourShape choose_neighbour_search(LaunchPlan& plan, std::size_t n, const std::array<float, 3>& box, float reach,
                                       int forced);

/// A first capacity a particle: 1.25 times the neighbours a uniform
/// density gives within `reach` (half of them for half lists), plus 8,
/// rounded up to 8 (rule particles.list-capacity).
std::size_t first_list_capacity(LaunchPlan& plan, std::size_t n, const std::array<float, 3>& box, float reach,
                                bool half);

/// The capacity after a build found a particle with `fullest` neighbours:
/// 1.25 times that, plus 8, rounded up to 8 (rule particles.list-capacity).
std::size_t grown_list_capacity(LaunchPlan& plan, std::size_t fullest);

/// Whether an MD run takes half lists (atomic shares) or full lists, for
/// `plan`'s device class: the caller's choice where `asked`; full lists in
/// double (the shares are float atomics); else half lists on CPUs and Xeon
/// Phi, full lists on GPUs (rule particles.md-list).
bool choose_md_half_list(LaunchPlan& plan, std::optional<bool> asked, bool double_precision);

/// How pair forces reach both particles: over a half list by atomic shares
/// (true), over a full list by each particle's own sum (false) (rule
/// particles.lj-scatter).
bool decide_pair_scatter(LaunchPlan& plan, bool half_list);

/// The neighbour search's plan over n particles, a work-item each (rule
/// general.cover-problem): HALF (a half list) and SLOTS_BY_K (the list's
/// layout) as built.
LaunchPlan neighbour_search_plan(LaunchPlan plan, std::size_t n, bool half, bool slots_by_k);

/// particles_neighbours.cl's helper kernels: they ignore HALF, which the
/// search kernels need defined (0).
LaunchPlan neighbour_helper_plan(LaunchPlan plan);

/// The Lennard-Jones force pass over n particles, a work-item each: TYPES,
/// SLOTS_BY_K, and how a half list's pair shares reach the partner
/// (decide_pair_scatter; HALF_LIST). Returns whether shares are atomic.
bool lj_forces_plan(LaunchPlan& plan, std::size_t n, std::size_t types, bool slots_by_k, bool half_list);

/// The bonded forces: a pass a bond (`per_bond`) and the gather a work-item
/// an atom (`plan`, returned in place), MAX_BONDS bonds an atom at most.
LaunchPlan bond_plans(LaunchPlan& plan, std::size_t atoms, std::size_t bonds, std::size_t max_per_atom);

}  // namespace portacl
