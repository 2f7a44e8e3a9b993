// SPDX-License-Identifier: Apache-2.0
// The N-body family's operation: the all-pairs accelerations and
// potentials of 32 floor(sqrt(n)) bodies for a workload of n (2^20: 2^15
// bodies, 2^26: 2^18), so the pairs grow as the workload. Where n is a
// power of 4 that is 1024 n pairs, and the GFLOP/s column counts the
// customary 20 flops a pair: interactions per second are GFLOP/s / 20.
// Checked on 64 bodies spread over the range against the double sum. In
// float ("nbody") and double ("nbody double").
// CLBlast has no N-body.
#include <cmath>
#include <limits>
#include <random>

#include "../particles_nbody_reference.hpp"
#include "../family.hpp"
#include "family_parts.hpp"
#include "kernels/particles/nbody_tunables.hpp"
#include "portacl/particles.hpp"

namespace portacl {
namespace {

constexpr double kSoftening = 0.01;

template <class T>
struct NbodyCase {
  NbodyCase(Context& ctx, std::size_t bodies)
      : host(4 * bodies), positions(ctx, 4 * bodies), accelerations(ctx, 4 * bodies) {
    std::mt19937_64 draw(0x0b0dull ^ bodies);
    std::uniform_real_distribution<T> pos(T(-1), T(1));  // (float: the same draw as before double came)
    for (std::size_t i = 0; i < bodies; ++i) {
      for (int c = 0; c < 3; ++c) host[4 * i + c] = pos(draw);
      host[4 * i + 3] = T(1) / T(bodies);
    }
    positions.upload(host);
  }
  std::vector<T> host;
  Buffer<T> positions, accelerations;
};

std::size_t bodies_for(std::size_t n) { return 32 * static_cast<std::size_t>(std::sqrt(double(n))); }

template <class T>
NbodyCase<T>& nbody_case(Workload& w) {
  auto& slot = w.derived[sizeof(T) == 8 ? "nbody double" : "nbody"];
  if (!slot) slot = std::make_shared<NbodyCase<T>>(w.ctx, bodies_for(w.n));
  return *std::static_pointer_cast<NbodyCase<T>>(slot);
}

template <class T>
LaunchPlan run(Workload& w, const PlanOptions& o) {
  NbodyCase<T>& c = nbody_case<T>(w);
  NbodyOptions options;
  options.softening = kSoftening;
  options.plan = o;
  return nbody_accelerations(w.ctx, c.positions, c.accelerations, options);
}

template <class T>
std::string check(Workload& w, const PlanOptions& o) {
  NbodyCase<T>& c = nbody_case<T>(w);
  c.accelerations.upload(std::vector<T>(c.host.size(), std::numeric_limits<T>::quiet_NaN()));
  const LaunchPlan plan = run<T>(w, o);
  const std::vector<T> got = c.accelerations.download();
  const std::size_t bodies = c.host.size() / 4;
  // The softening as the kernel sees it: rounded to T once.
  const double softening = double(T(kSoftening));
  for (std::size_t s = 0; s < 64 && s < bodies; ++s) {
    const std::size_t i = s * (bodies - 1) / 63;
    const std::string wrong = reference::compare_nbody_body(
        got, i, reference::nbody_body(c.host, i, softening, 1.0, reference::nbody_chains(plan)), true);
    if (!wrong.empty()) return wrong;
  }
  return "";
}

std::vector<Operation> nbody_operations() {
  // Bytes: the bodies read and the accelerations written, per workload
  // element (32 bytes a body, 32 sqrt(n) bodies), noise beside the pairs.
  // In double too: the same pairs, the tuned records kept apart by element.
  return {Operation{"nbody", 0, 20.0 * 1024, &nbody_tunables(), run<float>, check<float>},
          Operation{"nbody double", 0, 20.0 * 1024, &nbody_tunables(), run<double>, check<double>}};
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
