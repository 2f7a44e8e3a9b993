// SPDX-License-Identifier: Apache-2.0
/// \file
/// The 2D heat equation (heat2d.hpp) on a device group: the grid's rows cut
/// into slabs by the group's split (rule group.split), each member stepping
/// its slab with k ghost rows on each side that has a neighbour, and the
/// ghosts exchanged every k steps (rule group.halo-width) through pinned
/// host memory. The exchange overlaps the slab's step: each member first
/// steps two thin bands (its k edge rows with 2k rows around them, copies),
/// starts reading their edge rows back on a second queue, then steps its
/// whole slab while they travel.
///
/// Results: bit for bit those of heat2d on one device. Every variant of the
/// step computes a cell by the same expression (an explicit fma), and a
/// ghost row is never used once it is stale.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "portacl/kernels/stencil/heat2d.hpp"
#include "portacl/runtime/device_group.hpp"

namespace portacl {

template <class T>
class GroupHeat2d {
  using built = only_for<T, float, double>;

 public:
  /// `field` (rows x cols, by rows) split over `group` by its weights.
  /// `halo_rows`: ghost rows a side, 1 to the thinnest slab's rows; unset:
  /// rule group.halo-width. Errors: a field that is not rows x cols, a
  /// halo_rows of 0 or more than the thinnest slab holds.
  GroupHeat2d(DeviceGroup& group, const std::vector<T>& field, std::size_t rows, std::size_t cols,
              std::optional<std::size_t> halo_rows = std::nullopt);
  ~GroupHeat2d();
  GroupHeat2d(const GroupHeat2d&) = delete;
  GroupHeat2d& operator=(const GroupHeat2d&) = delete;

  /// Advances the field by options.steps steps, as heat2d would, with
  /// heat2d's errors. Fixed sides are set once, through the host (a read
  /// and a write of each slab). options.on_output is refused (download()
  /// between calls instead); the tuning options apply to every slab.
  void advance(const HeatOptions<T>& options);
  /// The whole field, rows x cols.
  std::vector<T> download() const;
  /// Ghost rows a side, the slabs, and why.
  std::size_t halo_rows() const;
  std::string describe() const;
  /// Seconds in the ghost exchange: from the moment every band had stepped
  /// to the moment every ghost row was written, summed over calls (the
  /// slabs step meanwhile, hiding part of it).
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
