// SPDX-License-Identifier: Apache-2.0
// The MPI layer against single-process results, run under mpirun (2 and 3
// ranks in ctest). Every rank also computes the single-device result on its
// own device and compares: CG (plain and Jacobi) within tolerance of cg()
// and of a double host residual; BiCGStab (plain and Jacobi) on a
// nonsymmetric matrix to the tolerance of a double host residual; heat 2D
// and N-body bit for bit; two training steps within float rounding of one
// replica on the whole batch; the 3D FFT, forward and inverse, within the
// single-device transform's bound of the transform in double and beside
// the single-device result. Awkward sizes include fewer rows or bodies
// than ranks (a rank with nothing). The seed is PORTACL_TEST_SEED or drawn
// by rank 0, printed, and shared. Exit status: the number of failed checks
// on any rank.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>

#include "kernels/sparse/generators.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "portacl/mpi.hpp"
#include "tuning/fft_reference.hpp"
#include "tuning/sparse_reference.hpp"
#include "../unit/particles_leapfrog_margins.hpp"
#include "../unit/ml_training_margins.hpp"

using namespace portacl;

namespace {

MPI_Comm comm = MPI_COMM_WORLD;
int rank = 0, failures = 0, checks = 0;
std::mt19937_64 rng;

void check(bool ok, const std::string& what) {
  ++checks;
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "%sFAILED: %s\n", mpi::rank_prefix(comm).c_str(), what.c_str());
}

template <class T>
std::vector<T> uniform(std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = T(d(rng));
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A 2D Poisson matrix with rows and columns scaled by 1 to 10^3 (still
// symmetric positive definite): Jacobi preconditioning pays on it.
HostCsr<double> badly_scaled(std::size_t grid) {
  HostCsr<double> csr = poisson2d<double>(grid);
  const auto scale = [](std::size_t i) { return std::pow(10.0, 0.75 * double(i % 3)); };
  for (std::size_t r = 0; r < csr.rows; ++r)
    for (std::uint64_t k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) csr.value[k] *= scale(r) * scale(csr.col[k]);
  return csr;
}

// Every rank's part of a vector of n, gathered on every rank.
std::vector<double> gathered(const std::vector<double>& mine, std::size_t n) {
  std::vector<double> all(n);
  std::vector<int> counts, at;
  const std::vector<std::size_t> split = mpi::rank_split(n, comm);
  for (std::size_t r = 0; r + 1 < split.size(); ++r)
    counts.push_back(int(split[r + 1] - split[r])), at.push_back(int(split[r]));
  MPI_Allgatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), counts.data(), at.data(), MPI_DOUBLE, comm);
  return all;
}

// Converged means the true residual met the tolerance in the working
// precision; in double it stands within that measure's rounding.
void check_true_residual(const HostCsr<double>& csr, const std::vector<double>& b, const std::vector<double>& x_all,
                         const SolverResult& got, double tolerance, const std::string& what) {
  check(got.true_residual < tolerance, what + ": the solver's true residual " + std::to_string(got.true_residual));
  if (csr.rows == 0) return;
  const double in_double = reference::relative_residual(csr, b, x_all),
               bound = reference::true_residual_bound(csr, b, x_all, got.true_residual, reference::kDoubleU);
  check(in_double <= bound,
        what + ": true residual " + std::to_string(in_double) + " above its bound " + std::to_string(bound));
}

