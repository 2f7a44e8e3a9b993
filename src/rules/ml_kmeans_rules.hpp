// SPDX-License-Identifier: Apache-2.0
// How Lloyd's k-means is laid out on a device (src/kernels/ml/kmeans.cpp
// carries it out). Each choice records its decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

struct KmeansShape {
  bool columns = false;          ///< the points a column each (copied so where the caller's layout differs)
  bool centroids_local = false;  ///< the centroids staged in local memory
  bool sums_local = false;       ///< the chunk's sums gathered in local memory, else in the work-group's row
  std::size_t slices = 1;        ///< groups of d + 1 work-items sharing the chunk's sums
  bool atomic = false;           ///< rows added into one with atomics, else a row per work-group
  std::size_t points = 1;        ///< points a work-item
  std::size_t block = 1;         ///< centroids compared at a time (a vector of them)
  std::size_t padded_k = 1;      ///< k rounded up to the block: the transposed centroids' lanes
  std::size_t chunk = 1;         ///< points a work-group
  std::size_t groups = 0;        ///< work-groups of the assignment
  /// Rows of partial sums kmeans_update adds up: one with atomics, else a
  /// row per work-group.
  std::size_t rows() const { return atomic ? 1 : groups; }
};

/// The layout of k-means on n points of d coordinates and k clusters under
/// `plan` (the assignment kernel's, tuned knobs from `space`) on `device`:
///   a column per point on GPUs where d > 4, a row per point elsewhere
///   (rule kmeans.layout);
///   the centroids in local memory where the plan uses it and they fit
///   beside the chunk's labels within half of it (kmeans.centroids-local);
///   the chunk's sums by slices of d + 1 work-items in local memory where
///   it is real and they fit, else straight into the work-group's row
///   (kmeans.sums);
///   one row of partial sums per work-group, added up in a fixed order
///   (kmeans.combine);
///   a vector of centroids compared at a time: the SIMD width on CPUs, 8
///   on GPUs (kmeans.block);
///   1 point a work-item unless tuned, fewer where the chunk's labels
///   would not fit the local memory (kmeans.chunk).
/// Sets the plan's grid and macros.
KmeansShape choose_kmeans(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t n,
                          std::size_t d, std::size_t k);

}  // namespace portacl
