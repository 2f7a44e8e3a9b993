// SPDX-License-Identifier: Apache-2.0
/// \file
/// Pooling layers of neural networks, forward and backward: each output is
/// the maximum or the average of a window of R x S input values of one
/// channel, windows `stride` apart, the input padded by `pad` on each side:
///   P = (H + 2 pad_h - R) / stride_h + 1  (Q likewise).
/// The maximum ignores the padding; on equal values the first in the
/// window (row by row) is the one kept. The average divides by the window's
/// taps inside the image, or by R x S where `count_padding` is set.
/// Tensors are NCHW or NHWC (see conv_layer.hpp).
///
/// Backward takes the output's gradient to the input's: the maximum's to
/// the element it picked (so forward must record it, in `argmax`), the
/// average's spread evenly over the window. Each input element gathers
/// from the windows that cover it, so there are no atomics and a run
/// repeats bit for bit.
///
/// Errors, before any launch: zero sizes, a padding as large as the window,
/// a window larger than the padded image, buffers too small, of another
/// context or sharing memory, a maximum's backward without `argmax`.
#pragma once

#include <cstddef>

#include "portacl/kernels/ml/conv_layer.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

enum class PoolKind { max, average };

struct PoolShape {
  std::size_t images = 1, channels = 1, height = 1, width = 1;
  std::size_t window_h = 2, window_w = 2;
  std::size_t stride_h = 2, stride_w = 2;
  std::size_t pad_h = 0, pad_w = 0;
  std::size_t out_height() const;  ///< P
  std::size_t out_width() const;   ///< Q
};

struct PoolOptions {
  PoolKind kind = PoolKind::max;
  TensorLayout layout = TensorLayout::nchw;
  bool count_padding = false;  ///< average: divide by R x S, not by the taps inside the image
  PlanOptions plan;
};

/// output = pool(input). For the maximum, `argmax` (as many ints as the
/// output, or null) gets each picked element's place in its channel's
/// plane, y W + x. `argmax` is laid out as the output is (NCHW or NHWC, by
/// options.layout), while its values count y W + x in the input's plane in
/// either layout: in NHWC the picked input element is at ((n H + y) W + x)
/// C + c. pool_backward reads it the same way.
LaunchPlan pool_forward(Context& ctx, const PoolShape& shape, const Buffer<float>& input, Buffer<float>& output,
                        Buffer<int>* argmax, const PoolOptions& options = {});

/// grad_input = the gradient of the pooling for grad_output (overwritten,
/// not added to). The maximum needs the forward pass's `argmax`.
LaunchPlan pool_backward(Context& ctx, const PoolShape& shape, const Buffer<float>& grad_output,
                         Buffer<float>& grad_input, const Buffer<int>* argmax, const PoolOptions& options = {});

}  // namespace portacl
