// SPDX-License-Identifier: Apache-2.0
// The fully connected layer's own kernels (src/kernels/ml/dense_layer.cpp);
// its products are portacl's GEMM. Matrices are row-major, a row a sample.
//   dense_bias         y[r][c] = act(y[r][c] + bias[c]) (HAS_BIAS, RELU).
//   dense_relu_mask    g[i] = y[i] > 0 ? grad[i] : 0, the gradient through
//                      the ReLU.
//   dense_column_sums  out[c] = sum over rows of m[r][c], in row order (the
//                      bias's gradient; bit for bit on every run).
#include "portacl_common.cl"

__kernel void dense_bias(const uint rows, const uint cols, __global const float* bias, __global float* y) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)rows * cols) return;
  float v = y[id];
#if HAS_BIAS
  v += bias[id % cols];
#endif
#if RELU
  v = fmax(v, 0.0f);
#endif
  y[id] = v;
}

__kernel void dense_relu_mask(const uint count, __global const float* y, __global const float* grad,
                              __global float* masked) {
  const uint id = get_global_id(0);
  if (id < count) masked[id] = y[id] > 0.0f ? grad[id] : 0.0f;
}

__kernel void dense_column_sums(const uint rows, const uint cols, __global const float* m, __global float* out) {
  const uint c = get_global_id(0);
  if (c >= cols) return;
  float sum = 0.0f;
  for (uint r = 0; r < rows; ++r) sum += m[(size_t)r * cols + c];
  out[c] = sum;
}
