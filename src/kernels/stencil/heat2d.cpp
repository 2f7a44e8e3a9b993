// SPDX-License-Identifier: Apache-2.0
#include "portacl/stencil.hpp"

#include <cmath>
#include <mutex>
#include <optional>
#include <utility>

#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "rules/stencil_rules.hpp"
#include "../kernel_call.hpp"
#include "stencil_traits.hpp"
#include "whole_rows_plan.hpp"
#include "plans.hpp"
#include "kernels/stencil/tunables.hpp"
#include "kernels/stencil/heat2d_steps.hpp"

namespace portacl {

KernelTraits heat2d_traits(ElementType element) {
  // Each cell read and written once per step; the tile and its halo: a little over one element per work-item.
  return stencil_family_traits("heat2d", element, 2.0 * static_cast<double>(size_of(element)), 6, 2 * size_of(element),
                               heat2d_tunables());
}

const TuningSpace& heat2d_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::use_local_memory(),
       {"STEPS_PER_LAUNCH", {1, 2, 4, 8}, std::nullopt, "steps per launch (temporal blocking; 1: one step per launch)"},
       {"CELLS_X", {1, 2, 4, 8}, std::nullopt, "cells of a row per work-item in the cache-reliant step"},
       {"CELLS_Y", {1, 2, 4, 8, 16}, std::nullopt, "cells of a column per work-item in the temporal tile"}},
      nullptr};
  return space;
}

namespace {

// The fixed sides' launch: one work-item per edge cell, a 1D plan of its
// own (the rules' shape for `perimeter` units).
LaunchPlan edge_plan(const Planner& planner, const LaunchPlan& step, std::size_t perimeter) {
  KernelTraits traits = step.traits;
  traits.dimensions = 1;
  traits.name = "heat2d_edges";
  return planner.plan(traits, ProblemSize(perimeter));
}

}  // namespace

template <class T>
HeatLaunches plan_heat2d(const Planner& planner, std::size_t rows, std::size_t cols, const HeatOptions<T>& o) {
  HeatLaunches l;
  const KernelTraits traits = heat2d_traits(element_of<T>::value);
  LaunchPlan plan = planner.plan(traits, ProblemSize(std::max<std::size_t>(cols, 1), std::max<std::size_t>(rows, 1)));
  const std::size_t cells = rows * cols;
  if (cells == 0) {
    l.step = plan;
    return l;
  }
  // Rule stencil.tile-beyond-cache: the tile pays only where the two grids
  // overflow the cache.
  const std::uint64_t bytes = 2ull * cells * sizeof(T);
  const bool tiled = stencil_uses_tile(plan, planner.device, bytes, o.local_tile);
  // The cache-reliant step updates CELLS_X cells of a row per work-item:
  // the caller's, a tuned value, or rule stencil.cells-per-work-item.
  const std::size_t cells_x =
      tiled ? 1
            : caller_tuned_or_rule(plan, "cells_per_work_item", o.cells_x, heat2d_tunables(), "CELLS_X",
                                   heat_cells_per_work_item(plan.device_class, cols, sizeof(T)));
  const bool row_vectors = heat_step_launch(plan, rows, cols, cells_x, tiled);
  // CPUs: whole rows per work-item (rule cpu.large-grain), a 1D launch.
  if (!o.local_tile && stencil_walks_rows(plan, tiled)) {
    l.step = whole_rows_plan(planner, plan, "heat2d_rows", rows, "whole rows per work-item");
    l.step_entry = "heat_rows";
  } else {
    l.step = plan;
    l.step_entry = tiled ? "heat_tiled" : row_vectors ? "heat_vectors" : "heat_cached";
  }
  if (o.sides) {
    // The perimeter is a 1D launch of its own: the step's plan covers a
    // row with ceil(cols / cells_x) work-items and cannot address every edge cell.
    const std::size_t inner = rows > 2 ? rows - 2 : 0;
    const std::size_t perimeter = (rows > 1 ? 2 * cols : cols) + (cols > 1 ? 2 : 1) * inner;
    l.edges = edge_plan(planner, plan, perimeter);
  }
  // Steps per launch: the caller's, a tuned value, or rule
  // stencil.temporal-blocking.
  l.per_launch =
      caller_tuned_or_rule(plan, "steps_per_launch", o.steps_per_launch, heat2d_tunables(), "STEPS_PER_LAUNCH",
                           heat_steps_per_launch(plan, planner.device, bytes, o.local_tile.has_value()));
  if (l.per_launch > 1) {
    // Cells of a column per work-item: the caller's, a tuned value, or rule
    // stencil.temporal-strip; then the largest tile the device and the
    // kernel compiled for it allow.
    const std::size_t cells_y = caller_tuned_or_rule(plan, "temporal_cells_y", o.cells_y, heat2d_tunables(), "CELLS_Y",
                                                     heat_temporal_strip(plan.device_class));
    const KernelRef temporal{"stencil_heat2d.cl", "heat_temporal", ""};
    const HeatTileChoice choice =
        heat_temporal_tile(planner.device, l.per_launch, cells_y, sizeof(T), [&](const HeatTile& tile) {
          return planner.compiled_limit(temporal, heat_temporal_launch(plan, rows, cols, l.per_launch, tile));
        });
    if (!choice.tile)
      throw Error("heat2d: no work-group shape fits " + std::to_string(l.per_launch) + " steps per launch on '" +
                  planner.device.name + "'" + (choice.refused.empty() ? "" : ": " + choice.refused));
    l.temporal = heat_temporal_launch(plan, rows, cols, l.per_launch, *choice.tile);
  }
  return l;
}

