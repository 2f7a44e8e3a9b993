// SPDX-License-Identifier: Apache-2.0
// Convolution layers (src/kernels/ml/conv_layer.cpp): cross-correlation of
// N images of C channels (H x W) with F filters of CG = C / groups channels
// (R x S), output N x F x P x Q. Tensors are addressed by strides, so one
// kernel reads NCHW or NHWC: element (n, c, y, x) of the input is
// in[n * in_n + c * in_c + y * in_y + x * in_x], of the output likewise.
// Filters are F x CG x R x S. The geometry (R, S, CG, FG = F / groups, the
// strides SH, SW, padding PH, PW and dilation DH, DW) is compiled in.
//   conv_direct     a work-item computes one output position for IB
//                   images x FB filters of one group, the sums in
//                   registers: each input value read serves FB filters,
//                   each filter tap IB images; bias and ReLU fused.
//   conv_im2col     the taps of a chunk of images unrolled into a matrix,
//                   a row per output position (image, p, q), a column per
//                   tap (c, r, s) of one group: the GEMM's left operand.
//   conv_epilogue   the GEMM's product (rows x FG of one group) into the
//                   output's layout, with bias and ReLU.
#include "portacl_common.cl"
#include "ml_conv_taps.cl"

#define TAPS (CG * R * S)

__kernel void conv_direct(const uint images, const uint height, const uint width, const uint out_h, const uint out_w,
                          const uint in_n, const uint in_c, const uint in_y, const uint in_x, const uint out_n,
                          const uint out_c, const uint out_y, const uint out_x, __global const float* in,
                          __global const float* filters, __global const float* bias, __global float* out) {
  const uint positions = out_h * out_w, blocks_per_group = (FG + FB - 1) / FB;
  const size_t id = get_global_id(0);
  const uint position = (uint)(id % positions);
  const size_t rest = id / positions;
  const uint block = (uint)(rest % (blocks_per_group * GROUPS)),
             image_block = (uint)(rest / (blocks_per_group * GROUPS));
  if (image_block * IB >= images) return;
  const uint group = block / blocks_per_group, f0 = (block % blocks_per_group) * FB;  // f0: within the group
  const int oy = (int)(position / out_w), ox = (int)(position % out_w);
  float acc[IB][FB];
  for (uint i = 0; i < IB; ++i)
    for (uint f = 0; f < FB; ++f) acc[i][f] = 0.0f;
  for (uint c = 0; c < CG; ++c)
    for (uint r = 0; r < R; ++r) {
      const int iy = oy * SH - PH + (int)(r * DH);
      for (uint s = 0; s < S; ++s) {
        const int ix = ox * SW - PW + (int)(s * DW);
        float value[IB];
        for (uint i = 0; i < IB; ++i) {
          const uint n = min(image_block * IB + i, images - 1);  // past the last image: a repeat, never stored
          value[i] = tap_value(in, (size_t)n * in_n, group * CG + c, iy, ix, in_c, in_y, in_x, height, width);
        }
        for (uint f = 0; f < FB; ++f) {
          const uint filter = group * FG + min(f0 + f, (uint)FG - 1);
          const float w = filters[((size_t)filter * CG + c) * (R * S) + r * S + s];
          for (uint i = 0; i < IB; ++i) acc[i][f] = fma(value[i], w, acc[i][f]);
        }
      }
    }
  for (uint i = 0; i < IB; ++i) {
    const uint n = image_block * IB + i;
    if (n >= images) break;
    for (uint f = 0; f < FB && f0 + f < FG; ++f) {
      const uint filter = group * FG + f0 + f;
      out[(size_t)n * out_n + (size_t)filter * out_c + (size_t)oy * out_y + (size_t)ox * out_x] =
          finish(acc[i][f], bias, filter);
    }
  }
}

// cols[row][tap], row = (n - first) P Q + oy Q + ox, tap = (c R + r) S + s
// of group `group`, for `count` images from `first`.
__kernel void conv_im2col(const uint first, const uint count, const uint group, const uint height, const uint width,
                          const uint out_h, const uint out_w, const uint in_n, const uint in_c, const uint in_y,
                          const uint in_x, __global const float* in, __global float* cols) {
  const size_t id = get_global_id(0), positions = (size_t)out_h * out_w;
  if (id >= (size_t)count * positions * TAPS) return;
  const uint tap = (uint)(id % TAPS);
  const size_t row = id / TAPS;
  const uint n = first + (uint)(row / positions), position = (uint)(row % positions);
  const uint c = tap / (R * S), r = (tap / S) % R, s = tap % S;
  const int iy = (int)(position / out_w) * SH - PH + (int)(r * DH);
  const int ix = (int)(position % out_w) * SW - PW + (int)(s * DW);
  cols[id] = tap_value(in, (size_t)n * in_n, group * CG + c, iy, ix, in_c, in_y, in_x, height, width);
}

// Where entry `id` of a chunk's product (rows x FG, row = image - first,
// position) lies in the output: its filter and its element's offset.
inline size_t product_entry(size_t id, uint first, uint group, uint out_h, uint out_w, uint out_n, uint out_c,
                            uint out_y, uint out_x, uint* filter) {
  const size_t positions = (size_t)out_h * out_w, row = id / FG;
  const uint n = first + (uint)(row / positions), position = (uint)(row % positions);
  *filter = group * FG + (uint)(id % FG);
  return (size_t)n * out_n + (size_t)*filter * out_c + (size_t)(position / out_w) * out_y +
         (size_t)(position % out_w) * out_x;
}

