// SPDX-License-Identifier: Apache-2.0
// The 2D heat equation's device-dependent choices (stencil family): cells
// of a row per work-item, steps per launch, the temporal tile's strip and
// shape. heat2d's host code validates, asks these, prepares and launches.
#include <algorithm>
#include <string>

#include "rules/stencil_rules.hpp"
#include "rules/coverage_rules.hpp"

namespace portacl {

std::optional<RuleCount> heat_cells_per_work_item(DeviceClass device_class, std::size_t cols,
                                                  std::size_t element_bytes) {
  if (device_class == DeviceClass::cpu) return std::nullopt;
  const std::size_t wide = 16 / element_bytes;
  if (cols % wide == 0)
    return RuleCount{wide, "stencil.cells-per-work-item", "16 bytes of a row per work-item, as aligned vectors"};
  return RuleCount{std::max<std::size_t>(1, 8 / element_bytes), "stencil.cells-per-work-item",
                   "8 bytes of a row per work-item (cols is not a multiple of 16 bytes)"};
}

std::optional<RuleCount> heat_steps_per_launch(const LaunchPlan& plan, const DeviceInfo& device,
                                               std::uint64_t grid_bytes, bool tile_forced) {
  const std::uint64_t cache = device.global_cache_size;
  if (plan.device_class == DeviceClass::cpu || !cache || grid_bytes <= cache || tile_forced) return std::nullopt;
  return RuleCount{kHeatStepsPerLaunch, "stencil.temporal-blocking",
                   std::to_string(grid_bytes >> 20) + " MiB of grids exceed the cache: " +
                       std::to_string(kHeatStepsPerLaunch) + " steps per read and write"};
}

std::optional<RuleCount> heat_temporal_strip(DeviceClass device_class) {
  if (device_class == DeviceClass::cpu) return std::nullopt;
  return RuleCount{8, "stencil.temporal-strip",
                   "a tall tile at a work-group size the compiler allows: less of it is overlap"};
}

HeatTileChoice heat_temporal_tile(const DeviceInfo& device, std::size_t steps, std::size_t cells_y,
                                  std::size_t element_bytes,
                                  const std::function<std::size_t(const HeatTile&)>& compiled_limit) {
  // Rows x columns, largest first. NVIDIA's compiler allowed 256
  // work-items for this kernel on the H100.
  static const std::size_t shapes[][2] = {{64, 64}, {64, 32}, {32, 32}, {32, 16}, {16, 16}, {16, 8}, {8, 8}};
  HeatTileChoice choice;
  for (const auto& shape : shapes) {
    const HeatTile tile{shape[0], shape[1], std::min(cells_y, shape[0])};
    if (tile.cols <= 2 * steps || tile.rows <= 2 * steps) continue;  // nothing left to write
    const std::size_t items = tile.work_items(), local = 2 * tile.cols * tile.rows * element_bytes;  // two tiles
    // 1024 work-items at most: no GPU takes more, and on CPUs more only lengthens the barrier loops.
    if (items > 1024 || (device.max_work_group_size && items > device.max_work_group_size)) continue;
    const std::string name = std::to_string(tile.rows) + " x " + std::to_string(tile.cols) + " tile";
    if (device.local_mem_size && local > device.local_mem_size) {
      choice.refused = "a " + name + " needs " + std::to_string(local) + " bytes of local memory; the device has " +
                       std::to_string(device.local_mem_size);
      continue;
    }
    const std::size_t limit = compiled_limit(tile);
    if (limit && items > limit) {
      choice.refused = "a " + name + " takes work-groups of " + std::to_string(items) +
                       " but the kernel compiled for it allows at most " + std::to_string(limit) +
                       " (CL_KERNEL_WORK_GROUP_SIZE)";
      continue;
    }
    choice.tile = tile;
    return choice;
  }
  return choice;
}

void decide_heat_tile(LaunchPlan& plan, const HeatTile& tile, std::size_t steps) {
  const std::size_t out_x = tile.cols - 2 * steps, out_y = tile.rows - 2 * steps;
  plan.decide("temporal_tile",
              std::to_string(tile.rows) + " x " + std::to_string(tile.cols) + " writing " + std::to_string(out_y) +
                  " x " + std::to_string(out_x) + ", " + std::to_string(tile.cells_y) +
                  " cells of a column per work-item",
              "stencil.temporal-blocking",
              std::to_string(double(tile.cols * tile.rows) / double(out_x * out_y)).substr(0, 4) +
                  " cells read per cell written, once per " + std::to_string(steps) + " steps");
}

LaunchPlan heat_temporal_launch(LaunchPlan plan, std::size_t rows, std::size_t cols, std::size_t steps,
                                const HeatTile& tile) {
  const std::size_t wx = tile.cols, wy = tile.rows / tile.cells_y;
  plan.local = {{wx, wy, 1}};
  plan.macros["WG_X"] = std::to_string(wx);
  plan.macros["WG_Y"] = std::to_string(wy);
  plan.macros["WG_SIZE"] = std::to_string(wx * wy);
  plan.macros["STEPS_PER_LAUNCH"] = std::to_string(steps);
  plan.macros["CELLS_Y"] = std::to_string(tile.cells_y);
  plan.use_local_memory = true;
  const std::size_t out_x = wx - 2 * steps, out_y = tile.rows - 2 * steps;
  cover_2d(plan, (cols + out_x - 1) / out_x * wx, (rows + out_y - 1) / out_y * wy);
  decide_heat_tile(plan, tile, steps);
  return plan;
}

bool heat_step_launch(LaunchPlan& plan, std::size_t rows, std::size_t cols, std::size_t cells_x, bool tiled) {
  plan.use_local_memory = tiled;
  const bool row_vectors = !tiled && cells_x > 1 && (cells_x & (cells_x - 1)) == 0 && cols % cells_x == 0;
  if (row_vectors) plan.macros["ROW_VECTORS"] = "1";
  plan.macros["CELLS_X"] = std::to_string(cells_x);
  cover_2d(plan, (cols + cells_x - 1) / cells_x, rows);
  return row_vectors;
}

}  // namespace portacl
