// SPDX-License-Identifier: Apache-2.0
/// \file
/// Normalised cross-correlation (template matching) of a template over an
/// 8-bit or float image, both stored by rows. At every offset (y, x) where
/// the template lies inside the image,
///
///     map[y][x] = sum (I - mean I)(T - mean T) /
///                 sqrt(sum (I - mean I)^2 * sum (T - mean T)^2)
///
/// over the window of the image at (y, x); the map has (rows - template
/// rows + 1) x (cols - template cols + 1) entries in [-1, 1]. For 8-bit
/// images every sum is formed exactly in integers (64-bit where products
/// need it), so the coefficient carries only the final division's
/// rounding. A flat window or a flat template has no defined correlation:
/// its coefficient is 0 (exactly zero variance for 8-bit; for float, a
/// window variance below 1e-12 of its mean square).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct NccOptions {
  /// Force the variant (true: the image block in local memory, false:
  /// through the caches); unset: rule ncc.image-tile.
  std::optional<bool> local_tile;
  /// Offsets of a row per work-item, 1 to 16; unset: a tuned OUTPUTS_X or
  /// rule ncc.outputs-per-work-item.
  std::optional<std::size_t> outputs_per_work_item;
  /// Force the template into constant (true) or global (false) memory;
  /// unset: rule convolution.mask-in-constant.
  std::optional<bool> constant_template;
  PlanOptions plan;
};

/// Where the template matches best: the largest coefficient (the first in
/// row-major order among equals).
struct NccMatch {
  std::size_t row = 0, col = 0;
  float score = 0;
};

/// The map's rows and columns. Errors: a template larger than the image.
std::pair<std::size_t, std::size_t> ncc_map_size(std::size_t rows, std::size_t cols, std::size_t template_rows,
                                                 std::size_t template_cols);

/// A template on the device, prepared once for matching against many
/// images (a video, a stack): checked, its sums formed (exactly, for 8-bit
/// pixels), float pixels centred on their mean, and uploaded here rather
/// than on every call. Errors: an empty template, a pixel count other than
/// rows x cols, a float pixel that is not finite.
template <class P>
class NccTemplate {
  using built = only_for<P, std::uint8_t, float>;

 public:
  NccTemplate(Context& ctx, std::vector<P> pixels, std::size_t rows, std::size_t cols);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  /// What the kernel reads: 8-bit pixels as given, float pixels less their
  /// mean.
  const Buffer<P>& buffer() const { return buffer_; }
  /// 8-bit: S_T and n S_TT - S_T^2, exact; float: 0 and sum (T - mean)^2.
  std::uint64_t sum() const { return sum_; }
  std::uint64_t variance() const { return variance_; }
  double centred_squares() const { return centred_squares_; }

 private:
  std::vector<P> prepared(std::vector<P> pixels);

  std::size_t rows_, cols_;
  std::uint64_t sum_ = 0, variance_ = 0;
  double centred_squares_ = 0;
  Buffer<P> buffer_;
};

/// Fills `map` with the correlation of a prepared template at every
/// offset. Errors, before any launch: a template larger than the image,
/// buffers of the wrong size or another context (the template's too), `map`
/// sharing memory with the image, outputs_per_work_item outside 1 to 16.
template <class P, class = only_for<P, std::uint8_t, float>>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const NccTemplate<P>& templ,
               Buffer<float>& map, const NccOptions& options = {});

/// Fills `map` with the correlation at every offset. `templ` is
/// template_rows x template_cols pixels on the host (it goes to constant
/// memory, or to global memory beyond the device's constant buffer).
/// Errors, before any launch: an empty template or one larger than the
/// image, a pixel count other than template rows x cols, a float template pixel
/// that is not finite, buffers of the wrong size or another context,
/// outputs_per_work_item outside 1 to 16.
template <class P, class = only_for<P, std::uint8_t, float>>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const std::vector<P>& templ,
               std::size_t template_rows, std::size_t template_cols, Buffer<float>& map,
               const NccOptions& options = {});

/// The best match in a map of map_rows x map_cols, found on the device.
NccMatch ncc_best_match(Context& ctx, const Buffer<float>& map, std::size_t map_rows, std::size_t map_cols);

}  // namespace portacl
