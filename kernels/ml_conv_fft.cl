// SPDX-License-Identifier: Apache-2.0
// A convolution layer by FFT (src/kernels/ml/conv_layer_fft.cpp): each
// input plane and each filter is zero-padded to a G0 x G1 grid and
// transformed real-to-complex; every output plane's spectrum is the sum
// over its group's channels of the image's spectrum times the filter's
// conjugate (the correlation form); it goes back complex-to-real and the
// output reads the grid at (p SH - PH, q SW - PW), taken modulo the grid
// (G0 >= H + PH and >= the dilated filter, so no tap wraps onto the
// image). The kernels here are the steps around the transforms:
//   conv_fft_images      grid[i C + c] = image first + i's channel c at
//                        the grid's corner, 0 on the rest;
//   conv_fft_filters     grid[f CG + c] = filter f's channel c, tap (r, s)
//                        at (r DH, s DW), 0 on the rest;
//   conv_fft_accumulate  out[i F + f][k] = sum_c x[i C + g CG + c][k]
//                        conj(w[f CG + c][k]) over the CG channels of
//                        filter f's group g, a block of FFT_IB images x
//                        FFT_FB filters of one frequency k a work-item;
//   conv_fft_outputs     the output (in its layout) = the grid scaled by
//                        1 / (G0 G1), with bias and ReLU.
// A work-item an element otherwise. The geometry (CG, FG, GROUPS, R, S,
// SH, SW, PH, PW, DH, DW, HAS_BIAS, RELU) is compiled in.
#include "portacl_common.cl"
#include "ml_conv_taps.cl"

__kernel void conv_fft_images(const uint first, const uint count, const uint height, const uint width,
                              const uint grid_rows, const uint grid_cols, const uint in_n, const uint in_c,
                              const uint in_y, const uint in_x, __global const float* in, __global float* grid) {
  const size_t id = get_global_id(0), cells = (size_t)grid_rows * grid_cols;
  if (id >= (size_t)count * (CG * GROUPS) * cells) return;
  const size_t plane = id / cells, cell = id % cells;
  const uint y = (uint)(cell / grid_cols), x = (uint)(cell % grid_cols);
  const size_t image = first + plane / (CG * GROUPS);
  const uint c = (uint)(plane % (CG * GROUPS));
  grid[id] = y < height && x < width
                 ? in[image * in_n + (size_t)c * in_c + (size_t)y * in_y + (size_t)x * in_x]
                 : 0.0f;
}

__kernel void conv_fft_filters(const uint grid_rows, const uint grid_cols, __global const float* filters,
                               __global float* grid) {
  const size_t id = get_global_id(0), cells = (size_t)grid_rows * grid_cols;
  if (id >= (size_t)(FG * GROUPS) * CG * cells) return;
  const size_t plane = id / cells, cell = id % cells;
  const uint y = (uint)(cell / grid_cols), x = (uint)(cell % grid_cols);
  const bool tap = y % DH == 0 && x % DW == 0 && y / DH < R && x / DW < S;
  grid[id] = tap ? filters[(plane * R + y / DH) * S + x / DW] : 0.0f;
}

__kernel void conv_fft_accumulate(const uint count, const ulong values, __global const float2* x,
                                  __global const float2* w, __global float2* out) {
  const uint blocks_per_group = (FG + FFT_FB - 1) / FFT_FB, blocks = blocks_per_group * GROUPS;
  const size_t id = get_global_id(0);
  const ulong k = id % values, rest = id / values;
  const uint block = (uint)(rest % blocks), i0 = (uint)(rest / blocks) * FFT_IB;
  if (i0 >= count) return;
  const uint group = block / blocks_per_group, f0 = group * FG + (block % blocks_per_group) * FFT_FB;
  const uint f_end = (group + 1) * FG;
  float2 acc[FFT_IB][FFT_FB];
  for (uint i = 0; i < FFT_IB; ++i)
    for (uint f = 0; f < FFT_FB; ++f) acc[i][f] = (float2)(0.0f);
  for (uint c = 0; c < CG; ++c) {
    float2 xv[FFT_IB], wv[FFT_FB];
    for (uint i = 0; i < FFT_IB; ++i)
      xv[i] = i0 + i < count ? x[((size_t)(i0 + i) * (CG * GROUPS) + group * CG + c) * values + k] : (float2)(0.0f);
    for (uint f = 0; f < FFT_FB; ++f)
      wv[f] = f0 + f < f_end ? w[((size_t)(f0 + f) * CG + c) * values + k] : (float2)(0.0f);
    for (uint i = 0; i < FFT_IB; ++i)
      for (uint f = 0; f < FFT_FB; ++f) {
        acc[i][f].x += xv[i].x * wv[f].x + xv[i].y * wv[f].y;
        acc[i][f].y += xv[i].y * wv[f].x - xv[i].x * wv[f].y;
      }
  }
  for (uint i = 0; i < FFT_IB; ++i)
    for (uint f = 0; f < FFT_FB; ++f)
      if (i0 + i < count && f0 + f < f_end) out[((size_t)(i0 + i) * (FG * GROUPS) + f0 + f) * values + k] = acc[i][f];
}

__kernel void conv_fft_outputs(const uint first, const uint count, const uint out_h, const uint out_w,
                               const uint grid_rows, const uint grid_cols, const float scale, const uint out_n,
                               const uint out_c, const uint out_y, const uint out_x, __global const float* grid,
                               __global const float* bias, __global float* out) {
  const size_t id = get_global_id(0), positions = (size_t)out_h * out_w;
  if (id >= (size_t)count * (FG * GROUPS) * positions) return;
  const size_t plane = id / positions;
  const uint p = (uint)(id % positions / out_w), q = (uint)(id % out_w), f = (uint)(plane % (FG * GROUPS));
  const uint y = (p * SH + grid_rows - PH) % grid_rows, x = (q * SW + grid_cols - PW) % grid_cols;
  const size_t image = first + plane / (FG * GROUPS);
  out[image * out_n + (size_t)f * out_c + (size_t)p * out_y + (size_t)q * out_x] =
      finish(grid[(plane * grid_rows + y) * grid_cols + x] * scale, bias, f);
}
