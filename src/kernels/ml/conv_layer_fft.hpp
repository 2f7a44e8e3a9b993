// SPDX-License-Identifier: Apache-2.0
// A convolution layer by FFT (conv_layer_fft.cpp), as conv_layer_forward
// runs it under a plan whose method is the FFT.
#pragma once

#include "kernels/ml/conv_layer_tunables.hpp"
#include "kernels/ml/tensor_strides.hpp"
#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

/// The filters' planes transformed once, then per chunk of images: the
/// images' planes transformed, every output plane's spectrum summed over
/// its group's channels, transformed back and written with bias and ReLU.
void run_conv_fft(Context& ctx, const ConvLaunch& l, const ConvLayerShape& s, const TensorStrides& in,
                  const TensorStrides& out, const Buffer<float>& input, const Buffer<float>& filters,
                  const BufferStorage& bias, Buffer<float>& output, const PlanOptions& plan);

}  // namespace portacl
