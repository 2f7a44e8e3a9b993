// SPDX-License-Identifier: Apache-2.0
#include "stencil_cases.hpp"

#include "tuning/case_specs.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "portacl/kernels/stencil/heat2d.hpp"
#include "portacl/kernels/stencil/stencil3d.hpp"
#include "../common/cli.hpp"
#include "tuning/stencil_reference.hpp"

namespace bench {
namespace {

using namespace portacl;

template <class T>
std::string within_impl(const std::vector<T>& got, const std::vector<double>& want, double bound) {
  const std::string wrong = reference::within(got, want, bound);
  return wrong.empty() ? "ok" : wrong;
}

// "KIND:A:B" with positive whole A and B.
// A parsed --stencils spec: its kind and its two values (the case list is
// the stencil family's, src/tuning/operations/stencil_operations.cpp).
struct Spec {
  std::string kind;
  std::size_t a = 0, b = 0;
};

Spec parse(const std::string& text) {
  const CaseSpec c = parse_case(case_forms("stencil"), text);
  return {c.kind, c.values[0], c.values[1]};
}

// A variant: forced tile or not, forced steps per launch and cells per
// work-item, or the rules'.
struct Variant {
  const char* label;
  std::optional<bool> tile;
  std::optional<std::size_t> per_launch;
  std::optional<std::size_t> cells_x = std::nullopt;
  std::optional<std::size_t> cells_y = std::nullopt;
};

template <class T>
HeatOptions<T> heat_options(const Variant& v, std::size_t steps) {
  HeatOptions<T> o;
  o.r = T(0.2);
  o.steps = steps;
  o.local_tile = v.tile;
  o.steps_per_launch = v.per_launch;
  o.cells_x = v.cells_x;
  o.cells_y = v.cells_y;
  return o;
}

// A 9-step run of the variant (two blocked launches and a remainder where
// it blocks) against the host steps.
template <class T>
std::string check_variant(Context& ctx, std::size_t n, const std::vector<T>& u0, const Variant& v) {
  Buffer<T> u(ctx, u0);
  heat2d(ctx, u, n, n, heat_options<T>(v, 9));
  const std::vector<double> want = reference::heat2d(u0, n, n, 0.2, 9);
  return within_impl(u.download(), want, 144 * std::numeric_limits<T>::epsilon());
}

template <class T>
void heat_rows(Context& ctx, const Spec& spec, int warmup, int reps, unsigned long long seed, const Ceilings& ceilings,
               std::vector<StencilRow>& out) {
  struct {
    std::size_t n, steps;
  } h{spec.a, spec.b};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> u0(h.n * h.n);
  for (auto& v : u0) v = static_cast<T>(d(rng));
  Buffer<T> u(ctx, u0);
  static const Variant variants[] = {{"rules", std::nullopt, std::nullopt},
                                     {"cached", false, 1},
                                     {"cached, 1 cell of a row", false, 1, 1},
                                     {"cached, 2 cells of a row", false, 1, 2},
                                     {"cached, 4 cells of a row", false, 1, 4},
                                     {"cached, 8 cells of a row", false, 1, 8},
                                     {"tiled", true, 1},
                                     {"2 steps per launch", std::nullopt, 2},
                                     {"4 steps per launch", std::nullopt, 4},
                                     {"8 steps per launch", std::nullopt, 8},
                                     {"4 steps, 1 cell of a column", std::nullopt, 4, std::nullopt, 1},
                                     {"4 steps, 16 cells of a column", std::nullopt, 4, std::nullopt, 16}};
  for (const Variant& variant : variants) {
    StencilRow row;
    row.stencil = "heat2d " + std::to_string(h.n) + "^2 x " + std::to_string(h.steps);
    row.element = sizeof(T) == 4 ? "float" : "double";
    row.variant = variant.label;
    const HeatOptions<T> o = heat_options<T>(variant, h.steps);
    try {
      row.check = check_variant<T>(ctx, h.n, u0, variant);
      const LaunchPlan plan = heat2d(ctx, u, h.n, h.n, o);
      if (!variant.tile && !variant.per_launch) {
        const Decision* v = plan.decision("variant");
        const Decision* k = plan.decision("steps_per_launch");
        const Decision* c = plan.decision(k ? "temporal_cells_y" : "cells_per_work_item");
        row.variant = "rules (" + (v ? v->value : std::string("?")) +
                      (c ? ", " + c->value + (k ? " cells of a column" : " cells of a row") : "") +
                      (k ? ", " + k->value + " per launch" : "") + ")";
      }
      const double updates = double(h.n) * double(h.n) * double(h.steps);
      time_case(
          ctx, warmup, reps, ceilings, {2.0 * sizeof(T) * updates, 6.0 * updates, updates},
          [&] { heat2d(ctx, u, h.n, h.n, o); }, row);
    } catch (const std::exception& e) {
      row.check = std::string("failed: ") + e.what();
    }
    out.push_back(row);
  }
}

// A 3D stencil variant: forced plane queue or not, outputs in y, z chunk,
// planes of loads in flight, and a work-group shape (x by y) other than the
// rules'.
struct Variant3d {
  const char* label;
  std::optional<bool> queue;
  std::optional<std::size_t> outputs;
  std::optional<std::size_t> z_chunk = std::nullopt;
  std::optional<std::size_t> prefetch = std::nullopt;
  std::optional<std::array<std::size_t, 2>> shape = std::nullopt;
};

// Rows of a 3D stencil on an n^3 grid, zero boundary: each variant checked
// on a small grid against the host, then timed. `run` is the call;
// `points` the host reference's terms, `reach` their largest offset.
template <class T, class Run>
void stencil3d_rows(Context& ctx, const std::string& name, std::size_t n,
                    const std::vector<std::array<double, 4>>& points, std::size_t reach,
                    const std::vector<Variant3d>& variants, unsigned long long seed, const Run& run, int warmup,
                    int reps, const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  const Extent3 e{n, n, n}, small{37, 29, 23};
  std::vector<T> field(e.cells()), check_field(small.cells());
  for (auto& v : field) v = static_cast<T>(d(rng));
  for (auto& v : check_field) v = static_cast<T>(d(rng));
  const std::vector<double> want =
      reference::stencil3d(check_field, small.nx, small.ny, small.nz, points, reach, Boundary::zero);
  Buffer<T> in(ctx, field), result(ctx, e.cells()), check_in(ctx, check_field), check_out(ctx, small.cells());
  for (const Variant3d& v : variants) {
    StencilRow row;
    row.stencil = name;
    row.element = sizeof(T) == 4 ? "float" : "double";
    row.variant = v.label;
    Stencil3dOptions o;
    o.plane_queue = v.queue;
    o.outputs_y = v.outputs;
    o.z_chunk = v.z_chunk;
    o.prefetch_planes = v.prefetch;
    if (v.shape) {
      PlanOverride shape;
      shape.local_shape = std::array<std::size_t, 3>{(*v.shape)[0], (*v.shape)[1], 1};
      shape.provenance = "the bench's shape";
      o.plan.override_values = shape;
    }
    try {
      run(check_in, small, check_out, o);
      row.check = within(check_out.download(), want, 8.0 * double(points.size()) * std::numeric_limits<T>::epsilon());
      const LaunchPlan plan = run(in, e, result, o);
      if (!v.queue) {
        const Decision* outputs = plan.decision("outputs_y");
        const Decision* chunk = plan.decision("z_chunk");
        const Decision* ahead = plan.decision("prefetch_planes");
        row.variant = "rules (" + plan.decision("variant")->value + (outputs ? ", " + outputs->value + " in y" : "") +
                      (ahead ? ", " + ahead->value + " ahead" : "") +
                      (outputs ? ", " + std::to_string(plan.local[0]) + " x " + std::to_string(plan.local[1]) : "") +
                      (chunk ? ", " + chunk->value : "") + ")";
      }
      const double cells = double(e.cells());
      time_case(
          ctx, warmup, reps, ceilings, {2.0 * sizeof(T) * cells, 2.0 * double(points.size()) * cells, cells},
          [&] { run(in, e, result, o); }, row);
    } catch (const std::exception& ex) {
      row.check = std::string("failed: ") + ex.what();
    }
    out.push_back(row);
  }
}

// The 3D star of `radius` on an n^3 grid, zero boundary, float: the rules'
// variant, the plane queue with 1 to 8 outputs per work-item in y and
// several z chunks, and the cache-reliant variant.
template <class T>
void star_rows(Context& ctx, std::size_t n, std::size_t radius, int warmup, int reps, unsigned long long seed,
               const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> c(radius + 1);
  for (auto& v : c) v = static_cast<T>(d(rng));
  // Each row forces one choice and leaves the rest to the rules.
  using Shape = std::optional<std::array<std::size_t, 2>>;
  static const Shape w32{{32, 8}}, w128{{128, 2}};
  static const std::vector<Variant3d> variants = {
      {"rules", std::nullopt, std::nullopt},
      {"queue, 1 output in y", true, 1},
      {"queue, 2 outputs in y", true, 2},
      {"queue, 8 outputs in y", true, 8},
      {"queue, loads 1 plane ahead", true, std::nullopt, std::nullopt, 1},
      {"queue, loads 2 planes ahead", true, std::nullopt, std::nullopt, 2},
      {"queue, loads 4 planes ahead", true, std::nullopt, std::nullopt, 4},
      {"queue, 32 x 8 group", true, std::nullopt, std::nullopt, std::nullopt, w32},
      {"queue, 128 x 2 group", true, std::nullopt, std::nullopt, std::nullopt, w128},
      {"queue, 64-plane chunks", true, std::nullopt, 64},
      {"cache-reliant", false, std::nullopt}};
  const StarWeights<T> weights(ctx, c);  // uploaded once, as a time-stepping loop would
  stencil3d_rows<T>(
      ctx, "star3d " + std::to_string(n) + "^3 r" + std::to_string(radius) + " zero", n, reference::star_points(c),
      radius, variants, seed,
      [&](const Buffer<T>& in, Extent3 e, Buffer<T>& result, const Stencil3dOptions& o) {
        return star_stencil3d(ctx, in, e, weights, result, o);
      },
      warmup, reps, ceilings, out);
}

// A general 3D stencil: every offset of the (2R + 1)^3 box with its own
// random weight (27 points for R = 1), float. Its only variant on GPUs is
// the cache-reliant one; CPUs walk whole rows.
template <class T>
void box_rows(Context& ctx, std::size_t n, std::size_t radius, int warmup, int reps, unsigned long long seed,
              const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed + 2);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<StencilPoint<T>> points;
  std::vector<std::array<double, 4>> terms;
  const int r = static_cast<int>(radius);
  for (int dz = -r; dz <= r; ++dz)
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) {
        const T w = static_cast<T>(d(rng));
        points.push_back({dx, dy, dz, w});
        terms.push_back({double(dx), double(dy), double(dz), double(w)});
      }
  static const std::vector<Variant3d> variants = {{"rules", std::nullopt, std::nullopt},
                                                  {"cache-reliant, a work-item per cell", false, std::nullopt}};
  const StencilPoints<T> prepared(ctx, points);  // uploaded once
  stencil3d_rows<T>(
      ctx, "box3d " + std::to_string(n) + "^3 r" + std::to_string(radius) + " zero", n, terms, radius, variants, seed,
      [&](const Buffer<T>& in, Extent3 e, Buffer<T>& result, const Stencil3dOptions& o) {
        return stencil3d(ctx, in, e, prepared, result, o);
      },
      warmup, reps, ceilings, out);
}

}  // namespace

