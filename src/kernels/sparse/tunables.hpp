// SPDX-License-Identifier: Apache-2.0
// The sparse family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "../planner.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

/// The kernels of the SpMV methods share one tuning declaration: work-group
/// size and groups per compute unit. `kernel` names the tuning key
/// ("csr_spmv", "csr_team", "ell_spmv", ...); `barriers` marks kernels that
/// synchronise work-groups.
KernelTraits sparse_kernel_traits(const std::string& kernel, ElementType element, bool barriers = false);
KernelTraits csr_spmv_traits(ElementType element);
/// The plan of the Krylov solvers' vector passes (one device's solver and a
/// row block's split passes alike) over n elements: the "krylov" traits,
/// made whole by krylov_passes_launch (rules/sparse_launch_rules.hpp).
LaunchPlan krylov_pass_plan(Context& ctx, ElementType element, std::size_t n, const PlanOptions& options, bool jacobi);
/// work-group size, groups per compute unit.
const TuningSpace& csr_spmv_tunables();
/// csr-block's: work-group size, groups per compute unit, BLOCK_PER_ITEM
/// (entries staged per work-item) and SEGMENT_UNITS (a long row's piece,
/// in units); unset, rules sparse.block-entries and
/// sparse.long-row-segments decide.
const TuningSpace& csr_block_tunables();
/// csr-merge's: work-group size, groups per compute unit, and IPT (merge
/// items per work-item; unset, rule sparse.merge-path-tiles decides).
const TuningSpace& csr_merge_tunables();

/// The SpMV method for a matrix of `shape` on a device of `device_class`:
/// the rules' choice, or a tuning record's (spmv_method_traits) where the
/// planner finds one. spmv_choice runs it live; portacl-query offline.
SpmvChoice plan_spmv_choice(const Planner& planner, DeviceClass device_class, const SparseShape& shape,
                            ElementType element);

}  // namespace portacl
