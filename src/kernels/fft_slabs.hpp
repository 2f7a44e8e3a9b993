// SPDX-License-Identifier: Apache-2.0
// The all-to-all of a slab-decomposed 3D FFT (fft_group.cpp, and the MPI
// layer's distributed one): a block of planes [p0, p1) of axis 0 and
// columns [c0, c1) of axis 1, every i2, between the planes' layout (i0,
// then i1, then i2 fastest; rows of `cols` columns from column `col0`) and
// the columns' layout (i1 - c0, then i2, then i0 fastest, n0 values a
// column). Complex values, two T each.
#pragma once

#include <algorithm>
#include <cstddef>

namespace portacl {

struct FftSlabBlock {
  std::size_t p0, p1, c0, c1;  ///< the planes and columns the block holds
  std::size_t n0, n2;          ///< the transform's first and last lengths
  std::size_t cols, col0;      ///< the planes' layout: its rows' columns and first column
};

/// Calls copy(plane_offset, column_offset) for each complex value of the
/// block, a tile of 16 values of i0 by 16 of i2 at a time: the planes'
/// side runs along i2, the columns' along i0, so both sides touch whole
/// cache lines (value by value, one side would stride n0 or n2 values).
template <class Copy>
void for_slab_block(const FftSlabBlock& b, Copy&& copy) {
  constexpr std::size_t tile = 16;
  for (std::size_t i1 = b.c0; i1 < b.c1; ++i1)
    for (std::size_t a0 = b.p0; a0 < b.p1; a0 += tile)
      for (std::size_t a2 = 0; a2 < b.n2; a2 += tile)
        for (std::size_t i0 = a0; i0 < std::min(a0 + tile, b.p1); ++i0)
          for (std::size_t i2 = a2; i2 < std::min(a2 + tile, b.n2); ++i2)
            copy(2 * (((i0 - b.p0) * b.cols + (i1 - b.col0)) * b.n2 + i2), 2 * (((i1 - b.c0) * b.n2 + i2) * b.n0 + i0));
}

/// The block from the planes' layout into the columns'.
template <class T>
void slab_block_to_columns(const FftSlabBlock& b, const T* planes, T* columns) {
  for_slab_block(b, [&](std::size_t p, std::size_t c) {
    columns[c] = planes[p];
    columns[c + 1] = planes[p + 1];
  });
}

/// The block from the columns' layout back into the planes'.
template <class T>
void slab_block_to_planes(const FftSlabBlock& b, const T* columns, T* planes) {
  for_slab_block(b, [&](std::size_t p, std::size_t c) {
    planes[p] = columns[c];
    planes[p + 1] = columns[c + 1];
  });
}

}  // namespace portacl
