// SPDX-License-Identifier: Apache-2.0
// Neighbour lists (kernels/particles_neighbours.cl): validate, plan
// (rules/neighbour_rules), search by cells (cell_of, the radix sort,
// cell_bounds, nlist_cells) or every pair, and build again with a larger
// capacity while a particle overflows it.
#include "portacl/particles.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "../kernel_call.hpp"
#include "particle_traits.hpp"
#include "position_check.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "rules/particles_neighbour_rules.hpp"
#include "rules/coverage_rules.hpp"
#include "kernels/planner.hpp"

namespace portacl {

struct NeighbourList::State {
  State(Context& c, const NeighbourOptions& o) : ctx(c), options(o) {}
  Context& ctx;
  NeighbourOptions options;
  PeriodicBox box;
  std::size_t n = 0, capacity = 0, retries = 0;
  LaunchPlan plan;
  NeighbourShape shape;
  std::optional<Buffer<std::uint32_t>> counts, list, cell, index, start, end, flag;
  std::optional<Buffer<float>> built_at;
  // Double positions narrowed to float (build and needs_rebuild of double).
  mutable std::optional<Buffer<float>> narrowed;
  const Buffer<float>& narrow(const Buffer<double>& positions, const char* op) const {
    kernel_call::same_context(ctx, positions, op, "positions");
    if (positions.size() % 4)
      throw Error(std::string(op) + ": positions has " + std::to_string(positions.size()) +
                  " doubles, not 4 a particle (x, y, z, w)");
    if (!narrowed || narrowed->size() != positions.size())
      narrowed.emplace(ctx, std::max<std::size_t>(positions.size(), 4));
    const std::size_t n = positions.size() / 4;
    if (n) {
      const LaunchPlan p =
          neighbours_cl_pass_plan(ctx, particle_pass_traits("neighbour_narrow", 48, ElementType::f64), n, options.plan);
      kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "narrow_positions", ""}, p),
                          static_cast<cl_uint>(n), positions, *narrowed);
    }
    return *narrowed;
  }
};

NeighbourList::NeighbourList(Context& ctx, const NeighbourOptions& o) : s_(std::make_unique<State>(ctx, o)) {
  if (!(o.cutoff > 0) || !std::isfinite(o.cutoff))
    throw Error("NeighbourList: cutoff " + std::to_string(o.cutoff) + " must be a finite length above 0");
  if (!(o.skin >= 0) || !std::isfinite(o.skin))
    throw Error("NeighbourList: skin " + std::to_string(o.skin) + " must be finite and not negative");
}

NeighbourList::~NeighbourList() = default;
NeighbourList::NeighbourList(NeighbourList&&) noexcept = default;
NeighbourList& NeighbourList::operator=(NeighbourList&&) noexcept = default;

NeighbourLaunch plan_neighbour_search(const Planner& planner, std::size_t n, const std::array<float, 3>& box,
                                      float reach, int forced, bool half, bool first_build) {
  NeighbourLaunch l;
  l.plan = planner.plan(particle_pass_traits("neighbour_list", 16), ProblemSize(std::max<std::size_t>(n, 1)));
  l.shape = choose_neighbour_search(l.plan, n, box, reach, forced);
  if (first_build) l.capacity = first_list_capacity(l.plan, n, box, reach, half);
  if (n > 0) l.plan = neighbour_search_plan(std::move(l.plan), n, half, l.shape.slots_by_k);
  return l;
}

