// SPDX-License-Identifier: Apache-2.0
// A tensor of N x C x H x W floats from one layout into the other
// (src/kernels/ml/conv_layer.cpp, convert_tensor_layout): each side is
// addressed by its four strides, element (n, c, y, x) at
// n sn + c sc + y sy + x sx.
#include "portacl_common.cl"

// out(n, c, y, x) = in(n, c, y, x) with each side's strides.
__kernel void tensor_relayout(const uint images, const uint channels, const uint height, const uint width,
                              const uint in_n, const uint in_c, const uint in_y, const uint in_x, const uint out_n,
                              const uint out_c, const uint out_y, const uint out_x, __global const float* in,
                              __global float* out) {
  const size_t id = get_global_id(0), plane = (size_t)height * width;
  if (id >= (size_t)images * channels * plane) return;
  // id in the output's own order, so that the writes are contiguous.
  size_t n, c, y, x;
  if (out_x == 1) {  // NCHW out
    x = id % width;
    y = (id / width) % height;
    c = (id / plane) % channels;
    n = id / (plane * channels);
  } else {  // NHWC out
    c = id % channels;
    x = (id / channels) % width;
    y = (id / ((size_t)channels * width)) % height;
    n = id / ((size_t)channels * plane);
  }
  out[n * out_n + c * out_c + y * out_y + x * out_x] = in[n * in_n + c * in_c + y * in_y + x * in_x];
}
