// SPDX-License-Identifier: Apache-2.0
// How a reduction's passes are laid out (src/kernels/reduce.cpp carries them
// out): the first pass is the class's plan as it stands (a partial a
// work-group, or a work-item where barrier-free); these complete the rest.
#pragma once

#include <cstddef>

#include "portacl/plan.hpp"

namespace portacl {

/// The partials the first pass under `plan` leaves: one a work-item where
/// the plan is barrier-free or has no local memory, else one a work-group.
std::size_t reduce_partials(const LaunchPlan& plan);

/// The second pass of a two-pass reduction under `first`: one work-group
/// that combines every partial, of the first pass's size (a single
/// work-item where the first pass was per work-item); the passes are
/// decided with the plan (rules general.single-pass-combine and
/// general.two-pass-combine).
LaunchPlan reduce_combine_plan(const LaunchPlan& first);

/// `like`'s build as a single work-item (a root taken on the device after
/// the sum, in order).
LaunchPlan single_work_item(const LaunchPlan& like);

}  // namespace portacl
