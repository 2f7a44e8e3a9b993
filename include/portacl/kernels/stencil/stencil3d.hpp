// SPDX-License-Identifier: Apache-2.0
/// \file
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
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/stencil/boundary.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

/// A grid's extent, x fastest.
struct Extent3 {
  std::size_t nx = 0, ny = 0, nz = 0;
  std::size_t cells() const { return nx * ny * nz; }
};

/// One point of a general stencil: the offset from the output cell and its
/// weight.
template <class T>
struct StencilPoint {
  int dx = 0, dy = 0, dz = 0;
  T weight{};
};

struct Stencil3dOptions {
  Boundary boundary = Boundary::zero;
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
  PlanOptions plan;
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
  StarWeights(Context& ctx, std::vector<T> weights);

  std::size_t radius() const { return weights_.size() - 1; }
  const std::vector<T>& weights() const { return weights_; }
  const Buffer<T>& buffer() const { return buffer_; }

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
  StencilPoints(Context& ctx, std::vector<StencilPoint<T>> points);

  std::size_t reach() const { return reach_; }
  const std::vector<StencilPoint<T>>& points() const { return points_; }
  const Buffer<T>& buffer() const { return buffer_; }

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
