// SPDX-License-Identifier: Apache-2.0
/// \file
/// The stencil family: boundaries, 3D star stencils, the 2D heat equation,
/// 2D convolution, normalised cross-correlation, and heat2d over a device group.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/plan.hpp"
#include "portacl/vectors.hpp"

// ---- boundary ----------------------------------------------------------------
/// What a stencil or a convolution reads beyond the edge of its input.
namespace portacl {

/// - `valid`: nothing beyond the edge is read. The input carries its own
///   halo (a pre-padded grid, or a textbook "valid" convolution), so the
///   output is smaller than the input by the halo on each side.
/// - `zero`: cells beyond the edge read as 0; the output has the input's size.
/// - `clamp`: cells beyond the edge read as the nearest edge cell; the
///   output has the input's size.
enum class Boundary { valid, zero, clamp };

/// "valid", "zero" or "clamp".
std::string to_string(Boundary b);

}  // namespace portacl

// ---- stencil3d ---------------------------------------------------------------
/// 3D stencils on an nx x ny x nz grid stored x fastest, then y, then z,
/// float or double.
///
/// - The star stencil of radius R (1 to 4; radius 4 is the 25-point case)
///   with symmetric weights c[0..R]: out = c0 u + sum_r c_r (the six
///   neighbours at distance r along x, y and z).
/// - A general stencil: any set of offsets (dx, dy, dz), each with its own
///   weight, within 8 cells of the centre.
///
/// What is read beyond the grid follows the Boundary: `valid` takes a
/// pre-padded input (its halo as wide as the stencil's reach on every
/// side) and writes the interior, (nx - 2R) x (ny - 2R) x (nz - 2R) for the
/// star; `zero` and `clamp` write a grid of the input's size.
namespace portacl {

/// A grid's extent, x fastest.
struct Extent3 {
  std::size_t nx = 0;                                 ///< cells along x (contiguous)
  std::size_t ny = 0;                                 ///< cells along y
  std::size_t nz = 0;                                 ///< cells along z
  std::size_t cells() const { return nx * ny * nz; }  ///< all of them
};

/// One point of a general stencil: the offset from the output cell and its
/// weight.
template <class T>
struct StencilPoint {
  int dx = 0;  ///< offset along x
  int dy = 0;  ///< offset along y
  int dz = 0;  ///< offset along z
  T weight{};  ///< the point's weight
};

/// How a 3D stencil reads beyond the grid, and which variant runs.
struct Stencil3dOptions {
  Boundary boundary = Boundary::zero;  ///< what is read beyond the grid (above)
  /// Force the variant (true, the star only: each x-y plane in local memory
  /// and the z neighbours in a register queue, marching along z; false:
  /// cache-reliant, one output per work-item, for any stencil); unset: rule
  /// stencil3d.plane-queue, and whole rows per work-item on CPUs (rule
  /// cpu.large-grain).
  std::optional<bool> plane_queue;
  /// Outputs per work-item in y for the plane queue, 1 to 8; unset: a tuned
  /// OUTPUTS_Y or rule stencil3d.outputs-per-work-item.
  std::optional<std::size_t> outputs_y;
  /// Planes each work-group of the plane queue marches through (at least
  /// 1); unset: rule stencil3d.plane-queue. Each chunk first reads the 2R
  /// planes around its start, so short chunks cost reads; long ones leave
  /// fewer work-groups to spread over the device.
  std::optional<std::size_t> z_chunk;
  /// How many plane steps ahead the plane queue issues its loads, 1 to 4;
  /// unset: a tuned PREFETCH_PLANES, else 1. Each step more keeps another
  /// plane's bytes in flight for a few more registers per work-item.
  std::optional<std::size_t> prefetch_planes;
  PlanOptions plan;  ///< for the stencil's launches
};

/// The output's extent for an input of `in` and a stencil reaching `reach`
/// cells from the centre: the input's own, or smaller by 2 x reach for
/// `valid`. Errors: a `valid` input not larger than twice the reach.
Extent3 stencil3d_output_extent(Extent3 in, std::size_t reach, Boundary boundary);

/// The star's weights c[0..R] on the device, prepared once for repeated
/// calls (a time-stepping loop): checked and uploaded here, not on every
/// call. Errors: fewer than 2 or more than 5 weights (R from 1 to 4), a
/// weight that is not finite.
template <class T>
class StarWeights {
  using built = only_for<T, float, double>;

