// SPDX-License-Identifier: Apache-2.0
// A Lennard-Jones NVE run (kernels/molecular_dynamics.cl): the neighbour
// list, the forces and the velocity-Verlet halves, the list rebuilt on
// demand.
#include "portacl/kernels/particles/molecular_dynamics.hpp"

#include <cmath>
#include <string>

#include "../kernel_call.hpp"
#include "particle_traits.hpp"
#include "portacl/error.hpp"

namespace portacl {

struct LennardJonesMd::State {
  State(Context& c, Buffer<float>& p, Buffer<float>& v, const PeriodicBox& b, const LennardJones& l, const MdOptions& o,
        NeighbourList nl)
      : ctx(c), positions(p), velocities(v), box(b), lj(l), options(o), list(std::move(nl)) {}
  Context& ctx;
  Buffer<float>& positions;
  Buffer<float>& velocities;
  PeriodicBox box;
  LennardJones lj;
  MdOptions options;
  NeighbourList list;
  std::optional<Buffer<float>> forces, inverse_mass;
  LaunchPlan plan;
  std::size_t n = 0, steps = 0, rebuilds = 0;

  void launch(const char* entry, const std::vector<const BufferStorage*>& buffers) {
    PreparedKernel k = ctx.prepare(KernelRef{"molecular_dynamics.cl", entry, ""}, plan);
    kernel_call::set(k, 0, static_cast<cl_uint>(n));
    kernel_call::set(k, 1, static_cast<cl_float>(options.dt));
    for (std::size_t b = 0; b < buffers.size(); ++b) kernel_call::set(k, static_cast<unsigned>(2 + b), *buffers[b]);
    ctx.launch(k);
  }

  void rebuild() {
    const cl_float4 box4{{box.x, box.y, box.z, 0.0f}};
    kernel_call::launch(ctx, ctx.prepare(KernelRef{"molecular_dynamics.cl", "md_wrap", ""}, plan),
                        static_cast<cl_uint>(n), box4, positions);
    list.build(positions, box);
    ++rebuilds;
  }

  void compute_forces() { lennard_jones(ctx, positions, list, lj, *forces, options.plan); }
};

namespace {

NeighbourOptions list_options(const LennardJones& lj, const MdOptions& o) {
  NeighbourOptions l;
  l.cutoff = lj.cutoff;
  l.skin = o.skin;
  l.half = o.half_list;
  l.plan = o.plan;
  return l;
}

}  // namespace

LennardJonesMd::LennardJonesMd(Context& ctx, Buffer<float>& positions, Buffer<float>& velocities,
                               const PeriodicBox& box, const LennardJones& lj, const MdOptions& o)
    : s_(std::make_unique<State>(ctx, positions, velocities, box, lj, o, NeighbourList(ctx, list_options(lj, o)))) {
  const char* op = "LennardJonesMd";
  kernel_call::same_context(ctx, positions, op, "positions");
  kernel_call::same_context(ctx, velocities, op, "velocities");
  if (!(o.dt > 0) || !std::isfinite(o.dt))
    throw Error(std::string(op) + ": time step " + std::to_string(o.dt) + " must be finite and above 0");
  if (o.masses.size() != lj.types)
    throw Error(std::string(op) + ": " + std::to_string(o.masses.size()) + " masses for " + std::to_string(lj.types) +
                " types; one a type");
  std::vector<float> inverse;
  for (float m : o.masses) {
    if (!(m > 0) || !std::isfinite(m))
      throw Error(std::string(op) + ": mass " + std::to_string(m) + " must be finite and above 0");
    inverse.push_back(1.0f / m);
  }
  if (positions.size() % 4 || velocities.size() != positions.size())
    throw Error(std::string(op) + ": positions and velocities must hold 4 floats a particle each (" +
                std::to_string(positions.size()) + " and " + std::to_string(velocities.size()) + " floats)");
  State& s = *s_;
  s.n = positions.size() / 4;
  s.forces.emplace(ctx, std::max<std::size_t>(positions.size(), 4));
  s.inverse_mass.emplace(ctx, inverse);
  s.plan = ctx.plan(particle_pass_traits("md_step", 64), ProblemSize(std::max<std::size_t>(s.n, 1)), o.plan);
  s.plan.work_groups = kernel_call::ceil_div(std::max<std::size_t>(s.n, 1), s.plan.local[0]);
  s.plan.global = {{s.plan.work_groups * s.plan.local[0], 1, 1}};
  if (s.n == 0) return;
  s.rebuild();
  s.compute_forces();
}

LennardJonesMd::~LennardJonesMd() = default;
LennardJonesMd::LennardJonesMd(LennardJonesMd&&) noexcept = default;

void LennardJonesMd::run(std::size_t steps) {
  State& s = *s_;
  if (s.n == 0) {
    s.steps += steps;
    return;
  }
  for (std::size_t k = 0; k < steps; ++k) {
    s.launch("md_kick_drift", {&s.positions, &s.velocities, &*s.forces, &*s.inverse_mass});
    if (s.list.needs_rebuild(s.positions)) s.rebuild();
    s.compute_forces();
    s.launch("md_kick", {&s.positions, &s.velocities, &*s.forces, &*s.inverse_mass});
    ++s.steps;
  }
}

MdEnergy LennardJonesMd::energy() const {
  const State& s = *s_;
  MdEnergy e;
  if (s.n == 0) return e;
  const std::vector<float> p = s.positions.download(), v = s.velocities.download(), f = s.forces->download();
  for (std::size_t i = 0; i < s.n; ++i) {
    const double m = s.options.masses[static_cast<std::size_t>(p[4 * i + 3])];
    e.kinetic +=
        0.5 * m *
        (double(v[4 * i]) * v[4 * i] + double(v[4 * i + 1]) * v[4 * i + 1] + double(v[4 * i + 2]) * v[4 * i + 2]);
    e.potential += f[4 * i + 3];
  }
  return e;
}

std::size_t LennardJonesMd::steps_done() const { return s_->steps; }
std::size_t LennardJonesMd::rebuilds() const { return s_->rebuilds; }
const NeighbourList& LennardJonesMd::list() const { return s_->list; }
const Buffer<float>& LennardJonesMd::forces() const { return *s_->forces; }

}  // namespace portacl
