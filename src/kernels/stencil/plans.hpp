// SPDX-License-Identifier: Apache-2.0
// The stencil family's plans, made before anything is launched: which
// kernels a call runs and under which plans (each carrying the decisions
// that explain it). The calls carry them out on a live context; portacl-query
// shows them for a device description (src/kernels/reference_calls.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "../planner.hpp"
#include "portacl/stencil.hpp"

namespace portacl {

/// A heat2d call: its one-step kernel, the fixed sides' kernel where the
/// options set sides, and the temporal-blocking kernel where a launch takes
/// several steps.
struct HeatLaunches {
  LaunchPlan step;
  std::string step_entry;  ///< "" when the grid is empty
  std::optional<LaunchPlan> edges;
  std::size_t per_launch = 1;
  std::optional<LaunchPlan> temporal;
};
template <class T>
HeatLaunches plan_heat2d(const Planner& planner, std::size_t rows, std::size_t cols, const HeatOptions<T>& o);

/// One kernel launch of the family: its plan and entry point ("" when the
/// output is empty and nothing is launched).
struct StencilLaunch {
  LaunchPlan plan;
  std::string entry;
  std::size_t z_chunk = 0;  ///< the star's planes per work-group (star_queue)
};
/// The star of `radius` on `extent` (star_stencil3d).
template <class T>
StencilLaunch plan_star3d(const Planner& planner, Extent3 extent, std::size_t radius, const Stencil3dOptions& o);
/// One pass of a mask_rows x mask_cols mask over rows x cols (convolve2d).
template <class T>
StencilLaunch plan_convolution(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t mask_rows,
                               std::size_t mask_cols, const ConvolutionOptions& o);
/// NCC of a template_rows x template_cols template over rows x cols pixels.
template <class P>
StencilLaunch plan_ncc(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t template_rows,
                       std::size_t template_cols, const NccOptions& o);

}  // namespace portacl
