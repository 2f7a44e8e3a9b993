// SPDX-License-Identifier: Apache-2.0
/// \file
/// Convolution layers of neural networks (cross-correlation, as every deep
/// learning framework computes them): N images of C channels of H x W,
/// F filters of C / groups channels of R x S, and an output of N images of
/// F channels of P x Q, where
///   P = (H + 2 pad_h - dilation_h (R - 1) - 1) / stride_h + 1
/// (Q likewise). Output channel f of group g = f / (F / groups) sums the
/// input channels g C / groups ... (g + 1) C / groups - 1; taps that fall
/// in the padding read zeros. An optional bias (F floats) is added and an
/// optional ReLU applied.
///
/// Images and outputs are NCHW (image, channel, row, column; GPUs read it
/// best) or NHWC (image, row, column, channel; CPUs read it best): the
/// caller says which, and preferred_tensor_layout says which the device
/// reads best (rule conv.layout). Filters are always F x (C / groups) x R x S.
///
/// Errors, before any launch: zero sizes, channels or filters that groups
/// does not divide, a filter larger than the padded image, strides or
/// dilations of 0, Winograd asked for a layer that is not 3 x 3 of stride
/// 1 and dilation 1, buffers too small, of another context or sharing
/// memory.
#pragma once

#include <cstddef>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

enum class TensorLayout {
  nchw,  ///< image, channel, row, column
  nhwc,  ///< image, row, column, channel
};

struct ConvLayerShape {
  std::size_t images = 1, channels = 1, height = 1, width = 1;
  std::size_t filters = 1, filter_height = 1, filter_width = 1;
  std::size_t stride_h = 1, stride_w = 1;
  std::size_t pad_h = 0, pad_w = 0;
  std::size_t dilation_h = 1, dilation_w = 1;
  std::size_t groups = 1;
  std::size_t out_height() const;  ///< P
  std::size_t out_width() const;   ///< Q
};

enum class ConvAlgorithm {
  automatic,    ///< the rule conv.algorithm chooses
  direct,       ///< each work-item several images x filters of one output position, in registers
  im2col_gemm,  ///< the taps unrolled into a matrix, multiplied by the filters with portacl's GEMM
  /// Winograd's F(2x2, 3x3), for 3 x 3 filters of stride 1 and dilation 1
  /// only (any padding, groups, bias, ReLU): 2.25 times fewer
  /// multiplications, through 16 GEMMs over the channels. Its rounding is
  /// larger than a direct sum's: each output stays within
  /// 81 (C / groups + 16) eps sum_c max|d_c| max|g_c| of the exact value,
  /// d_c the 4 x 4 input patch of its tile in channel c and g_c its
  /// filter's 3 x 3 weights there (eps = 2^-23).
  winograd,
};

struct ConvLayerOptions {
  TensorLayout layout = TensorLayout::nchw;
  ConvAlgorithm algorithm = ConvAlgorithm::automatic;
  bool relu = false;  ///< max(0, x) after the bias
  PlanOptions plan;
};

/// The layout the device reads best (rule conv.layout): NCHW on GPUs, NHWC
/// on CPUs.
TensorLayout preferred_tensor_layout(Context& ctx);

/// output = relu?(conv(input, filters) + bias) for `shape`; `bias` may be
/// null. Returns the plan; its decisions say which algorithm ran and why.
LaunchPlan conv_layer_forward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                              const Buffer<float>& filters, const Buffer<float>* bias, Buffer<float>& output,
                              const ConvLayerOptions& options = {});

/// Where conv_layer_backward writes the gradients (each overwritten; a
/// null one is not computed).
struct ConvLayerGradients {
  Buffer<float>* input = nullptr;    ///< N x C x H x W, the layer's layout
  Buffer<float>* filters = nullptr;  ///< F x (C / groups) x R x S
  Buffer<float>* bias = nullptr;     ///< F
};

/// The gradients of a layer for the gradient of its output (`grad_output`,
/// N x F x P x Q in the layout), by im2col and portacl's GEMM: the filters'
/// as the output gradient's product with the unrolled input, the input's
/// as the unrolled product with the filters folded back (each input element
/// gathers the taps that read it). With `options.relu` the forward output
/// `output` masks the gradient where the ReLU cut it; it may be null
/// otherwise.
LaunchPlan conv_layer_backward(Context& ctx, const ConvLayerShape& shape, const Buffer<float>& input,
                               const Buffer<float>& filters, const Buffer<float>* output,
                               const Buffer<float>& grad_output, const ConvLayerGradients& gradients,
                               const ConvLayerOptions& options = {});

/// A tensor of N x C x H x W floats from one layout into the other.
LaunchPlan convert_tensor_layout(Context& ctx, std::size_t images, std::size_t channels, std::size_t height,
                                 std::size_t width, const Buffer<float>& in, TensorLayout from, Buffer<float>& out,
                                 TensorLayout to);

}  // namespace portacl
