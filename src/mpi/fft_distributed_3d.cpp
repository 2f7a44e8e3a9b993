// SPDX-License-Identifier: Apache-2.0
// The 3D FFT across MPI ranks, in slabs: the rank's planes by its 2D
// transforms, an MPI_Alltoallv into columns of axis 1, their 1D
// transforms, and the all-to-all back, or the spectrum left in the columns
// (forward_to_columns, inverse_from_columns: one all-to-all). The slab is
// transposed on the device so that each rank's block is contiguous
// (src/kernels/fft_slabs.hpp, as the device group's); the messages go
// between pinned host buffers kept between calls, and each received block
// lands in the columns as a rectangle copy.
#include "portacl/mpi.hpp"

#include <chrono>
#include <cstring>
#include <optional>

#include "kernels/fft_slabs.hpp"
#include "portacl/vectors.hpp"
#include "kernels/kernel_call.hpp"
#include "mpi/datatype.hpp"

namespace portacl::mpi {

template <class T>
struct DistributedFft3d<T>::State {
  Context* ctx = nullptr;
  MPI_Comm comm;
  std::size_t rank = 0, size = 1;
  std::string prefix;
  std::size_t n0 = 0, n1 = 0, n2 = 0;
  std::vector<std::size_t> planes, columns;
  std::optional<BasicFft<T>> plane_fft, column_fft;
  std::optional<Buffer<T>> column_data;         // [i1 - c0][i2][i0]
  std::optional<Buffer<T>> packed;              // the slab transposed: [i1][i2][i0 - p0]
  std::optional<HostBuffer<T>> sent, received;  // pinned: the packed slab, the blocks for the columns
  LaunchPlan transpose;                         // plan_fft_slab_transpose
  double exchanging = 0;

  std::size_t count(const std::vector<std::size_t>& split, std::size_t r) const { return split[r + 1] - split[r]; }
  // Rank i's block of rank j's columns: where its rows land.
  FftSlabRows block(std::size_t i, std::size_t j) const {
    return {planes[i], count(planes, i), count(columns, j), n0, n2};
  }
  // T values of the block rank i sends rank j on the way to the columns.
  std::size_t block_values(std::size_t i, std::size_t j) const { return 2 * count(planes, i) * count(columns, j) * n2; }
  std::size_t slab_values() const { return 2 * count(planes, rank) * n1 * n2; }
  std::size_t column_values() const { return 2 * count(columns, rank) * n2 * n0; }
  void transform(Buffer<T>& slab, bool inverse);
  // One all-to-all: forward from the slab into `columns_here`, or inverse back.
  void one_way(Buffer<T>& slab, Buffer<T>& columns_here, bool inverse);
  // The all-to-all: the slab's planes into this rank's columns (`to`,
  // null where it has none), or back.
  void to_columns(const Buffer<T>& slab, Buffer<T>* to);
  void to_planes(Buffer<T>* from, Buffer<T>& slab);
  void all_to_all(const T* send, T* receive, bool to_columns) const;
};

template <class T>
DistributedFft3d<T>::DistributedFft3d(Context& ctx, MPI_Comm comm, std::array<std::size_t, 3> shape,
                                      const PlanOptions& plan)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.ctx = &ctx;
  s.comm = comm;
  s.prefix = rank_prefix(comm);
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  s.rank = std::size_t(rank), s.size = std::size_t(size);
  for (std::size_t k = 0; k < 3; ++k)
    if (shape[k] == 0)
      throw Error(s.prefix + "distributed fft: length " + std::to_string(k) + " is 0; every length is at least 1");
  s.n0 = shape[0], s.n1 = shape[1], s.n2 = shape[2];
  s.planes = rank_split(s.n0, comm);
  s.columns = rank_split(s.n1, comm);
  FftOptions o;
  o.plan = plan;
  try {
    if (const std::size_t planes = s.count(s.planes, s.rank)) {
      o.batch = planes;
      s.plane_fft.emplace(ctx, std::vector<std::size_t>{s.n1, s.n2}, o);
    }
    if (const std::size_t columns = s.count(s.columns, s.rank)) {
      o.batch = columns * s.n2;
      s.column_fft.emplace(ctx, std::vector<std::size_t>{s.n0}, o);
      s.column_data.emplace(ctx, 2 * columns * s.n2 * s.n0);
    }
    s.transpose = plan_fft_slab_transpose(live_planner(ctx, plan), element_of<T>::value, s.slab_values() / 2);
    if (s.slab_values()) s.packed.emplace(ctx, s.slab_values());
    s.sent.emplace(ctx, s.slab_values());
    s.received.emplace(ctx, s.column_values());
  } catch (const Error& e) {
    throw Error(s.prefix + e.what());
  }
}

template <class T>
DistributedFft3d<T>::~DistributedFft3d() = default;

// Each rank's blocks to every rank, in rank order: to the columns, rank i
// sends its planes of j's columns; back, the columns' blocks return.
template <class T>
void DistributedFft3d<T>::State::all_to_all(const T* send, T* receive, bool to_columns) const {
  std::vector<int> send_counts(size), send_at(size), receive_counts(size), receive_at(size);
  std::size_t out_at = 0, in_at = 0;  // T values before rank r's message, each way
  for (std::size_t r = 0; r < size; ++r) {
    const std::size_t out = to_columns ? block_values(rank, r) : block_values(r, rank);
    const std::size_t in = to_columns ? block_values(r, rank) : block_values(rank, r);
    send_counts[r] = message_count(out, comm);
    send_at[r] = message_count(out_at, comm);
    receive_counts[r] = message_count(in, comm);
    receive_at[r] = message_count(in_at, comm);
    out_at += out;
    in_at += in;
  }
  MPI_Alltoallv(send, send_counts.data(), send_at.data(), datatype<T>(), receive, receive_counts.data(),
                receive_at.data(), datatype<T>(), comm);
}

