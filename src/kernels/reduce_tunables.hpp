// SPDX-License-Identifier: Apache-2.0
// The reduce family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

/// The family's declaration: what the rules see for a reduction that reads
/// `inputs` arrays and accumulates `state_bytes` per partial result.
KernelTraits reduce_traits(const std::string& kernel, ElementType element, unsigned inputs, std::size_t state_bytes,
                           bool vectorizable, double flops_per_item);
/// What the tuner may change in every reduction.
const TuningSpace& reduce_tunables();

}  // namespace portacl
