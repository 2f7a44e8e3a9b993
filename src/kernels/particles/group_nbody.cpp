// SPDX-License-Identifier: Apache-2.0
// N-body over a device group: slices stepped by their members, positions
// shared through pinned host memory between the drift and the force sum.
#include "portacl/kernels/particles/group_nbody.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "kernels/particles/nbody_slice.hpp"
#include "portacl/error.hpp"
#include "portacl/runtime/host_buffer.hpp"

namespace portacl {

namespace {

struct Slice {
  Slice(Context& c, std::size_t m, std::size_t f, std::size_t k, std::size_t n)
      : ctx(&c),
        member(m),
        first(f),
        count(k),
        positions(c, 4 * n),
        velocities(c, 4 * k),
        accelerations(c, 4 * k),
        sent(c, 4 * k),
        received(c, 4 * n) {}
  Context* ctx;
  std::size_t member, first, count;
  Buffer<float> positions;                  ///< every body's (x, y, z, m)
  Buffer<float> velocities, accelerations;  ///< the slice's own
  HostBuffer<float> sent;                   ///< the slice's positions, read back
  HostBuffer<float> received;               ///< every position, written from here
  cl::Event drifted, read, written;
};

}  // namespace

struct GroupNbody::State {
  DeviceGroup* group;
  std::size_t n;
  NbodyOptions options;
  std::string why;
  std::vector<Slice> slices;  // members with bodies
  double exchanging = 0;

  // Every member's slice positions to every other member.
  void share_positions() {
    for (Slice& s : slices) {
      s.drifted = s.ctx->done();
      check_cl(s.ctx->queue().enqueueReadBuffer(s.positions.cl_buffer(), CL_FALSE, 4 * s.first * sizeof(float),
                                                4 * s.count * sizeof(float), s.sent.data(), nullptr, &s.read),
               "GroupNbody: reading member " + std::to_string(s.member) + "'s positions");
      check_cl(s.ctx->queue().flush(), "GroupNbody: clFlush");
    }
    if (slices.size() < 2) return;
    // The exchange's time: from every slice drifted to every copy written.
    for (Slice& s : slices) check_cl(s.drifted.wait(), "GroupNbody: waiting for the drift");
    const auto start = std::chrono::steady_clock::now();
    for (Slice& s : slices) check_cl(s.read.wait(), "GroupNbody: waiting for positions");
    for (Slice& to : slices) {
      for (const Slice& from : slices)
        if (&from != &to) std::copy(from.sent.begin(), from.sent.end(), to.received.data() + 4 * from.first);
      for (const Slice& from : slices) {
        if (&from == &to) continue;
        check_cl(to.ctx->queue().enqueueWriteBuffer(to.positions.cl_buffer(), CL_FALSE, 4 * from.first * sizeof(float),
                                                    4 * from.count * sizeof(float), to.received.data() + 4 * from.first,
                                                    nullptr, &to.written),
                 "GroupNbody: writing member " + std::to_string(to.member) + "'s copy of the positions");
      }
      check_cl(to.ctx->queue().flush(), "GroupNbody: clFlush");
    }
    for (Slice& to : slices) check_cl(to.written.wait(), "GroupNbody: waiting for a position write");
    exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

GroupNbody::GroupNbody(DeviceGroup& group, const std::vector<float>& bodies, const std::vector<float>& velocities,
                       const NbodyOptions& o)
    : state_(std::make_unique<State>()) {
  if (!(o.softening > 0) || !std::isfinite(o.softening))
    throw Error("GroupNbody: softening " + std::to_string(o.softening) +
                " must be a finite length above 0 (a body's own term is 0/0 without it)");
  if (!std::isfinite(o.gravity)) throw Error("GroupNbody: gravity must be finite");
  if (bodies.size() % 4)
    throw Error("GroupNbody: bodies has " + std::to_string(bodies.size()) + " floats, not 4 per body (x, y, z, m)");
  if (velocities.size() != bodies.size())
    throw Error("GroupNbody: velocities has " + std::to_string(velocities.size()) + " floats but bodies has " +
                std::to_string(bodies.size()));
  State& s = *state_;
  s.group = &group;
  s.n = bodies.size() / 4;
  s.options = o;
  s.why = "rule group.split: " + group.explain_split(s.n);
  const std::vector<std::size_t> offsets = group.split(s.n);
  for (std::size_t m = 0; m < group.size(); ++m) {
    const std::size_t first = offsets[m], count = offsets[m + 1] - first;
    if (!count) continue;
    s.slices.emplace_back(group.context(m), m, first, count, s.n);
    Slice& slice = s.slices.back();
    slice.positions.upload(bodies);
    slice.velocities.upload(std::vector<float>(velocities.begin() + std::ptrdiff_t(4 * first),
                                               velocities.begin() + std::ptrdiff_t(4 * (first + count))));
    nbody_slice_accelerations(*slice.ctx, slice.positions, first, count, slice.accelerations, o);
  }
}

GroupNbody::~GroupNbody() = default;

void GroupNbody::step(float dt) {
  if (!std::isfinite(dt)) throw Error("GroupNbody::step: the time step must be finite");
  State& s = *state_;
  for (Slice& slice : s.slices)
    nbody_slice_kick_drift(*slice.ctx, slice.positions, slice.first, slice.count, slice.velocities, slice.accelerations,
                           dt, s.options);
  s.share_positions();
  for (Slice& slice : s.slices) {
    nbody_slice_accelerations(*slice.ctx, slice.positions, slice.first, slice.count, slice.accelerations, s.options);
    nbody_slice_kick(*slice.ctx, slice.count, slice.velocities, slice.accelerations, dt, s.options);
  }
}

namespace {

// Each slice's buffer read into its place of an n-body array.
template <class Pick>
std::vector<float> gather_slices(const std::vector<Slice>& slices, std::size_t n, Pick pick, std::size_t offset) {
  std::vector<float> all(4 * n);
  for (const Slice& s : slices)
    check_cl(s.ctx->queue().enqueueReadBuffer(pick(s).cl_buffer(), CL_TRUE, 4 * offset * s.first * sizeof(float),
                                              4 * s.count * sizeof(float), all.data() + 4 * s.first),
             "GroupNbody: reading member " + std::to_string(s.member) + "'s slice");
  return all;
}

}  // namespace

std::vector<float> GroupNbody::bodies() const {
  return gather_slices(
      state_->slices, state_->n, [](const Slice& s) -> const Buffer<float>& { return s.positions; }, 1);
}
std::vector<float> GroupNbody::velocities() const {
  return gather_slices(
      state_->slices, state_->n, [](const Slice& s) -> const Buffer<float>& { return s.velocities; }, 0);
}
std::vector<float> GroupNbody::accelerations() const {
  return gather_slices(
      state_->slices, state_->n, [](const Slice& s) -> const Buffer<float>& { return s.accelerations; }, 0);
}

std::string GroupNbody::describe() const {
  std::ostringstream text;
  for (const Slice& s : state_->slices)
    text << "member " << s.member << ": bodies " << s.first << " to " << s.first + s.count << " (" << s.count << ")\n";
  return text.str() + state_->why;
}

double GroupNbody::exchange_seconds() const { return state_->exchanging; }

}  // namespace portacl
