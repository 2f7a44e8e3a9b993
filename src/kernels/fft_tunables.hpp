// SPDX-License-Identifier: Apache-2.0
// The FFT family's declarations for the runtime, the tuner and the tests:
// its stage kernel's traits (what the rules see), its tuning space (what
// the tuner may change) and the plan of a transform. Tuner plumbing, not
// user API: never installed.
#pragma once

#include "planner.hpp"
#include "portacl/fft.hpp"
#include "portacl/plan.hpp"
#include "rules/fft_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// A stage: a work-group's sequences in local memory, passes behind
/// barriers; a value read and written once a stage.
KernelTraits fft_traits(ElementType element);
/// work-group size: the butterflies a work-group takes a pass (rule
/// fft.slots fits the sequences to it).
const TuningSpace& fft_tunables();

/// The 3D FFT's all-to-all transpose across devices (kernels/fft_slabs.cl):
/// a complex value read and written, a work-item each.
KernelTraits fft_slab_traits(ElementType element);
/// work-group size.
const TuningSpace& fft_slab_tunables();
/// The transpose of `values` complex values: a work-item each.
LaunchPlan plan_fft_slab_transpose(const Planner& planner, ElementType element, std::size_t values);

/// A transform's launches (FftLaunches: src/rules/fft_rules.hpp), planned
/// whole by the rules (plan_fft_launches; stages sized for
/// sizing_device(planner's, options)), each stage's work-group within its
/// compiled kernel's limit.
FftLaunches plan_fft(const Planner& planner, const FftProblem& problem, ElementType element,
                     const PlanOptions& options);

}  // namespace portacl
