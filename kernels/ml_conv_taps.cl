// SPDX-License-Identifier: Apache-2.0
// What every convolution layer kernel (ml_conv_layer.cl, ml_conv_winograd.cl)
// shares: reading a tap of the input with zeros in the padding, and the
// fused bias and ReLU (HAS_BIAS, RELU compiled in).

// The input value of tap (c, r, s) for output (oy, ox) of image n, 0 in the padding.
inline float tap_value(__global const float* in, size_t base, uint c, int iy, int ix, uint in_c, uint in_y, uint in_x,
                       uint height, uint width) {
  return (iy >= 0 && iy < (int)height && ix >= 0 && ix < (int)width)
             ? in[base + (size_t)c * in_c + (size_t)iy * in_y + (size_t)ix * in_x]
             : 0.0f;
}

inline float finish(float v, __global const float* bias, uint f) {
#if HAS_BIAS
  v += bias[f];
#endif
#if RELU
  v = fmax(v, 0.0f);
#endif
  return v;
}
