// SPDX-License-Identifier: Apache-2.0
// The N-body family's declarations for the runtime, the tuner and the
// tests: its kernel's traits (what the rules see) and tuning space (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include "portacl/particles.hpp"
#include "portacl/plan.hpp"
#include "rules/particles_nbody_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The force sum: 20 flops per pair (the customary count), per body; in
/// float or double (`element`).
KernelTraits nbody_traits(ElementType element = ElementType::f32);
/// work-group size (the tile), vector width (the CPU layout's lanes over
/// j), local memory (which layout), UNROLL (the tile loop's unroll; unset,
/// rule particles.nbody-unroll) and BODIES (bodies i per work-item; unset,
/// rule particles.nbody-bodies-per-item).
const TuningSpace& nbody_tunables();

struct Planner;
/// The force sum over `n` bodies for a slice of `count` (count > 0),
/// planned whole by the rules (plan_nbody_launches); planned for all n
/// (the sum's length and order).
NbodyLaunches plan_nbody(const Planner& planner, std::size_t n, std::size_t count, const NbodyOptions& options,
                         ElementType element = ElementType::f32);
/// A leapfrog half over `count` bodies (nbody_half_step).
LaunchPlan plan_nbody_half_step(const Planner& planner, std::size_t count, const NbodyOptions& options,
                                ElementType element = ElementType::f32);

}  // namespace portacl
