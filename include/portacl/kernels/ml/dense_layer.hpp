// SPDX-License-Identifier: Apache-2.0
/// \file
/// Fully connected (dense) layers: y = act(x W^T + b) for a batch of
/// `batch` samples of `inputs` values (x: batch x inputs, row-major),
/// weights W of outputs x inputs, bias b of `outputs` (optional) and an
/// optional ReLU; y is batch x outputs. Products by portacl's GEMM.
///
/// Backward, for the output's gradient dy: with the ReLU, dy masked where
/// the forward output was cut (y <= 0); then dW = dy^T x, db = the column
/// sums of dy (in sample order, so repeats are bit for bit), dx = dy W.
///
/// Errors, before any launch: zero sizes, buffers too small, of another
/// context or sharing memory where one is written while another is read.
#pragma once

#include <cstddef>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct DenseShape {
  std::size_t batch = 1, inputs = 1, outputs = 1;
};

struct DenseOptions {
  bool relu = false;
  PlanOptions plan;
};

/// y = act(x W^T + b); `bias` may be null.
LaunchPlan dense_forward(Context& ctx, const DenseShape& shape, const Buffer<float>& x, const Buffer<float>& weights,
                         const Buffer<float>* bias, Buffer<float>& y, const DenseOptions& options = {});

/// Where dense_backward writes (each overwritten; a null one is not
/// computed).
struct DenseGradients {
  Buffer<float>* input = nullptr;    ///< batch x inputs
  Buffer<float>* weights = nullptr;  ///< outputs x inputs
  Buffer<float>* bias = nullptr;     ///< outputs
};

/// The gradients for `grad_y` (batch x outputs). With options.relu the
/// forward output `y` is needed for the mask; it may be null otherwise.
LaunchPlan dense_backward(Context& ctx, const DenseShape& shape, const Buffer<float>& x, const Buffer<float>& weights,
                          const Buffer<float>* y, const Buffer<float>& grad_y, const DenseGradients& gradients,
                          const DenseOptions& options = {});

}  // namespace portacl