 public:
  /// c[0..R] checked and uploaded to ctx's device.
  StarWeights(Context& ctx, std::vector<T> weights);

  std::size_t radius() const { return weights_.size() - 1; }  ///< R
  const std::vector<T>& weights() const { return weights_; }  ///< c[0..R]
  const Buffer<T>& buffer() const { return buffer_; }         ///< c[0..R] on the device

 private:
  std::vector<T> weights_;
  Buffer<T> buffer_;
};

/// The star stencil of radius R with prepared weights. Errors, before any
/// launch: buffers of the wrong size or another context (the weights'
/// too), `out` sharing memory with `in`, outputs_y outside 1 to 8, a
/// z_chunk of 0.
template <class T, class = only_for<T, float, double>>
LaunchPlan star_stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const StarWeights<T>& weights,
                          Buffer<T>& out, const Stencil3dOptions& options = {});

/// The same with weights c[0..R] given on the host, R = weights.size() - 1
/// from 1 to 4, uploaded for this call. Errors: those of StarWeights and
/// of the call above.
template <class T, class = only_for<T, float, double>>
LaunchPlan star_stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const std::vector<T>& weights,
                          Buffer<T>& out, const Stencil3dOptions& options = {});

/// A general stencil's points on the device, prepared once for repeated
/// calls: checked, and their weights uploaded, here. Its reach (for
/// `valid`) is the largest |offset|. Errors: no points, an offset beyond 8
/// cells, two points at one offset, a weight that is not finite.
template <class T>
class StencilPoints {
  using built = only_for<T, float, double>;

 public:
  /// The points checked and uploaded to ctx's device.
  StencilPoints(Context& ctx, std::vector<StencilPoint<T>> points);

  std::size_t reach() const { return reach_; }                            ///< the largest |offset| along any axis
  const std::vector<StencilPoint<T>>& points() const { return points_; }  ///< as given
  const Buffer<T>& buffer() const { return buffer_; }                     ///< the points on the device

 private:
  std::vector<StencilPoint<T>> points_;
  std::size_t reach_ = 0;
  Buffer<T> buffer_;
};

/// The general stencil with prepared points. Errors, before any launch:
/// points of another context, plane_queue forced on (the star's only), and
/// the buffer errors above.
template <class T, class = only_for<T, float, double>>
LaunchPlan stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const StencilPoints<T>& points, Buffer<T>& out,
                     const Stencil3dOptions& options = {});

/// The same with the points given on the host, uploaded for this call.
/// Errors: those of StencilPoints and of the call above.
template <class T, class = only_for<T, float, double>>
LaunchPlan stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const std::vector<StencilPoint<T>>& points,
                     Buffer<T>& out, const Stencil3dOptions& options = {});

}  // namespace portacl

