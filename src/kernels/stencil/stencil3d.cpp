// SPDX-License-Identifier: Apache-2.0
#include "portacl/stencil.hpp"

#include <cmath>
#include <cstdlib>
#include <set>
#include <tuple>
#include <utility>

#include "portacl/error.hpp"
#include "rules/stencil_rules.hpp"
#include "../kernel_call.hpp"
#include "stencil_traits.hpp"
#include "whole_rows_plan.hpp"
#include "plans.hpp"
#include "kernels/stencil/tunables.hpp"

namespace portacl {

using kernel_call::ceil_div;

KernelTraits stencil3d_traits(ElementType element) {
  // x, then y and z together; each cell read and written once; the 25-point star (a call counts its own).
  return stencil_family_traits("stencil3d", element, 2.0 * static_cast<double>(size_of(element)), 2 * 25,
                               2 * size_of(element), stencil3d_tunables());
}

const TuningSpace& stencil3d_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::use_local_memory(),
       {"OUTPUTS_Y", {1, 2, 4, 8}, std::nullopt, "outputs per work-item in y"},
       // 4 planes ahead and blocks 128 wide stay options, but lost to 3 and
       // 64 in every H100 run (512^3 r4: 59.7-80.0% and 61.2-82.2% of copy
       // against 86.0%), so the tuner does not spend candidates on them.
       {"PREFETCH_PLANES", {1, 2, 3}, std::nullopt, "plane steps ahead of their use that loads are issued"},
       {"BLOCK_X", {32, 64}, std::nullopt, "the plane queue's work-group width in x"}},
      nullptr};
  return space;
}

Extent3 stencil3d_output_extent(Extent3 in, std::size_t reach, Boundary boundary) {
  if (boundary != Boundary::valid) return in;
  if (in.nx <= 2 * reach || in.ny <= 2 * reach || in.nz <= 2 * reach)
    throw Error("stencil3d: a " + std::to_string(in.nx) + " x " + std::to_string(in.ny) + " x " +
                std::to_string(in.nz) + " input has no interior for a stencil reaching " + std::to_string(reach) +
                " cells in valid mode (the input must carry that halo on every side)");
  return {in.nx - 2 * reach, in.ny - 2 * reach, in.nz - 2 * reach};
}

