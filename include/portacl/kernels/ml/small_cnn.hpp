// SPDX-License-Identifier: Apache-2.0
/// \file
/// A small convolutional network trained on the device: images of
/// C x H x W (NCHW) through a 3 x 3 convolution of F filters (padding 1,
/// bias, ReLU), a 2 x 2 max-pooling of stride 2, and a fully connected
/// layer to `classes` logits, with the softmax cross-entropy as its loss.
///
/// All parameters live in one device buffer and all their gradients in
/// another of the same shape, so that data-parallel replicas can sum the
/// gradients in one call (an all-reduce), then apply them with
/// SgdOptions::gradient_scale = 1 / replicas: a step is
/// compute_gradients (forward, loss, backward) then apply_gradients (SGD
/// with momentum and weight decay). train_step does both. The gradients
/// are those of the batch's mean loss.
///
/// Parameters start from `seed`: the weights uniform in
/// +-sqrt(6 / fan_in) (He's initialisation for the ReLU layer, fan_in
/// C x 9; the same bound for the last layer), the biases 0. The same seed,
/// data and options repeat bit for bit on one device.
///
/// Errors, before any launch: zero sizes, images smaller than 2 x 2,
/// buffers too small or of another context, a batch of 0; a label outside
/// 0 .. classes - 1 is named after the forward pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "portacl/kernels/ml/sgd.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct SmallCnnShape {
  std::size_t channels = 1, height = 8, width = 8;
  std::size_t filters = 8;  ///< of the convolution
  std::size_t classes = 4;
};

/// Where one parameter tensor lies in parameters() and gradients().
struct ParameterSegment {
  std::size_t offset = 0, count = 0;  ///< in floats
};

class SmallCnn {
 public:
  /// `plan` applies to every layer's launches (a device class's plan, tuned
  /// values); SGD's own plan comes with its options.
  SmallCnn(Context& ctx, const SmallCnnShape& shape, std::uint64_t seed, const PlanOptions& plan = {});
  ~SmallCnn();
  SmallCnn(const SmallCnn&) = delete;
  SmallCnn& operator=(const SmallCnn&) = delete;

  const SmallCnnShape& shape() const;
  Context& context() const;  ///< the device it runs on
  /// Every parameter, flat: the convolution's filters (F x C x 3 x 3) and
  /// bias (F), the dense layer's weights (classes x F (H/2) (W/2)) and
  /// bias (classes), each segment starting on the device's sub-buffer
  /// alignment (the gaps hold zeros). The dense layer reads an image's
  /// pooled maps flattened in NCHW order: input f (H/2)(W/2) + y (W/2) + x
  /// is filter f's pooled value at row y, column x (H/2 and W/2 rounded
  /// down), so weight [k][that index] joins it to class k.
  Buffer<float>& parameters();
  const Buffer<float>& gradients() const;
  Buffer<float>& gradients();  ///< for a caller that sums replicas' gradients in place
  ParameterSegment conv_filters() const, conv_bias() const, dense_weights() const, dense_bias() const;
  /// The four segments read back one after another, without the gaps: the
  /// parameters as a device-independent vector (saving a model, comparing
  /// replicas on devices of different alignments).
  std::vector<float> packed_parameters() const;
  /// The same vector written back into the segments (the gaps stay 0).
  /// Throws portacl::Error for a vector of another length.
  void set_packed_parameters(const std::vector<float>& packed);

  /// Forward and backward over `batch` images (batch x C x H x W) and their
  /// labels: returns the mean loss, leaves its gradient in gradients().
  double compute_gradients(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch);
  /// One SGD step from gradients(), the velocity kept inside; the step's plan.
  LaunchPlan apply_gradients(const SgdOptions& options);
  /// compute_gradients then apply_gradients; the loss before the step.
  double train_step(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch,
                    const SgdOptions& options);
  /// The logits (batch x classes) of `batch` images.
  void forward(const Buffer<float>& images, std::size_t batch, Buffer<float>& logits);
  /// Each image's predicted class.
  void predict(const Buffer<float>& images, std::size_t batch, Buffer<int>& classes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
