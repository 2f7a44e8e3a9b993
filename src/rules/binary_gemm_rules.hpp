// SPDX-License-Identifier: Apache-2.0
// How a binary matrix product is laid out on a device
// (src/kernels/binary_gemm.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

struct BinaryGemmShape {
  bool tiles = false;       ///< local-memory tiles (GPUs), else a row of C and a block of columns a work-item
  std::size_t rm = 1;       ///< tiles: rows of C a work-item
  std::size_t rn = 1;       ///< tiles: columns of C a work-item
  std::size_t slice = 1;    ///< tiles: words of K staged in local memory at a time
  std::size_t columns = 1;  ///< rows: columns of C a work-item
};

/// The layout of C = A B (m x n) under `plan` (tuned knobs from `space`):
///   plans with local memory and barriers (GPUs): work-groups of 16 x 16
///   (fewer rows where the plan's work-group is smaller) computing 4 x 4
///   outputs each, slices of 8 words of K in local memory (rule
///   binary-gemm.tiles);
///   barrier-free plans (CPUs, Xeon Phi): a row of C and 8 columns a
///   work-item, the row's words walked in the plan's vectors (rule
///   binary-gemm.rows).
/// Sets the plan's work-group shape, grid and macros.
BinaryGemmShape choose_binary_gemm(LaunchPlan& plan, const TuningSpace& space, std::size_t m, std::size_t n);

}  // namespace portacl