namespace {

template <class T>
void check_buffers(Context& ctx, const Buffer<T>& in, Extent3 extent, std::size_t reach, const Buffer<T>& out,
                   const Stencil3dOptions& o) {
  kernel_call::same_context(ctx, in, "stencil3d", "in");
  kernel_call::same_context(ctx, out, "stencil3d", "out");
  const std::size_t cells =
      checked_product(checked_product(extent.nx, extent.ny, "stencil3d: extent"), extent.nz, "stencil3d: extent");
  if (in.size() != cells)
    throw Error("stencil3d: in has " + std::to_string(in.size()) + " elements but the grid is " +
                std::to_string(extent.nx) + " x " + std::to_string(extent.ny) + " x " + std::to_string(extent.nz) +
                " = " + std::to_string(cells));
  const Extent3 o3 = stencil3d_output_extent(extent, reach, o.boundary);
  if (out.size() != o3.cells())
    throw Error("stencil3d: out has " + std::to_string(out.size()) + " elements but the " + to_string(o.boundary) +
                " output is " + std::to_string(o3.nx) + " x " + std::to_string(o3.ny) + " x " + std::to_string(o3.nz) +
                " = " + std::to_string(o3.cells()));
  aliasing::refuse_overlap("stencil3d", aliasing::whole(out), "out", aliasing::whole(in), "in",
                           "every output reads its neighbours' inputs");
  if (o.outputs_y && (*o.outputs_y < 1 || *o.outputs_y > 8))
    throw Error("stencil3d: outputs_y must be 1 to 8, not " + std::to_string(*o.outputs_y));
  if (o.z_chunk && *o.z_chunk == 0) throw Error("stencil3d: z_chunk must be at least 1 plane");
  if (o.prefetch_planes && (*o.prefetch_planes < 1 || *o.prefetch_planes > 4))
    throw Error("stencil3d: prefetch_planes must be 1 to 4, not " + std::to_string(*o.prefetch_planes));
}

template <class T>
void check_weight(const T& w, const std::string& which) {
  if (!std::isfinite(double(w))) throw Error("stencil3d: " + which + " is not a finite number");
}

// Before anything is uploaded: errors name the defect.
template <class T>
std::vector<T> checked_star_weights(std::vector<T> c) {
  if (c.size() < 2 || c.size() > 5)
    throw Error("star_stencil3d: " + std::to_string(c.size()) +
                " weights; the star of radius R takes R + 1 (c0 .. cR) for R from 1 to 4");
  for (std::size_t r = 0; r < c.size(); ++r) check_weight(c[r], "weight c" + std::to_string(r));
  return c;
}

// Before anything is uploaded: errors name the point at fault.
template <class T>
std::vector<StencilPoint<T>> checked_points(std::vector<StencilPoint<T>> points) {
  if (points.empty()) throw Error("stencil3d: no points");
  std::set<std::tuple<int, int, int>> seen;
  for (std::size_t p = 0; p < points.size(); ++p) {
    const StencilPoint<T>& s = points[p];
    const std::string name = "point " + std::to_string(p) + " (" + std::to_string(s.dx) + ", " + std::to_string(s.dy) +
                             ", " + std::to_string(s.dz) + ")";
    for (int d : {s.dx, s.dy, s.dz})
      if (std::abs(d) > 8) throw Error("stencil3d: " + name + " reaches beyond 8 cells");
    if (!seen.insert({s.dx, s.dy, s.dz}).second) throw Error("stencil3d: " + name + " repeats an offset");
    check_weight(s.weight, name + "'s weight");
  }
  return points;
}

// The largest |offset| of any point.
template <class T>
std::size_t reach_of(const std::vector<StencilPoint<T>>& points) {
  std::size_t reach = 0;
  for (const StencilPoint<T>& p : points)
    for (int d : {p.dx, p.dy, p.dz}) reach = std::max<std::size_t>(reach, std::size_t(std::abs(d)));
  return reach;
}

template <class T>
std::vector<T> weights_of(const std::vector<StencilPoint<T>>& points) {
  std::vector<T> w;
  for (const StencilPoint<T>& p : points) w.push_back(p.weight);
  return w;
}

// The plan of a points kernel (the general stencil, or the star read
// through the caches): rows per work-item on CPUs, else one output per
// work-item.
StencilLaunch plan_points(const Planner& planner, LaunchPlan plan, Extent3 o3, bool by_rows) {
  if (by_rows) {
    tile_shape_macros(plan, false);
    return {whole_rows_plan(planner, plan, "stencil3d_rows", o3.ny * o3.nz, "whole rows per work-item"),
            "stencil_rows"};
  }
  stencil3d_points_launch(plan, o3.nx, o3.ny * o3.nz);
  return {plan, "stencil_points"};
}

// Launches a planned kernel of the family; z_chunk: the star queue's.
template <class T>
LaunchPlan launch(Context& ctx, const StencilLaunch& l, const Buffer<T>& in, Extent3 extent, Extent3 o3,
                  const Buffer<T>& weights, Buffer<T>& out) {
  const PreparedKernel k = ctx.prepare(KernelRef{"stencil3d.cl", l.entry, ""}, l.plan);
  if (l.entry == "star_queue")
    kernel_call::launch(ctx, k, static_cast<cl_ulong>(extent.nx), static_cast<cl_ulong>(extent.ny),
                        static_cast<cl_ulong>(extent.nz), static_cast<cl_ulong>(o3.nx), static_cast<cl_ulong>(o3.ny),
                        static_cast<cl_ulong>(o3.nz), in, weights, out, static_cast<cl_ulong>(l.z_chunk));
  else
    kernel_call::launch(ctx, k, static_cast<cl_ulong>(extent.nx), static_cast<cl_ulong>(extent.ny),
                        static_cast<cl_ulong>(extent.nz), static_cast<cl_ulong>(o3.nx), static_cast<cl_ulong>(o3.ny),
                        static_cast<cl_ulong>(o3.nz), in, weights, out);
  return k.plan;
}

// The plan both stencils start from: macros for the boundary and reach.
template <class T>
LaunchPlan base_plan(const Planner& planner, Extent3 o3, std::size_t reach, std::size_t weights, double flops,
                     const Stencil3dOptions& o) {
  KernelTraits traits = stencil3d_traits(element_of<T>::value);
  traits.flops_per_item = flops;
  LaunchPlan plan =
      planner.plan(traits, ProblemSize(std::max<std::size_t>(o3.nx, 1), std::max<std::size_t>(o3.ny * o3.nz, 1)));
  stencil3d_reach(plan, reach, o.boundary == Boundary::valid, o.boundary == Boundary::clamp, to_string(o.boundary),
                  o.boundary == Boundary::valid ? "a pre-padded input: the interior is written"
                                                : "the output has the input's size");
  mask_in_constant_memory(plan, planner.device, weights * sizeof(T), std::nullopt, "WEIGHT_SPACE");
  return plan;
}

}  // namespace

