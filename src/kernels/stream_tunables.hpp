// SPDX-License-Identifier: Apache-2.0
// The stream family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

/// The kernel's one declaration: where it lives and what the rules see.
extern const KernelRef axpy_kernel;
KernelTraits axpy_traits(ElementType element);

/// The family's declaration: where its kernels live and what the rules see.
/// `arrays` is how many arrays of n elements a call reads or writes.
KernelTraits stream_traits(const std::string& kernel, ElementType element, unsigned arrays, double flops_per_item);
KernelRef stream_kernel(const std::string& entry);
/// What the tuner may change in every streaming kernel (AXPY included).
const TuningSpace& stream_tunables();
/// The map kernel for one user expression (checked by the caller), for
/// elements of `element` (float expressions take single-precision literals).
KernelRef map_kernel(const std::string& expression, ElementType element);

}  // namespace portacl
