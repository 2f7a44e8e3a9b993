// SPDX-License-Identifier: Apache-2.0
// 2D convolution by FFT (src/kernels/stencil/convolution_fft.cpp): the
// image extended by its boundary and the mask, each zero-padded to a
// P0 x P1 grid, go through a real-to-complex transform; the image's
// spectrum times the mask's conjugate, scaled by 1 / (P0 P1), goes back
// through a complex-to-real one, and the output is the grid's top-left
// corner. The kernels here are the pointwise steps around the transforms:
//   conv_fft_extend    grid[y][x] = in[y - ay][x - ax] for y < ext_rows
//                      and x < ext_cols as the boundary reads it (clamped
//                      to the nearest edge cell, or 0 beyond the edge),
//                      0 on the rest of the grid;
//   conv_fft_multiply  spectrum[k] = spectrum[k] conj(mask[k]) scale;
//   conv_fft_crop      out[y][x] = grid[y][x] for the output's cells.
// A work-item per element.
#include "portacl_common.cl"

__kernel void conv_fft_extend(const ulong rows, const ulong cols, const ulong ext_rows, const ulong ext_cols,
                              const ulong grid_rows, const ulong grid_cols, const long ay, const long ax,
                              const uint clamp_edges, __global const T* in, __global T* grid) {
  const ulong id = get_global_id(0);
  if (id >= grid_rows * grid_cols) return;
  const ulong y = id / grid_cols, x = id % grid_cols;
  T v = (T)0;
  if (y < ext_rows && x < ext_cols) {
    long sy = (long)y - ay, sx = (long)x - ax;
    if (clamp_edges) {
      sy = clamp(sy, 0L, (long)rows - 1);
      sx = clamp(sx, 0L, (long)cols - 1);
    }
    if (sy >= 0 && sx >= 0 && sy < (long)rows && sx < (long)cols) v = in[sy * (long)cols + sx];
  }
  grid[id] = v;
}

__kernel void conv_fft_multiply(const ulong values, const T scale, __global T* spectrum, __global const T* mask) {
  const ulong id = get_global_id(0);
  if (id >= values) return;
  const T a = spectrum[2 * id], b = spectrum[2 * id + 1], c = mask[2 * id], d = mask[2 * id + 1];
  spectrum[2 * id] = (a * c + b * d) * scale;
  spectrum[2 * id + 1] = (b * c - a * d) * scale;
}

__kernel void conv_fft_crop(const ulong out_rows, const ulong out_cols, const ulong grid_cols, __global const T* grid,
                            __global T* out) {
  const ulong id = get_global_id(0);
  if (id >= out_rows * out_cols) return;
  out[id] = grid[(id / out_cols) * grid_cols + id % out_cols];
}
