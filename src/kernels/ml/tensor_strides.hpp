// SPDX-License-Identifier: Apache-2.0
// How the layer kernels address a tensor of either layout: element
// (n, c, y, x) at n sn + c sc + y sy + x sx, the four strides passed as
// kernel arguments (convolution and pooling layers).
#pragma once

#include <cstddef>

#include "portacl/cl.hpp"
#include "portacl/ml.hpp"

namespace portacl {

struct TensorStrides {
  cl_uint n, c, y, x;
};

inline TensorStrides tensor_strides(TensorLayout layout, std::size_t channels, std::size_t height, std::size_t width) {
  const auto u = [](std::size_t v) { return static_cast<cl_uint>(v); };
  if (layout == TensorLayout::nchw) return {u(channels * height * width), u(height * width), u(width), 1};
  return {u(height * width * channels), 1, u(width * channels), u(channels)};
}

}  // namespace portacl
