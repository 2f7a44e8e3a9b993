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
/// Convolution by FFT: the image extended by its boundary (ext_rows x
/// ext_cols, its first cell at (-anchor_y, -anchor_x) of the image) in a
/// rows x cols grid of smooth lengths (1 row for a 1D convolution).
struct ConvolutionFftGrid {
  std::size_t ext_rows = 0, ext_cols = 0, anchor_y = 0, anchor_x = 0, rows = 1, cols = 1;
};
ConvolutionFftGrid convolution_fft_grid(std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                        std::size_t mask_cols, Boundary boundary);
/// The pointwise launches around the transforms: extend (a work-item a
/// grid cell, for the mask and the image), multiply (a spectrum value),
/// crop (an output).
struct ConvolutionFftLaunches {
  ConvolutionFftGrid grid;
  LaunchPlan extend, multiply, crop;
};
template <class T>
ConvolutionFftLaunches plan_convolution_fft(const Planner& planner, std::size_t rows, std::size_t cols,
                                            std::size_t mask_rows, std::size_t mask_cols, Boundary boundary);
/// Whether a one-pass convolution runs directly or by FFT (rule
/// convolution.fft, or the caller's ConvolutionOptions::fft): the
/// "algorithm" decision, "direct" or "fft".
template <class T>
Decision plan_convolution_algorithm(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                    std::size_t mask_cols, const ConvolutionOptions& o);
/// convolve2d by FFT under `algorithm` (rule convolution.fft's decision).
template <class T>
LaunchPlan convolve_by_fft(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols,
                           const ConvolutionMask<T>& mask, Buffer<T>& out, const ConvolutionOptions& o,
                           const Decision& algorithm);

/// NCC of a template_rows x template_cols template over rows x cols pixels.
template <class P>
StencilLaunch plan_ncc(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t template_rows,
                       std::size_t template_cols, const NccOptions& o);

}  // namespace portacl
