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

GemmPlans plan_gemm(const Planner& planner, ElementType element, std::size_t m, std::size_t n, std::size_t k,
                    const GemmOptions& options);

}  // namespace portacl