void NeighbourList::build(const Buffer<float>& positions, const PeriodicBox& box) {
  State& s = *s_;
  Context& ctx = s.ctx;
  const char* op = "NeighbourList::build";
  kernel_call::same_context(ctx, positions, op, "positions");
  if (positions.size() % 4)
    throw Error(std::string(op) + ": positions has " + std::to_string(positions.size()) +
                " floats, not 4 a particle (x, y, z, w)");
  // The search is in float: the box and the reach rounded once.
  const std::array<float, 3> lengths{{float(box.x), float(box.y), float(box.z)}};
  const float reach = float(s.options.cutoff + s.options.skin);
  for (float length : lengths)
    if (!(length > 0) || !std::isfinite(length))
      throw Error(std::string(op) + ": box length " + std::to_string(length) + " must be finite and above 0");
  for (float length : lengths)
    if (reach > 0.5f * length)
      throw Error(std::string(op) + ": cutoff + skin " + std::to_string(reach) + " is more than half the box length " +
                  std::to_string(length) + "; the minimum image would miss pairs");
  const std::size_t n = positions.size() / 4;
  if (n > 0x7fffffffull) throw Error(std::string(op) + ": " + std::to_string(n) + " particles; at most 2^31 - 1");
  refuse_positions_outside(ctx, positions, box, s.options.plan, op);
  s.box = box;
  const int forced = s.options.search == NeighbourSearch::cells       ? 1
                     : s.options.search == NeighbourSearch::all_pairs ? 2
                                                                      : 0;
  const bool first_build = s.n != n || !s.counts;
  NeighbourLaunch l = plan_neighbour_search(live_planner(ctx, s.options.plan), n, lengths, reach, forced,
                                            s.options.half, first_build && !s.options.capacity);
  s.plan = std::move(l.plan);
  s.shape = l.shape;
  if (first_build) {
    s.n = n;
    s.capacity = s.options.capacity ? s.options.capacity : l.capacity;
    s.counts.emplace(ctx, n);
    s.list.reset();
    s.built_at.emplace(ctx, std::max<std::size_t>(4 * n, 4));
    s.flag.emplace(ctx, 1);
  }
  if (n == 0) {  // built: no particles, no counts, an empty list
    s.list.emplace(ctx, std::size_t{0});
    return;
  }
  check_cl(ctx.queue().enqueueCopyBuffer(positions.cl_buffer(), s.built_at->cl_buffer(), 0, 0, 16 * n),
           "clEnqueueCopyBuffer(neighbour positions)");
  LaunchPlan& plan = s.plan;
  const cl_uint count = static_cast<cl_uint>(n);
  const cl_float4 box4{{lengths[0], lengths[1], lengths[2], 0.0f}};
  const cl_float reach2 = reach * reach;
  const cl_int4 grid{{s.shape.grid[0], s.shape.grid[1], s.shape.grid[2], 0}};
  if (s.shape.cells) {
    const std::size_t cells = std::size_t(grid.s[0]) * grid.s[1] * grid.s[2];
    if (!s.cell || s.cell->size() != n) {
      s.cell.emplace(ctx, n);
      s.index.emplace(ctx, n);
    }
    if (!s.start || s.start->size() != cells) {
      s.start.emplace(ctx, cells);
      s.end.emplace(ctx, cells);
    }
    kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "cell_of", ""}, plan), count, box4, grid,
                        positions, *s.cell, *s.index);
    SortOptions sorting;
    unsigned bits = 1;
    while ((std::size_t{1} << bits) < cells) ++bits;
    sorting.key_bits = bits;
    sorting.plan.plan_as = s.options.plan.plan_as;
    sorting.plan.live_limits = s.options.plan.live_limits;
    sort_by_key(ctx, *s.cell, *s.index, sorting);
    check_cl(ctx.queue().enqueueFillBuffer(s.start->cl_buffer(), cl_uint{0}, 0, cells * 4),
             "clEnqueueFillBuffer(cells)");
    check_cl(ctx.queue().enqueueFillBuffer(s.end->cl_buffer(), cl_uint{0}, 0, cells * 4), "clEnqueueFillBuffer(cells)");
    kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "cell_bounds", ""}, plan), count, *s.cell,
                        *s.start, *s.end);
  }
  for (;;) {
    if (!s.list || s.list->size() != n * s.capacity)
      s.list.emplace(ctx, checked_product(n, std::max<std::size_t>(s.capacity, 1), "neighbour list"));
    check_cl(ctx.queue().enqueueFillBuffer(s.flag->cl_buffer(), cl_uint{0}, 0, 4), "clEnqueueFillBuffer(fullest)");
    const cl_uint capacity = static_cast<cl_uint>(s.capacity);
    if (s.shape.cells)
      kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "nlist_cells", ""}, plan), count, box4,
                          grid, reach2, capacity, positions, *s.index, *s.start, *s.end, *s.counts, *s.list, *s.flag);
    else
      kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_neighbours.cl", "nlist_all_pairs", ""}, plan), count,
                          box4, reach2, capacity, positions, *s.counts, *s.list, *s.flag);
    const std::uint32_t fullest = s.flag->download()[0];
    if (fullest <= s.capacity) break;
    s.capacity = grown_list_capacity(plan, fullest);
    ++s.retries;
  }
}