template <class T>
StencilLaunch plan_star3d(const Planner& planner, Extent3 extent, std::size_t radius, const Stencil3dOptions& o) {
  const Extent3 o3 = stencil3d_output_extent(extent, radius, o.boundary);
  StencilLaunch l;
  LaunchPlan plan = base_plan<T>(planner, o3, radius, radius + 1, 2.0 * double(6 * radius + 1), o);
  if (o3.cells() == 0) {
    l.plan = plan;
    return l;
  }
  star_radius(plan, radius);
  std::vector<std::array<int, 4>> star{{0, 0, 0, 0}};
  for (int r = 1; r <= int(radius); ++r)
    for (int s : {-r, r}) {
      star.push_back({s, 0, 0, r});
      star.push_back({0, s, 0, r});
      star.push_back({0, 0, s, r});
    }
  stencil3d_points(plan, star);

  // Rule stencil3d.plane-queue: the plane in local memory and the z
  // neighbours in registers wherever the plan takes local memory.
  const bool queue = stencil3d_uses_plane_queue(plan, true, o.plane_queue);
  if (!queue) return plan_points(planner, plan, o3, !o.plane_queue && stencil_walks_rows(plan, false));

  // Outputs in y and loads in flight: the caller's, a tuned value, or the rules.
  const std::size_t outputs = caller_tuned_or_rule(plan, "outputs_y", o.outputs_y, stencil3d_tunables(), "OUTPUTS_Y",
                                                   star_outputs_y(plan.device_class));
  const std::size_t in_flight = caller_tuned_or_rule(plan, "prefetch_planes", o.prefetch_planes, stencil3d_tunables(),
                                                     "PREFETCH_PLANES", star_loads_in_flight(plan.device_class));
  // The block's width: a shape the caller or a record forced, else rule
  // stencil3d.block-width.
  const std::size_t group = plan.local[0] * plan.local[1];
  const bool shape_forced = o.plan.override_values && o.plan.override_values->local_shape;
  const std::optional<RuleCount> width_rule = star_block_width(plan.device_class, o3.nx, group, shape_forced);
  const std::size_t wx =
      std::min(group, caller_tuned_or_rule(plan, "block_width",
                                           shape_forced ? std::optional<std::size_t>(plan.local[0]) : std::nullopt,
                                           stencil3d_tunables(), "BLOCK_X", width_rule, plan.local[0]));
  if (group % wx != 0)
    throw Error("star_stencil3d: a block " + std::to_string(wx) + " wide does not divide the work-group of " +
                std::to_string(group));
  const std::size_t wy = group / wx;
  const std::size_t tile = (wy * outputs + 2 * radius) * (wx + 2 * radius) * sizeof(T);
  if (planner.device.local_mem_size && tile > planner.device.local_mem_size)
    throw Error("star_stencil3d: the plane tile takes " + std::to_string(tile) + " bytes of local memory; '" +
                planner.device.name + "' has " + std::to_string(planner.device.local_mem_size) + " (fewer outputs_y)");
  // The planes of z each work-group walks (rule stencil3d.plane-queue).
  const std::size_t x_groups = ceil_div(o3.nx, wx), y_blocks = ceil_div(o3.ny, wy * outputs);
  const std::size_t z_chunk = star_z_chunk(planner.device, o3.nz, x_groups * y_blocks, radius, o.z_chunk);
  star_queue_launch(plan, wx, wy, outputs, in_flight, extent.nx * extent.ny, x_groups, y_blocks,
                    ceil_div(o3.nz, z_chunk));
  decide_star_z_chunk(plan, planner.device, z_chunk, o.z_chunk.has_value());
  l.plan = plan;
  l.entry = "star_queue";
  l.z_chunk = z_chunk;
  return l;
}

