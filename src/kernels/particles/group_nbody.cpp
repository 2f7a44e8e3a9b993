// SPDX-License-Identifier: Apache-2.0
// N-body over a device group: slices stepped by their members, positions
// shared through pinned host memory between the drift and the force sum.
#include "portacl/particles.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "kernels/particles/nbody_slice.hpp"
#include "portacl/error.hpp"
#include "portacl/buffer.hpp"

namespace portacl {

struct GroupNbody::State {
  DeviceGroup* group;
  std::size_t n;
  NbodyOptions options;
  std::string why;
  std::vector<NbodySlice> slices;  // members with bodies
  double exchanging = 0;

  // Every member's slice positions to every other member.
  void share_positions() {
    if (slices.size() < 2) return;
    // The exchange's time: from every slice drifted to every copy written.
    for (NbodySlice& s : slices) check_cl(s.drifted.wait(), "GroupNbody: waiting for the drift");
    const auto start = std::chrono::steady_clock::now();
    for (NbodySlice& s : slices) check_cl(s.read.wait(), "GroupNbody: waiting for positions");
    for (NbodySlice& to : slices) {
      for (const NbodySlice& from : slices)
        if (&from != &to) {
          std::copy(from.sent.begin(), from.sent.end(), to.received.data() + 4 * from.first);
          to.write_positions(to.received.data(), from.first, from.count);
        }
    }
    for (NbodySlice& to : slices) check_cl(to.written.wait(), "GroupNbody: waiting for a position write");
    exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

GroupNbody::GroupNbody(DeviceGroup& group, const std::vector<float>& bodies, const std::vector<float>& velocities,
                       const NbodyOptions& o)
    : state_(std::make_unique<State>()) {
  check_split_nbody_inputs("GroupNbody", bodies, velocities, o);
  State& s = *state_;
  s.group = &group;
  s.n = bodies.size() / 4;
  s.options = o;
  s.why = "rule group.split: " + group.explain_split(s.n);
  const std::vector<std::size_t> offsets = group.split(s.n);
  for (std::size_t m = 0; m < group.size(); ++m) {
    const std::size_t first = offsets[m], count = offsets[m + 1] - first;
    if (!count) continue;
    s.slices.emplace_back(group.context(m), "member " + std::to_string(m), first, count, s.n);
    s.slices.back().load(bodies, velocities, o);
  }
}

GroupNbody::~GroupNbody() = default;

void GroupNbody::step(float dt) {
  if (!std::isfinite(dt)) throw Error("GroupNbody::step: the time step must be finite");
  State& s = *state_;
  for (NbodySlice& slice : s.slices) slice.kick_drift_and_read(dt, slice.sent.data(), s.options);
  s.share_positions();
  for (NbodySlice& slice : s.slices) slice.forces_and_kick(dt, s.options);
}

namespace {

// Each slice's buffer read into its place of an n-body array.
template <class Pick>
std::vector<float> gather_slices(const std::vector<NbodySlice>& slices, std::size_t n, Pick pick, std::size_t offset) {
  std::vector<float> all(4 * n);
  for (const NbodySlice& s : slices)
    check_cl(s.ctx->queue().enqueueReadBuffer(pick(s).cl_buffer(), CL_TRUE, 4 * offset * s.first * sizeof(float),
                                              4 * s.count * sizeof(float), all.data() + 4 * s.first),
             "GroupNbody: reading " + s.owner + "'s slice");
  return all;
}

}  // namespace

std::vector<float> GroupNbody::bodies() const {
  return gather_slices(
      state_->slices, state_->n, [](const NbodySlice& s) -> const Buffer<float>& { return s.positions; }, 1);
}
std::vector<float> GroupNbody::velocities() const {
  return gather_slices(
      state_->slices, state_->n, [](const NbodySlice& s) -> const Buffer<float>& { return s.velocities; }, 0);
}
std::vector<float> GroupNbody::accelerations() const {
  return gather_slices(
      state_->slices, state_->n, [](const NbodySlice& s) -> const Buffer<float>& { return s.accelerations; }, 0);
}

std::string GroupNbody::describe() const {
  std::ostringstream text;
  for (const NbodySlice& s : state_->slices)
    text << s.owner << ": bodies " << s.first << " to " << s.first + s.count << " (" << s.count << ")\n";
  return text.str() + state_->why;
}

double GroupNbody::exchange_seconds() const { return state_->exchanging; }

}  // namespace portacl
