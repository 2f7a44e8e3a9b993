// SPDX-License-Identifier: Apache-2.0
// The N-body family's operation: the all-pairs accelerations and
// potentials of 32 floor(sqrt(n)) bodies for a workload of n (2^20: 2^15
// bodies, 2^26: 2^18), so the pairs grow as the workload. Where n is a
// power of 4 that is 1024 n pairs, and the GFLOP/s column counts the
// customary 20 flops a pair: interactions per second are GFLOP/s / 20.
// Checked on 64 bodies spread over the range against the double sum.
// CLBlast has no N-body.
#include <cmath>
#include <random>

#include "../particles_nbody_reference.hpp"
#include "../family.hpp"
#include "family_parts.hpp"
#include "kernels/particles/nbody_tunables.hpp"
#include "portacl/particles.hpp"

namespace portacl {
namespace {

constexpr float kSoftening = 0.01f;

struct NbodyCase {
  NbodyCase(Context& ctx, std::size_t bodies)
      : host(4 * bodies), positions(ctx, 4 * bodies), accelerations(ctx, 4 * bodies) {
    std::mt19937_64 draw(0x0b0dull ^ bodies);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f);
    for (std::size_t i = 0; i < bodies; ++i) {
      for (int c = 0; c < 3; ++c) host[4 * i + c] = pos(draw);
      host[4 * i + 3] = 1.0f / float(bodies);
    }
    positions.upload(host);
  }
  std::vector<float> host;
  Buffer<float> positions, accelerations;
};

std::size_t bodies_for(std::size_t n) { return 32 * static_cast<std::size_t>(std::sqrt(double(n))); }

NbodyCase& nbody_case(Workload& w) {
  auto& slot = w.derived["nbody"];
  if (!slot) slot = std::make_shared<NbodyCase>(w.ctx, bodies_for(w.n));
  return *std::static_pointer_cast<NbodyCase>(slot);
}

LaunchPlan run(Workload& w, const PlanOptions& o) {
  NbodyCase& c = nbody_case(w);
  NbodyOptions options;
  options.softening = kSoftening;
  options.plan = o;
  return nbody_accelerations(w.ctx, c.positions, c.accelerations, options);
}

std::string check(Workload& w, const PlanOptions& o) {
  NbodyCase& c = nbody_case(w);
  c.accelerations.upload(std::vector<float>(c.host.size(), std::nanf("")));
  const LaunchPlan plan = run(w, o);
  const std::vector<float> got = c.accelerations.download();
  const std::size_t bodies = c.host.size() / 4;
  for (std::size_t s = 0; s < 64 && s < bodies; ++s) {
    const std::size_t i = s * (bodies - 1) / 63;
    const std::string wrong = reference::compare_nbody_body(
        got, i, reference::nbody_body(c.host, i, kSoftening, 1.0, reference::nbody_chains(plan)), true);
    if (!wrong.empty()) return wrong;
  }
  return "";
}

std::vector<Operation> nbody_operations() {
  // Bytes: the bodies read and the accelerations written, per workload
  // element (32 bytes a body, 32 sqrt(n) bodies), noise beside the pairs.
  return {Operation{"nbody", 0, 20.0 * 1024, &nbody_tunables(), run, check}};
}

// The particle family: N-body, the MD passes and the RDF, in that order.
std::vector<Operation> particles_operations() {
  std::vector<Operation> all = nbody_operations();
  for (std::vector<Operation> (*member)() : {md_operations, rdf_operations})
    for (Operation& op : member()) all.push_back(std::move(op));
  return all;
}

const FamilyRegistration particles_family({"particles",
                                           37,
                                           particles_operations,
                                           nullptr,
                                           nullptr,
                                           {{"nbody", {{"N", 0, "", 2}}, "N-body, N bodies, per leapfrog step"}}});

}  // namespace
}  // namespace portacl
