// SPDX-License-Identifier: Apache-2.0
// The radial distribution function as an operation: 64 floor(sqrt(n))
// particles (2^20: 2^16) spread uniformly at density 0.8442, every pair
// counted into 1000 shells up to half the box. The pairs grow as the
// workload: pairs per second are N (N - 1) / 2 over the wall time (the
// table's GB/s and GFLOP/s columns do not apply). Checked on the first
// 2048 particles, every shell against the double host count. Boost.Compute
// offers no histogram algorithm, so there is no baseline to set beside it.
#include <cmath>
#include <random>
#include <string>

#include "family_parts.hpp"
#include "../particles_rdf_reference.hpp"
#include "kernels/particles/particle_traits.hpp"
#include "portacl/particles.hpp"

namespace portacl {
namespace {

constexpr std::size_t kShells = 1000;
constexpr std::size_t kCheckedParticles = 2048;

struct RdfCase {
  explicit RdfCase(Workload& w) {
    const std::size_t n = 64 * static_cast<std::size_t>(std::sqrt(double(w.n)));
    if (n > kRdfMostParticles)
      throw CaseOutOfRange("rdf 1000 shells: the workload asks " + std::to_string(n) +
                           " particles; the RDF counts at most " + std::to_string(kRdfMostParticles) +
                           " (its pair counts are 32-bit): workloads up to 2^31");
    const float side = float(std::cbrt(double(n) / 0.8442));
    box = PeriodicBox{side, side, side};
    std::mt19937_64 draw(0x4dfull ^ w.n);
    std::uniform_real_distribution<float> anywhere(0.0f, side);
    host.resize(4 * n);
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) host[4 * i + c] = anywhere(draw);
    positions.emplace(w.ctx, host);
    const std::vector<float> first(host.begin(), host.begin() + 4 * std::min(n, kCheckedParticles));
    checked.emplace(w.ctx, first);
  }
  std::vector<float> host;
  PeriodicBox box;
  std::optional<Buffer<float>> positions, checked;
};

RdfCase& rdf_case(Workload& w) {
  auto& slot = w.derived["rdf"];
  if (!slot) slot = std::make_shared<RdfCase>(w);
  return *std::static_pointer_cast<RdfCase>(slot);
}

RdfOptions options_of(const RdfCase& c, const PlanOptions& o) {
  RdfOptions r;
  r.r_max = 0.5f * c.box.x;
  r.shells = kShells;
  r.plan = o;
  return r;
}

LaunchPlan run(Workload& w, const PlanOptions& o) {
  RdfCase& c = rdf_case(w);
  return radial_distribution(w.ctx, *c.positions, c.box, options_of(c, o)).plan;
}

std::string check(Workload& w, const PlanOptions& o) {
  RdfCase& c = rdf_case(w);
  const RdfOptions r = options_of(c, o);
  const RadialDistribution got = radial_distribution(w.ctx, *c.checked, c.box, r);
  const std::vector<float> first(c.host.begin(), c.host.begin() + c.checked->size());
  const double box[3] = {c.box.x, c.box.y, c.box.z};
  return reference::compare_rdf_counts(got.counts, reference::rdf_counts(first, box, r.r_max, r.shells));
}

}  // namespace

std::vector<Operation> rdf_operations() {
  return {Operation{"rdf 1000 shells", 0, 0, particle_pass_traits("rdf", 16).tunables, run, check}};
}

}  // namespace portacl
