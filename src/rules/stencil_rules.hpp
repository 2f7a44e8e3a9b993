// SPDX-License-Identifier: Apache-2.0
/// \file
/// The named rules shared by the stencils and convolutions: whether a
/// kernel stages its block and halo in local memory, where a mask or a set
/// of weights lives, how many outputs of a row a work-item computes, and
/// when a separable mask runs as two passes. Each records its decision in
/// the plan, with the rule's id and why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <array>
#include <vector>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// What a rule would take for a count of a launch (cells or outputs per
/// work-item, steps per launch), and why; empty where no rule applies.
struct RuleCount {
  std::size_t value = 1;
  std::string rule;
  std::string why;
};

/// The count `decision` of `plan` (cells or outputs per work-item, steps
/// per launch): the caller's, else the tuned value of `knob`, else the
/// rule's, else `otherwise` (no rule applies: nothing is recorded), each
/// recorded with where it came from.
std::size_t caller_tuned_or_rule(LaunchPlan& plan, const std::string& decision,
                                 const std::optional<std::size_t>& caller, const TuningSpace& tunables,
                                 const std::string& knob, const std::optional<RuleCount>& rule,
                                 std::size_t otherwise = 1);

/// The boundary the caller chose, recorded ("boundary", caller.choice, `why`).
void decide_caller_boundary(LaunchPlan& plan, const std::string& boundary, const std::string& why);

/// Rule cpu.large-grain, recorded in a 1D whole-rows plan ("variant").
void decide_whole_rows(LaunchPlan& rows, const std::string& variant);
/// The 1D whole-rows launch `rows` made whole from the 2D plan it replaces:
/// the 2D plan's macros (boundary, mask, reach) where the 1D launch has
/// none of its own, its decisions, and rule cpu.large-grain recorded.
void whole_rows_launch(LaunchPlan& rows, const LaunchPlan& plan, const std::string& variant);

/// Rule stencil.tile-beyond-cache: the local-memory tile only where the
/// planner allows local memory (never on CPUs), not on NVIDIA GPUs, and
/// only where `grid_bytes` (every grid the kernel streams) exceed the
/// device's cache. `forced` is the caller's choice. Records "variant".
bool stencil_uses_tile(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t grid_bytes,
                       std::optional<bool> forced);

/// Rule cpu.large-grain for stencils: a CPU's cache-reliant stencil walks
/// whole rows (or long chunks of them) per work-item; elsewhere a
/// work-item takes a few cells.
bool stencil_walks_rows(const LaunchPlan& plan, bool tiled);

/// Rule convolution.mask-in-constant: weights in constant memory when they
/// fit the device's constant buffer (64 KiB, the minimum OpenCL
/// guarantees, when the device does not say), else in global memory.
/// Records "mask_memory".
/// Sets `space_macro` to the address space taken (__constant or __global).
bool mask_in_constant_memory(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t mask_bytes,
                             std::optional<bool> forced, const std::string& space_macro);

/// Rule convolution.outputs-per-work-item: outputs of a row per work-item
/// of a cache-reliant or tiled convolution (1 on CPUs, whose rows variant
/// needs none). Records "outputs_per_work_item".
std::size_t convolution_outputs_per_work_item(LaunchPlan& plan, std::size_t element_bytes, std::optional<long> tuned);

/// Rule convolution.outputs-per-work-item, rows: output rows per work-item
/// of the cache-reliant convolution, 4 on GPUs and MIC for masks of up to 9
/// rows (each input row read serves several output rows), else 1.
/// Records "output_rows_per_work_item".
std::size_t convolution_output_rows_per_work_item(LaunchPlan& plan, std::size_t mask_rows, std::optional<long> tuned);

/// Rule stencil.tile-beyond-cache, second half: a convolution's tile and
/// halo (`tile_bytes`) must fit local memory, else the cache-reliant
/// variant (recorded). True when the tile stays.
bool convolution_tile_fits(LaunchPlan& plan, const DeviceInfo& device, std::size_t tile_bytes);

