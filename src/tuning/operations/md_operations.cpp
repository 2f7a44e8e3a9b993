// SPDX-License-Identifier: Apache-2.0
// The particle family's MD operation: one velocity-Verlet step of a
// Lennard-Jones liquid (density 0.8442, rc 2.5, skin 0.3, dt 0.005, T
// 0.72) of 4 k^3 atoms, k = round(cbrt(n / 4)) for a workload of n (2^15:
// 32000 atoms, 2^20: 1048576): the list check every step, a rebuild when
// due, the forces and both halves. Atom-steps per second are the atoms
// over the wall time (the table's GB/s and GFLOP/s columns do not apply).
// Checked: 64 atoms' forces against the host reference's sum over every atom
// (lj_reference.hpp).
#include <cmath>
#include <random>

#include "../lj_liquid.hpp"
#include "../lj_reference.hpp"
#include "../operations.hpp"
#include "kernels/particles/particle_traits.hpp"
#include "portacl/kernels/particles/molecular_dynamics.hpp"

namespace portacl {
namespace {

struct MdCase {
  explicit MdCase(Workload& w, const PlanOptions& o) {
    const int k = std::max(1, static_cast<int>(std::lround(std::cbrt(double(w.n) / 4.0))));
    std::mt19937_64 draw(0x3d0ull ^ w.n);
    std::vector<float> p, v;
    reference::fcc_liquid(k, 0.8442, 0.72, draw, p, v, box);
    positions.emplace(w.ctx, p);
    velocities.emplace(w.ctx, v);
    lj.cutoff = 2.5f;
    MdOptions options;
    options.plan = o;
    md.emplace(w.ctx, *positions, *velocities, box, lj, options);
  }
  PeriodicBox box;
  LennardJones lj;
  std::optional<Buffer<float>> positions, velocities;
  std::optional<LennardJonesMd> md;
};

// A run per work-group size: the plan is fixed when the run is made.
MdCase& md_case(Workload& w, const PlanOptions& o) {
  const std::size_t wg = o.override_values ? o.override_values->work_group_size.value_or(0) : 0;
  auto& slot = w.derived["md." + std::to_string(wg)];
  if (!slot) slot = std::make_shared<MdCase>(w, o);
  return *std::static_pointer_cast<MdCase>(slot);
}

LaunchPlan run(Workload& w, const PlanOptions& o) {
  MdCase& c = md_case(w, o);
  c.md->run(1);
  return c.md->list().plan();
}

std::string check(Workload& w, const PlanOptions& o) {
  MdCase& c = md_case(w, o);
  c.md->run(3);
  const std::vector<float> p = c.positions->download(), f = c.md->forces().download();
  const std::size_t n = p.size() / 4;
  const double box[3] = {c.box.x, c.box.y, c.box.z};
  for (std::size_t s = 0; s < 64 && s < n; ++s) {
    const std::size_t i = s * (n - 1) / 63;
    const reference::LjForceOn want = reference::lennard_jones_on(p, i, box, c.lj);
    for (int a = 0; a < 3; ++a)
      if (!(std::fabs(f[4 * i + a] - want.force[a]) <= 1e-5 * want.magnitude[a] + 1e-4))
        return "atom " + std::to_string(i) + " force " + std::to_string(f[4 * i + a]) + ", want " +
               std::to_string(want.force[a]);
  }
  return "";
}

std::vector<Operation> md_operations() {
  return {Operation{"md step lj", 0, 0, particle_pass_traits("md_step", 64).tunables, run, check}};
}

const OperationFamily md_family(38, md_operations);

}  // namespace
}  // namespace portacl
