// SPDX-License-Identifier: Apache-2.0
// A GEMM call's plans, made before anything is built: CLBlast or portacl's
// kernels, the register and local-memory tiles (rules/gemm_rules.hpp), and
// for packed operands the packing launches. gemm() prepares and launches
// them; portacl-query shows them for a device description.
#pragma once

#include <cstddef>

#include "planner.hpp"
#include "portacl/blas.hpp"
#include "rules/gemm_rules.hpp"

namespace portacl {

struct GemmPlans {
  LaunchPlan plan;  ///< the multiply (strided gemm, or gemm_tiled over packed panels)
  bool clblast = false;
  GemmShape g{};
  std::size_t m_pad = 0, n_pad = 0, k_pad = 0;  ///< the panels' extents (packed operands)
  LaunchPlan pack_a_plan, pack_b_plan;          ///< packing op(A) and op(B) (packed operands)
};

GemmPlans plan_gemm(const Planner& planner, ElementType element, std::size_t m, std::size_t n, std::size_t k,
                    const GemmOptions& options);

}  // namespace portacl