// ---- heat2d ------------------------------------------------------------------
/// The 2D heat equation, explicit in time: u' = u + r (uN + uS + uE + uW -
/// 4u) on a rows x cols grid stored by rows, float or double, many steps per
/// call in ping-pong buffers. The edge cells are the boundary: kept from
/// the initial field, or set to fixed values per side. r above 1/4 (the
/// scheme's stability limit) is refused.
namespace portacl {

/// Fixed values for the four sides: row 0 (north), the last row (south),
/// then column 0 (west) and the last column (east) on the rows between.
template <class T>
struct HeatSides {
  T north{};  ///< row 0
  T south{};  ///< the last row
  T west{};   ///< column 0, between them
  T east{};   ///< the last column, between them
};

/// The 2D heat equation's steps, sides and variant.
template <class T>
struct HeatOptions {
  T r = T(0.25);          ///< diffusion number dt alpha / h^2, at most 1/4
  std::size_t steps = 1;  ///< at least 1
  /// Unset: the edges of the initial field are kept.
  std::optional<HeatSides<T>> sides;
  /// When set, called after every `output_every` steps with the step count
  /// and the field then (a buffer of the call's, valid during the callback).
  std::size_t output_every = 0;
  std::function<void(std::size_t step, const Buffer<T>& field)> on_output;  ///< see output_every
  /// Force the variant (true: local-memory tile, false: cache-reliant);
  /// unset: rule stencil.tile-beyond-cache, and whole rows per work-item
  /// on CPUs (rule cpu.large-grain).
  std::optional<bool> local_tile;
  /// Steps per launch (temporal blocking: a tile with a halo as wide as
  /// the steps, stepped in local memory), 1 to 16; unset: rule
  /// stencil.temporal-blocking or a tuned STEPS_PER_LAUNCH.
  std::optional<std::size_t> steps_per_launch;
  /// Cells of a row per work-item in the cache-reliant step, 1 to 8 (2, 4
  /// and 8 load aligned vectors where cols is a multiple); unset: rule
  /// stencil.cells-per-work-item or a tuned CELLS_X.
  std::optional<std::size_t> cells_x;
  /// Cells of a column per work-item in the temporal-blocking tile: 1, 2,
  /// 4, 8 or 16 (it divides the tile's height); unset: rule
  /// stencil.temporal-strip or a tuned CELLS_Y.
  std::optional<std::size_t> cells_y;
  PlanOptions plan;  ///< for the steps' launches
};

/// Advances `u` (rows x cols) by options.steps steps, in place. The second
/// grid of the ping-pong is the context's scratch memory (kept for the next
/// call: a grid's worth of device memory stays with the context); a call
/// with on_output makes its own, so the callback may call heat2d. Errors,
/// before any launch: r above 1/4 or negative or not a number, zero steps,
/// a buffer that does not hold rows x cols elements or belongs to another
/// context, output_every without a callback, cells_x or cells_y out of
/// range (cells_y not a power of two up to 16).
template <class T, class = only_for<T, float, double>>
LaunchPlan heat2d(Context& ctx, Buffer<T>& u, std::size_t rows, std::size_t cols, const HeatOptions<T>& options);

}  // namespace portacl

// ---- convolution -------------------------------------------------------------
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

  std::size_t rows() const { return rows_; }                  ///< MR
  std::size_t cols() const { return cols_; }                  ///< MC
  const std::vector<T>& weights() const { return weights_; }  ///< rows x cols, by rows
  const Buffer<T>& buffer() const { return buffer_; }         ///< the weights on the device
  /// Set when the mask was found separable: the column (rows x 1) and row
  /// (1 x cols) factors whose outer product is the mask; else null.
  const ConvolutionMask<T>* column_factor() const { return column_.get(); }
  const ConvolutionMask<T>* row_factor() const { return row_.get(); }  ///< see column_factor
  bool separable() const { return column_ != nullptr; }                ///< whether the factors are set
  Context& context() const { return *ctx_; }                           ///< whose device holds it

 private:
  /// Convolution by FFT keeps the mask's spectrum for the last grid it ran
  /// on here (src/kernels/stencil/mask_spectrum.hpp), shared by copies.
  friend struct MaskSpectra;
  struct Spectrum;
  Context* ctx_;
  std::vector<T> weights_;
  std::size_t rows_, cols_;
  Buffer<T> buffer_;
  std::shared_ptr<const ConvolutionMask<T>> column_, row_;
  std::shared_ptr<Spectrum> spectrum_;
};

/// How a 2D convolution reads beyond the image, and which variant runs.
struct ConvolutionOptions {
  Boundary boundary = Boundary::zero;  ///< what is read beyond the image (above)
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
  /// Force the algorithm (true: by FFT, two real-to-complex transforms, a
  /// product and a complex-to-real one over a zero-padded grid; false:
  /// directly); unset: rule convolution.fft, which takes the FFT for large
  /// masks. A separable mask runs in two direct passes unless forced.
  std::optional<bool> fft;
  PlanOptions plan;  ///< for the passes' launches
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

// ---- ncc ---------------------------------------------------------------------
/// Normalised cross-correlation (template matching) of a template over an
/// 8-bit, float or double image (double on a device with fp64), both
/// stored by rows; the map is float either way. At every offset (y, x) where
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
/// its coefficient is 0 (exactly zero variance for 8-bit; for float and
/// double, a window variance below 1e-12 of its mean square).
namespace portacl {

/// Which NCC variant runs.
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
  PlanOptions plan;  ///< for the map's launch
};

/// Where the template matches best: the largest coefficient (the first in
/// row-major order among equals).
struct NccMatch {
  std::size_t row = 0;  ///< the offset's row in the map
  std::size_t col = 0;  ///< its column
  float score = 0;      ///< the coefficient there, -1 to 1
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
  using built = only_for<P, std::uint8_t, float, double>;

