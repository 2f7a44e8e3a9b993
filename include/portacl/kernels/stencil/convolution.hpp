// SPDX-License-Identifier: Apache-2.0
/// \file
/// 1D and 2D convolution of a float or double image with a mask, in the
/// correlation form cuDNN and most imaging libraries use:
///
///     out[y][x] = sum_ij mask[i][j] * in[y + i - ay][x + j - ax]
///
/// with the anchor (ay, ax) = ((mask rows - 1) / 2, (mask cols - 1) / 2)
/// for the `zero` and `clamp` boundaries and (0, 0) for `valid`, whose
/// output is (rows - mask rows + 1) x (cols - mask cols + 1). An impulse
/// therefore gives the mask back mirrored. The mask is prepared once
/// (ConvolutionMask): uploaded, and checked for being separable on request,
/// in which case a 2D convolution runs as two 1D passes.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/stencil/boundary.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// A convolution mask on the device: rows x cols weights by rows (a 1D
/// mask has one row).
template <class T>
class ConvolutionMask {
  using built = only_for<T, float, double>;

 public:
  /// With `detect_separable`, the mask is tested for being an outer product
  /// column x row (within a few roundings of its largest weight); if it is,
  /// convolve2d runs a vertical and a horizontal 1D pass (MR + MC
  /// multiply-adds per output instead of MR x MC). Errors: an empty mask, a
  /// weight count other than rows x cols, a weight that is not finite.
  ConvolutionMask(Context& ctx, std::vector<T> weights, std::size_t rows, std::size_t cols,
                  bool detect_separable = false);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  const std::vector<T>& weights() const { return weights_; }
  const Buffer<T>& buffer() const { return buffer_; }
  /// Set when the mask was found separable: the column (rows x 1) and row
  /// (1 x cols) factors whose outer product is the mask; else null.
  const ConvolutionMask<T>* column_factor() const { return column_.get(); }
  const ConvolutionMask<T>* row_factor() const { return row_.get(); }
  bool separable() const { return column_ != nullptr; }
  Context& context() const { return *ctx_; }

 private:
  Context* ctx_;
  std::vector<T> weights_;
  std::size_t rows_, cols_;
  Buffer<T> buffer_;
  std::shared_ptr<const ConvolutionMask<T>> column_, row_;
};

struct ConvolutionOptions {
  Boundary boundary = Boundary::zero;
  /// Force the variant (true: the tile and its halo in local memory, false:
  /// cache-reliant); unset: rule stencil.tile-beyond-cache, and rule
  /// cpu.large-grain (whole rows per work-item) on CPUs.
  std::optional<bool> local_tile;
  /// Outputs of a row per work-item, 1 to 16; unset: a tuned OUTPUTS_X or
  /// rule convolution.outputs-per-work-item.
  std::optional<std::size_t> outputs_per_work_item;
  /// Output rows per work-item of the cache-reliant variant, 1 to 8; unset:
  /// a tuned OUTPUTS_Y or rule convolution.outputs-per-work-item.
  std::optional<std::size_t> output_rows_per_work_item;
  /// Force the mask into constant (true) or global (false) memory; unset:
  /// rule convolution.mask-in-constant.
  std::optional<bool> constant_mask;
  /// false: one 2D pass even where the mask was found separable.
  bool use_separable = true;
  PlanOptions plan;
};

/// The output's rows and columns for an input of rows x cols: the input's
/// own for `zero` and `clamp`; smaller by the mask less one for `valid`.
/// Errors: a `valid` mask larger than the input.
std::pair<std::size_t, std::size_t> convolution_output_size(std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                                            std::size_t mask_cols, Boundary boundary);

/// out = in convolved with mask, in (rows x cols) and out of the size
/// convolution_output_size gives. Errors, before any launch: buffers of the
/// wrong size or another context, `out` sharing memory with `in`, a `valid`
/// mask larger than the image, outputs_per_work_item outside 1 to 16,
/// output_rows_per_work_item outside 1 to 8.
template <class T, class = only_for<T, float, double>>
LaunchPlan convolve2d(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols,
                      const ConvolutionMask<T>& mask, Buffer<T>& out, const ConvolutionOptions& options = {});

/// The 1D convolution of a length-n signal with a one-row mask.
template <class T, class = only_for<T, float, double>>
LaunchPlan convolve1d(Context& ctx, const Buffer<T>& in, std::size_t n, const ConvolutionMask<T>& mask, Buffer<T>& out,
                      const ConvolutionOptions& options = {});

}  // namespace portacl
