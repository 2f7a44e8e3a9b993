// SPDX-License-Identifier: Apache-2.0
// One slab of a heat 2D grid cut by rows, as a device group member or an
// MPI rank holds it: its own rows with `above` ghost rows before them and
// `below` after, in one buffer. Every k steps the ghosts go stale; the
// slab first steps two thin bands (its k edge rows with 2k rows around
// them, copies) and starts reading their edge rows into pinned memory,
// then steps itself while the edge rows travel to the neighbours.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "portacl/stencil.hpp"
#include "portacl/buffer.hpp"

namespace portacl {

template <class T>
struct HeatSlab {
  /// `owner` names the slab in errors ("member 1", "rank 2 of 4").
  HeatSlab(Context& c, std::string owner, std::size_t first, std::size_t own, std::size_t up, std::size_t down,
           std::size_t cols, std::size_t k);
  Context* ctx;
  std::string owner;
  std::size_t first_row, rows, above, below, stored, band_rows, cols, k;
  // The slab's two grids (the steps swap them: `field` names the current
  // one), and a band each side with its second grid: the top band's read may
  // still run while the bottom's steps.
  Buffer<T> field, scratch, band_up, band_down, band_scratch_up, band_scratch_down;
  HostBuffer<T> send_up, send_down, receive_up, receive_down;
  cl::Event stepped_up, stepped_down, read_up, read_down, write_up, write_down;

  /// Rows first_row - above .. + stored of `whole` (rows x cols) to the device.
  void upload_from(const std::vector<T>& whole);
  /// The fixed sides on the slab's rows, ghosts included, as heat_edges sets
  /// them on the whole grid of `grid_rows`; through the host.
  void set_sides(std::size_t grid_rows, const HeatSides<T>& sides);
  /// chunk.steps (at most k) steps: the bands, their edge rows' reads
  /// started, then the whole slab; all enqueued and flushed.
  void step(const HeatOptions<T>& chunk);
  /// Waits for the bands' steps (after them, in order, the last ghost
  /// writes: receive_* may be refilled), then for their edge rows in
  /// send_up / send_down.
  void wait_bands();
  void wait_edges();
  /// receive_up / receive_down, once filled, to the ghost rows (enqueued
  /// after the slab's step).
  void write_ghosts();
  /// The slab's own rows (rows x cols) into `out`.
  void download_into(T* out) const;
};

/// Which parts of a split (offsets of p + 1 rows) hold rows, and the ghost
/// rows a side: `asked`, checked (1 to the thinnest slab), or rule
/// group.halo-width. `op` starts the errors; also checks the field's size.
struct SlabLayout {
  std::vector<std::size_t> active;  ///< the parts with rows, top to bottom
  std::size_t k = 1;
  std::string why;
};
SlabLayout slab_layout(const std::string& op, std::size_t field_size, std::size_t rows, std::size_t cols,
                       const std::vector<std::size_t>& offsets, std::optional<std::size_t> asked);
/// Refuses what slabs cannot do (on_output) and zero steps.
template <class T>
void check_slab_options(const std::string& op, const HeatOptions<T>& options);

}  // namespace portacl
