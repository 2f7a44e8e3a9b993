// SPDX-License-Identifier: Apache-2.0
// Distributed CG: the row partition of the device groups (every rank
// derives the whole of it), halos by non-blocking point-to-point messages
// overlapped with the interior product, dots by MPI_Allreduce.
#include "portacl/mpi.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/aliasing.hpp"
#include "kernels/sparse/halo_product.hpp"
#include "kernels/sparse/halo_send.hpp"
#include "kernels/sparse/split_cg.hpp"
#include "kernels/sparse/krylov_loop.hpp"
#include "kernels/sparse/row_partition.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "portacl/sparse.hpp"
#include "mpi/datatype.hpp"
#include "portacl/buffer.hpp"

namespace portacl::mpi {

template <class T>
struct DistributedMatrix<T>::State {
  State(Context& c, const std::vector<std::uint32_t>& send_index, std::size_t halo)
      : ctx(&c), send(c, send_index, "distributed product"), receive_host(c, halo), halo_x(c, halo) {}
  ~State() {
    // The last halo write reads receive_host: done before it goes.
    if (halo_written()) halo_written.wait();
  }
  Context* ctx;
  MPI_Comm comm;
  int rank = 0, size = 1;
  std::size_t n = 0, first = 0, count = 0;
  std::unique_ptr<SparseMatrix<T>> interior;
  std::unique_ptr<HaloProduct<T>> halo;
  std::vector<T> diagonal;                      // this rank's rows' diagonal entries, for Jacobi
  std::vector<std::size_t> send_to, halo_from;  // ranks + 1 offsets
  HaloSend<T> send;
  HostBuffer<T> receive_host;
  Buffer<T> halo_x;
  cl::Event halo_written;  // receive_host -> halo_x; done before receive_host is refilled
  double exchanging = 0;
};

template <class T>
DistributedMatrix<T>::DistributedMatrix(Context& ctx, MPI_Comm comm, const HostCsr<T>& whole) {
  const std::string problem = csr_problem(whole);
  if (!problem.empty()) throw Error(rank_prefix(comm) + "the matrix: " + problem);
  if (whole.rows != whole.cols)
    throw Error(rank_prefix(comm) + "the matrix is " + std::to_string(whole.rows) + " x " + std::to_string(whole.cols) +
                "; CG needs a square one");
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RowPartition<T> p = partition_rows(whole, rank_split(whole.rows, comm));
  const RowBlock<T>& mine = p.blocks[std::size_t(rank)];
  state_ = std::make_unique<State>(ctx, p.send_index[std::size_t(rank)], mine.halo_columns.size());
  State& s = *state_;
  s.comm = comm;
  s.rank = rank;
  s.size = size;
  s.n = whole.rows;
  s.first = mine.first_row;
  s.count = mine.rows;
  s.send_to = p.send_to[std::size_t(rank)];
  s.halo_from = mine.halo_from;
  if (mine.rows) s.interior = std::make_unique<SparseMatrix<T>>(ctx, mine.local);
  s.diagonal = block_diagonal(mine);
  if (mine.halo.nnz()) s.halo = std::make_unique<HaloProduct<T>>(ctx, mine.halo);
}

template <class T>
DistributedMatrix<T>::~DistributedMatrix() = default;
template <class T>
std::size_t DistributedMatrix<T>::rows() const {
  return state_->n;
}
template <class T>
std::size_t DistributedMatrix<T>::first_row() const {
  return state_->first;
}
template <class T>
std::size_t DistributedMatrix<T>::local_rows() const {
  return state_->count;
}
template <class T>
MPI_Comm DistributedMatrix<T>::comm() const {
  return state_->comm;
}
template <class T>
double DistributedMatrix<T>::exchange_seconds() const {
  return state_->exchanging;
}
template <class T>
Context& DistributedMatrix<T>::context() const {
  return *state_->ctx;
}

template <class T>
void DistributedMatrix<T>::multiply(const Buffer<T>& x, Buffer<T>& y) const {
  State& s = *state_;
  Context& ctx = *s.ctx;
  if (x.size() != s.count || y.size() != s.count)
    throw Error(rank_prefix(s.comm) + "multiply: x has " + std::to_string(x.size()) + " and y " +
                std::to_string(y.size()) + " elements; this rank holds " + std::to_string(s.count) + " rows");
  const std::string op = rank_prefix(s.comm) + "multiply";
  aliasing::refuse_overlap(op.c_str(), aliasing::whole(y), "y", aliasing::whole(x), "x",
                           "every y element reads many of x");
  if (s.halo_written()) check_cl(s.halo_written.wait(), rank_prefix(s.comm) + "waiting for the last halo write");
  std::vector<MPI_Request> requests;
  for (int from = 0; from < s.size; ++from) {
    const std::size_t at = s.halo_from[std::size_t(from)], count = s.halo_from[std::size_t(from) + 1] - at;
    if (count == 0) continue;
    requests.emplace_back();
    MPI_Irecv(s.receive_host.data() + at, message_count(count, s.comm), datatype<T>(), from, 0, s.comm,
              &requests.back());
  }
  s.send.post(x);
  if (s.interior) spmv(ctx, T(1), *s.interior, x, T(0), y);  // overlaps the read and the messages
  check_cl(ctx.queue().flush(), "clFlush");
  const auto start = std::chrono::steady_clock::now();
  s.send.wait();
  for (int to = 0; to < s.size; ++to) {
    const std::size_t at = s.send_to[std::size_t(to)], count = s.send_to[std::size_t(to) + 1] - at;
    if (count == 0) continue;
    requests.emplace_back();
    MPI_Isend(s.send.host() + at, message_count(count, s.comm), datatype<T>(), to, 0, s.comm, &requests.back());
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  s.exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.halo) {
    // Not a blocking upload: that would hold the host until the interior
    // product is done, and leave the device idle while it then enqueues.
    check_cl(ctx.queue().enqueueWriteBuffer(s.halo_x.cl_buffer(), CL_FALSE, 0, s.halo_x.size() * sizeof(T),
                                            s.receive_host.data(), nullptr, &s.halo_written),
             rank_prefix(s.comm) + "writing the halo entries");
    ctx.record(s.halo_written);
    s.halo->add(T(1), s.halo_x, y);
  }
}

namespace {

// The local sums, added over the ranks in one MPI_Allreduce.
template <std::size_t N>
std::array<double, N> global_sums(const std::array<double, N>& local, MPI_Comm comm) {
  std::array<double, N> total{};
  MPI_Allreduce(local.data(), total.data(), int(N), MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

// This rank's rows (krylov_loop.hpp's Rows): its block of every vector,
// the sums added over the ranks in one MPI_Allreduce.
template <class T>
class RankRows : public RowsVectors<Buffer<T>> {
 public:
  RankRows(const DistributedMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
           SplitCgBlock<T>& block)
      : RowsVectors<Buffer<T>>(x, [&ctx = a.context(), m = a.local_rows()] { return Buffer<T>(ctx, m); }),
        a_(a),
        b_(b),
        ctx_(a.context()),
        m_(a.local_rows()),
        block_(block) {
    if (o.jacobi) u_owned_.emplace(ctx_, m_);
    b_norm_ = std::sqrt(global_sums<1>({{m_ ? double(dot(ctx_, b, b)) : 0.0}}, a.comm())[0]);
  }

  double b_norm() const { return b_norm_; }
  void zero_x() {
    r_is_residual_ = false;
    if (m_) fill(ctx_, x_, T(0));
  }
  void begin_residual() {
    if (!r_is_residual_) residual_into_r();  // a restart's r is the true residual residual_norm() left
    r_is_residual_ = false;                  // the iterations move x and r apart from b - A x
  }
  void begin() {
    begin_residual();
    if (m_) {
      fill(ctx_, p_, T(0));  // the first update takes p = u and s = w (beta = 0)
      fill(ctx_, s_, T(0));
    }
    block_.start(r_, u());
  }
  // w = A u, then the sums over every rank.
  std::array<double, 3> sums() {
    a_.multiply(u(), w_);
    block_.close(w_, u());
    return global_sums<3>(block_.sums(), a_.comm());
  }
  void update(double alpha, double beta) { block_.update(T(alpha), T(beta), x_, r_, u(), p_, s_, w_); }
  // BiCGStab's exchange-and-reduce (krylov_loop.hpp).
  using Vector = Buffer<T>;
  void multiply(const Vector& in, Vector& out) { a_.multiply(in, out); }
  bool preconditioned() const { return u_owned_.has_value(); }
  void precondition(Vector& in, Vector& out) { block_.start(in, out); }
  template <std::size_t N>
  std::array<double, N> dots(const std::array<std::pair<const Vector*, const Vector*>, N>& pairs) {
    std::array<double, N> local{};
    if (m_) {  // every dot enqueued before the first is read: one wait for all N
      std::vector<DeviceValue<T>> values;
      for (std::size_t k = 0; k < N; ++k) values.push_back(dot_async(ctx_, *pairs[k].first, *pairs[k].second));
      for (std::size_t k = 0; k < N; ++k) local[k] = double(values[k].get());
    }
    return global_sums<N>(local, a_.comm());
  }
  void axpby(double a, const Vector& v, double b, Vector& y) {
    if (m_) portacl::axpby(ctx_, T(a), v, T(b), y);
  }
  void copy(const Vector& from, Vector& to) {
    if (m_) portacl::copy(ctx_, from, to);
  }

  // ||b - A x|| over every rank in the working precision, computed into r
  // (a restart's begin() takes it from there).
  double residual_norm() {
    residual_into_r();
    r_is_residual_ = true;
    return std::sqrt(global_sums<1>({{m_ ? double(dot(ctx_, r_, r_)) : 0.0}}, a_.comm())[0]);
  }

 private:
  Buffer<T>& u() { return u_owned_ ? *u_owned_ : r_; }
  void residual_into_r() {
    a_.multiply(x_, w_);
    if (m_) {
      portacl::copy(ctx_, b_, r_);
      portacl::axpy(ctx_, T(-1), w_, r_);  // r = b - A x
    }
  }

  using Base = RowsVectors<Buffer<T>>;
  using Base::x_, Base::r_, Base::w_, Base::p_, Base::s_;
  const DistributedMatrix<T>& a_;
  const Buffer<T>& b_;
  Context& ctx_;
  std::size_t m_;
  SplitCgBlock<T>& block_;
  std::optional<Buffer<T>> u_owned_;
  double b_norm_ = 0;
  bool r_is_residual_ = false;  ///< r holds b - A x of the current x
};

}  // namespace

// CG: krylov_loop.hpp's loop over this rank's rows, so each iteration
// has one all-reduce and one wait for the device. The vector work is one
// pass before the product and one after (SplitCgBlock); the product is of
// u, whose halo travels while the interior multiplies.
namespace {

// A Krylov solve across the ranks: the input checked on every rank, the
// vector passes made (a zero diagonal under Jacobi is refused on the rank
// that holds it; the others learn of it from an all-reduce and refuse too),
// then `loop` over this rank's rows.
template <class T, class Loop>
SolverResult distributed_solve(const char* op, const DistributedMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                               const SolverOptions& o, Loop loop) {
  Context& ctx = a.context();
  const std::size_t m = a.local_rows();
  const std::string where = rank_prefix(a.comm()) + op;
  if (b.size() != m || x.size() != m)
    throw Error(where + ": b has " + std::to_string(b.size()) + " and x " + std::to_string(x.size()) +
                " elements; this rank holds " + std::to_string(m) + " rows");
  aliasing::refuse_overlap(where.c_str(), aliasing::whole(x), "x", aliasing::whole(b), "b",
                           "the solver reads b while it writes x");
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw Error(where + ": the tolerance must be a finite number >= 0, not " + std::to_string(o.tolerance));
  if (o.criterion != SolverOptions::Criterion::relative_residual)
    throw Error(where + ": only the relative_residual criterion is built across ranks");
  std::unique_ptr<SplitCgBlock<T>> block;
  std::string refused;
  try {
    block = std::make_unique<SplitCgBlock<T>>(ctx, m, o.jacobi ? &a.state().diagonal : nullptr, a.first_row(), o.plan,
                                              where.c_str());
  } catch (const Error& e) {
    refused = e.what();
  }
  if (global_sums<1>({{refused.empty() ? 0.0 : 1.0}}, a.comm())[0] > 0)
    throw Error(refused.empty() ? where + ": another rank refused the solve (Jacobi needs a non-zero diagonal)"
                                : refused);
  RankRows<T> rows(a, b, x, o, *block);
  return loop(rows);
}

}  // namespace

template <class T>
SolverResult distributed_cg(const DistributedMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o) {
  return distributed_solve("distributed_cg", a, b, x, o,
                           [&o](RankRows<T>& rows) { return verified_split_solve(rows, o, false); });
}

template <class T>
SolverResult distributed_bicgstab(const DistributedMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                                  const SolverOptions& o) {
  return distributed_solve("distributed_bicgstab", a, b, x, o,
                           [&o](RankRows<T>& rows) { return verified_split_solve(rows, o, true); });
}

template class DistributedMatrix<float>;
template class DistributedMatrix<double>;
template SolverResult distributed_cg<float>(const DistributedMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                            const SolverOptions&);
template SolverResult distributed_cg<double>(const DistributedMatrix<double>&, const Buffer<double>&, Buffer<double>&,
                                             const SolverOptions&);
template SolverResult distributed_bicgstab<float>(const DistributedMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                                  const SolverOptions&);
template SolverResult distributed_bicgstab<double>(const DistributedMatrix<double>&, const Buffer<double>&,
                                                   Buffer<double>&, const SolverOptions&);

}  // namespace portacl::mpi
