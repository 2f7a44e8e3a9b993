// SPDX-License-Identifier: Apache-2.0
// N-body across MPI ranks: a slice a rank, positions passed round a ring.
#include "portacl/mpi.hpp"

#include <chrono>
#include <cmath>

#include "kernels/particles/nbody_slice.hpp"
#include "mpi/datatype.hpp"

namespace portacl::mpi {

struct DistributedNbody::State {
  MPI_Comm comm;
  std::size_t rank = 0;
  std::string name;
  std::size_t n = 0;
  NbodyOptions options;
  std::vector<std::size_t> offsets;
  std::vector<int> ring;  // the ranks with bodies, in order
  std::size_t place = 0;  // this rank's place in the ring
  std::unique_ptr<NbodySlice> slice;
  double exchanging = 0;

  // Every slice's positions to every rank with bodies, round the ring.
  void pass_positions() {
    NbodySlice& me = *slice;
    const std::size_t p = ring.size();
    check_cl(me.drifted.wait(), name + ": waiting for the drift");
    const auto start = std::chrono::steady_clock::now();
    check_cl(me.read.wait(), name + ": waiting for its positions");
    const int next = ring[(place + 1) % p], previous = ring[(place + p - 1) % p];
    for (std::size_t stage = 1; stage < p; ++stage) {
      // Pass on the block that arrived last (this rank's own first); take the one before it.
      const std::size_t passed = std::size_t(ring[(place + p - stage + 1) % p]);
      const std::size_t taken = std::size_t(ring[(place + p - stage) % p]);
      MPI_Request requests[2];
      MPI_Irecv(me.received.data() + 4 * offsets[taken], message_count(4 * (offsets[taken + 1] - offsets[taken]), comm),
                MPI_FLOAT, previous, int(stage), comm, &requests[0]);
      MPI_Isend(me.received.data() + 4 * offsets[passed],
                message_count(4 * (offsets[passed + 1] - offsets[passed]), comm), MPI_FLOAT, next, int(stage), comm,
                &requests[1]);
      MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
      me.write_positions(me.received.data(), offsets[taken], offsets[taken + 1] - offsets[taken]);
    }
    if (p > 1) check_cl(me.written.wait(), name + ": waiting for a position write");
    exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

DistributedNbody::DistributedNbody(Context& ctx, MPI_Comm comm, const std::vector<float>& bodies,
                                   const std::vector<float>& velocities, const NbodyOptions& o)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = comm;
  s.name = rank_prefix(comm);
  s.name.resize(s.name.size() - 2);
  check_split_nbody_inputs(s.name + ": DistributedNbody", bodies, velocities, o);
  s.n = bodies.size() / 4;
  s.options = o;
  s.offsets = rank_split(s.n, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  s.rank = std::size_t(rank);
  for (std::size_t r = 0; r + 1 < s.offsets.size(); ++r)
    if (s.offsets[r + 1] > s.offsets[r]) {
      if (int(r) == rank) s.place = s.ring.size();
      s.ring.push_back(int(r));
    }
  if (count() == 0) return;
  s.slice = std::make_unique<NbodySlice>(ctx, s.name, first(), count(), s.n);
  s.slice->load(bodies, velocities, o);
}

DistributedNbody::~DistributedNbody() = default;

void DistributedNbody::step(float dt) {
  State& s = *state_;
  if (!std::isfinite(dt)) throw Error(s.name + ": DistributedNbody::step: the time step must be finite");
  if (!s.slice) return;
  s.slice->kick_drift_and_read(dt, s.slice->received.data() + 4 * s.slice->first, s.options);
  s.pass_positions();
  s.slice->forces_and_kick(dt, s.options);
}

std::size_t DistributedNbody::first() const { return state_->offsets[state_->rank]; }

std::size_t DistributedNbody::count() const {
  return state_->offsets[state_->rank + 1] - state_->offsets[state_->rank];
}

namespace {
std::vector<float> gather_slices(MPI_Comm comm, const std::vector<std::size_t>& offsets, std::vector<float> mine) {
  std::vector<int> counts, displacements;
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    counts.push_back(message_count(4 * (offsets[r + 1] - offsets[r]), comm));
    displacements.push_back(message_count(4 * offsets[r], comm));
  }
  std::vector<float> all(4 * offsets.back());
  MPI_Allgatherv(mine.data(), message_count(mine.size(), comm), MPI_FLOAT, all.data(), counts.data(),
                 displacements.data(), MPI_FLOAT, comm);
  return all;
}
}  // namespace

std::vector<float> DistributedNbody::bodies() const {
  const State& s = *state_;
  std::vector<float> mine(4 * count());
  if (s.slice)
    check_cl(s.slice->ctx->queue().enqueueReadBuffer(s.slice->positions.cl_buffer(), CL_TRUE,
                                                     4 * s.slice->first * sizeof(float), mine.size() * sizeof(float),
                                                     mine.data()),
             s.name + ": reading its bodies");
  return gather_slices(s.comm, s.offsets, std::move(mine));
}

std::vector<float> DistributedNbody::velocities() const {
  const State& s = *state_;
  return gather_slices(s.comm, s.offsets, s.slice ? s.slice->velocities.download() : std::vector<float>{});
}

double DistributedNbody::exchange_seconds() const { return state_->exchanging; }

}  // namespace portacl::mpi