 public:
  /// `pixels` (rows x cols, by rows) checked, summed and uploaded.
  NccTemplate(Context& ctx, std::vector<P> pixels, std::size_t rows, std::size_t cols);

  std::size_t rows() const { return rows_; }  ///< its rows
  std::size_t cols() const { return cols_; }  ///< its columns
  /// What the kernel reads: 8-bit pixels as given, float pixels less their
  /// mean.
  const Buffer<P>& buffer() const { return buffer_; }
  /// 8-bit: S_T and n S_TT - S_T^2, exact; float: 0 and sum (T - mean)^2.
  std::uint64_t sum() const { return sum_; }
  std::uint64_t variance() const { return variance_; }         ///< 8-bit: n S_TT - S_T^2; float: 0
  double centred_squares() const { return centred_squares_; }  ///< float: sum (T - mean)^2; 8-bit: 0

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
template <class P, class = only_for<P, std::uint8_t, float, double>>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const NccTemplate<P>& templ,
               Buffer<float>& map, const NccOptions& options = {});

/// Fills `map` with the correlation at every offset. `templ` is
/// template_rows x template_cols pixels on the host (it goes to constant
/// memory, or to global memory beyond the device's constant buffer).
/// Errors, before any launch: an empty template or one larger than the
/// image, a pixel count other than template rows x cols, a float template pixel
/// that is not finite, buffers of the wrong size or another context,
/// outputs_per_work_item outside 1 to 16.
template <class P, class = only_for<P, std::uint8_t, float, double>>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const std::vector<P>& templ,
               std::size_t template_rows, std::size_t template_cols, Buffer<float>& map,
               const NccOptions& options = {});

/// The best match in a map of map_rows x map_cols, found on the device.
NccMatch ncc_best_match(Context& ctx, const Buffer<float>& map, std::size_t map_rows, std::size_t map_cols);

}  // namespace portacl

// ---- group heat2d ------------------------------------------------------------
/// The 2D heat equation (heat2d.hpp) on a device group: the grid's rows cut
/// into slabs by the group's split (rule group.split), each member stepping
/// its slab with k ghost rows on each side that has a neighbour, and the
/// ghosts exchanged every k steps (rule group.halo-width) through pinned
/// host memory. The exchange overlaps the slab's step: each member first
/// steps two thin bands (its k edge rows with 2k rows around them, copies),
/// starts reading their edge rows back on a second queue, then steps its
/// whole slab while they travel.
///
/// Results: bit for bit those of heat2d on one device. Every variant of the
/// step computes a cell by the same expression (an explicit fma), and a
/// ghost row is never used once it is stale.
namespace portacl {

/// The 2D heat equation split by rows over a device group (above).
template <class T>
class GroupHeat2d {
  using built = only_for<T, float, double>;

 public:
  /// `field` (rows x cols, by rows) split over `group` by its weights.
  /// `halo_rows`: ghost rows a side, 1 to the thinnest slab's rows; unset:
  /// rule group.halo-width. Errors: a field that is not rows x cols, a
  /// halo_rows of 0 or more than the thinnest slab holds.
  GroupHeat2d(DeviceGroup& group, const std::vector<T>& field, std::size_t rows, std::size_t cols,
              std::optional<std::size_t> halo_rows = std::nullopt);
  ~GroupHeat2d();
  GroupHeat2d(const GroupHeat2d&) = delete;
  GroupHeat2d& operator=(const GroupHeat2d&) = delete;

  /// Advances the field by options.steps steps, as heat2d would, with
  /// heat2d's errors. Fixed sides are set once, through the host (a read
  /// and a write of each slab). options.on_output is refused (download()
  /// between calls instead); the tuning options apply to every slab.
  void advance(const HeatOptions<T>& options);
  /// The whole field, rows x cols.
  std::vector<T> download() const;
  /// Ghost rows a side, the slabs, and why.
  std::size_t halo_rows() const;
  /// A line a slab (its member, rows and ghost rows), then why the halo width.
  std::string describe() const;
  /// Seconds in the ghost exchange: from the moment every band had stepped
  /// to the moment every ghost row was written, summed over calls (the
  /// slabs step meanwhile, hiding part of it).
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
