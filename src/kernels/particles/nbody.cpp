// SPDX-License-Identifier: Apache-2.0
// All-pairs N-body (kernels/particles_nbody.cl): validate, plan (rules/nbody_rules),
// launch the force sum in the plan's layout, and the leapfrog's halves.
#include "portacl/particles.hpp"

#include <cmath>
#include <string>

#include "../aliasing.hpp"
#include "../kernel_call.hpp"
#include "kernels/particles/nbody_slice.hpp"
#include "kernels/particles/nbody_tunables.hpp"
#include "kernels/planner.hpp"
#include "portacl/error.hpp"
#include "rules/particles_nbody_rules.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits nbody_traits(ElementType element) {
  // scalar_on_simt: GPU work-items are bodies i; vectors only serve the CPU layout
  // bytes_per_item: a body read and its acceleration written (4 elements each)
  // flops_per_item: per pair, times n: the caller scales
  return kernel_traits("nbody", element, 1, traits::local_tiling | traits::barriers | traits::scalar_on_simt,
                       {8.0 * double(size_of(element)), 20}, &nbody_tunables());
}

const TuningSpace& nbody_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512, 1024}),
       knobs::vector_width({1, 4, 8, 16}),
       knobs::use_local_memory(),
       {"UNROLL",
        {1, 2, 4, 8, 16},
        std::nullopt,
        "the tile loop's unroll (GPU layout); unset, the rules decide "
        "(particles.nbody-unroll)"},
       {"BODIES",
        {1, 2, 4},
        std::nullopt,
        "bodies i per work-item; unset, the rules decide (particles.nbody-bodies-per-item)"},
       {"NEWTON_RSQRT",
        {0, 1},
        std::nullopt,
        "1/sqrt(r^2) by the built-in rsqrt (0) or by Newton steps from a first guess (1, split layout only); unset, "
        "the rules decide (particles.nbody-rsqrt)"}},
      nullptr};
  return space;
}

namespace {

template <class T>
std::size_t bodies_in(const char* op, const char* name, const Buffer<T>& b) {
  if (b.size() % 4)
    throw Error(std::string(op) + ": " + name + " has " + std::to_string(b.size()) + " " +
                cl_type_name(element_of<T>::value) +
                "s, not 4 per body (x, y, z, m / ax, ay, az, phi / vx, vy, vz, unused)");
  return b.size() / 4;
}

void check_options(const char* op, const NbodyOptions& o) {
  if (!(o.softening > 0) || !std::isfinite(o.softening))
    throw Error(std::string(op) + ": softening " + std::to_string(o.softening) +
                " must be a finite length above 0 (a body's own term is 0/0 without it)");
  if (!std::isfinite(o.gravity)) throw Error(std::string(op) + ": gravity must be finite");
}

template <class T>
void check_pair(Context& ctx, const char* op, const Buffer<T>& bodies, const Buffer<T>& accelerations) {
  kernel_call::same_context(ctx, bodies, op, "bodies");
  kernel_call::same_context(ctx, accelerations, op, "accelerations");
  kernel_call::same_length(op, "bodies", bodies_in(op, "bodies", bodies), "accelerations",
                           bodies_in(op, "accelerations", accelerations));
  aliasing::refuse_overlap(op, aliasing::whole(accelerations), "accelerations", aliasing::whole(bodies), "bodies",
                           "every body's position is read while accelerations are written");
}

LaunchPlan half_step_plan(Context& ctx, std::size_t count, const NbodyOptions& o, ElementType element) {
  return plan_nbody_half_step(live_planner(ctx, o.plan), count, o, element);
}

}  // namespace

NbodyLaunches plan_nbody(const Planner& planner, std::size_t n, std::size_t count, const NbodyOptions& o,
                         ElementType element) {
  return plan_nbody_launches(planner.plan(nbody_traits(element), ProblemSize(std::max<std::size_t>(n, 1))),
                             nbody_tunables(), n, count, o.potential,
                             o.plan.plan_as ? *o.plan.plan_as : planner.device);
}

LaunchPlan plan_nbody_half_step(const Planner& planner, std::size_t count, const NbodyOptions& o, ElementType element) {
  return nbody_half_step(planner.plan(nbody_traits(element), ProblemSize(count)), count, o.potential);
}

template <class T>
LaunchPlan nbody_slice_accelerations(Context& ctx, const Buffer<T>& bodies, std::size_t first, std::size_t count,
                                     Buffer<T>& accelerations, const NbodyOptions& o) {
  const ElementType element = element_of<T>::value;
  const std::size_t n = bodies.size() / 4;
  if (count == 0) return ctx.plan(nbody_traits(element), ProblemSize(std::max<std::size_t>(n, 1)), o.plan);
  if (n > 0xffffffffull) throw Error("nbody: " + std::to_string(n) + " bodies; at most 2^32 - 1");
  // Planned for all n (the sum's length and order), launched for the slice.
  const NbodyLaunches l = plan_nbody(live_planner(ctx, o.plan), n, count, o, element);
  const NbodyShape& shape = l.shape;
  const LaunchPlan& plan = l.forces;
  const cl_uint all = static_cast<cl_uint>(n), from = static_cast<cl_uint>(first), slice = static_cast<cl_uint>(count);
  // eps and G rounded to T once, eps^2 in T (a float run as it always was).
  const T eps = static_cast<T>(o.softening), eps2 = eps * eps, g = static_cast<T>(o.gravity);
  if (shape.layout == NbodyLayout::float4_tiles) {
    kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_nbody.cl", "nbody_tiles", ""}, plan), all, from, slice,
                        eps2, g, bodies, accelerations);
    return plan;
  }
  auto held = ctx.hold_scratch();
  const std::size_t bytes = bytes_of<T>(shape.padded, "nbody split arrays");
  const cl::Buffer& xs = ctx.scratch("nbody.x", bytes);
  const cl::Buffer& ys = ctx.scratch("nbody.y", bytes);
  const cl::Buffer& zs = ctx.scratch("nbody.z", bytes);
  const cl::Buffer& ms = ctx.scratch("nbody.m", bytes);
  const cl_uint padded = static_cast<cl_uint>(shape.padded);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_nbody.cl", "nbody_split", ""}, plan), all, padded, bodies,
                      xs, ys, zs, ms);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_nbody.cl", "nbody_soa", ""}, plan), from, slice, padded,
                      eps2, g, bodies, xs, ys, zs, ms, accelerations);
  return plan;
}

