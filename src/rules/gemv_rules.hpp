// SPDX-License-Identifier: Apache-2.0
// How y = alpha op(A) x + beta y is laid out on a device (src/kernels/gemv.cpp
// carries it out): a team of work-items per row where op(A)'s rows are
// contiguous, else chunks of columns over work-groups added up by a second
// launch. Each choice records its decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// Two kernels, by which index of op(A) is contiguous in memory (each its
/// own tuning key): rows (a team of work-items per row, combined in local
/// memory) or columns (VW rows of y per work-item, chunks of columns spread
/// over work-groups and added up by a second kernel).
enum class GemvPath { rows, columns };

/// A GEMV's launches, whole.
struct GemvLaunches {
  GemvPath path = GemvPath::rows;
  LaunchPlan product;          ///< gemv_dot (rows) or gemv_axpy (columns)
  LaunchPlan combine;          ///< columns with chunks > 1: gemv_combine
  std::size_t team = 0;        ///< rows: work-items a row (TEAM)
  std::size_t row_groups = 0;  ///< columns: work-groups of VW x work-group rows
  std::size_t chunks = 1;      ///< columns: chunks of columns
  std::size_t chunk = 0;       ///< columns: columns a chunk (n, or at least 1, where one chunk)
};

/// The launches of an m x n product (m > 0) under `plan` (the path's
/// kernel's, tuned knobs from `space`) on `device`: rows, a team of TEAM
/// work-items a row (tuned, else rule row_team's width, at most the
/// work-group) and at most a work-group per block of rows; columns, as many
/// chunks of at least 64 columns as reach the plan's work-group count
/// (rule general.grid-stride), combined by a launch over the rows. A tuned
/// TEAM that is not a power of two dividing the work-group is refused.
GemvLaunches plan_gemv_launches(LaunchPlan plan, GemvPath path, const TuningSpace& space, const DeviceInfo& device,
                                std::size_t m, std::size_t n);

}  // namespace portacl
