// SPDX-License-Identifier: Apache-2.0
// The stencil family's launches made whole (convolution, cross-correlation,
// the 3D stencils): the macros a kernel builds with and the grid that
// covers its outputs, from the choices the family's rules made. The
// kernels' host code carries them out.
#include <string>

#include "rules/coverage_rules.hpp"
#include "rules/stencil_rules.hpp"

namespace portacl {

void tile_shape_macros(LaunchPlan& plan, bool tiled) {
  plan.macros.erase("WG_X");
  plan.macros.erase("WG_Y");
  if (!tiled) return;
  plan.macros["WG_X"] = std::to_string(plan.local[0]);
  plan.macros["WG_Y"] = std::to_string(plan.local[1]);
}

void convolution_window(LaunchPlan& plan, std::size_t mask_rows, std::size_t mask_cols, bool valid, bool clamp,
                        const std::string& boundary) {
  plan.macros["MR"] = std::to_string(mask_rows);
  plan.macros["MC"] = std::to_string(mask_cols);
  plan.macros["AY"] = std::to_string(valid ? 0 : (mask_rows - 1) / 2);
  plan.macros["AX"] = std::to_string(valid ? 0 : (mask_cols - 1) / 2);
  plan.macros["CLAMP"] = clamp ? "1" : "0";
  decide_caller_boundary(plan, boundary,
                         valid ? "outputs whose window lies inside the input" : "the output has the input's size");
}

void convolution_launch(LaunchPlan& plan, std::size_t cols, std::size_t out_rows, std::size_t out_cols,
                        std::size_t outputs, std::size_t output_rows, bool tiled, bool by_rows) {
  plan.macros["OUTPUTS_X"] = std::to_string(outputs);
  plan.macros["OUTPUTS_Y"] = std::to_string(output_rows);
  plan.use_local_memory = tiled;
  tile_shape_macros(plan, tiled);
  // Aligned vector reads and writes of the cache-reliant variant where the
  // rows are multiples of a work-item's outputs.
  const bool vector_width = outputs == 2 || outputs == 4 || outputs == 8;
  if (!tiled && !by_rows && vector_width && cols % outputs == 0) plan.macros["ROW_VECTORS"] = "1";
  if (!tiled && !by_rows && vector_width && out_cols % outputs == 0) plan.macros["OUT_VECTORS"] = "1";
  cover_2d(plan, (out_cols + outputs - 1) / outputs, (out_rows + output_rows - 1) / output_rows);
}

void convolution_rows_chunk(LaunchPlan& rows) { rows.macros["CHUNK"] = std::to_string(kConvolutionRowChunk); }

void ncc_build(LaunchPlan& plan, ElementType pixel, bool fp64, std::size_t template_rows, std::size_t template_cols) {
  const bool exact = pixel == ElementType::i8;
  // 8-bit window sums fit 32 bits while n x 255^2 does.
  const bool wide = std::uint64_t(template_rows) * template_cols * 255u * 255u >= (std::uint64_t(1) << 32);
  plan.macros["PIX"] = exact ? "uchar" : cl_type_name(pixel);
  plan.macros["EXACT"] = exact ? "1" : "0";
  plan.macros["REAL"] = fp64 ? "double" : "float";
  plan.macros["ACC"] = exact ? (wide ? "ulong" : "uint") : (fp64 ? "double" : "float");
  plan.macros["TSUM"] = exact ? "ulong" : (fp64 ? "double" : "float");
  if (fp64) plan.macros["PORTACL_FP64"] = "1";
  plan.macros["TR"] = std::to_string(template_rows);
  plan.macros["TC"] = std::to_string(template_cols);
}

void ncc_launch(LaunchPlan& plan, std::size_t map_rows, std::size_t map_cols, std::size_t outputs, bool tiled) {
  plan.macros["OUTPUTS_X"] = std::to_string(outputs);
  plan.use_local_memory = tiled;
  tile_shape_macros(plan, tiled);
  cover_2d(plan, (map_cols + outputs - 1) / outputs, map_rows);
}

void stencil3d_reach(LaunchPlan& plan, std::size_t reach, bool valid, bool clamp, const std::string& boundary,
                     const std::string& why) {
  plan.macros["OFF"] = valid ? std::to_string(reach) : "0";
  plan.macros["CLAMP"] = clamp ? "1" : "0";
  plan.macros["REACH"] = std::to_string(reach);
  decide_caller_boundary(plan, boundary, why);
}

void stencil3d_points(LaunchPlan& plan, const std::vector<std::array<int, 4>>& points) {
  std::string m;
  for (const auto& p : points)
    m += "X(" + std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
         std::to_string(p[3]) + ")";
  plan.macros["POINTS"] = m;
}

void star_radius(LaunchPlan& plan, std::size_t radius) { plan.macros["R"] = std::to_string(radius); }

void stencil3d_points_launch(LaunchPlan& plan, std::size_t nx, std::size_t ny_nz) {
  tile_shape_macros(plan, false);
  cover_2d(plan, nx, ny_nz);
}

void star_queue_launch(LaunchPlan& plan, std::size_t wx, std::size_t wy, std::size_t outputs, std::size_t in_flight,
                       std::size_t plane_cells, std::size_t x_groups, std::size_t y_blocks, std::size_t z_blocks) {
  plan.local = {{wx, wy, 1}};
  plan.use_local_memory = true;
  plan.macros["WG_X"] = std::to_string(wx);
  plan.macros["WG_Y"] = std::to_string(wy);
  plan.macros["OUTPUTS_Y"] = std::to_string(outputs);
  plan.macros["STAR_QUEUE"] = "1";
  plan.macros["PREFETCH_PLANES"] = std::to_string(in_flight);
  // 32-bit offsets within a plane where they fit: fewer instructions per read on GPUs.
  plan.macros["PLANE_OFFSET"] = plane_cells < (std::size_t(1) << 31) ? "int" : "long";
  cover_2d(plan, x_groups * wx, y_blocks * z_blocks * wy);
}

}  // namespace portacl
