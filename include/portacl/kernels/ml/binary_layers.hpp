// SPDX-License-Identifier: Apache-2.0
/// \file
/// Binarised layers (XNOR-Net style): the inputs and the weights reduced
/// to their signs (-1 where x < 0, else +1), their products computed by the
/// binary GEMM (binary_gemm.hpp) as exact integers, then each output times
/// its filter's scale (optional, e.g. the mean |w| binarise_weights
/// gives), plus the bias (optional) and an optional ReLU, in float.
///
/// Weights are packed once by binarise_weights: a dense layer's
/// outputs x inputs, a convolution's F x (C / groups x R x S), a row of
/// packed_words(k) words each. The convolution unrolls its taps as im2col
/// does and packs them: its padding reads as +1, as a sign cannot hold 0
/// (what Larq calls pad_values = 1).
///
/// Errors, before any launch: the layers' shape errors (dense_layer.hpp,
/// conv_layer.hpp), packed weights, scales or bias too small or of another
/// context, an output sharing memory with what is read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/kernels/ml/conv_layer.hpp"
#include "portacl/kernels/ml/dense_layer.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// The signs of `rows` rows of `k` weights packed (rows x packed_words(k)
/// words), and where `scales` is given each row's mean |w|.
LaunchPlan binarise_weights(Context& ctx, const Buffer<float>& weights, std::size_t rows, std::size_t k,
                            Buffer<std::uint32_t>& packed, Buffer<float>* scales, const PlanOptions& plan = {});

struct BinaryLayerOptions {
  bool relu = false;
  TensorLayout layout = TensorLayout::nchw;  ///< the convolution's tensors
  PlanOptions plan;
};

/// y = act(scale_k (sign(x) . sign(w_k)) + b_k) for each sample and output
/// k; `scales` and `bias` (outputs each) may be null.
LaunchPlan binary_dense_forward(Context& ctx, const DenseShape& shape, const Buffer<float>& x,
                                const Buffer<std::uint32_t>& packed_weights, const Buffer<float>* scales,
                                const Buffer<float>* bias, Buffer<float>& y, const BinaryLayerOptions& options = {});

/// The convolution layer of `shape` on the signs of `input` and the packed
/// filters, each output times its filter's scale, plus the bias.
LaunchPlan binary_conv_forward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                               const Buffer<std::uint32_t>& packed_filters, const Buffer<float>* scales,
                               const Buffer<float>* bias, Buffer<float>& output,
                               const BinaryLayerOptions& options = {});

}  // namespace portacl
