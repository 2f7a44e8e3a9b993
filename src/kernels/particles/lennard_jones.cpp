// SPDX-License-Identifier: Apache-2.0
// Lennard-Jones forces (kernels/particles_lennard_jones.cl): validate, tabulate the
// type pairs, check the types on the device, launch over a full list (own
// sums) or a half list (atomic shares); in parts (lennard_jones_call.hpp) for
// drivers that do the first two once.
#include "portacl/particles.hpp"

#include <cmath>
#include <string>
#include <type_traits>

#include "../aliasing.hpp"
#include "../kernel_call.hpp"
#include "lennard_jones_call.hpp"
#include "particle_traits.hpp"
#include "portacl/error.hpp"
#include "rules/particles_neighbour_rules.hpp"
#include "rules/coverage_rules.hpp"
#include "kernels/planner.hpp"

namespace portacl {

LjLaunch plan_lj(const Planner& planner, std::size_t n, std::size_t types, bool slots_by_neighbour, bool half,
                 ElementType element) {
  LjLaunch l;
  l.plan = planner.plan(particle_pass_traits("lennard_jones", element == ElementType::f64 ? 64 : 32, element),
                        ProblemSize(std::max<std::size_t>(n, 1)));
  if (n > 0) l.atomic_shares = lj_forces_plan(l.plan, n, types, slots_by_neighbour, half);
  return l;
}

namespace {

// (4 eps sigma^12, 4 eps sigma^6, E_shift, 0) of every type pair, 4
// values a pair.
template <class T>
std::vector<T> pair_table(const LennardJones& lj) {
  const char* op = "lennard_jones";
  const std::size_t t = lj.types;
  if (t == 0) throw Error(std::string(op) + ": no types");
  if (lj.epsilon.size() != t * t || lj.sigma.size() != t * t)
    throw Error(std::string(op) + ": epsilon has " + std::to_string(lj.epsilon.size()) + " and sigma " +
                std::to_string(lj.sigma.size()) + " entries; " + std::to_string(t) + " types need " +
                std::to_string(t * t) + " each (types x types)");
  if (!(lj.cutoff > 0) || !std::isfinite(lj.cutoff))
    throw Error(std::string(op) + ": cutoff " + std::to_string(lj.cutoff) + " must be a finite length above 0");
  std::vector<T> table(4 * t * t);
  for (std::size_t a = 0; a < t; ++a)
    for (std::size_t b = 0; b < t; ++b) {
      const double eps = lj.epsilon[a * t + b], sigma = lj.sigma[a * t + b];
      const std::string at = "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
      if (eps != lj.epsilon[b * t + a] || sigma != lj.sigma[b * t + a])
        throw Error(std::string(op) + ": epsilon and sigma must be symmetric; " + at + " differs from its mirror");
      if (!(sigma > 0) || !std::isfinite(sigma))
        throw Error(std::string(op) + ": sigma" + at + " " + std::to_string(sigma) + " must be finite and above 0");
      if (!(eps >= 0) || !std::isfinite(eps))
        throw Error(std::string(op) + ": epsilon" + at + " " + std::to_string(eps) + " must be finite, not negative");
      const double s6 = std::pow(double(sigma), 6), c12 = 4.0 * eps * s6 * s6, c6 = 4.0 * eps * s6;
      const double rc6 = std::pow(lj.cutoff, 6);
      const double shift = lj.shift ? c12 / (rc6 * rc6) - c6 / rc6 : 0.0;
      const std::size_t at_pair = 4 * (a * t + b);
      table[at_pair] = T(c12);
      table[at_pair + 1] = T(c6);
      table[at_pair + 2] = T(shift);
      table[at_pair + 3] = T(0);
    }
  return table;
}

}  // namespace

template <class T>
LennardJonesCall<T> prepare_lennard_jones(Context& ctx, const Buffer<T>& positions, const NeighbourList& list,
                                          const LennardJones& lj, const Buffer<T>& forces, const PlanOptions& options) {
  const char* op = "lennard_jones";
  kernel_call::same_context(ctx, positions, op, "positions");
  kernel_call::same_context(ctx, forces, op, "forces");
  std::vector<T> table = pair_table<T>(lj);
  if (positions.size() % 4)
    throw Error(std::string(op) + ": positions has " + std::to_string(positions.size()) +
                " floats, not 4 a particle (x, y, z, type)");
  const std::size_t n = positions.size() / 4;
  kernel_call::same_length(op, "positions", n, "forces", forces.size() / 4);
  if (forces.size() % 4) throw Error(std::string(op) + ": forces must hold 4 floats a particle (fx, fy, fz, e)");
  list.counts();  // throws when never built
  kernel_call::same_length(op, "positions", n, "the neighbour list's particles", list.particles());
  if (lj.cutoff > list.cutoff())
    throw Error(std::string(op) + ": cutoff " + std::to_string(lj.cutoff) + " is beyond the list's cutoff " +
                std::to_string(list.cutoff()) + "; the list would miss pairs");
  aliasing::refuse_overlap(op, aliasing::whole(forces), "forces", aliasing::whole(positions), "positions",
                           "positions are read while forces are written");
  const bool wide = std::is_same<T, double>::value;
  if (wide && list.half())
    throw Error(std::string(op) +
                ": a half list in double: its atomic shares are float compare-and-swap; use a full "
                "list (NeighbourOptions::half = false)");
  LennardJonesCall<T> call;
  call.n = n;
  call.cutoff = T(lj.cutoff);
  call.types = lj.types;
  LjLaunch l =
      plan_lj(live_planner(ctx, options), n, lj.types, list.slots_by_neighbour(), list.half(), element_of<T>::value);
  call.plan = std::move(l.plan);
  if (n == 0) return call;
  LaunchPlan& plan = call.plan;
  call.atomic_shares = l.atomic_shares;
  call.check_types = ctx.prepare(KernelRef{"particles_lennard_jones.cl", "lj_check_types", ""}, plan);
  call.forces = ctx.prepare(KernelRef{"particles_lennard_jones.cl", "lj_forces", ""}, plan);
  call.pairs.emplace(ctx, table);
  return call;
}

template <class T>
void check_lennard_jones_types(Context& ctx, const LennardJonesCall<T>& call, const Buffer<T>& positions,
                               const char* op) {
  if (call.n == 0) return;
  auto held = ctx.hold_scratch();
  const cl::Buffer& bad = ctx.scratch("lennard_jones.bad_type", 4, true);
  check_cl(ctx.queue().enqueueFillBuffer(bad, cl_uint{0}, 0, 4), "clEnqueueFillBuffer(types)");
  kernel_call::launch(ctx, call.check_types, static_cast<cl_uint>(call.n), positions, bad);
  cl_uint found = 0;
  check_cl(ctx.queue().enqueueReadBuffer(bad, CL_TRUE, 0, 4, &found), "clEnqueueReadBuffer(types)");
  if (found)
    throw Error(std::string(op) + ": a particle's type (the fourth float of its position) is not one of 0 .. " +
                std::to_string(call.types - 1));
}

template <class T>
void launch_lennard_jones(Context& ctx, const LennardJonesCall<T>& call, const Buffer<T>& positions,
                          const NeighbourList& list, Buffer<T>& forces) {
  if (call.n == 0) return;
  const T rc2 = call.cutoff * call.cutoff;
  if (call.atomic_shares)
    check_cl(ctx.queue().enqueueFillBuffer(forces.cl_buffer(), T(0), 0, 4 * sizeof(T) * call.n),
             "clEnqueueFillBuffer(forces)");
  kernel_call::launch(ctx, call.forces, static_cast<cl_uint>(call.n), static_cast<cl_uint>(list.capacity()),
                      box_argument<T>(list.box()), rc2, positions, list.counts(), list.neighbours(), *call.pairs,
                      forces);
}

template <class T, class>
LaunchPlan lennard_jones(Context& ctx, const Buffer<T>& positions, const NeighbourList& list, const LennardJones& lj,
                         Buffer<T>& forces, const PlanOptions& options) {
  const LennardJonesCall<T> call = prepare_lennard_jones(ctx, positions, list, lj, forces, options);
  check_lennard_jones_types(ctx, call, positions, "lennard_jones");
  launch_lennard_jones(ctx, call, positions, list, forces);
  return call.plan;
}

#define PORTACL_LJ_FOR(T)                                                                                          \
  template LennardJonesCall<T> prepare_lennard_jones(Context&, const Buffer<T>&, const NeighbourList&,             \
                                                     const LennardJones&, const Buffer<T>&, const PlanOptions&);   \
  template void check_lennard_jones_types(Context&, const LennardJonesCall<T>&, const Buffer<T>&, const char*);    \
  template void launch_lennard_jones(Context&, const LennardJonesCall<T>&, const Buffer<T>&, const NeighbourList&, \
                                     Buffer<T>&);                                                                  \
  template LaunchPlan lennard_jones<T>(Context&, const Buffer<T>&, const NeighbourList&, const LennardJones&,      \
                                       Buffer<T>&, const PlanOptions&);
PORTACL_LJ_FOR(float)
PORTACL_LJ_FOR(double)
#undef PORTACL_LJ_FOR

}  // namespace portacl
