// SPDX-License-Identifier: Apache-2.0
/// \file
/// How a launch covers its problem, recorded in the plan with its rule:
/// GEMV's chunks of columns and packed SYMV's blocks (rule
/// general.grid-stride), TRSV's launches (general.cover-problem) and the
/// single-pass scan (general.single-pass-combine). The kernels compute
/// the geometry; these say which rule it follows and why. cover_items
/// makes the grid itself.
#pragma once

#include <cstddef>
#include <string>

#include "portacl/plan.hpp"

namespace portacl {

void decide_gemv_chunks(LaunchPlan& plan, std::size_t chunks, std::size_t columns_per_chunk, std::size_t row_groups);
void decide_packed_symv_blocks(LaunchPlan& plan, std::size_t blocks, std::size_t block);
void decide_trsv_launches(LaunchPlan& plan, std::size_t launches, std::size_t block);
void decide_single_pass_scan(LaunchPlan& plan, std::size_t per_work_item, std::size_t tile);
/// The grid of a pass that gives each work-item `per_work_item` of `items`
/// (`what`: "particles", "bonds", ...): just enough work-groups of the
/// plan's size to cover every one once (rule general.cover-problem).
/// Sets work_groups, global and items_per_work_item.
void cover_items(LaunchPlan& plan, std::size_t items, std::size_t per_work_item, const std::string& what);
/// An elementwise pass's plan: `like`'s work-group size and build, a
/// work-item per item (at least one work-group), no decision of its own.
LaunchPlan one_per_item(const LaunchPlan& like, std::size_t items);
/// A 2D launch of `x` x `y` work-items, each rounded up to the plan's
/// work-group: sets global and work_groups (geometry, no decision).
void cover_2d(LaunchPlan& plan, std::size_t x, std::size_t y);
/// A 1D launch of `groups` work-groups (at least one) of the plan's
/// work-group size: sets work_groups and global (geometry, no decision).
void grid_of_groups(LaunchPlan& plan, std::size_t groups);
/// Work-groups of one work-item: the local shape 1 x 1 x 1 and the macros
/// that state it (WG_SIZE, WG_X, WG_Y, WG_Z), for forms where a work-item
/// may wait for another group but never for one of its own (geometry, no
/// decision; the grid is the caller's).
void groups_of_one(LaunchPlan& plan);
/// A 2D launch repeated over `batch` problems: a third dimension of
/// `batch` work-items, one per work-group.
void over_batch(LaunchPlan& plan, std::size_t batch);
/// A pass built with `from`'s macros too (the same compiled-in geometry),
/// its own taking precedence.
void share_build(LaunchPlan& plan, const LaunchPlan& from);

}  // namespace portacl
