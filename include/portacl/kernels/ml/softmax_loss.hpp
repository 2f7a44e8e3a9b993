// SPDX-License-Identifier: Apache-2.0
/// \file
/// Softmax cross-entropy, the classification loss: for each of `batch`
/// rows of `classes` logits z and its label t (an int in 0 .. classes - 1),
///   loss = log sum_j exp(z_j) - z_t,
/// computed in the stable form (the row's maximum subtracted first). The
/// mean over the batch is returned, summed on the host in double; its
/// gradient, (softmax(z) - onehot(t)) / batch, is written where asked.
///
/// Errors: zero sizes, buffers too small or of another context, a gradient
/// sharing memory with the logits (before any launch); a label outside
/// 0 .. classes - 1 (after the launch, naming the first such sample).
#pragma once

#include <cstddef>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// The mean loss; `grad_logits` (batch x classes, or null) gets its
/// gradient. Waits for the device (the losses come back to be summed).
double softmax_cross_entropy(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                             const Buffer<int>& labels, Buffer<float>* grad_logits, const PlanOptions& plan = {});

/// predicted[i] = the class of row i's largest logit (the first of equal
/// ones).
LaunchPlan predict_classes(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                           Buffer<int>& predicted, const PlanOptions& plan = {});

}  // namespace portacl