/// Rule ncc.outputs-per-work-item: offsets of a map row per work-item.
RuleCount ncc_outputs_per_work_item();
/// The same rule where the map's rows (`map_cols`) have fewer offsets than
/// `outputs`: 1 (recorded). Returns the count to use.
std::size_t ncc_outputs_within_row(LaunchPlan& plan, std::size_t outputs, std::size_t map_cols);
/// Rule ncc.image-tile: the image block in local memory where the plan
/// takes local memory and the block (`tile_bytes`) fits; the caller's
/// `forced` choice first. Records "variant".
bool ncc_uses_tile(LaunchPlan& plan, const DeviceInfo& device, std::size_t tile_bytes, std::optional<bool> forced);

/// Rule convolution.separable-passes: a separable MR x MC mask runs as two
/// 1D passes when that saves more arithmetic than the second pass's
/// memory traffic costs. Records "passes".
bool convolution_uses_two_passes(LaunchPlan& plan, std::size_t mask_rows, std::size_t mask_cols);

/// Rule convolution.fft: a 2D convolution runs by FFT (two real-to-complex
/// transforms, a product and a complex-to-real one over a grid_rows x
/// grid_cols grid) when the direct form's `weights` multiply-adds per
/// output cost more than the transforms' work per output on this device
/// class; `forced` (the caller's ConvolutionOptions::fft) wins. Records
/// "algorithm".
/// The transforms' work per grid cell and log2 of the cells, in direct
/// multiply-adds, where the two forms cross (docs/bench/conv_fft_*): an
/// H200 at 2048^2 and 4096^2 (27 and 31), PoCL on this 2-core VM at 512^2
/// and 1024^2 (39 and 55).
constexpr double kConvolutionFftCpu = 48, kConvolutionFftGpu = 29;
bool convolution_uses_fft(LaunchPlan& plan, std::size_t weights, std::size_t outputs, std::size_t grid_rows,
                          std::size_t grid_cols, std::optional<bool> forced);

/// Records the grid convolution by FFT runs on (rule convolution.fft):
/// grid_rows x grid_cols, the smallest 2^a 3^b 5^c lengths at least the
/// extended image's ext_rows x ext_cols. Records "fft_grid".
void decide_convolution_fft_grid(LaunchPlan& plan, std::size_t grid_rows, std::size_t grid_cols, std::size_t ext_rows,
                                 std::size_t ext_cols);

/// The work-group shape a tiled kernel builds with (WG_X, WG_Y: the plan's
/// local size) where `tiled`; the other variants build without it, one
/// binary for every shape.
void tile_shape_macros(LaunchPlan& plan, bool tiled);

/// A convolution's window: an MR x MC mask (MR, MC), anchored at its centre
/// (AY, AX) unless `valid`, the input clamped at its edges where `clamp`
/// (CLAMP) and the boundary recorded as the caller's choice.
void convolution_window(LaunchPlan& plan, std::size_t mask_rows, std::size_t mask_cols, bool valid, bool clamp,
                        const std::string& boundary);
/// A 2D convolution's launch made whole: `outputs` of a row and
/// `output_rows` rows per work-item (OUTPUTS_X, OUTPUTS_Y), the tile's
/// shape, aligned vector reads (ROW_VECTORS, where the input's `cols` is a
/// multiple of the outputs) and writes (OUT_VECTORS, where `out_cols` is)
/// in the cache-reliant variant (neither `tiled` nor `by_rows`), and a
/// grid covering every output.
void convolution_launch(LaunchPlan& plan, std::size_t cols, std::size_t out_rows, std::size_t out_cols,
                        std::size_t outputs, std::size_t output_rows, bool tiled, bool by_rows);
/// Outputs of a row a CPU's work-item streams in the rows variant (CHUNK).
constexpr std::size_t kConvolutionRowChunk = 2048;
void convolution_rows_chunk(LaunchPlan& rows);

