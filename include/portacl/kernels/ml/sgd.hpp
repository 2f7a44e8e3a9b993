// SPDX-License-Identifier: Apache-2.0
/// \file
/// Stochastic gradient descent with momentum and weight decay, as PyTorch's
/// torch.optim.SGD (dampening 0, not Nesterov) applies them to each
/// parameter w with gradient g and velocity v (zero at the start):
///   g' = gradient_scale g + weight_decay w
///   v  = momentum v + g'
///   w  = w - learning_rate v
/// gradient_scale turns gradients summed over R data-parallel replicas into
/// their mean (1 / R); a single device leaves it at 1.
///
/// Errors, before any launch: parameters, gradients and velocity of
/// different sizes or contexts, or sharing memory; a rate, momentum, decay
/// or scale that is negative or not finite.
#pragma once

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct SgdOptions {
  float learning_rate = 0.01f;
  float momentum = 0.9f;
  float weight_decay = 0.0f;
  float gradient_scale = 1.0f;
  PlanOptions plan;
};

LaunchPlan sgd_step(Context& ctx, Buffer<float>& parameters, const Buffer<float>& gradients, Buffer<float>& velocity,
                    const SgdOptions& options = {});

}  // namespace portacl
