// SPDX-License-Identifier: Apache-2.0
// A convolution mask's spectrum, kept with the mask for the last grid that
// convolution by FFT ran it on (one grid at a time, so a mask holds at
// most one spectrum), and shared by the mask's copies. Made under the lock
// by the first call on a new grid; later calls take the buffer as made.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>

#include "portacl/stencil.hpp"

namespace portacl {

template <class T>
struct ConvolutionMask<T>::Spectrum {
  std::mutex lock;
  std::size_t grid_rows = 0, grid_cols = 0;
  std::optional<Buffer<T>> values;  ///< grid_rows x (grid_cols / 2 + 1) complex values
};

struct MaskSpectra {
  /// The spectrum of `mask` over a grid_rows x grid_cols grid: the kept one
  /// when the grid is the same, else make(buffer) fills a new one.
  template <class T>
  static Buffer<T> of(const ConvolutionMask<T>& mask, std::size_t grid_rows, std::size_t grid_cols,
                      const std::function<void(Buffer<T>&)>& make) {
    typename ConvolutionMask<T>::Spectrum& s = *mask.spectrum_;
    std::lock_guard<std::mutex> held(s.lock);
    if (!s.values || s.grid_rows != grid_rows || s.grid_cols != grid_cols) {
      s.values.reset();
      Buffer<T> fresh(mask.context(), 2 * grid_rows * (grid_cols / 2 + 1));
      make(fresh);
      s.values = fresh;
      s.grid_rows = grid_rows;
      s.grid_cols = grid_cols;
    }
    return *s.values;
  }
};

}  // namespace portacl
