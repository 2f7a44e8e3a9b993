// SPDX-License-Identifier: Apache-2.0
// How a k-nearest-neighbour search is laid out on a device
// (src/kernels/ml/knn.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

enum class KnnMethod {
  list,    ///< a work-item per query keeps a sorted list of its k best
  select,  ///< dot products by a matrix product, then a work-group per query selects
};

struct KnnShape {
  KnnMethod method = KnnMethod::select;
  std::size_t tile = 1;       ///< list: training points staged in local memory at a time
  std::size_t list = 1;       ///< select: k rounded up to a power of two, the sorted list's length
  bool list_local = false;    ///< select: the list in local memory, else in global scratch
  bool keys_local = false;    ///< select: a query's keys made once into local memory, else remade each pass
  std::size_t batch = 1;      ///< select: queries a matrix product covers
  std::size_t key_bytes = 4;  ///< a key's bytes: the element's (float 4, double 8)
};

/// The method for `queries` queries against `train` training points of d
/// coordinates, k neighbours, under `plan` (tuned knobs from `space`) on
/// `device`:
///   a matrix product and a radix select a work-group per query on GPUs,
///   where a work-item per query would leave the device idle with a few
///   thousand queries; a sorted list a work-item on CPUs up to k = 64 and d = 16
///   (rule knn.method); the list's training tile as large as half the
///   local memory holds, at most 256 points (knn.list-tile);
///   the selection's list in local memory where it fits half of it, else
///   in global memory (knn.select-list), the products in batches of at
///   most 2^26 (knn.select-list too); a query's keys in local memory where
///   they fit beside the list (knn.select-keys).
/// Sets the plan's macros (COSINE: scores are cosine similarities, else
/// negated squared distances; KEY_BITS: the ordered keys' width, the
/// element's, 32 or 64); the grid is a work-group per query of a
/// batch (grid_of_groups).
KnnShape choose_knn(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t queries,
                    std::size_t train, std::size_t d, std::size_t k, bool cosine);

}  // namespace portacl
