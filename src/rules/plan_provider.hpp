// SPDX-License-Identifier: Apache-2.0
// The slot through which the tuning database (src/rules/tuning_database.cpp)
// substitutes stored results for the rules' choices, and the generation
// number that tells cached plans when those answers changed. Internal: the
// runtime, the tuning layer and the tests use it; users reach tuning
// through portacl/tuning.hpp and PlanOptions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "portacl/plan.hpp"

namespace portacl {

/// The hook for the tuning database: asked for every plan; an empty result
/// means "use the rules".
using PlanOverrideProvider =
    std::function<std::optional<PlanOverride>(const DeviceInfo&, const KernelTraits&, const ProblemSize&)>;
/// `refresh`, when given, lets the provider notice that its answers changed
/// (a tuning database rewritten on disk) and call plan_inputs_changed().
void set_plan_override_provider(PlanOverrideProvider provider, std::function<void()> refresh = nullptr);
/// A number that changes whenever a plan made earlier may differ from what
/// make_plan would give now (another provider, a reloaded database): plans
/// cached per call shape are reused only while it stays the same. Cheap to
/// ask on every call (the provider's refresh rate-limits itself).
std::uint64_t plan_generation();
void plan_inputs_changed();
bool has_plan_override_provider();
/// What the installed provider answers for this plan (nullopt: none, or no
/// stored result): how a tuned plan's own configuration is re-run when it is
/// checked at first use.
std::optional<PlanOverride> provided_override(const DeviceInfo& device, const KernelTraits& traits,
                                              const ProblemSize& size);

}  // namespace portacl
