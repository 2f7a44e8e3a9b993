// SPDX-License-Identifier: Apache-2.0
/// \file
/// GEMM's device-dependent choices: each work-item's register block, the
/// depth of the slices staged in local memory, whether to pack the
/// operands first (rule general.pack-large-products), the packed loads'
/// width, and the packing kernel's square. Each records its decision in
/// the plan, with the rule's id and why; a tuned knob replaces the rule.
#pragma once

#include <cstddef>
#include <string>

#include "portacl/device/device_info.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The knobs every GEMM variant reads, for one plan and problem.
struct GemmShape {
  std::size_t wpt_m = 0, wpt_n = 0, ts_k = 0, tile_m = 0, tile_n = 0;
  bool pack = false;
};

/// The shape for an m x n x k product under `plan` on `device`, from the
/// knobs of `tunables` where a record set them, else the rules: GPUs 8 x 4
/// blocks over local-memory slices (the deepest of 32, 16, 8 whose tiles
/// fill at most half the local memory); CPUs a block one SIMD register
/// wide and 8 rows deep (cpu.vector-types); packing from 64^3 multiply-adds
/// on CPUs and MIC, 640^3 on GPUs. Sets the macros WPT_M, WPT_N, TS_K,
/// PACK and, when packed, VEC and UNROLL. Throws when a tuned VEC does not
/// divide the block.
GemmShape choose_gemm_shape(LaunchPlan& plan, const DeviceInfo& device, const TuningSpace& tunables, std::size_t m,
                            std::size_t n, std::size_t k);

/// Records the tiles of C a work-group covers ("tiles", general.cover-problem).
void decide_gemm_tiles(LaunchPlan& plan, const GemmShape& g);

/// Records CLBlast as the backend: the caller's choice or a tuned one.
void decide_gemm_clblast(LaunchPlan& plan, bool caller_asked);

/// The side of the square the packing kernel moves through local memory:
/// 16 x 16 unless the device's work-groups or local memory are smaller.
std::size_t gemm_pack_tile(const DeviceInfo& device, std::size_t element_bytes);

}  // namespace portacl