template <class T>
void DistributedFft3d<T>::State::to_columns(const Buffer<T>& slab, Buffer<T>* to) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t mine = count(planes, rank);
  // The slab transposed on the device: rank j's block is the j-th run.
  if (packed) {
    transpose_slab(transpose, slab, *packed, mine, n1 * n2);
    ctx->queue().enqueueReadBuffer(packed->cl_buffer(), CL_TRUE, 0, slab_values() * sizeof(T), sent->data());
  }
  all_to_all(sent->data(), received->data(), true);
  // Rank i's block, its rows at plane planes[i] of the columns.
  if (to) {
    for (std::size_t i = 0; i < size; ++i)
      move_slab_rows(*to, received->data() + 2 * planes[i] * count(columns, rank) * n2, block(i, rank), true, false);
    ctx->finish();
  }
  exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
void DistributedFft3d<T>::State::to_planes(Buffer<T>* from, Buffer<T>& slab) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t mine = count(planes, rank);
  if (from) {
    for (std::size_t i = 0; i < size; ++i)
      move_slab_rows(*from, received->data() + 2 * planes[i] * count(columns, rank) * n2, block(i, rank), false, false);
    ctx->finish();
  }
  all_to_all(received->data(), sent->data(), false);
  if (packed) {
    ctx->queue().enqueueWriteBuffer(packed->cl_buffer(), CL_TRUE, 0, slab_values() * sizeof(T), sent->data());
    transpose_slab(transpose, *packed, slab, n1 * n2, mine);
  }
  exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
void DistributedFft3d<T>::State::transform(Buffer<T>& slab, bool inverse) {
  Buffer<T>* columns_here = column_data ? &*column_data : nullptr;
  if (plane_fft) inverse ? plane_fft->inverse(slab) : plane_fft->forward(slab);
  to_columns(slab, columns_here);
  if (column_fft) inverse ? column_fft->inverse(*columns_here) : column_fft->forward(*columns_here);
  to_planes(columns_here, slab);
}

namespace {

// `part` ("slab" or "columns") on this rank's context, holding `need`
// values: this rank's `count` planes (columns of axis 1).
template <class T>
void check_part(const std::string& prefix, Context& ctx, const Buffer<T>& buffer, const char* part, std::size_t need,
                std::size_t count) {
  const std::string op = prefix + "distributed fft";
  const bool slab = std::string(part) == "slab";
  kernel_call::same_context(ctx, buffer, op.c_str(), part);
  kernel_call::need_elements(op.c_str(), (std::string("the ") + part).c_str(), buffer.size(), need,
                             "this rank's " + std::to_string(count) + (slab ? " planes" : " columns of axis 1"));
}

}  // namespace

template <class T>
void DistributedFft3d<T>::forward(Buffer<T>& slab) const {
  State& s = *state_;
  check_part(s.prefix, *s.ctx, slab, "slab", s.slab_values(), s.count(s.planes, s.rank));
  s.transform(slab, false);
}

template <class T>
void DistributedFft3d<T>::inverse(Buffer<T>& slab) const {
  State& s = *state_;
  check_part(s.prefix, *s.ctx, slab, "slab", s.slab_values(), s.count(s.planes, s.rank));
  s.transform(slab, true);
}

template <class T>
void DistributedFft3d<T>::State::one_way(Buffer<T>& slab, Buffer<T>& columns_here, bool inverse) {
  check_part(prefix, *ctx, slab, "slab", slab_values(), count(planes, rank));
  check_part(prefix, *ctx, columns_here, "columns", column_values(), count(columns, rank));
  Buffer<T>* mine = column_fft ? &columns_here : nullptr;
  if (!inverse) {
    if (plane_fft) plane_fft->forward(slab);
    to_columns(slab, mine);
  }
  if (column_fft) inverse ? column_fft->inverse(columns_here) : column_fft->forward(columns_here);
  if (inverse) {
    to_planes(mine, slab);
    if (plane_fft) plane_fft->inverse(slab);
  }
}

template <class T>
void DistributedFft3d<T>::forward_to_columns(Buffer<T>& slab, Buffer<T>& columns) const {
  state_->one_way(slab, columns, false);
}

template <class T>
void DistributedFft3d<T>::inverse_from_columns(Buffer<T>& columns, Buffer<T>& slab) const {
  state_->one_way(slab, columns, true);
}

template <class T>
std::size_t DistributedFft3d<T>::column_elements() const {
  return state_->column_values();
}

template <class T>
const std::vector<std::size_t>& DistributedFft3d<T>::plane_offsets() const {
  return state_->planes;
}
template <class T>
const std::vector<std::size_t>& DistributedFft3d<T>::column_offsets() const {
  return state_->columns;
}
template <class T>
double DistributedFft3d<T>::exchange_seconds() const {
  return state_->exchanging;
}

template <class T>
std::string DistributedFft3d<T>::explain() const {
  const State& s = *state_;
  std::string text = s.prefix + "planes " + std::to_string(s.planes[s.rank]) + " to " +
                     std::to_string(s.planes[s.rank + 1]) + " of " + std::to_string(s.n0) + ", columns " +
                     std::to_string(s.columns[s.rank]) + " to " + std::to_string(s.columns[s.rank + 1]) + " of " +
                     std::to_string(s.n1) + " (equal splits)\n";
  if (s.plane_fft) text += s.plane_fft->explain();
  if (s.column_fft) text += s.column_fft->explain();
  return text;
}

template class DistributedFft3d<float>;
template class DistributedFft3d<double>;

}  // namespace portacl::mpi
