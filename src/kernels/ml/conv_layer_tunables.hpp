// SPDX-License-Identifier: Apache-2.0
// The convolution layer family's declarations for the runtime, the tuner
// and the tests: its kernels' traits, its tuning space and the plans of
// one layer. Tuner plumbing, not user API: never installed.
#pragma once

#include <cstddef>

#include "kernels/planner.hpp"
#include "portacl/ml.hpp"
#include "portacl/plan.hpp"
#include "rules/ml_conv_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The direct kernel: an output position for a block of images x filters
/// a work-item (im2col's kernels share its plan and macros).
KernelTraits conv_layer_traits();
/// work-group size, ALGORITHM (direct, im2col or Winograd; unset, rule
/// conv.algorithm), IB and FB (the direct kernel's block).
const TuningSpace& conv_layer_tunables();

/// Whether Winograd F(2x2, 3x3) computes the layer: 3 x 3, stride 1,
/// dilation 1; and its 2 x 2 output tiles down and across an image.
bool winograd_fits(const ConvLayerShape& shape);
std::size_t winograd_tile_rows(const ConvLayerShape& shape);
std::size_t winograd_tile_columns(const ConvLayerShape& shape);

/// Refuses, naming the problem, a layer of zero sizes, zero strides or
/// dilations, groups that do not divide the channels and filters, a filter
/// larger than the padded image, or images past the kernels' 32-bit counts.
void check_conv_shape(const char* op, const ConvLayerShape& shape);

struct ConvLaunch {
  ConvChoice choice;
  LaunchPlan plan;  ///< the direct kernel's, or the im2col kernels' macros
};
ConvLaunch plan_conv_layer(const Planner& planner, const ConvLayerShape& shape, const ConvLayerOptions& options,
                           bool has_bias);

}  // namespace portacl