template <class T>
void nbody_slice_kick_drift(Context& ctx, Buffer<T>& bodies, std::size_t first, std::size_t count,
                            Buffer<T>& velocities, const Buffer<T>& accelerations, double dt, const NbodyOptions& o) {
  if (count == 0) return;
  const LaunchPlan plan = half_step_plan(ctx, count, o, element_of<T>::value);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_nbody.cl", "nbody_kick_drift", ""}, plan),
                      static_cast<cl_uint>(first), static_cast<cl_uint>(count), static_cast<T>(dt), bodies, velocities,
                      accelerations);
}

template <class T>
void nbody_slice_kick(Context& ctx, std::size_t count, Buffer<T>& velocities, const Buffer<T>& accelerations, double dt,
                      const NbodyOptions& o) {
  if (count == 0) return;
  const LaunchPlan plan = half_step_plan(ctx, count, o, element_of<T>::value);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"particles_nbody.cl", "nbody_kick", ""}, plan),
                      static_cast<cl_uint>(count), static_cast<T>(dt), velocities, accelerations);
}

template <class T, class>
LaunchPlan nbody_accelerations(Context& ctx, const Buffer<T>& bodies, Buffer<T>& accelerations, const NbodyOptions& o) {
  check_options("nbody_accelerations", o);
  check_pair(ctx, "nbody_accelerations", bodies, accelerations);
  return nbody_slice_accelerations(ctx, bodies, 0, bodies.size() / 4, accelerations, o);
}

template <class T, class>
LaunchPlan nbody_step(Context& ctx, Buffer<T>& bodies, Buffer<T>& velocities, Buffer<T>& accelerations, double dt,
                      const NbodyOptions& o) {
  const char* op = "nbody_step";
  check_options(op, o);
  if (!std::isfinite(dt)) throw Error("nbody_step: the time step must be finite");
  check_pair(ctx, op, bodies, accelerations);
  kernel_call::same_context(ctx, velocities, op, "velocities");
  kernel_call::same_length(op, "bodies", bodies.size() / 4, "velocities", bodies_in(op, "velocities", velocities));
  aliasing::refuse_overlap(op, aliasing::whole(velocities), "velocities", aliasing::whole(bodies), "bodies",
                           "both are updated by the step");
  aliasing::refuse_overlap(op, aliasing::whole(accelerations), "accelerations", aliasing::whole(velocities),
                           "velocities", "both are used by the step");
  const std::size_t n = bodies.size() / 4;
  nbody_slice_kick_drift(ctx, bodies, 0, n, velocities, accelerations, dt, o);
  const LaunchPlan forces = nbody_slice_accelerations(ctx, bodies, 0, n, accelerations, o);
  nbody_slice_kick(ctx, n, velocities, accelerations, dt, o);
  return forces;
}

template <class T, class>
NbodyEnergy nbody_energy(const std::vector<T>& bodies, const std::vector<T>& velocities,
                         const std::vector<T>& accelerations) {
  const std::string element = cl_type_name(element_of<T>::value);
  if (bodies.size() % 4 || velocities.size() != bodies.size() || accelerations.size() != bodies.size())
    throw Error("nbody_energy: bodies, velocities and accelerations must each hold 4 " + element + "s per body (" +
                std::to_string(bodies.size()) + ", " + std::to_string(velocities.size()) + ", " +
                std::to_string(accelerations.size()) + " " + element + "s)");
  NbodyEnergy e;
  for (std::size_t i = 0; i < bodies.size(); i += 4) {
    const double m = bodies[i + 3];
    const double v2 = double(velocities[i]) * velocities[i] + double(velocities[i + 1]) * velocities[i + 1] +
                      double(velocities[i + 2]) * velocities[i + 2];
    e.kinetic += 0.5 * m * v2;
    e.potential += 0.5 * m * accelerations[i + 3];
  }
  return e;
}

#define PORTACL_NBODY(T)                                                                                               \
  template LaunchPlan nbody_slice_accelerations<T>(Context&, const Buffer<T>&, std::size_t, std::size_t, Buffer<T>&,   \
                                                   const NbodyOptions&);                                               \
  template void nbody_slice_kick_drift<T>(Context&, Buffer<T>&, std::size_t, std::size_t, Buffer<T>&,                  \
                                          const Buffer<T>&, double, const NbodyOptions&);                              \
  template void nbody_slice_kick<T>(Context&, std::size_t, Buffer<T>&, const Buffer<T>&, double, const NbodyOptions&); \
  template LaunchPlan nbody_accelerations<T>(Context&, const Buffer<T>&, Buffer<T>&, const NbodyOptions&);             \
  template LaunchPlan nbody_step<T>(Context&, Buffer<T>&, Buffer<T>&, Buffer<T>&, double, const NbodyOptions&);        \
  template NbodyEnergy nbody_energy<T>(const std::vector<T>&, const std::vector<T>&, const std::vector<T>&);
PORTACL_NBODY(float)
PORTACL_NBODY(double)
#undef PORTACL_NBODY

}  // namespace portacl
