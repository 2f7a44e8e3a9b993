// SPDX-License-Identifier: Apache-2.0
// The N-body family's declarations for the runtime, the tuner and the
// tests: its kernel's traits (what the rules see) and tuning space (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include "portacl/particles.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The force sum: 20 flops per pair (the customary count), per body.
KernelTraits nbody_traits();
/// work-group size (the tile), vector width (the CPU layout's lanes over
/// j), local memory (which layout), UNROLL (the tile loop's unroll; unset,
/// rule particles.nbody-unroll) and BODIES (bodies i per work-item; unset,
/// rule particles.nbody-bodies-per-item).
const TuningSpace& nbody_tunables();

}  // namespace portacl