/// Normalised cross-correlation's build: 8-bit pixels (`pixel` i8) summed
/// exactly (PIX uchar, integer ACC, 64-bit where a window's squares
/// overflow 32 bits), or float or double pixels, double arithmetic where
/// the device has it (REAL, PORTACL_FP64), and the template's size (TR,
/// TC).
void ncc_build(LaunchPlan& plan, ElementType pixel, bool fp64, std::size_t template_rows, std::size_t template_cols);
/// Its launch made whole: `outputs` offsets of a map row per work-item
/// (OUTPUTS_X), the tile's shape, and a grid covering the map.
void ncc_launch(LaunchPlan& plan, std::size_t map_rows, std::size_t map_cols, std::size_t outputs, bool tiled);

/// The 2D heat equation's device-dependent choices (heat2d). Rule
/// stencil.cells-per-work-item: cells of a row per work-item of the
/// cache-reliant step, on GPUs and MIC 16 bytes of a row where `cols` is a
/// multiple of them (aligned vectors), else 8 bytes; no rule on CPUs.
std::optional<RuleCount> heat_cells_per_work_item(DeviceClass device_class, std::size_t cols,
                                                  std::size_t element_bytes);

/// Rule stencil.temporal-blocking: steps per launch on GPUs and MIC where
/// the two grids (`grid_bytes`) exceed the device's cache; no rule elsewhere
/// or where the caller chose the variant (local_tile set).
constexpr std::size_t kHeatStepsPerLaunch = 4;
std::optional<RuleCount> heat_steps_per_launch(const LaunchPlan& plan, const DeviceInfo& device,
                                               std::uint64_t grid_bytes, bool tile_forced);

/// Rule stencil.temporal-strip: cells of a column per work-item of the
/// temporal-blocking tile (8 on GPUs and MIC; no rule on CPUs).
std::optional<RuleCount> heat_temporal_strip(DeviceClass device_class);

/// A temporal-blocking tile: `rows` x `cols` cells, each work-item owning
/// `cells_y` cells of a column (a cols x rows / cells_y work-group).
struct HeatTile {
  std::size_t rows = 0, cols = 0, cells_y = 1;
  std::size_t work_items() const { return cols * (rows / cells_y); }
};
struct HeatTileChoice {
  std::optional<HeatTile> tile;  ///< empty: none fits
  std::string refused;           ///< why the last candidate that came closest did not fit
};
/// The largest tile, from 64 x 64 down to 8 x 8, that leaves cells to write
/// after `steps` steps and that the device and the compiled kernel allow:
/// at most 1024 work-items and the device's work-group maximum, two tiles
/// of `element_bytes` cells in local memory, and no more work-items than
/// `compiled_limit(tile)` (the kernel built for that shape: its
/// CL_KERNEL_WORK_GROUP_SIZE, 0 when unknown). The strip is `cells_y`, or
/// the tile's height where that is less.
HeatTileChoice heat_temporal_tile(const DeviceInfo& device, std::size_t steps, std::size_t cells_y,
                                  std::size_t element_bytes,
                                  const std::function<std::size_t(const HeatTile&)>& compiled_limit);
/// Records the chosen tile in `plan` ("temporal_tile", rule stencil.temporal-blocking).
void decide_heat_tile(LaunchPlan& plan, const HeatTile& tile, std::size_t steps);
/// The temporal-blocking launch of `tile` taking `steps` steps over a rows
/// x cols grid, made whole from the step's `plan`: the tile's work-group
/// (WG_X, WG_Y, WG_SIZE, CELLS_Y, STEPS_PER_LAUNCH), local memory, and a
/// grid whose tiles' central (rows - 2 steps) x (cols - 2 steps) cells
/// cover the grid once; the tile recorded.
LaunchPlan heat_temporal_launch(LaunchPlan plan, std::size_t rows, std::size_t cols, std::size_t steps,
                                const HeatTile& tile);
