// SPDX-License-Identifier: Apache-2.0
// The binarised layers' own kernels (src/kernels/ml/binary_layers.cpp);
// their products are the binary GEMM's.
//   binary_scale  a product of signs (ints, rows x cols, leading dimension
//                 ldc) to floats, times each column's scale (HAS_SCALE;
//                 scale_offset: where the columns' scales start).
//   row_mean_abs  each row's mean |w|: the scale XNOR-Net gives a binarised
//                 filter, so that scale x sign(w) best fits w.
#include "portacl_common.cl"

__kernel void binary_scale(const uint rows, const uint cols, const uint ldc, const uint scale_offset,
                           __global const int* c, __global const float* scale, __global float* out) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)rows * cols) return;
  const uint col = (uint)(id % cols);
  const float v = (float)c[(id / cols) * ldc + col];
#if HAS_SCALE
  out[id] = v * scale[scale_offset + col];
#else
  out[id] = v;
#endif
}

__kernel void row_mean_abs(const uint rows, const uint k, __global const float* w, __global float* out) {
  const uint r = get_global_id(0);
  if (r >= rows) return;
  float sum = 0.0f;
  for (uint j = 0; j < k; ++j) sum += fabs(w[(size_t)r * k + j]);
  out[r] = sum / (float)k;
}
