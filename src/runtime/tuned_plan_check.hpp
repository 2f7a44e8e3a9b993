// SPDX-License-Identifier: Apache-2.0
// The library's check of a tuned plan at its first use, the one every
// Context uses unless its options name another (ContextOptions::
// tuned_plan_check). The runtime declares it and the tuning layer, the one
// layer that knows every operation's check, defines it
// (src/tuning/tuned_plan_check.cpp): the linker joins the two, nothing is
// installed at static initialisation. Internal (and its tests').
#pragma once

#include <string>

#include "portacl/context.hpp"

namespace portacl {

std::string library_tuned_plan_check(Context& ctx, const LaunchPlan& plan, const ProblemSize& size,
                                     const PlanOptions& options);

}  // namespace portacl