std::string within(const std::vector<float>& got, const std::vector<double>& want, double bound) {
  return within_impl(got, want, bound);
}
std::string within(const std::vector<double>& got, const std::vector<double>& want, double bound) {
  return within_impl(got, want, bound);
}

void time_case(Context& ctx, int warmup, int reps, const Ceilings& ceilings, const CaseWork& work,
               const std::function<void()>& call, StencilRow& row) {
  row.ours = measure(warmup, reps, [&] { return portacl_ms(ctx, call); });
  row.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, call); });
  const double seconds = row.ours.median_ms * 1e-3;
  row.gbs = work.bytes / seconds * 1e-9;
  row.gflops = work.flops / seconds * 1e-9;
  row.gpoints = work.points / seconds * 1e-9;
  row.fraction_of_copy = row.gbs / ceilings.copy_gbs;
}

void check_stencil_specs(const std::vector<std::string>& specs) {
  for (const std::string& s : specs) parse(s);
}

std::vector<StencilRow> run_stencils(Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings) {
  std::vector<StencilRow> out;
  for (const std::string& text : specs) {
    const Spec s = parse(text);
    if (s.kind == "heat2d") {
      heat_rows<float>(ctx, s, warmup, reps, seed, ceilings, out);
      if (ctx.info().fp64) heat_rows<double>(ctx, s, warmup, reps, seed, ceilings, out);
    } else if (s.kind == "star3d") {
      star_rows<float>(ctx, s.a, s.b, warmup, reps, seed, ceilings, out);
    } else if (s.kind == "box3d") {
      box_rows<float>(ctx, s.a, s.b, warmup, reps, seed, ceilings, out);
    } else if (s.kind == "conv2d") {
      conv2d_rows(ctx, s.a, s.b, warmup, reps, seed, ceilings, out);
    } else if (s.kind == "conv1d") {
      conv1d_rows(ctx, s.a, s.b, warmup, reps, seed, ceilings, out);
    } else {
      ncc_rows(ctx, s.a, s.b, warmup, reps, seed, ceilings, out);
    }
  }
  return out;
}

}  // namespace bench
