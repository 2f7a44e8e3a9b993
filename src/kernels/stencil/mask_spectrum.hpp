// SPDX-License-Identifier: Apache-2.0
// What convolution by FFT keeps with a mask for the last grid it ran the
// mask on (one grid at a time, so a mask holds at most one of each): the
// mask's spectrum and the grid's two transforms, planned by the device's
// rules. Shared by the mask's copies; made under the lock by the first
// call on a new grid, then taken as made.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "portacl/fft.hpp"
#include "portacl/stencil.hpp"

namespace portacl {

template <class T>
struct MaskFft {
  std::shared_ptr<const BasicFft<T>> r2c, c2r;  ///< the grid's transforms
  Buffer<T> spectrum;                           ///< grid rows x (grid cols / 2 + 1) complex values
};

template <class T>
struct ConvolutionMask<T>::Spectrum {
  std::mutex lock;
  std::size_t grid_rows = 0, grid_cols = 0;
  std::optional<MaskFft<T>> kept;
};

struct MaskSpectra {
  /// What `mask` keeps for a grid_rows x grid_cols grid: as kept when the
  /// grid is the same, else make() anew (and kept).
  template <class T>
  static MaskFft<T> of(const ConvolutionMask<T>& mask, std::size_t grid_rows, std::size_t grid_cols,
                       const std::function<MaskFft<T>()>& make) {
    typename ConvolutionMask<T>::Spectrum& s = *mask.spectrum_;
    std::lock_guard<std::mutex> held(s.lock);
    if (!s.kept || s.grid_rows != grid_rows || s.grid_cols != grid_cols) {
      s.kept.reset();  // the old grid's memory goes before the new is made
      s.kept = make();
      s.grid_rows = grid_rows;
      s.grid_cols = grid_cols;
    }
    return *s.kept;
  }
};

}  // namespace portacl
