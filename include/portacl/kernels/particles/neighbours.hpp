// SPDX-License-Identifier: Apache-2.0
/// \file
/// Neighbour lists in a periodic box: for every particle, the particles
/// within cutoff + skin of it by the minimum image: a pair is listed when
/// the float square of its distance is below the float square of cutoff +
/// skin (a pair exactly at cutoff + skin is not listed). Positions are 4 floats
/// a particle, (x, y, z, w) (w is not read: a type or a mass); a particle
/// may lie outside the box, its image in the box counts, but no further
/// than two box lengths: each coordinate in [-2L, 3L). Further out, the
/// float difference of two coordinates loses the digits that place a
/// particle; such positions, and ones that are not finite, are refused
/// (checked on the device, one small read), naming the first. Wrap
/// positions into the box first (x - L floor(x / L)); LennardJonesMd does
/// at every rebuild.
///
/// The search is one of two, by the plan (NeighbourList::plan() says which
/// and why): cells of at least cutoff + skin, particles sorted by cell with
/// the radix sort and each particle's 27 neighbouring cells searched (O(n),
/// where the box holds at least 3 cells a side), or every pair tested
/// (O(n^2), smaller boxes and small n).
///
/// A list holds `capacity` neighbours a particle. Where a particle has more,
/// the build notices, grows the capacity to fit the fullest and builds
/// again (retries() counts it), so a list is never cut short. Full lists
/// hold both (i, j) and (j, i); half lists each pair once, j > i.
/// needs_rebuild() tells, on the device, whether any particle has moved
/// more than half the skin since the build.
///
/// Errors, before any launch: a cutoff that is not above 0, a negative
/// skin, a box length that is not above 0 or not finite, cutoff + skin
/// above half the shortest box length (the minimum image would miss pairs),
/// positions that are not 4 floats a particle, buffers of another context;
/// on the device, before the search: a position that is not finite or lies
/// outside [-2L, 3L).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/mapping_rules.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// A periodic box [0, x) x [0, y) x [0, z). Lengths are double: a double
/// run (LennardJonesMdDouble, lennard_jones in double) takes them whole; a
/// float run and the neighbour search round them to float once.
struct PeriodicBox {
  double x = 0, y = 0, z = 0;
};

enum class NeighbourSearch { automatic, cells, all_pairs };

struct NeighbourOptions {
  double cutoff = 0;         ///< the interaction's range, > 0
  double skin = 0.3;         ///< extra range, so the list serves several steps
  bool half = false;         ///< each pair once (j > i) instead of both ways
  std::size_t capacity = 0;  ///< first capacity a particle; 0: from the density
  NeighbourSearch search = NeighbourSearch::automatic;
  PlanOptions plan;
};

class NeighbourList {
 public:
  NeighbourList(Context& ctx, const NeighbourOptions& options);
  ~NeighbourList();
  NeighbourList(NeighbourList&&) noexcept;
  NeighbourList& operator=(NeighbourList&&) noexcept;

  /// Builds the list of `positions` (4 floats a particle) in `box`.
  void build(const Buffer<float>& positions, const PeriodicBox& box);
  /// The same from double positions, narrowed to float on the device for
  /// the search (the skin covers float rounding of a few parts in 10^7
  /// of the box); built_positions() then holds the narrowed copy.
  void build(const Buffer<double>& positions, const PeriodicBox& box);
  /// True when a particle has moved more than half the skin since the build
  /// (by the minimum image), checked on the device; one small read.
  bool needs_rebuild(const Buffer<float>& positions) const;
  bool needs_rebuild(const Buffer<double>& positions) const;
  /// The positions at the last build, which needs_rebuild compares with
  /// (4 floats a particle): for an integrator that folds the check into
  /// its own kernel, as LennardJonesMd does. Throws when never built.
  const Buffer<float>& built_positions() const;

  std::size_t particles() const;
  std::size_t capacity() const;  ///< neighbours a particle the storage holds
  std::size_t retries() const;   ///< builds repeated for a larger capacity, over the list's life
  bool half() const;
  double cutoff() const;
  const PeriodicBox& box() const;
  /// counts[i]: particle i's neighbours.
  const Buffer<std::uint32_t>& counts() const;
  /// Neighbour k of particle i is at neighbours()[slot(i, k)].
  const Buffer<std::uint32_t>& neighbours() const;
  std::size_t slot(std::size_t i, std::size_t k) const;
  /// True when slot(i, k) is k n + i (GPUs), false for i capacity + k.
  bool slots_by_neighbour() const;
  /// Every (i, j) the list holds, read back to the host, in order of i.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs() const;
  /// The plan of the last build's search: its decisions say which search,
  /// which layout of the lists and why.
  const LaunchPlan& plan() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace portacl