// What `call` throws (portacl::Error's message), or "" where it returns.
std::string refusal(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A solve's options on n rows: tolerance 1e-10, at most 4n + 10 iterations.
SolverOptions tight_options(std::size_t n, bool jacobi) {
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 4 * n + 10;
  o.jacobi = jacobi;
  return o;
}

// Distributed CG against cg() with the same options on this rank's device,
// and against the true residual in double. `grid`: csr is poisson2d(grid),
// permuted, or with its rows and columns scaled by factors of 1 to `spread`
// (spread > 1): its smallest eigenvalue is then at least poisson2d's, its
// condition number at most spread^2 times poisson2d's (Jacobi takes the
// scaling out: A / 4 exactly). Returns the iterations.
std::size_t check_cg(Context& ctx, const HostCsr<double>& csr, std::size_t grid, double spread, bool jacobi) {
  const std::size_t n = csr.rows;
  const std::vector<double> b = uniform<double>(n, -1, 1);
  const SolverOptions o = tight_options(n, jacobi);
  Buffer<double> b1(ctx, b), x1(ctx, std::vector<double>(n, 0.0));
  const SolverResult single = cg(ctx, SparseMatrix<double>(ctx, csr), b1, x1, o);
  const mpi::DistributedMatrix<double> a(ctx, comm, csr);
  const std::size_t first = a.first_row(), m = a.local_rows();
  Buffer<double> bl(ctx, std::vector<double>(b.begin() + std::ptrdiff_t(first), b.begin() + std::ptrdiff_t(first + m)));
  Buffer<double> xl(ctx, std::vector<double>(m, 0.0));
  const SolverResult got = mpi::distributed_cg(a, bl, xl, o);
  const std::string what = std::string(jacobi ? "CG with Jacobi" : "CG") + " on " + std::to_string(n) + " rows";
  check(got.converged, what + ": " + got.stop_reason);
  // Both within the Chebyshev bound (sparse_reference.hpp).
  const double lambda_min = reference::poisson2d_lambda_min(grid), lambda_max = reference::poisson2d_lambda_max(grid);
  const double kappa =
      reference::widened_condition(lambda_min, lambda_max, n, reference::kDoubleU) * (jacobi ? 1.0 : spread * spread);
  const std::size_t most = reference::cg_iteration_bound(kappa, o.tolerance);
  check(got.iterations <= most && single.iterations <= most,
        what + ": " + std::to_string(got.iterations) + " and " + std::to_string(single.iterations) +
            " iterations (distributed, one device) against the bound " + std::to_string(most));
  // Both are the same iteration in exact arithmetic: each within the
  // rounding delay of it, so within twice that of each other.
  const std::size_t delay = reference::cg_rounding_delay(kappa, std::max(got.iterations, single.iterations), 5,
                                                         reference::kDoubleU, o.tolerance);
  check(got.iterations <= single.iterations + 2 * delay && single.iterations <= got.iterations + 2 * delay,
        what + ": " + std::to_string(got.iterations) + " and " + std::to_string(single.iterations) +
            " iterations (distributed, one device) differ by more than twice the rounding delay " +
            std::to_string(delay));
  // This rank's part against cg()'s, and its rows of the true residual in double.
  const std::vector<double> mine = xl.download(), whole = x1.download();
  double difference = 0;
  for (std::size_t i = 0; i < m; ++i) {
    difference = std::max(difference, std::fabs(mine[i] - whole[first + i]));
  }
  const std::vector<double> x_all = gathered(mine, n);
  // A (x - x1) = (b - A x1) - (b - A x), so |x - x1| <= (||b - A x|| +
  // ||b - A x1||) / lambda_min, each residual bounded from its double value.
  const auto residual_norm = [&](const std::vector<double>& v) {
    return reference::true_residual_bound(csr, b, v, reference::relative_residual(csr, b, v), reference::kDoubleU);
  };
  double b_size = 0;
  for (double e : b) b_size += e * e;
  const double apart = (residual_norm(x_all) + residual_norm(whole)) * std::sqrt(b_size) / lambda_min;
  check(difference <= apart, what + ": differs from cg() by " + std::to_string(difference) + ", more than " +
                                 std::to_string(apart) + " (the residuals over lambda_min)");
  check_true_residual(csr, b, x_all, got, o.tolerance, what);
  return got.iterations;
}

// Distributed BiCGStab on a matrix that is not symmetric: converged, and
// its x (gathered) meets the tolerance in a double host residual.
void check_bicgstab(Context& ctx, const HostCsr<double>& csr, bool jacobi) {
  const std::size_t n = csr.rows;
  const std::vector<double> b = uniform<double>(n, -1, 1);
  const SolverOptions o = tight_options(n, jacobi);
  const mpi::DistributedMatrix<double> a(ctx, comm, csr);
  const std::size_t first = a.first_row(), m = a.local_rows();
  Buffer<double> bl(ctx, std::vector<double>(b.begin() + std::ptrdiff_t(first), b.begin() + std::ptrdiff_t(first + m)));
  Buffer<double> xl(ctx, std::vector<double>(m, -3.0));  // a start that is not 0
  const SolverResult got = mpi::distributed_bicgstab(a, bl, xl, o);
  const std::string what =
      std::string(jacobi ? "BiCGStab with Jacobi" : "BiCGStab") + " on " + std::to_string(n) + " rows";
  check(got.converged, what + ": " + got.stop_reason);
  check(got.history.size() == got.iterations, what + ": a residual per iteration");
  check_true_residual(csr, b, gathered(xl.download(), n), got, o.tolerance, what);
}

// b = 0 gives x = 0 at once, whatever x held.
void check_cg_zero_rhs(Context& ctx) {
  const mpi::DistributedMatrix<double> a(ctx, comm, poisson2d<double>(5));
  const std::size_t m = a.local_rows();
  Buffer<double> b(ctx, std::vector<double>(m, 0.0)), x(ctx, std::vector<double>(m, 3.0));
  const SolverResult r = mpi::distributed_cg(a, b, x, SolverOptions{});
  check(r.converged && r.iterations == 0, "CG with b = 0: " + r.stop_reason);
  check(same_bits(x.download(), std::vector<double>(m, 0.0)), "CG with b = 0 leaves x = 0");
}

template <class T>
void check_heat(Context& ctx, std::size_t rows, std::size_t cols, std::size_t steps, std::optional<std::size_t> halo) {
  const std::vector<T> u0 = uniform<T>(rows * cols, -1, 1);
  HeatOptions<T> o;
  o.r = T(0.2);
  o.steps = steps;
  o.sides = HeatSides<T>{T(0.75), T(-0.5), T(0.25), T(-1)};
  Buffer<T> single(ctx, u0);
  heat2d(ctx, single, rows, cols, o);
  mpi::DistributedHeat2d<T> heat(ctx, comm, u0, rows, cols, halo);
  heat.advance(o);
  check(same_bits(heat.gather(), single.download()), "heat " + std::to_string(rows) + " x " + std::to_string(cols) +
                                                         ", " + std::to_string(steps) +
                                                         " steps, not bit for bit heat2d's\n" + heat.describe());
}

// The 3D FFT across the ranks: every rank draws the same array, keeps its
// planes (poisoned one value past them) and transforms them; the squared
// error against the transform in double, and the difference from the
// single-device transform on the rank's device, are summed over the ranks.
// Transposed: forward into this rank's columns (poisoned one value past
// them), or inverse from them, holding the array in that layout.
template <class T>
void check_fft(Context& ctx, std::size_t n0, std::size_t n1, std::size_t n2, bool inverse, bool transposed = false) {
  const std::vector<std::size_t> dims{n0, n1, n2};
  const std::vector<T> x = uniform<T>(2 * n0 * n1 * n2, -1, 1);
  mpi::DistributedFft3d<T> f(ctx, comm, {n0, n1, n2});
  const std::size_t plane = 2 * n1 * n2, first = f.plane_offsets()[rank] * plane,
                    last = f.plane_offsets()[rank + 1] * plane;
  const std::size_t c0 = f.column_offsets()[rank], c1 = f.column_offsets()[rank + 1];
  std::vector<T> part(x.begin() + std::ptrdiff_t(first), x.begin() + std::ptrdiff_t(last));
  part.push_back(std::numeric_limits<T>::quiet_NaN());
  Buffer<T> slab(ctx, part);
  // This rank's outputs: (index of the complex value in the whole array,
  // its place in `got`).
  std::vector<std::pair<std::size_t, std::size_t>> mine;
  std::vector<T> got;
  const auto column_place = [&](std::size_t k0, std::size_t k1, std::size_t k2) {
    return ((k1 - c0) * n2 + k2) * n0 + k0;
  };
  if (transposed) {
    std::vector<T> c(f.column_elements() + 1, std::numeric_limits<T>::quiet_NaN());
    if (inverse)  // the array itself, held in the columns' layout
      for (std::size_t k0 = 0; k0 < n0; ++k0)
        for (std::size_t k1 = c0; k1 < c1; ++k1)
          for (std::size_t k2 = 0; k2 < n2; ++k2) {
            const std::size_t at = column_place(k0, k1, k2), whole = (k0 * n1 + k1) * n2 + k2;
            c[2 * at] = x[2 * whole];
            c[2 * at + 1] = x[2 * whole + 1];
          }
    Buffer<T> columns(ctx, c);
    if (inverse) {
      f.inverse_from_columns(columns, slab);
      got = slab.download();
      for (std::size_t k = first; k < last; k += 2) mine.emplace_back(k / 2, k - first);
    } else {
      f.forward_to_columns(slab, columns);
      got = columns.download();
      for (std::size_t k0 = 0; k0 < n0; ++k0)
        for (std::size_t k1 = c0; k1 < c1; ++k1)
          for (std::size_t k2 = 0; k2 < n2; ++k2)
            mine.emplace_back((k0 * n1 + k1) * n2 + k2, 2 * column_place(k0, k1, k2));
    }
  } else {
    inverse ? f.inverse(slab) : f.forward(slab);
    got = slab.download();
    for (std::size_t k = first; k < last; k += 2) mine.emplace_back(k / 2, k - first);
  }
  std::vector<reference::cplx> in(x.size() / 2);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = reference::cplx(x[2 * i], x[2 * i + 1]);
  const std::vector<reference::cplx> want = reference::fftn(in, dims, 1, inverse ? +1 : -1);
  Buffer<T> whole(ctx, x);
  const BasicFft<T> single(ctx, dims);
  inverse ? single.inverse(whole) : single.forward(whole);
  const std::vector<T> one = whole.download();
  double sums[4] = {0, 0, 0, 0};  // |got - want|^2, |want|^2, |got - one|^2, |one|^2
  for (const auto& [k, at] : mine) {
    const reference::cplx g(got[at], got[at + 1]), w = want[k], o(one[2 * k], one[2 * k + 1]);
    sums[0] += std::norm(g - w);
    sums[1] += std::norm(w);
    sums[2] += std::norm(g - o);
    sums[3] += std::norm(o);
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, comm);
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const double bound = reference::fft_error_bound(dims, u) + reference::fft_error_bound(dims, 0x1p-53);
  const double error = sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : std::sqrt(sums[0]);
  const double apart = sums[3] > 0 ? std::sqrt(sums[2] / sums[3]) : std::sqrt(sums[2]);
  const std::string what = "fft " + std::to_string(n0) + " x " + std::to_string(n1) + " x " + std::to_string(n2) +
                           (inverse ? " inverse" : " forward") +
                           (transposed ? (inverse ? " from the columns" : " to the columns") : "");
  check(error <= bound,
        what + ": relative error " + std::to_string(error) + " past " + std::to_string(bound) + "\n" + f.explain());
  check(apart <= 2 * bound, what + ": " + std::to_string(apart) + " from the single-device transform");
  check(std::isnan(got.back()), what + ": a value past the planes (columns) was written");
}

void check_nbody(Context& ctx, std::size_t n, bool potential) {
  std::vector<float> bodies = uniform<float>(4 * n, -1, 1);
  for (std::size_t i = 0; i < n; ++i) bodies[4 * i + 3] = std::fabs(bodies[4 * i + 3]) + 0.5f;
  const std::vector<float> velocities = uniform<float>(4 * n, -0.1, 0.1);
  NbodyOptions o;
  o.softening = 0.05f;
  o.potential = potential;
  Buffer<float> b(ctx, bodies), v(ctx, velocities), a(ctx, 4 * n);
  const std::size_t chains = reference::nbody_chains(nbody_accelerations(ctx, b, a, o));
  mpi::DistributedNbody ring(ctx, comm, bodies, velocities, o);
  // Momentum: pairwise forces cancel, so the total moves only by each
  // step's float rounding (tests/unit/particles_leapfrog_margins.hpp), summed over
  // the steps of the one-device run the ring matches bit for bit.
  std::vector<float> x = bodies, u = velocities;
  double moved[3] = {0, 0, 0};
  for (int s = 0; s < 3; ++s) {
    const test::StepRounding r =
        test::step_rounding(x, u, test::leapfrog_state(x, u, o.softening, chains).exact, 0.01f);
    for (int c = 0; c < 3; ++c) moved[c] += r.momentum[c];
    nbody_step(ctx, b, v, a, 0.01f, o);
    ring.step(0.01f);
    x = b.download();
    u = v.download();
  }
  const std::string what = "N-body of " + std::to_string(n) + " bodies";
  const std::vector<float> got_b = ring.bodies(), got_v = ring.velocities();
  check(same_bits(got_b, x), what + ": positions not bit for bit nbody_step's");
  check(same_bits(got_v, u), what + ": velocities not bit for bit nbody_step's");
  const test::Momentum p0 = test::momentum_of(bodies, velocities), p1 = test::momentum_of(got_b, got_v);
  for (int c = 0; c < 3; ++c) {
    const double margin = moved[c] + 4 * double(n) * test::kDoubleU * (p0.magnitude[c] + p1.magnitude[c]);
    check(std::fabs(p1.p[c] - p0.p[c]) <= margin, what + ": momentum moved by " + std::to_string(p1.p[c] - p0.p[c]) +
                                                      ", more than the rounding's " + std::to_string(margin));
  }
}

// Multiples of 1 / denominator in [-limit, limit] (ml_training_margins.hpp
// counts on dyadic parameters and images: the convolution is exact).
std::vector<float> dyadic(std::size_t n, int limit, int denominator) {
  std::uniform_int_distribution<int> k(-limit * denominator, limit * denominator);
  std::vector<float> v(n);
  for (float& e : v) e = float(k(rng)) / float(denominator);
  return v;
}

// Two steps, each from dyadic parameters (the velocity carried over): one
// device on the whole batch and the ranks on their shares each within
// their counted margins of the double reference
// (tests/unit/ml_training_margins.hpp).
void check_training(Context& ctx, std::size_t batch) {
  const SmallCnnShape shape{2, 6, 10, 4, 3};
  SgdOptions sgd;
  sgd.learning_rate = 0.05f;
  sgd.weight_decay = 0.001f;
  SmallCnn single(ctx, shape, 42), replica(ctx, shape, 42);
  const std::vector<std::size_t> split = mpi::rank_split(batch, comm);
  const std::size_t per_image = 2 * 6 * 10, first = split[std::size_t(rank)],
                    count = split[std::size_t(rank) + 1] - first;
  const std::size_t parameters = single.packed_parameters().size();
  std::vector<double> want_v(parameters, 0.0), dv_single(parameters, 0.0), dv_ranks(parameters, 0.0);
  const std::string what = "training, batch " + std::to_string(batch);
  for (int step = 0; step < 2; ++step) {
    const std::vector<float> p = dyadic(parameters, 4, 16), images = dyadic(batch * per_image, 4, 8);
    std::vector<int> labels(batch);
    for (int& l : labels) l = int(rng() % 3);
    single.set_packed_parameters(p);
    replica.set_packed_parameters(p);
    check(test::conv_exact(single, single.parameters().download(), images, batch), what + ": the convolution is exact");
    const test::StepReference whole = test::one_device(single, images, labels, batch);
    const test::StepReference ranks =
        test::replica_margins([&](std::size_t) -> SmallCnn& { return replica; }, split, whole, images, labels, batch);
    Buffer<float> all_images(ctx, images);
    Buffer<int> all_labels(ctx, labels);
    const double one = single.train_step(all_images, all_labels, batch, sgd);
    Buffer<float> my_images(ctx, std::max<std::size_t>(count * per_image, 1));
    Buffer<int> my_labels(ctx, std::max<std::size_t>(count, 1));
    if (count) {
      my_images.upload(images.data() + first * per_image, count * per_image);
      my_labels.upload(labels.data() + first, count);
    }
    const mpi::TrainingStepResult got = mpi::distributed_train_step(replica, comm, my_images, my_labels, count, sgd);
    check(got.batch == batch, what + ": the step counted " + std::to_string(got.batch) + " images");
    check(std::fabs(one - whole.loss) <= whole.loss_margin,
          what + ": one device's loss " + std::to_string(one) + " against " + std::to_string(whole.loss));
    check(std::fabs(got.loss - whole.loss) <= ranks.loss_margin,
          what + ": the ranks' loss " + std::to_string(got.loss) + " against " + std::to_string(whole.loss));
    std::vector<double> want_w(p.begin(), p.end()), dw_single(parameters, 0.0), dw_ranks(parameters, 0.0);
    const std::vector<double> v_before = want_v;
    test::sgd_margins(want_w, whole.gradient, v_before, sgd, whole.gradient_margin, dw_single, dv_single);
    test::sgd_margins(want_w, whole.gradient, v_before, sgd, ranks.gradient_margin, dw_ranks, dv_ranks);
    reference::sgd_step(want_w, whole.gradient, want_v, sgd);
    const std::string single_miss = test::within_each("parameters", single.packed_parameters(), want_w, dw_single),
                      ranks_miss = test::within_each("parameters", replica.packed_parameters(), want_w, dw_ranks);
    check(single_miss.empty(), what + ", one device: " + single_miss);
    check(ranks_miss.empty(), what + ", the ranks: " + ranks_miss);
  }
  // Every replica holds the same parameters, bit for bit.
  const std::vector<float> got = replica.packed_parameters();
  std::vector<float> first_rank = got;
  MPI_Bcast(first_rank.data(), int(first_rank.size()), MPI_FLOAT, 0, comm);
  check(same_bits(first_rank, got), "training: the replicas differ from rank 0's");
}

void check_refusals(Context& ctx) {
  std::string message;
  message = refusal([&] { mpi::DistributedFft3d<float> f(ctx, comm, {4, 0, 3}); });
  check(message.find(mpi::rank_prefix(comm)) == 0 && message.find("length 1 is 0") != std::string::npos,
        "a zero FFT length is refused naming the rank: '" + message + "'");
  message = refusal([&] {
    mpi::DistributedFft3d<float> f(ctx, comm, {6, 3, 2});
    Buffer<float> slab(ctx, 2 * 6 * 2 - 1);  // short of a rank's planes at 2 or 3 ranks
    f.forward(slab);
  });
  check(message.find(mpi::rank_prefix(comm)) == 0 && message.find("planes") != std::string::npos,
        "a short FFT slab is refused naming the rank: '" + message + "'");
  message = refusal([&] {
    mpi::DistributedFft3d<float> f(ctx, comm, {6, 8, 2});  // a column or more a rank, up to 8 ranks
    Buffer<float> slab(ctx, 2 * 6 * 8 * 2), columns(ctx, f.column_elements() - 1);
    f.forward_to_columns(slab, columns);
  });
  check(message.find(mpi::rank_prefix(comm)) == 0 && message.find("columns of axis 1") != std::string::npos,
        "short FFT columns are refused naming the rank: '" + message + "'");
  message = refusal([&] { mpi::DistributedHeat2d<float> heat(ctx, comm, std::vector<float>(10), 3, 4); });
  check(message.find(mpi::rank_prefix(comm)) == 0 && message.find("but the grid is 3 x 4") != std::string::npos,
        "a wrong field is refused naming the rank: '" + message + "'");
  message = refusal([&] {
    const HostCsr<double> csr = poisson2d<double>(3);
    const mpi::DistributedMatrix<double> a(ctx, comm, csr);
    Buffer<double> wrong(ctx, a.local_rows() + 1), x(ctx, a.local_rows());
    mpi::distributed_cg(a, wrong, x, SolverOptions{});
  });
  check(message.find(mpi::rank_prefix(comm)) == 0 && message.find("this rank holds") != std::string::npos,
        "a wrong b is refused naming the rank: '" + message + "'");
  // Jacobi on a matrix whose last row has no diagonal entry: every rank
  // refuses (none waits for the others), the owner naming the row.
  HostCsr<double> no_diagonal = poisson2d<double>(4);
  no_diagonal.value[no_diagonal.row_ptr[16] - 1] = 0.0;  // (15, 15), the last entry of the last row
  const mpi::DistributedMatrix<double> a(ctx, comm, no_diagonal);
  Buffer<double> b(ctx, std::vector<double>(a.local_rows(), 1.0)), x(ctx, a.local_rows());
  SolverOptions jacobi;
  jacobi.jacobi = true;
  message = refusal([&] { mpi::distributed_cg(a, b, x, jacobi); });
  const bool owner = a.first_row() + a.local_rows() == 16 && a.local_rows() > 0;
  check(owner ? message.find("row 15 has none") != std::string::npos
              : message.find("another rank refused") != std::string::npos,
        "Jacobi with a zero diagonal is refused on every rank: '" + message + "'");
  SolverOptions max_norm;
  max_norm.criterion = SolverOptions::Criterion::max_residual;
  message = refusal([&] { mpi::distributed_cg(a, b, x, max_norm); });
  check(message.find("relative_residual") != std::string::npos,
        "another criterion is refused, not ignored: '" + message + "'");
  message = refusal([&] { mpi::distributed_bicgstab(a, b, x, max_norm); });
  check(message.find("distributed_bicgstab: only the relative_residual") != std::string::npos,
        "BiCGStab refuses another criterion by its own name: '" + message + "'");
  // One buffer as both operands: refused on every rank before any message.
  message = refusal([&] { mpi::distributed_cg(a, b, b, SolverOptions{}); });
  check(message.find("x and b share the same memory") != std::string::npos, "b as x is refused: '" + message + "'");
  message = refusal([&] { a.multiply(b, b); });
  check(message.find("y and x share the same memory") != std::string::npos, "x as y is refused: '" + message + "'");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(comm, &rank);
  unsigned long long seed = 0;
  if (rank == 0) {
    const char* env = std::getenv("PORTACL_TEST_SEED");
    seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
    std::printf("mpi_checks: seed %llu (PORTACL_TEST_SEED=%llu repeats it)\n", seed, seed);
  }
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  rng.seed(seed);  // the same draws on every rank: every rank builds the same inputs
  try {
    Context ctx(mpi::rank_device_selector(comm));
    for (std::size_t grid : {1, 2, 7, 23})
      for (bool jacobi : {false, true})
        check_cg(ctx, permuted_symmetric(poisson2d<double>(grid), 7), grid, 1.0, jacobi);
    const HostCsr<double> scaled = badly_scaled(19);
    const double spread = std::pow(10.0, 1.5);
    const std::size_t plain = check_cg(ctx, scaled, 19, spread, false),
                      preconditioned = check_cg(ctx, scaled, 19, spread, true);
    check(preconditioned < plain, "Jacobi takes fewer iterations on a badly scaled matrix: " +
                                      std::to_string(preconditioned) + " against " + std::to_string(plain));
    check_cg_zero_rhs(ctx);
    for (std::size_t grid : {1, 2, 7, 23})
      for (bool jacobi : {false, true})
        check_bicgstab(ctx, permuted_symmetric(convection_diffusion2d<double>(grid, 2.0), 5), jacobi);
    for (std::size_t rows : {1, 2, 5, 37})
      for (std::size_t cols : {1, 29}) {
        check_heat<float>(ctx, rows, cols, 7, std::nullopt);
        check_heat<double>(ctx, rows, cols, 5, std::nullopt);
      }
    check_heat<float>(ctx, 61, 17, 11, 3);
    for (std::size_t n : {1, 2, 3, 67}) check_nbody(ctx, n, n % 2 == 1);
    for (std::size_t batch : {1, 7}) check_training(ctx, batch);
    for (bool inverse : {false, true}) {
      for (bool transposed : {false, true}) {
        check_fft<float>(ctx, 8, 6, 10, inverse, transposed);
        check_fft<float>(ctx, 7, 5, 9, inverse, transposed);
        check_fft<float>(ctx, 1, 2, 3, inverse, transposed);  // fewer planes than ranks
        check_fft<float>(ctx, 5, 1, 4, inverse, transposed);  // fewer columns than ranks
        if (ctx.info().fp64) check_fft<double>(ctx, 3, 4, 17, inverse, transposed);
      }
    }
    check_refusals(ctx);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::fprintf(stderr, "%s\n", what.rfind("rank ", 0) == 0 ? what.c_str() : (mpi::rank_prefix(comm) + what).c_str());
    MPI_Abort(comm, 2);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, comm);
  if (rank == 0) std::printf("mpi_checks: %d checks a rank, %d failed over all ranks\n", checks, total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