template StencilLaunch plan_star3d<float>(const Planner&, Extent3, std::size_t, const Stencil3dOptions&);
template StencilLaunch plan_star3d<double>(const Planner&, Extent3, std::size_t, const Stencil3dOptions&);

template <class T>
StarWeights<T>::StarWeights(Context& ctx, std::vector<T> weights)
    : weights_(checked_star_weights(std::move(weights))), buffer_(ctx, weights_) {}

template <class T, class>
LaunchPlan star_stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const std::vector<T>& weights,
                          Buffer<T>& out, const Stencil3dOptions& o) {
  return star_stencil3d(ctx, in, extent, StarWeights<T>(ctx, weights), out, o);
}

template <class T, class>
LaunchPlan star_stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const StarWeights<T>& weights,
                          Buffer<T>& out, const Stencil3dOptions& o) {
  kernel_call::same_context(ctx, weights.buffer(), "star_stencil3d", "weights");
  const std::size_t radius = weights.radius();
  check_buffers(ctx, in, extent, radius, out, o);
  const Extent3 o3 = stencil3d_output_extent(extent, radius, o.boundary);
  const StencilLaunch l = plan_star3d<T>(live_planner(ctx, o.plan), extent, radius, o);
  if (l.entry.empty()) return l.plan;
  return launch(ctx, l, in, extent, o3, weights.buffer(), out);
}

template <class T>
StencilPoints<T>::StencilPoints(Context& ctx, std::vector<StencilPoint<T>> points)
    : points_(checked_points(std::move(points))), reach_(reach_of(points_)), buffer_(ctx, weights_of(points_)) {}

template <class T, class>
LaunchPlan stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const std::vector<StencilPoint<T>>& points,
                     Buffer<T>& out, const Stencil3dOptions& o) {
  return stencil3d(ctx, in, extent, StencilPoints<T>(ctx, points), out, o);
}

template <class T, class>
LaunchPlan stencil3d(Context& ctx, const Buffer<T>& in, Extent3 extent, const StencilPoints<T>& points, Buffer<T>& out,
                     const Stencil3dOptions& o) {
  kernel_call::same_context(ctx, points.buffer(), "stencil3d", "points");
  if (o.plane_queue && *o.plane_queue)
    throw Error("stencil3d: the plane queue serves the star stencil only (star_stencil3d)");
  const std::size_t reach = points.reach();
  check_buffers(ctx, in, extent, reach, out, o);
  const Extent3 o3 = stencil3d_output_extent(extent, reach, o.boundary);
  LaunchPlan plan = base_plan<T>(live_planner(ctx, o.plan), o3, reach, points.points().size(),
                                 2.0 * double(points.points().size()), o);
  if (o3.cells() == 0) return plan;
  std::vector<std::array<int, 4>> terms;
  for (std::size_t p = 0; p < points.points().size(); ++p) {
    const StencilPoint<T>& s = points.points()[p];
    terms.push_back({s.dx, s.dy, s.dz, int(p)});
  }
  stencil3d_points(plan, terms);
  stencil3d_uses_plane_queue(plan, false, std::nullopt);
  return launch(ctx,
                plan_points(live_planner(ctx, o.plan), plan, o3, !o.plane_queue && stencil_walks_rows(plan, false)), in,
                extent, o3, points.buffer(), out);
}

#define PORTACL_STENCIL3D(T)                                                                                    \
  template class StarWeights<T>;                                                                                \
  template class StencilPoints<T>;                                                                              \
  template LaunchPlan stencil3d<T>(Context&, const Buffer<T>&, Extent3, const StencilPoints<T>&, Buffer<T>&,    \
                                   const Stencil3dOptions&);                                                    \
  template LaunchPlan star_stencil3d<T>(Context&, const Buffer<T>&, Extent3, const std::vector<T>&, Buffer<T>&, \
                                        const Stencil3dOptions&);                                               \
  template LaunchPlan star_stencil3d<T>(Context&, const Buffer<T>&, Extent3, const StarWeights<T>&, Buffer<T>&, \
                                        const Stencil3dOptions&);                                               \
  template LaunchPlan stencil3d<T>(Context&, const Buffer<T>&, Extent3, const std::vector<StencilPoint<T>>&,    \
                                   Buffer<T>&, const Stencil3dOptions&);
PORTACL_STENCIL3D(float)
PORTACL_STENCIL3D(double)

}  // namespace portacl