void NeighbourList::build(const Buffer<double>& positions, const PeriodicBox& box) {
  const Buffer<float>& narrowed = s_->narrow(positions, "NeighbourList::build");
  if (positions.size() == 0) {
    build(Buffer<float>(s_->ctx, std::size_t{0}), box);
    return;
  }
  build(narrowed, box);
}

bool NeighbourList::needs_rebuild(const Buffer<double>& positions) const {
  return needs_rebuild(s_->narrow(positions, "NeighbourList::needs_rebuild"));
}

bool NeighbourList::needs_rebuild(const Buffer<float>& positions) const {
  const State& s = *s_;
  kernel_call::same_context(s.ctx, positions, "NeighbourList::needs_rebuild", "positions");
  if (!s.counts) throw Error("NeighbourList::needs_rebuild: the list was never built");
  kernel_call::same_length("NeighbourList::needs_rebuild", "positions", positions.size() / 4, "the built list", s.n);
  if (s.n == 0) return false;
  check_cl(s.ctx.queue().enqueueFillBuffer(s.flag->cl_buffer(), cl_uint{0}, 0, 4), "clEnqueueFillBuffer(moved)");
  const float half_skin = float(0.5 * s.options.skin);
  const cl_float4 box4{{float(s.box.x), float(s.box.y), float(s.box.z), 0.0f}};
  kernel_call::launch(s.ctx, s.ctx.prepare(KernelRef{"particles_neighbours.cl", "moved_beyond", ""}, s.plan),
                      static_cast<cl_uint>(s.n), box4, cl_float{half_skin * half_skin}, positions, *s.built_at,
                      *s.flag);
  return s.flag->download()[0] != 0;
}

const Buffer<float>& NeighbourList::built_positions() const {
  if (!s_->built_at) throw Error("NeighbourList: the list was never built");
  return *s_->built_at;
}

std::size_t NeighbourList::particles() const { return s_->n; }
std::size_t NeighbourList::capacity() const { return s_->capacity; }
std::size_t NeighbourList::retries() const { return s_->retries; }
bool NeighbourList::half() const { return s_->options.half; }
double NeighbourList::cutoff() const { return s_->options.cutoff; }
const PeriodicBox& NeighbourList::box() const { return s_->box; }
const LaunchPlan& NeighbourList::plan() const { return s_->plan; }

const Buffer<std::uint32_t>& NeighbourList::counts() const {
  if (!s_->counts) throw Error("NeighbourList: the list was never built");
  return *s_->counts;
}

const Buffer<std::uint32_t>& NeighbourList::neighbours() const {
  if (!s_->list) throw Error("NeighbourList: the list was never built (or holds no particles)");
  return *s_->list;
}

std::size_t NeighbourList::slot(std::size_t i, std::size_t k) const {
  return s_->shape.slots_by_k ? k * s_->n + i : i * s_->capacity + k;
}

bool NeighbourList::slots_by_neighbour() const { return s_->shape.slots_by_k; }

std::vector<std::pair<std::uint32_t, std::uint32_t>> NeighbourList::pairs() const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  if (s_->n == 0) return out;
  const std::vector<std::uint32_t> c = counts().download(), l = neighbours().download();
  for (std::size_t i = 0; i < s_->n; ++i)
    for (std::size_t k = 0; k < c[i]; ++k) out.emplace_back(static_cast<std::uint32_t>(i), l[slot(i, k)]);
  return out;
}

}  // namespace portacl
