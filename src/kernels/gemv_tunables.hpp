// SPDX-License-Identifier: Apache-2.0
// The gemv family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/blas.hpp"

namespace portacl {

/// Two kernels, by which index of op(A) is contiguous in memory (each its
/// own tuning key): rows (a team of work-items per row, combined in local
/// memory) or columns (VW rows of y per work-item, chunks of columns spread
/// over work-groups and added up by a second kernel).
enum class GemvPath { rows, columns };
KernelTraits gemv_traits(ElementType element, GemvPath path);
/// work-group size, vector width (rows path: along a row; columns path: rows
/// of y per work-item), groups per compute unit
/// (columns path: how many chunks), TEAM: work-items per row (rows path;
/// the rules take the sub-group width on GPUs, 1 on CPUs).
const TuningSpace& gemv_tunables();

}  // namespace portacl
