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

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The knobs every GEMM variant reads, for one plan and problem.
struct GemmShape {
  std::size_t wpt_m = 0, wpt_n = 0, ts_k = 0, tile_m = 0, tile_n = 0;
  bool pack = false;
  bool prefetch = false;  ///< double-buffered slices (gemm_tiled's PREFETCH)
  /// Packed without local memory (CPUs): gemm_cpu's register block of
  /// explicit vectors (rule cpu.gemm-register-block) instead of gemm_tiled.
  bool cpu_block = false;
};

/// The shape for an m x n x k product under `plan` on `device`, from the
/// knobs of `tunables` where a record set them, else the rules: packing
/// from 64^3 multiply-adds on CPUs and MIC, 640^3 on GPUs
/// (general.pack-large-products); packed on GPUs 8 x 8 blocks on square
/// work-groups over double-buffered slices 8 deep
/// (general.gemm-register-tiles; the plan's local shape may change); strided
/// on GPUs 8 x 4 blocks over local-memory slices (the deepest of 32, 16, 8
/// whose tiles fill at most half the local memory); CPUs a block one SIMD
/// register wide and 8 rows deep (cpu.vector-types), and packed CPUs
/// (cpu.gemm-register-block, gemm_cpu) a work-item a group owning 64 rows
/// by two SIMD registers of columns, in register blocks of 8 rows (32 rows
/// in blocks of 4 below 16 float lanes: fewer vector registers), the depth
/// in slices of 256. Sets the macros
/// WPT_M, WPT_N, TS_K, PACK and, when packed, VEC, UNROLL, PREFETCH (and
/// MR for gemm_cpu).
/// Throws when a tuned VEC does not divide the block, or a tuned PREFETCH
/// asks for double buffers without local memory.
GemmShape choose_gemm_shape(LaunchPlan& plan, const DeviceInfo& device, const TuningSpace& tunables, std::size_t m,
                            std::size_t n, std::size_t k);

/// Records the tiles of C a work-group covers ("tiles", general.cover-problem).
void decide_gemm_tiles(LaunchPlan& plan, const GemmShape& g);

/// Records CLBlast as the backend: the caller's choice or a tuned one.
void decide_gemm_clblast(LaunchPlan& plan, bool caller_asked);

/// The packing kernel's square (tile x tile elements through local
/// memory) and its work-group (tile x rows work-items, tile / rows elements
/// each).
struct GemmPackShape {
  std::size_t tile = 1, rows = 1;
};

/// 32 x 32 squares moved by 32 x 8 work-items, or the largest smaller
/// square (16, 8, ...; rows a quarter of the side) the device's work-groups
/// and local memory allow: wider squares make longer contiguous runs on
/// both sides of the transpose.
GemmPackShape gemm_pack_shape(const DeviceInfo& device, std::size_t element_bytes);

/// A GEMM call's launches.
struct GemmPlans {
  LaunchPlan plan;  ///< the multiply (strided gemm, or gemm_tiled over packed panels)
  bool clblast = false;
  GemmShape g{};
  std::size_t m_pad = 0, n_pad = 0, k_pad = 0;  ///< the panels' extents (packed operands)
  LaunchPlan pack_a_plan, pack_b_plan;          ///< packing op(A) and op(B) (packed operands)
};

/// The launches of an m x n x k product in `l.g`'s shape made whole from
/// the multiply's plan `l.plan`: a work-group per tile of C (recorded), and
/// for packed operands the panels' padded extents and the packing
/// launches (gemm_pack_shape's squares over each panel, PACK_TILE and
/// PACK_ROWS in every plan, so the packing and the multiply share a
/// program).
void gemm_launches(GemmPlans& l, const DeviceInfo& device, std::size_t element_bytes, std::size_t m, std::size_t n,
                   std::size_t k);

}  // namespace portacl