template HeatLaunches plan_heat2d<float>(const Planner&, std::size_t, std::size_t, const HeatOptions<float>&);
template HeatLaunches plan_heat2d<double>(const Planner&, std::size_t, std::size_t, const HeatOptions<double>&);

namespace {

// heat2d's checks of the field and the options: before any work (the
// second grid included). Returns the grid's cells.
template <class T>
std::size_t check_heat2d(Context& ctx, const Buffer<T>& u, std::size_t rows, std::size_t cols,
                         const HeatOptions<T>& o) {
  kernel_call::same_context(ctx, u, "heat2d", "u");
  const std::size_t cells = checked_product(rows, cols, "heat2d: rows x cols");
  if (u.size() != cells)
    throw Error("heat2d: u has " + std::to_string(u.size()) + " elements but the grid is " + std::to_string(rows) +
                " x " + std::to_string(cols) + " = " + std::to_string(cells));
  if (!(o.r >= T(0)) || !std::isfinite(double(o.r)))
    throw Error("heat2d: r must be a finite number >= 0, not " + std::to_string(double(o.r)));
  if (o.r > T(0.25))
    throw Error("heat2d: r = " + std::to_string(double(o.r)) +
                " is above the explicit scheme's stability limit r <= 1/4 (a larger r makes the field oscillate and "
                "grow)");
  if (o.steps == 0) throw Error("heat2d: zero steps asked for");
  if (o.output_every && !o.on_output) throw Error("heat2d: output_every is set but no on_output callback is");
  if (o.steps_per_launch && (*o.steps_per_launch < 1 || *o.steps_per_launch > 16))
    throw Error("heat2d: steps_per_launch must be 1 to 16, not " + std::to_string(*o.steps_per_launch));
  if (o.cells_x && (*o.cells_x < 1 || *o.cells_x > 8))
    throw Error("heat2d: cells_x must be 1 to 8, not " + std::to_string(*o.cells_x));
  if (o.cells_y && (*o.cells_y < 1 || *o.cells_y > 16 || (*o.cells_y & (*o.cells_y - 1)) != 0))
    throw Error("heat2d: cells_y must be 1, 2, 4, 8 or 16 (it divides the tile's height), not " +
                std::to_string(*o.cells_y));
  return cells;
}

}  // namespace

