// SPDX-License-Identifier: Apache-2.0
/// \file
/// How many work-items cooperate on one row or block: the device's
/// sub-group width (NVIDIA's warp of 32, AMD GCN's wavefront of 64, the SIMD
/// lanes of a CPU or MIC core). Kernels that share rows (GEMV's TEAM, TRSV's
/// BLOCK) take their defaults from these rules, never from a device switch of
/// their own.
#pragma once

#include <cstddef>
#include <string>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

namespace portacl {

/// A value a rule chose, with the rule's id and the reasoning for explain().
struct RuleChoice {
  std::size_t value = 1;
  std::string rule;
  std::string why;
};

/// The sub-group a block of unknowns is solved by: warp, wavefront, or the
/// SIMD lanes of `plan`'s element type on CPUs and MIC (8 at least, 16 at most).
RuleChoice sub_group_width(const LaunchPlan& plan, const DeviceInfo& device);

/// Work-items sharing one matrix row: a sub-group on GPUs (it reads the row's
/// consecutive elements together); one on CPUs and MIC, whose work-item walks
/// the row in SIMD vectors.
RuleChoice row_team(const LaunchPlan& plan, const DeviceInfo& device);

/// Work-items sharing a row of a matrix-vector update whose rows are
/// `row_stride` elements apart: one where neighbouring work-items already
/// read neighbouring elements (row_stride 1) or on SIMD devices; else 8, so
/// that a row's elements are read by neighbouring work-items.
RuleChoice update_row_team(const LaunchPlan& plan, std::size_t row_stride, std::size_t work_group);

}  // namespace portacl
