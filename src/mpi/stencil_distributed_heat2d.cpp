// SPDX-License-Identifier: Apache-2.0
// Heat 2D across MPI ranks: a heat slab a rank, ghost rows by Isend/Irecv
// of the edge rows read back while the slab steps.
#include "portacl/mpi.hpp"

#include <algorithm>
#include <chrono>

#include "kernels/stencil/heat_slab.hpp"
#include "mpi/datatype.hpp"

namespace portacl::mpi {

namespace {
// Message tags: rows travelling down the grid (to the next rank) and up.
constexpr int going_down = 1, going_up = 2;
}  // namespace

template <class T>
struct DistributedHeat2d<T>::State {
  MPI_Comm comm;
  std::size_t rank = 0;
  std::string name;
  std::size_t rows = 0, cols = 0, k = 1;
  std::vector<std::size_t> offsets;
  std::string why;
  std::unique_ptr<HeatSlab<T>> slab;  // none on a rank without rows
  int up = MPI_PROC_NULL, down = MPI_PROC_NULL;
  double exchanging = 0;
};

template <class T>
DistributedHeat2d<T>::DistributedHeat2d(Context& ctx, MPI_Comm comm, const std::vector<T>& field, std::size_t rows,
                                        std::size_t cols, std::optional<std::size_t> halo_rows)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = comm;
  s.name = rank_prefix(comm);
  s.name.resize(s.name.size() - 2);  // "rank 1 of 3"
  s.rows = rows;
  s.cols = cols;
  s.offsets = rank_split(rows, comm);
  const SlabLayout layout = slab_layout(s.name + ": DistributedHeat2d", field.size(), rows, cols, s.offsets, halo_rows);
  s.k = layout.k;
  s.why = layout.why + " (ranks share the rows equally)";
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  s.rank = std::size_t(rank);
  const auto a = std::find(layout.active.begin(), layout.active.end(), std::size_t(rank));
  if (a == layout.active.end()) return;
  if (a != layout.active.begin()) s.up = int(*(a - 1));
  if (a + 1 != layout.active.end()) s.down = int(*(a + 1));
  const std::size_t first = s.offsets[std::size_t(rank)], own = s.offsets[std::size_t(rank) + 1] - first;
  s.slab = std::make_unique<HeatSlab<T>>(ctx, s.name, first, own, s.up != MPI_PROC_NULL ? s.k : 0,
                                         s.down != MPI_PROC_NULL ? s.k : 0, cols, s.k);
  s.slab->upload_from(field);
}

template <class T>
DistributedHeat2d<T>::~DistributedHeat2d() = default;

template <class T>
void DistributedHeat2d<T>::advance(const HeatOptions<T>& o) {
  State& s = *state_;
  check_slab_options(s.name + ": DistributedHeat2d::advance", o);
  if (!s.slab) return;
  HeatSlab<T>& slab = *s.slab;
  if (o.sides) slab.set_sides(s.rows, *o.sides);
  HeatOptions<T> chunk = o;
  chunk.sides.reset();
  const int count = message_count(s.k * s.cols, s.comm);
  for (std::size_t done = 0; done < o.steps; done += chunk.steps) {
    chunk.steps = std::min(s.k, o.steps - done);
    slab.step(chunk);
    if (s.up == MPI_PROC_NULL && s.down == MPI_PROC_NULL) continue;
    slab.wait_bands();
    const auto start = std::chrono::steady_clock::now();
    MPI_Request requests[4];
    int posted = 0;
    if (slab.above)
      MPI_Irecv(slab.receive_up.data(), count, datatype<T>(), s.up, going_down, s.comm, &requests[posted++]);
    if (slab.below)
      MPI_Irecv(slab.receive_down.data(), count, datatype<T>(), s.down, going_up, s.comm, &requests[posted++]);
    slab.wait_edges();
    if (slab.above) MPI_Isend(slab.send_up.data(), count, datatype<T>(), s.up, going_up, s.comm, &requests[posted++]);
    if (slab.below)
      MPI_Isend(slab.send_down.data(), count, datatype<T>(), s.down, going_down, s.comm, &requests[posted++]);
    MPI_Waitall(posted, requests, MPI_STATUSES_IGNORE);
    slab.write_ghosts();
    s.exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
}

template <class T>
std::vector<T> DistributedHeat2d<T>::local_field() const {
  const State& s = *state_;
  std::vector<T> mine(local_rows() * s.cols);
  if (s.slab) s.slab->download_into(mine.data());
  return mine;
}

template <class T>
std::size_t DistributedHeat2d<T>::first_row() const {
  return state_->offsets[state_->rank];
}

template <class T>
std::size_t DistributedHeat2d<T>::local_rows() const {
  return state_->offsets[state_->rank + 1] - state_->offsets[state_->rank];
}

template <class T>
std::vector<T> DistributedHeat2d<T>::gather() const {
  const State& s = *state_;
  const std::vector<T> mine = local_field();
  std::vector<int> counts, displacements;
  for (std::size_t r = 0; r + 1 < s.offsets.size(); ++r) {
    counts.push_back(message_count((s.offsets[r + 1] - s.offsets[r]) * s.cols, s.comm));
    displacements.push_back(message_count(s.offsets[r] * s.cols, s.comm));
  }
  std::vector<T> all(s.rows * s.cols);
  MPI_Allgatherv(mine.data(), message_count(mine.size(), s.comm), datatype<T>(), all.data(), counts.data(),
                 displacements.data(), datatype<T>(), s.comm);
  return all;
}

template <class T>
std::size_t DistributedHeat2d<T>::halo_rows() const {
  return state_->k;
}

template <class T>
double DistributedHeat2d<T>::exchange_seconds() const {
  return state_->exchanging;
}

template <class T>
std::string DistributedHeat2d<T>::describe() const {
  const State& s = *state_;
  return s.name + ": rows " + std::to_string(first_row()) + " to " + std::to_string(first_row() + local_rows()) +
         ", neighbours above " + (s.up == MPI_PROC_NULL ? "none" : std::to_string(s.up)) + " and below " +
         (s.down == MPI_PROC_NULL ? "none" : std::to_string(s.down)) + "\n" + s.why;
}

template class DistributedHeat2d<float>;
template class DistributedHeat2d<double>;

}  // namespace portacl::mpi
