// SPDX-License-Identifier: Apache-2.0
// A Lennard-Jones NVE run (kernels/particles_molecular_dynamics.cl): the neighbour
// list, the forces and the velocity-Verlet halves, the list rebuilt on
// demand. A step reads one flag back (the move check, done by the drift);
// the types are checked once a run() and the pair table made once.
#include "portacl/particles.hpp"

#include <algorithm>
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

namespace portacl {

namespace {

// The run's own kernels (kick, drift, wrap) planned once, with the list
// type decided in that plan, and the neighbour list's options that follow.
struct MdPlanned {
  LaunchPlan plan;
  NeighbourOptions list;
};

template <class T>
MdPlanned md_planned(Context& ctx, std::size_t n, const LennardJones& lj, const MdOptions& o) {
  MdPlanned p;
  p.plan = ctx.plan(particle_pass_traits("md_step", 16 * sizeof(T), element_of<T>::value),
                    ProblemSize(std::max<std::size_t>(n, 1)), o.plan);
  p.list.half = choose_md_half_list(p.plan, o.half_list, std::is_same<T, double>::value);
  p.list.cutoff = lj.cutoff;
  p.list.skin = o.skin;
  p.list.plan = o.plan;
  cover_items(p.plan, std::max<std::size_t>(n, 1), 1, "particles");
  return p;
}

}  // namespace

template <class T>
struct BasicLennardJonesMd<T>::State {
  State(Context& c, Buffer<T>& p, Buffer<T>& v, const PeriodicBox& b, const LennardJones& l, const MdOptions& o,
        const MdPlanned& planned)
      : ctx(c), positions(p), velocities(v), box(b), lj(l), options(o), list(c, planned.list), plan(planned.plan) {}
  Context& ctx;
  Buffer<T>& positions;
  Buffer<T>& velocities;
  PeriodicBox box;
  LennardJones lj;
  MdOptions options;
  NeighbourList list;
  LaunchPlan plan;
  std::optional<Buffer<T>> forces, inverse_mass;
  std::optional<Buffer<std::uint32_t>> moved;  ///< set by md_kick_drift, cleared by a rebuild
  LennardJonesCall<T> forces_call;             ///< prepared once: the types are checked once a run
  std::size_t n = 0, steps = 0, rebuilds = 0;

  PreparedKernel kernel(const char* entry) {
    return ctx.prepare(KernelRef{"particles_molecular_dynamics.cl", entry, ""}, plan);
  }

  void rebuild() {
    kernel_call::launch(ctx, kernel("md_wrap"), static_cast<cl_uint>(n), box_argument<T>(box), positions);
    list.build(positions, box);
    check_cl(ctx.queue().enqueueFillBuffer(moved->cl_buffer(), cl_uint{0}, 0, 4), "clEnqueueFillBuffer(moved)");
    ++rebuilds;
  }

  // Half a kick and a drift, with the list's move check: true when a
  // particle has moved more than half the skin since the build (one read).
  bool kick_drift() {
    const T half_skin = T(0.5) * T(options.skin);
    kernel_call::launch(ctx, kernel("md_kick_drift"), static_cast<cl_uint>(n), T(options.dt), positions, velocities,
                        *forces, *inverse_mass, box_argument<T>(box), half_skin * half_skin, list.built_positions(),
                        *moved);
    return moved->download()[0] != 0;
  }

  void kick() {
    kernel_call::launch(ctx, kernel("md_kick"), static_cast<cl_uint>(n), T(options.dt), positions, velocities, *forces,
                        *inverse_mass);
  }

