// SPDX-License-Identifier: Apache-2.0
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

namespace {

KernelTraits independent_items(const char* name, std::size_t bytes_per_item) {
  return kernel_traits(name, ElementType::f32, 1, traits::scalar, {double(bytes_per_item), 0},
                       &layer_kernel_tunables());
}

}  // namespace

const TuningSpace& layer_kernel_tunables() {
  static const TuningSpace space{{knobs::work_group_size({32, 64, 128, 256})}, nullptr};
  return space;
}

KernelTraits pooling_traits() { return independent_items("pooling", 8); }
KernelTraits dense_layer_traits() { return independent_items("dense_layer", 8); }
KernelTraits softmax_loss_traits() { return independent_items("softmax_loss", 8); }
KernelTraits sgd_traits() { return independent_items("sgd", 16); }
KernelTraits binary_layer_traits() { return independent_items("binary_layer", 8); }
KernelTraits conv_weight_grad_traits() {
  KernelTraits t = independent_items("conv_weight_grad", 8);
  t.needs_barriers = true;
  return t;
}

}  // namespace portacl
