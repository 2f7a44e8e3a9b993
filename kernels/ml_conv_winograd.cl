// SPDX-License-Identifier: Apache-2.0
// Winograd's minimal filtering F(2x2, 3x3) for 3 x 3 layers of stride 1
// and dilation 1 (src/kernels/ml/conv_layer.cpp, run_winograd): each
// 2 x 2 tile of an output plane comes from a 4 x 4 patch of the input,
//   Y = A^T [ sum_c (G g_c G^T) .* (B^T d_c B) ] A,
// 16 multiplications a tile and channel instead of 36. The sum over
// channels, for each of the 16 points of the transformed tile, is a GEMM
// of the transformed filters (FG x CG) by the transformed patches
// (CG x tiles); these kernels transform around the 16 products.
//   winograd_filters  U = G g G^T of every filter and channel, stored
//                     [group][point][filter][channel].
//   winograd_inputs   V = B^T d B of every tile and channel of a chunk of
//                     images and one group, stored [point][channel][tile].
//   winograd_outputs  Y = A^T M A of every tile and filter from the
//                     products M [point][filter][tile], with bias and
//                     ReLU, into the output's layout; tiles past the
//                     plane's edge write only their inside.
// A tile t of a chunk is (image - first) TH TW + ty TW + tx, its patch
// starts at row 2 ty - PH, column 2 tx - PW. Geometry (CG, FG, PH, PW) and
// HAS_BIAS, RELU are compiled in.
#include "portacl_common.cl"
#include "ml_conv_taps.cl"

#define POINTS 16

__kernel void winograd_filters(const uint filters_total, __global const float* filters, __global float* u) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)filters_total * CG) return;
  const uint f = (uint)(id / CG), c = (uint)(id % CG), group = f / FG, fl = f % FG;
  __global const float* g = filters + id * 9;
  float gg[4][3];  // G g
  for (uint j = 0; j < 3; ++j) {
    const float g0 = g[j], g1 = g[3 + j], g2 = g[6 + j];
    gg[0][j] = g0;
    gg[1][j] = 0.5f * (g0 + g1 + g2);
    gg[2][j] = 0.5f * (g0 - g1 + g2);
    gg[3][j] = g2;
  }
  __global float* out = u + ((size_t)group * POINTS * FG + fl) * CG + c;
  const size_t point_stride = (size_t)FG * CG;
  for (uint i = 0; i < 4; ++i) {
    const float r0 = gg[i][0], r1 = gg[i][1], r2 = gg[i][2];
    out[(i * 4 + 0) * point_stride] = r0;
    out[(i * 4 + 1) * point_stride] = 0.5f * (r0 + r1 + r2);
    out[(i * 4 + 2) * point_stride] = 0.5f * (r0 - r1 + r2);
    out[(i * 4 + 3) * point_stride] = r2;
  }
}

__kernel void winograd_inputs(const uint first, const uint count, const uint group, const uint height, const uint width,
                              const uint tiles_h, const uint tiles_w, const uint in_n, const uint in_c, const uint in_y,
                              const uint in_x, __global const float* in, __global float* v) {
  const size_t tiles = (size_t)count * tiles_h * tiles_w, id = get_global_id(0);
  if (id >= tiles * CG) return;
  const uint c = (uint)(id / tiles);
  const size_t t = id % tiles, per_image = (size_t)tiles_h * tiles_w;
  const uint n = first + (uint)(t / per_image), ty = (uint)((t % per_image) / tiles_w), tx = (uint)(t % tiles_w);
  const int y0 = (int)(2 * ty) - PH, x0 = (int)(2 * tx) - PW;
  const size_t base = (size_t)n * in_n;
  const uint channel = group * CG + c;
  float d[4][4];
  for (uint r = 0; r < 4; ++r)
    for (uint s = 0; s < 4; ++s)
      d[r][s] = tap_value(in, base, channel, y0 + (int)r, x0 + (int)s, in_c, in_y, in_x, height, width);
  float bd[4][4];  // B^T d
  for (uint j = 0; j < 4; ++j) {
    bd[0][j] = d[0][j] - d[2][j];
    bd[1][j] = d[1][j] + d[2][j];
    bd[2][j] = d[2][j] - d[1][j];
    bd[3][j] = d[1][j] - d[3][j];
  }
  __global float* out = v + (size_t)c * tiles + t;
  const size_t point_stride = (size_t)CG * tiles;
  for (uint i = 0; i < 4; ++i) {
    out[(i * 4 + 0) * point_stride] = bd[i][0] - bd[i][2];
    out[(i * 4 + 1) * point_stride] = bd[i][1] + bd[i][2];
    out[(i * 4 + 2) * point_stride] = bd[i][2] - bd[i][1];
    out[(i * 4 + 3) * point_stride] = bd[i][1] - bd[i][3];
  }
}

__kernel void winograd_outputs(const uint first, const uint count, const uint group, const uint out_h, const uint out_w,
                               const uint tiles_h, const uint tiles_w, const uint out_n, const uint out_c,
                               const uint out_y, const uint out_x, __global const float* m, __global const float* bias,
                               __global float* out) {
  const size_t tiles = (size_t)count * tiles_h * tiles_w, id = get_global_id(0);
  if (id >= tiles * FG) return;
  const uint fl = (uint)(id / tiles), filter = group * FG + fl;
  const size_t t = id % tiles, per_image = (size_t)tiles_h * tiles_w;
  const uint n = first + (uint)(t / per_image), ty = (uint)((t % per_image) / tiles_w), tx = (uint)(t % tiles_w);
  __global const float* in = m + (size_t)fl * tiles + t;
  const size_t point_stride = (size_t)FG * tiles;
  float am[2][4];  // A^T M
  for (uint j = 0; j < 4; ++j) {
    const float m0 = in[j * point_stride], m1 = in[(4 + j) * point_stride], m2 = in[(8 + j) * point_stride],
                m3 = in[(12 + j) * point_stride];
    am[0][j] = m0 + m1 + m2;
    am[1][j] = m1 - m2 - m3;
  }
  const size_t base = (size_t)n * out_n + (size_t)filter * out_c;
  for (uint i = 0; i < 2; ++i) {
    const uint oy = 2 * ty + i;
    if (oy >= out_h) break;
    const float y[2] = {am[i][0] + am[i][1] + am[i][2], am[i][1] - am[i][2] - am[i][3]};
    for (uint j = 0; j < 2; ++j) {
      const uint ox = 2 * tx + j;
      if (ox < out_w) out[base + (size_t)oy * out_y + (size_t)ox * out_x] = finish(y[j], bias, filter);
    }
  }
}