// out(n, group FG + f, oy, ox) = finish(product[row][f]) for the chunk's rows.
__kernel void conv_epilogue(const uint first, const uint count, const uint group, const uint out_h, const uint out_w,
                            const uint out_n, const uint out_c, const uint out_y, const uint out_x,
                            __global const float* product, __global const float* bias, __global float* out) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)count * out_h * out_w * FG) return;
  uint filter;
  const size_t o = product_entry(id, first, group, out_h, out_w, out_n, out_c, out_y, out_x, &filter);
  out[o] = finish(product[id], bias, filter);
}

// Backward (src/kernels/ml/conv_layer.cpp, conv_layer_backward):
//   conv_gather_grad  the output's gradient of one group as the GEMM's
//                     matrix, rows x FG (the epilogue's inverse), zero
//                     where the forward ReLU cut the output (RELU).
//   conv_col2im       the input's gradient: each input element of the
//                     group adds the unrolled gradient of every tap that
//                     read it (a gather, no atomics).
//   conv_weight_grad  the bias's gradient (each filter's output gradient
//                     summed over images and positions), and where the
//                     rule conv.filter-gradient says so the filters'
//                     too, a work-group a weight.
__kernel void conv_gather_grad(const uint first, const uint count, const uint group, const uint out_h, const uint out_w,
                               const uint out_n, const uint out_c, const uint out_y, const uint out_x,
                               __global const float* grad_out, __global const float* out, __global float* product) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)count * out_h * out_w * FG) return;
  uint filter;
  const size_t o = product_entry(id, first, group, out_h, out_w, out_n, out_c, out_y, out_x, &filter);
#if RELU
  product[id] = out[o] > 0.0f ? grad_out[o] : 0.0f;
#else
  product[id] = grad_out[o];
#endif
}

__kernel void conv_col2im(const uint first, const uint count, const uint group, const uint height, const uint width,
                          const uint out_h, const uint out_w, const uint in_n, const uint in_c, const uint in_y,
                          const uint in_x, __global const float* cols, __global float* grad_in) {
  const size_t id = get_global_id(0), plane = (size_t)height * width;
  if (id >= (size_t)count * CG * plane) return;
  const uint n = first + (uint)(id / (CG * plane)), c = (uint)((id / plane) % CG);
  const int y = (int)((id % plane) / width), x = (int)(id % width);
  float sum = 0.0f;
  for (uint r = 0; r < R; ++r) {
    const int ty = y + PH - (int)(r * DH);  // = oy SH where this tap of output row oy reads y
    if (ty < 0 || ty % SH) continue;
    const int oy = ty / SH;
    if (oy >= (int)out_h) continue;
    for (uint s = 0; s < S; ++s) {
      const int tx = x + PW - (int)(s * DW);
      if (tx < 0 || tx % SW) continue;
      const int ox = tx / SW;
      if (ox >= (int)out_w) continue;
      const size_t row = (size_t)(n - first) * out_h * out_w + (size_t)oy * out_w + ox;
      sum += cols[row * TAPS + (c * R + r) * S + s];
    }
  }
  grad_in[(size_t)n * in_n + (size_t)(group * CG + c) * in_c + (size_t)y * in_y + (size_t)x * in_x] = sum;
}

// A work-group a weight (filter f, tap) of the filters' gradient, or a
// filter's bias (tap = TAPS): its work-items share the images' output
// positions, each summing g (masked by the ReLU) times the input its tap
// read (1 for the bias), then add in a fixed tree, so repeats are bit for
// bit. `bias_only`: group f computes filter f's bias alone.
__kernel void conv_weight_grad(const uint images, const uint height, const uint width, const uint out_h,
                               const uint out_w, const uint in_n, const uint in_c, const uint in_y, const uint in_x,
                               const uint out_n, const uint out_c, const uint out_y, const uint out_x,
                               const uint bias_only, const uint want_bias, __global const float* grad_out,
                               __global const float* out, __global const float* in, __global float* grad_filters,
                               __global float* grad_bias, __local float* partial) {
  const uint e = get_group_id(0), lid = get_local_id(0), size = get_local_size(0);
  const uint f = bias_only ? e : e / (TAPS + 1), tap = bias_only ? TAPS : e % (TAPS + 1);
  if (tap == TAPS && !want_bias) return;  // the whole work-group alike
  const uint c = tap / (R * S), r = (tap / S) % R, s = tap % S, channel = (f / FG) * CG + c;
  const uint positions = out_h * out_w;
  const size_t rows = (size_t)images * positions;
  float sum = 0.0f;
  for (size_t row = lid; row < rows; row += size) {
    const uint n = (uint)(row / positions), position = (uint)(row % positions);
    const uint oy = position / out_w, ox = position % out_w;
    const size_t o = (size_t)n * out_n + (size_t)f * out_c + (size_t)oy * out_y + (size_t)ox * out_x;
#if RELU
    const float g = out[o] > 0.0f ? grad_out[o] : 0.0f;
#else
    const float g = grad_out[o];
#endif
    if (tap == TAPS) {
      sum += g;
    } else {
      const int iy = (int)(oy * SH) - PH + (int)(r * DH), ix = (int)(ox * SW) - PW + (int)(s * DW);
      sum = fma(g, tap_value(in, (size_t)n * in_n, channel, iy, ix, in_c, in_y, in_x, height, width), sum);
    }
  }
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 1; stride < size; stride <<= 1) {
    if (lid % (2 * stride) == 0 && lid + stride < size) partial[lid] += partial[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    if (tap == TAPS)
      grad_bias[f] = partial[0];
    else
      grad_filters[(size_t)f * TAPS + tap] = partial[0];
  }
}
