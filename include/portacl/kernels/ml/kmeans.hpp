// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lloyd's k-means on the device: each iteration assigns every point to its
/// nearest centroid (squared Euclidean distance; on a tie, the centroid of
/// the lowest index) and moves every centroid to the mean of its points. A
/// cluster left without points keeps its centroid where it was.
///
/// The points are n x d floats, a row per point (PointLayout::rows: point p's
/// coordinate j at p d + j) or a column per point (PointLayout::columns:
/// at j n + p). The runtime may copy them once into the other layout where
/// the device reads that faster (rule kmeans.layout). Centroids are k x d,
/// row-major.
///
/// Errors, before any launch: k = 0, k > n, d = 0, buffers too small for the
/// shapes, of another context or sharing memory; centroids not given where
/// the initialisation says they are. After an iteration: an inertia that is
/// not finite (NaN or infinite coordinates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

enum class PointLayout {
  rows,     ///< n x d row-major: a row per point
  columns,  ///< d x n row-major: a column per point
};

enum class KmeansInit {
  given,          ///< the centroids buffer holds the starting centroids
  random_points,  ///< k distinct points drawn uniformly
  plus_plus,      ///< k-means++: each next point drawn with probability proportional to its squared distance
                  ///< to the nearest one drawn before
};

struct KmeansOptions {
  KmeansInit init = KmeansInit::plus_plus;
  std::uint64_t seed = 0;  ///< for random_points and plus_plus: the same seed draws the same points
  std::size_t max_iterations = 300;
  /// Stop after an iteration in which at most this many labels changed
  /// (0: only once nothing changes).
  std::size_t changed_tolerance = 0;
  /// Stop after an iteration whose inertia fell by at most this fraction of
  /// the iteration's before (0: not used).
  double inertia_tolerance = 0;
  PointLayout layout = PointLayout::rows;
  PlanOptions plan;
};

struct KmeansResult {
  /// Iterations run; each one assigned the labels and then moved the
  /// centroids, so on return the centroids are the means of the labels'
  /// clusters (empty ones kept).
  std::size_t iterations = 0;
  /// Per iteration: the sum over the points of the squared distance to the
  /// nearest centroid at its assignment. It never rises, up to float
  /// rounding.
  std::vector<double> inertia;
  std::vector<std::size_t> changed;          ///< per iteration: labels that changed (the first: all n)
  std::vector<std::uint32_t> cluster_sizes;  ///< points in each cluster after the last iteration
  bool converged = false;                    ///< stopped by a tolerance, not by max_iterations
  LaunchPlan plan;                           ///< the assignment's: layout, centroids, combine, chunk
};

/// Clusters the n points of `points` (d coordinates each, `options.layout`)
/// into k clusters: `labels` (n ints) gets each point's cluster, `centroids`
/// (k x d) the clusters' means. Blocks until done.
KmeansResult kmeans(Context& ctx, const Buffer<float>& points, std::size_t n, std::size_t d, std::size_t k,
                    Buffer<float>& centroids, Buffer<int>& labels, const KmeansOptions& options = {});

/// The starting centroids `options.init` asks for (random_points,
/// plus_plus; given: nothing to do), as kmeans starts from them: kmeans with
/// init = given from these centroids runs the same iterations.
void kmeans_init(Context& ctx, const Buffer<float>& points, std::size_t n, std::size_t d, std::size_t k,
                 Buffer<float>& centroids, const KmeansOptions& options = {});

}  // namespace portacl