  void compute_forces() { launch_lennard_jones(ctx, forces_call, positions, list, *forces); }
};

template <class T>
BasicLennardJonesMd<T>::BasicLennardJonesMd(Context& ctx, Buffer<T>& positions, Buffer<T>& velocities,
                                            const PeriodicBox& box, const LennardJones& lj, const MdOptions& o)
    : s_(std::make_unique<State>(ctx, positions, velocities, box, lj, o,
                                 md_planned<T>(ctx, positions.size() / 4, lj, o))) {
  const char* op = "LennardJonesMd";
  kernel_call::same_context(ctx, positions, op, "positions");
  kernel_call::same_context(ctx, velocities, op, "velocities");
  aliasing::refuse_overlap(op, aliasing::whole(velocities), "velocities", aliasing::whole(positions), "positions",
                           "each step writes both, the positions from the velocities");
  if (!(o.dt > 0) || !std::isfinite(o.dt))
    throw Error(std::string(op) + ": time step " + std::to_string(o.dt) + " must be finite and above 0");
  if (o.masses.size() != lj.types)
    throw Error(std::string(op) + ": " + std::to_string(o.masses.size()) + " masses for " + std::to_string(lj.types) +
                " types; one a type");
  std::vector<T> inverse;
  for (double m : o.masses) {
    if (!(m > 0) || !std::isfinite(m))
      throw Error(std::string(op) + ": mass " + std::to_string(m) + " must be finite and above 0");
    inverse.push_back(T(1) / T(m));
  }
  if (positions.size() % 4 || velocities.size() != positions.size())
    throw Error(std::string(op) + ": positions and velocities must hold 4 floats a particle each (" +
                std::to_string(positions.size()) + " and " + std::to_string(velocities.size()) + " floats)");
  State& s = *s_;
  s.n = positions.size() / 4;
  s.forces.emplace(ctx, std::max<std::size_t>(positions.size(), 4));
  s.inverse_mass.emplace(ctx, inverse);
  if (s.n == 0) return;
  s.moved.emplace(ctx, 1);
  s.rebuild();
  s.forces_call = prepare_lennard_jones(ctx, positions, s.list, lj, *s.forces, o.plan);
  check_lennard_jones_types(ctx, s.forces_call, positions, op);
  s.compute_forces();
}

template <class T>
BasicLennardJonesMd<T>::~BasicLennardJonesMd() = default;
template <class T>
BasicLennardJonesMd<T>::BasicLennardJonesMd(BasicLennardJonesMd&&) noexcept = default;

template <class T>
void BasicLennardJonesMd<T>::run(std::size_t steps) {
  State& s = *s_;
  if (s.n == 0) {
    s.steps += steps;
    return;
  }
  // The caller may have changed the positions since the last run: their
  // types are checked once here; the steps keep them.
  check_lennard_jones_types(s.ctx, s.forces_call, s.positions, "LennardJonesMd::run");
  for (std::size_t k = 0; k < steps; ++k) {
    if (s.kick_drift()) s.rebuild();
    s.compute_forces();
    s.kick();
    ++s.steps;
  }
}

template <class T>
MdEnergy BasicLennardJonesMd<T>::energy() const {
  const State& s = *s_;
  MdEnergy e;
  if (s.n == 0) return e;
  const std::vector<T> p = s.positions.download(), v = s.velocities.download(), f = s.forces->download();
  for (std::size_t i = 0; i < s.n; ++i) {
    const double m = s.options.masses[static_cast<std::size_t>(p[4 * i + 3])];
    e.kinetic +=
        0.5 * m *
        (double(v[4 * i]) * v[4 * i] + double(v[4 * i + 1]) * v[4 * i + 1] + double(v[4 * i + 2]) * v[4 * i + 2]);
    e.potential += f[4 * i + 3];
  }
  return e;
}

template <class T>
std::size_t BasicLennardJonesMd<T>::steps_done() const {
  return s_->steps;
}
template <class T>
std::size_t BasicLennardJonesMd<T>::rebuilds() const {
  return s_->rebuilds;
}
template <class T>
const NeighbourList& BasicLennardJonesMd<T>::list() const {
  return s_->list;
}
template <class T>
const Buffer<T>& BasicLennardJonesMd<T>::forces() const {
  return *s_->forces;
}

template class BasicLennardJonesMd<float>;
template class BasicLennardJonesMd<double>;

}  // namespace portacl