template <class T>
HeatStepsDone<T> heat2d_steps(Context& ctx, Buffer<T>& u, Buffer<T>& scratch, std::size_t rows, std::size_t cols,
                              const HeatOptions<T>& o) {
  const std::size_t cells = check_heat2d(ctx, u, rows, cols, o);
  kernel_call::same_context(ctx, scratch, "heat2d", "its second grid");
  if (scratch.size() != cells)
    throw Error("heat2d: its second grid has " + std::to_string(scratch.size()) + " elements, not " +
                std::to_string(cells));

  const HeatLaunches l = plan_heat2d(live_planner(ctx, o.plan), rows, cols, o);
  if (cells == 0) return {&u, l.step};
  const PreparedKernel step = ctx.prepare(KernelRef{"stencil_heat2d.cl", l.step_entry, ""}, l.step);
  if (l.edges) {
    const PreparedKernel edges = ctx.prepare(KernelRef{"stencil_heat2d.cl", "heat_edges", ""}, *l.edges);
    kernel_call::launch(ctx, edges, static_cast<cl_ulong>(rows), static_cast<cl_ulong>(cols), o.sides->north,
                        o.sides->south, o.sides->west, o.sides->east, u);
  }
  const std::size_t per_launch = l.per_launch;
  std::optional<PreparedKernel> blocked;
  if (l.temporal) blocked = ctx.prepare(KernelRef{"stencil_heat2d.cl", "heat_temporal", ""}, *l.temporal);
  Buffer<T>* current = &u;
  Buffer<T>* next = &scratch;
  for (std::size_t s = 0; s < o.steps;) {
    // A launch never crosses an output step.
    const std::size_t stop = o.output_every ? std::min(o.steps, (s / o.output_every + 1) * o.output_every) : o.steps;
    const bool many = blocked && s + per_launch <= stop;
    kernel_call::launch(ctx, many ? *blocked : step, static_cast<cl_ulong>(rows), static_cast<cl_ulong>(cols), o.r,
                        *current, *next);
    std::swap(current, next);
    s += many ? per_launch : 1;
    if (o.output_every && s % o.output_every == 0) o.on_output(s, *current);
  }
  return {current, blocked ? blocked->plan : step.plan};
}

template <class T, class>
LaunchPlan heat2d(Context& ctx, Buffer<T>& u, std::size_t rows, std::size_t cols, const HeatOptions<T>& o) {
  // The second grid is the context's scratch memory, kept for the next
  // call (a new 4096^2 float grid cost 23 ms a call on PoCL, its pages
  // first touched by the step); a call with a callback, which may itself
  // call heat2d on this context, makes its own.
  // The input is checked first: bad input takes no memory.
  const std::size_t cells = check_heat2d(ctx, u, rows, cols, o);
  std::unique_lock<std::recursive_mutex> held;
  if (!o.on_output) held = ctx.hold_scratch();
  Buffer<T> other =
      o.on_output ? Buffer<T>(ctx, cells) : Buffer<T>(ctx, ctx.scratch("heat2d.grid", cells * sizeof(T)), cells);
  const HeatStepsDone<T> done = heat2d_steps(ctx, u, other, rows, cols, o);
  if (done.result != &u) copy(ctx, other, u, o.plan);
  return done.plan;  // an own `other` may go: OpenCL keeps it until the queued steps are done
}

template HeatStepsDone<float> heat2d_steps<float>(Context&, Buffer<float>&, Buffer<float>&, std::size_t, std::size_t,
                                                  const HeatOptions<float>&);
template HeatStepsDone<double> heat2d_steps<double>(Context&, Buffer<double>&, Buffer<double>&, std::size_t,
                                                    std::size_t, const HeatOptions<double>&);
template LaunchPlan heat2d<float>(Context&, Buffer<float>&, std::size_t, std::size_t, const HeatOptions<float>&);
template LaunchPlan heat2d<double>(Context&, Buffer<double>&, std::size_t, std::size_t, const HeatOptions<double>&);

}  // namespace portacl
