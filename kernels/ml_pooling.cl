// SPDX-License-Identifier: Apache-2.0
// Pooling layers (src/kernels/ml/pooling.cpp): windows of R x S of one
// channel, STRIDE_H x STRIDE_W apart, padding PAD_H x PAD_W; tensors by
// strides (NCHW or NHWC): element (n, c, y, x) at n sn + c sc + y sy + x sx.
//   pool_forward    an output a work-item: the maximum (MAX 1; the first of
//                   equal values, its plane index y W + x recorded) or the
//                   average (over the taps inside, or over R x S where
//                   COUNT_PADDING).
//   pool_backward   an input element a work-item gathers the gradient of
//                   every window that covers it: no atomics.
#include "portacl_common.cl"

inline size_t at(uint sn, uint sc, uint sy, uint sx, size_t n, size_t c, size_t y, size_t x) {
  return n * sn + c * sc + y * sy + x * sx;
}

// The taps of window (p, q) inside the image: rows y0..y1-1, columns x0..x1-1.
#define WINDOW(p, q)                                                        \
  const int y0 = max((int)(p) * STRIDE_H - PAD_H, 0);                       \
  const int x0 = max((int)(q) * STRIDE_W - PAD_W, 0);                       \
  const int y1 = min((int)(p) * STRIDE_H - PAD_H + R, (int)height);         \
  const int x1 = min((int)(q) * STRIDE_W - PAD_W + S, (int)width);

__kernel void pool_forward(const uint images, const uint channels, const uint height, const uint width,
                           const uint out_h, const uint out_w, const uint in_n, const uint in_c, const uint in_y,
                           const uint in_x, const uint out_n, const uint out_c, const uint out_y, const uint out_x,
                           __global const float* in, __global float* out, __global int* argmax) {
  const size_t id = get_global_id(0), plane = (size_t)out_h * out_w;
  if (id >= (size_t)images * channels * plane) return;
  const size_t n = id / (plane * channels), c = (id / plane) % channels;
  const uint p = (uint)((id % plane) / out_w), q = (uint)(id % out_w);
  WINDOW(p, q)
#if MAX
  float best = -INFINITY;
  int where = y0 * (int)width + x0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const float v = in[at(in_n, in_c, in_y, in_x, n, c, y, x)];
      if (v > best || (y == y0 && x == x0)) {  // the first tap starts the search (NaN included)
        best = v;
        where = y * (int)width + x;
      }
    }
  const size_t o = at(out_n, out_c, out_y, out_x, n, c, p, q);
  out[o] = best;
  argmax[o] = where;
#else
  float sum = 0.0f;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) sum += in[at(in_n, in_c, in_y, in_x, n, c, y, x)];
#if COUNT_PADDING
  const float taps = (float)(R * S);
#else
  const float taps = (float)((y1 - y0) * (x1 - x0));
#endif
  out[at(out_n, out_c, out_y, out_x, n, c, p, q)] = sum / taps;
#endif
}

__kernel void pool_backward(const uint images, const uint channels, const uint height, const uint width,
                            const uint out_h, const uint out_w, const uint in_n, const uint in_c, const uint in_y,
                            const uint in_x, const uint out_n, const uint out_c, const uint out_y, const uint out_x,
                            __global const float* grad_out, __global float* grad_in, __global const int* argmax) {
  const size_t id = get_global_id(0), plane = (size_t)height * width;
  if (id >= (size_t)images * channels * plane) return;
  const size_t n = id / (plane * channels), c = (id / plane) % channels;
  const int y = (int)((id % plane) / width), x = (int)(id % width);
  // Windows p whose rows p SH - PH .. p SH - PH + R - 1 hold y.
  const int p_first = max(0, (y + PAD_H - R + STRIDE_H) / STRIDE_H), p_last = min((int)out_h - 1, (y + PAD_H) / STRIDE_H);
  const int q_first = max(0, (x + PAD_W - S + STRIDE_W) / STRIDE_W), q_last = min((int)out_w - 1, (x + PAD_W) / STRIDE_W);
  float sum = 0.0f;
  for (int p = p_first; p <= p_last; ++p)
    for (int q = q_first; q <= q_last; ++q) {
      const size_t o = at(out_n, out_c, out_y, out_x, n, c, p, q);
#if MAX
      if (argmax[o] == y * (int)width + x) sum += grad_out[o];
#else
      WINDOW(p, q)
#if COUNT_PADDING
      const float taps = (float)(R * S);
#else
      const float taps = (float)((y1 - y0) * (x1 - x0));
#endif
      sum += grad_out[o] / taps;
#endif
    }
  grad_in[at(in_n, in_c, in_y, in_x, n, c, y, x)] = sum;
}
