// SPDX-License-Identifier: Apache-2.0
// The network layers' kernels of a work-item an element or a row (pooling,
// the dense layer's bias, masks and column sums, softmax cross-entropy,
// SGD, the binarised layers' scaling): their traits and their one tunable, the work-group size, for the
// runtime, the tuner and the tests. Tuner plumbing, not user API.
#pragma once

#include "portacl/plan.hpp"
#include "portacl/ml.hpp"
#include "rules/ml_layer_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// work-group size alone: each kernel's work-items are independent.
const TuningSpace& layer_kernel_tunables();

KernelTraits pooling_traits();
KernelTraits dense_layer_traits();
KernelTraits softmax_loss_traits();
KernelTraits sgd_traits();
KernelTraits binary_layer_traits();
/// The convolution's weight gradients, a work-group a weight whose
/// work-items add in a tree through local memory (barriers).
KernelTraits conv_weight_grad_traits();

struct Planner;
/// Pooling's plan for a pass over `items` elements (the forward pass's
/// outputs, the backward pass's inputs), built for the shape's window
/// (pooling_plan); each pass launches it a work-item an element.
LaunchPlan plan_pooling(const Planner& planner, const PoolShape& shape, const PoolOptions& options, std::size_t items);

/// A dense layer's output pass over batch x outputs elements (bias, ReLU,
/// its mask; the products are GEMMs), built by layer_output_plan.
LaunchPlan plan_dense(const Planner& planner, std::size_t batch, std::size_t outputs, bool has_bias, bool relu);
/// softmax_cross_entropy's pass over `batch` rows, writing the logits'
/// gradient where `grad` (softmax_loss_plan), launched a work-item a row.
LaunchPlan plan_softmax_loss(const Planner& planner, std::size_t batch, bool grad);
/// SGD with momentum over n parameters, launched a work-item a parameter.
LaunchPlan plan_sgd(const Planner& planner, std::size_t n);

}  // namespace portacl
