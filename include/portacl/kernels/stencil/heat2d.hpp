// SPDX-License-Identifier: Apache-2.0
/// \file
/// The 2D heat equation, explicit in time: u' = u + r (uN + uS + uE + uW -
/// 4u) on a rows x cols grid stored by rows, float or double, many steps per
/// call in ping-pong buffers. The edge cells are the boundary: kept from
/// the initial field, or set to fixed values per side. r above 1/4 (the
/// scheme's stability limit) is refused.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// Fixed values for the four sides: row 0 (north), the last row (south),
/// then column 0 (west) and the last column (east) on the rows between.
template <class T>
struct HeatSides {
  T north{}, south{}, west{}, east{};
};

template <class T>
struct HeatOptions {
  T r = T(0.25);          ///< diffusion number dt alpha / h^2, at most 1/4
  std::size_t steps = 1;  ///< at least 1
  /// Unset: the edges of the initial field are kept.
  std::optional<HeatSides<T>> sides;
  /// When set, called after every `output_every` steps with the step count
  /// and the field then (a buffer of the call's, valid during the callback).
  std::size_t output_every = 0;
  std::function<void(std::size_t step, const Buffer<T>& field)> on_output;
  /// Force the variant (true: local-memory tile, false: cache-reliant);
  /// unset: rule stencil.tile-beyond-cache, and whole rows per work-item
  /// on CPUs (rule cpu.large-grain).
  std::optional<bool> local_tile;
  /// Steps per launch (temporal blocking: a tile with a halo as wide as
  /// the steps, stepped in local memory), 1 to 16; unset: rule
  /// stencil.temporal-blocking or a tuned STEPS_PER_LAUNCH.
  std::optional<std::size_t> steps_per_launch;
  /// Cells of a row per work-item in the cache-reliant step, 1 to 8 (2, 4
  /// and 8 load aligned vectors where cols is a multiple); unset: rule
  /// stencil.cells-per-work-item or a tuned CELLS_X.
  std::optional<std::size_t> cells_x;
  /// Cells of a column per work-item in the temporal-blocking tile: 1, 2,
  /// 4, 8 or 16 (it divides the tile's height); unset: rule
  /// stencil.temporal-strip or a tuned CELLS_Y.
  std::optional<std::size_t> cells_y;
  PlanOptions plan;
};

/// Advances `u` (rows x cols) by options.steps steps, in place. Errors,
/// before any launch: r above 1/4 or negative or not a number, zero steps,
/// a buffer that does not hold rows x cols elements or belongs to another
/// context, output_every without a callback, cells_x or cells_y out of
/// range (cells_y not a power of two up to 16).
template <class T, class = only_for<T, float, double>>
LaunchPlan heat2d(Context& ctx, Buffer<T>& u, std::size_t rows, std::size_t cols, const HeatOptions<T>& options);

}  // namespace portacl
