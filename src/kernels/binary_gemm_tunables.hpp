// SPDX-License-Identifier: Apache-2.0
// The binary GEMM family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning space (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <cstddef>

#include "planner.hpp"
#include "portacl/blas.hpp"
#include "portacl/plan.hpp"
#include "rules/binary_gemm_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The product's traits: 32-bit words, local-memory tiles with a
/// barrier-free variant (rows of C).
KernelTraits binary_gemm_traits();
/// The packing and unpacking passes: a word or an element a work-item.
KernelTraits sign_packing_traits();
/// Tile shape (RM, RN, SLICE) for the tiles, COLUMNS for the rows, the
/// vector width of the rows' words, local memory or not.
const TuningSpace& binary_gemm_tunables();

/// The product's plan for C (m x n): the variant and its shape, the grid
/// and the macros (rules/binary_gemm_rules). The entry point is
/// "bgemm_tiles" or "bgemm_rows" as shape.tiles says.
struct BinaryGemmLaunch {
  BinaryGemmShape shape;
  LaunchPlan plan;
  const char* entry = "";
};
BinaryGemmLaunch plan_binary_gemm(const Planner& planner, std::size_t m, std::size_t n);

}  // namespace portacl