/// The one-step launch of a rows x cols grid with `cells_x` cells of a row
/// per work-item (CELLS_X; ROW_VECTORS where cells_x is a power of two
/// above 1 dividing cols and the step is not `tiled`), local memory where
/// `tiled`, its grid covering every cell. Returns whether the row-vector
/// variant is taken.
bool heat_step_launch(LaunchPlan& plan, std::size_t rows, std::size_t cols, std::size_t cells_x, bool tiled);

/// The 3D stencils' device-dependent choices (star_stencil3d, stencil3d).
/// Rule stencil3d.plane-queue: the star's plane queue wherever the plan
/// takes local memory, unless the caller forced a variant; a general
/// stencil always reads through the caches (`star` false). Records "variant".
bool stencil3d_uses_plane_queue(LaunchPlan& plan, bool star, std::optional<bool> forced);
/// Rule stencil3d.outputs-per-work-item: outputs in y per work-item of the
/// plane queue (4 on GPU classes, 2 elsewhere).
RuleCount star_outputs_y(DeviceClass device_class);
/// Rule stencil3d.loads-in-flight: plane steps a plane's loads are issued
/// ahead of their use (3 on GPU classes, 1 elsewhere).
RuleCount star_loads_in_flight(DeviceClass device_class);
/// Rule stencil3d.block-width: 64 columns per block row on GPU classes
/// where the output rows (`out_nx`) are as long and the work-group of
/// `group` items is a multiple of 64; no rule otherwise, or where a shape
/// was forced.
std::optional<RuleCount> star_block_width(DeviceClass device_class, std::size_t out_nx, std::size_t group,
                                          bool shape_forced);
/// The planes of z a work-group walks (rule stencil3d.plane-queue): enough
/// work-groups to fill the device four times over, at least 16R planes
/// each; the caller's `forced` count (capped at nz) instead when given.
/// `groups_per_plane` is the work-groups one z step of the output takes.
std::size_t star_z_chunk(const DeviceInfo& device, std::size_t nz, std::size_t groups_per_plane, std::size_t radius,
                         std::optional<std::size_t> forced);
/// Records the chunk with the work-groups it makes ("z_chunk").
void decide_star_z_chunk(LaunchPlan& plan, const DeviceInfo& device, std::size_t z_chunk, bool forced);

/// A 3D stencil's reach (REACH), its output offset into a pre-padded input
/// (OFF, where `valid`), the clamped edges (CLAMP) and the boundary recorded.
void stencil3d_reach(LaunchPlan& plan, std::size_t reach, bool valid, bool clamp, const std::string& boundary,
                     const std::string& why);
/// The terms a 3D stencil's kernel unrolls (POINTS): X(dx, dy, dz, k) per
/// point, k the weight's index; and for the star its radius (R).
void stencil3d_points(LaunchPlan& plan, const std::vector<std::array<int, 4>>& points);
void star_radius(LaunchPlan& plan, std::size_t radius);
/// The points kernel's 2D launch: a work-item per output, nx x (ny nz).
void stencil3d_points_launch(LaunchPlan& plan, std::size_t nx, std::size_t ny_nz);
/// The star's plane queue made whole: a wx x wy block (WG_X, WG_Y) of
/// `outputs` rows each (OUTPUTS_Y), `in_flight` planes of loads ahead
/// (PREFETCH_PLANES), 32-bit offsets within a plane where an input plane
/// of `plane_cells` has fewer than 2^31 (PLANE_OFFSET), local memory, and
/// a grid of x_groups x (y_blocks z_blocks) work-groups.
void star_queue_launch(LaunchPlan& plan, std::size_t wx, std::size_t wy, std::size_t outputs, std::size_t in_flight,
                       std::size_t plane_cells, std::size_t x_groups, std::size_t y_blocks, std::size_t z_blocks);

}  // namespace portacl
