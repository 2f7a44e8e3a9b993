// SPDX-License-Identifier: Apache-2.0
// The gemm family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/blas.hpp"

namespace portacl {

/// The family's declaration: what the rules see, and what may be tuned
/// (work-group size, packing, register block WPT_M x WPT_N per work-item,
/// TS_K-deep slices, vector width, unrolling, local memory or not, and
/// BACKEND: portacl's kernels (0) or CLBlast's Xgemm (1)).
KernelTraits gemm_traits(ElementType element);
const TuningSpace& gemm_tunables();

}  // namespace portacl
