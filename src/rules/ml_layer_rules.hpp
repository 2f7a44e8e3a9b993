// SPDX-License-Identifier: Apache-2.0
// The network layers' small kernels of a work-item an element (pooling, the
// dense layer's helpers, softmax, SGD): their plans are the class's plan
// for the kernel, a work-item an element (one_per_item), and the layer's
// shape as macros, completed here so that kernel code only launches.
#pragma once

#include <cstddef>

#include "portacl/plan.hpp"

namespace portacl {

/// A pooling window: what ml_pooling.cl is built for.
struct PoolWindow {
  bool max = true;             ///< the maximum (MAX 1), else the average
  bool count_padding = false;  ///< the average divides by the whole window, padding included
  std::size_t height = 0, width = 0, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
};

/// `plan` (pooling's) built for `window`: MAX, COUNT_PADDING, R, S,
/// STRIDE_H, STRIDE_W, PAD_H and PAD_W; its grid is one_per_item's at launch.
LaunchPlan pooling_plan(LaunchPlan plan, const PoolWindow& window);

/// A layer's output pass built for what the call asks: HAS_BIAS (a bias a
/// output is added) and RELU (max(0, y) applied), the dense and binarised
/// dense layers' and the convolutions' epilogue.
LaunchPlan layer_output_plan(LaunchPlan plan, bool has_bias, bool relu);

/// Softmax cross-entropy's plan: WRITE_GRAD where the call wants the
/// logits' gradient written.
LaunchPlan softmax_loss_plan(LaunchPlan plan, bool write_grad);

/// The binarised layers' scaling pass over `items` products, a work-item
/// each (one_per_item of `like`): HAS_SCALE where per-row scales multiply them.
LaunchPlan binary_scale_plan(const LaunchPlan& like, std::size_t items, bool has_scale);

}  // namespace portacl
