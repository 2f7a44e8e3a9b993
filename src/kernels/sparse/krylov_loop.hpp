// SPDX-License-Identifier: Apache-2.0
// The one Krylov loop: CG (plain, or in the single-reduction form of
// Chronopoulos and Gear) and BiCGStab (van der Vorst, right-preconditioned),
// written once over a policy that says where the rows and the scalars live.
// Every setting runs the same iterations and the same scalar recurrence
// (kernels/sparse_krylov_step.cl):
//   - one device (krylov.cpp): the scalar steps run on the device, in the
//     last work-group of each reducing launch; the host reads the state
//     every `window` iterations without draining the queue;
//   - a device group's members (group_cg.cpp), an MPI rank's block
//     (sparse_distributed_cg.cpp) and one device with the caller's hooks
//     (hooked_krylov.cpp): HostScalars below, over the setting's Rows (the
//     exchange-and-reduce); the host adds the parts' sums and runs the same
//     steps in double.
//
// A Policy gives:
//   std::size_t window()       iterations between two reads of the state
//   bool empty()               no rows: x = 0 solves it
//   double b_norm()            ||b|| over every part
//   void zero_x()
//   KrylovMethod method()
//   void start(double threshold)    r = b - A x, z = M^-1 r, step 0
//   the method's passes, each a scalar step where it reduces:
//     CG, single reduction:   gear_product (w = A z; step 5), gear_update
//                             (p, s, x, r, z; step 2)
//     CG (Policy::kPlainCg):  cg_product (q = A p; step 1), cg_update (x, r,
//                             z; step 2), cg_direction (p = z + beta p)
//     BiCGStab:  bicgstab_v (v = A p_hat; step 3), bicgstab_s (s = r - alpha
//                v, s_hat = M^-1 s), bicgstab_t (t = A s_hat; step 4),
//                bicgstab_update (x, r; step 2), bicgstab_direction (p = r +
//                beta (p - omega v), p_hat = M^-1 p)
//   prepare(iteration), iterate(iteration)   run one iteration (a device
//                                            may record it once and replay)
//   bool stopped()             the state as the host last saw it
//   void after(it, last)       after iteration it (a device's window check)
//   KrylovEnd finish(history)  the state and the measure at the stop; the
//                              closed iterations' measures into history
// A pass does nothing once the state is not 0 (converged or broken down).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sparse/verified_solve.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

namespace krylov {
using std::fma;
using std::isfinite;
using std::sqrt;
using uint = unsigned;
#define KRYLOV_REAL double
#include "sparse_krylov_step.cl"
#undef KRYLOV_REAL

// The scalar steps (sparse_krylov_step.cl).
enum Step : unsigned { kStart = 0, kCgAlpha = 1, kClose = 2, kBicgAlpha = 3, kBicgOmega = 4, kGearAlpha = 5 };
}  // namespace krylov

enum class KrylovMethod { cg, cg_single_reduction, bicgstab };

// The state at the stop: 0 running (the iteration limit), 1 converged, 2
// broken down at `broken_at`; the last measure of the residual.
struct KrylovEnd {
  unsigned state = 0, stopped_at = 0, broken_at = 0;
  double measure = 0;
};

// One solve from the current x, in every setting (see above). `result`
// comes in with any warning already set.
template <class Policy>
SolverResult krylov_solve(Policy& k, const SolverOptions& o, SolverResult result = {}) {
  result.check_every = k.window();
  const bool relative = o.criterion == SolverOptions::Criterion::relative_residual;
  const double b_norm = k.b_norm();
  if (k.empty() || (relative && b_norm == 0)) {  // x = 0 solves it exactly
    k.zero_x();
    result.converged = true;
    result.stop_reason = "converged";
    return result;
  }
  const double scale = relative ? b_norm : 1.0;
  k.start(o.tolerance * scale);
  const KrylovMethod method = k.method();
  const auto iteration = [&] {
    if (method == KrylovMethod::bicgstab) {
      k.bicgstab_v();
      k.bicgstab_s();
      k.bicgstab_t();
      k.bicgstab_update();
      k.bicgstab_direction();
    } else if (method == KrylovMethod::cg_single_reduction) {
      k.gear_product();
      k.gear_update();
    } else if constexpr (Policy::kPlainCg) {
      k.cg_product();
      k.cg_update();
      k.cg_direction();
    }
  };
  k.prepare(iteration);
  for (std::size_t it = 1; !k.stopped() && it <= o.max_iterations; ++it) {
    k.iterate(iteration);
    k.after(it, o.max_iterations);
  }
  const KrylovEnd end = k.finish(result.history);
  for (double& h : result.history) h /= scale;
  result.residual = end.measure / scale;
  result.converged = end.state == 1;
  result.broke_down = end.state == 2;
  result.iterations = end.state ? end.stopped_at : o.max_iterations;
  static const char* breakdowns[] = {"the start: the residual is not finite, or rho = 0",
                                     "p . A p = 0: A may not be positive definite", "rho = 0 or omega = 0",
                                     "r0 . v = 0", "omega is not finite"};
  result.stop_reason = end.state == 1   ? "converged"
                       : end.state == 2 ? std::string("breakdown: ") + breakdowns[end.broken_at < 4 ? end.broken_at : 4]
                                        : "iteration limit (" + std::to_string(o.max_iterations) + ")";
  if (!result.converged && !result.warning.empty()) result.stop_reason += " (" + result.warning + ")";
  return result;
}

// What every Rows keeps: the solution x (the caller's), CG's four vectors
// r, w, p and s (BiCGStab's r, v, p and s), and how to make another vector
// over the same rows. A Rows derives from it.
template <class V>
class RowsVectors {
 public:
  using Vector = V;
  Vector& r() { return r_; }
  Vector& p() { return p_; }
  Vector& w() { return w_; }
  Vector& s() { return s_; }
  Vector& x() { return x_; }
  Vector vector() { return make_(); }

 protected:
  RowsVectors(Vector& x, std::function<Vector()> make)
      : x_(x), make_(std::move(make)), r_(make_()), w_(make_()), p_(make_()), s_(make_()) {}
  Vector& x_;
  std::function<Vector()> make_;
  Vector r_, w_, p_, s_;
};

// The policy whose scalars the host holds, over a setting's Rows (a device
// group's members, an MPI rank's block): the exchange-and-reduce. Rows
// carries out, on its vectors (made once, kept over restarts):
//   double b_norm()                 ||b|| over every part (computed once)
//   void zero_x()                   x = 0
//   void begin_residual()           r = b - A x (kept where residual_norm()
//                                   just computed it: a restart reads A once)
//   void begin()                    begin_residual(); p = s = 0; u = M^-1 r
//   std::array<double, 3> sums()    w = A u, then r . u, w . u, r . r over
//                                   every part (the exchange-and-reduce)
//   void update(alpha, beta)        p = u + beta p, s = w + beta s, x +=
//                                   alpha p, r -= alpha s, u = M^-1 r
//   double residual_norm()          ||b - A x|| over every part, into r
//   Vector& r(), p(), w(), s(), x(); Vector vector()   from RowsVectors
//   void multiply(in, out)          out = A in, halos exchanged
//   bool preconditioned(); void precondition(in, out)    out = M^-1 in
//   std::array<double, N> dots(pairs)   the pairs' dot products over every
//                                   part: one wait (on MPI one exchange) for all N
//   void axpby(a, v, b, y)          y = a v + b y
//   void copy(from, to)
// CG takes the single-reduction form, whose two reductions an iteration
// share one exchange: update() leaves its sums of r pending, and the next
// product's sums() brings them with w . u (steps 2 and 5 together).
// BiCGStab exchanges three times an iteration (steps 3, 4 and 2).
template <class Rows>
class HostScalars {
 public:
  static constexpr bool kPlainCg = false;  // one exchange an iteration needs the single-reduction form
  using Vector = typename Rows::Vector;

  /// `after_iteration(n)` after each iteration closes, n counted from 1
  /// over every start of this policy (a verified solve's restarts).
  HostScalars(Rows& rows, bool bicgstab, std::function<void(std::size_t)> after_iteration = {})
      : rows_(rows), bicg_(bicgstab), after_iteration_(std::move(after_iteration)) {}

  std::size_t window() const { return 1; }  // the host has the state every iteration anyway
  bool empty() const { return false; }      // (no rows anywhere: b_norm() is 0)
  double b_norm() { return rows_.b_norm(); }
  void zero_x() { rows_.zero_x(); }
  KrylovMethod method() const { return bicg_ ? KrylovMethod::bicgstab : KrylovMethod::cg_single_reduction; }

  void start(double threshold) {
    sc_ = krylov::krylov_scalars{};
    sc_.threshold = threshold;
    st_ = krylov::krylov_status{};
    history_.clear();
    pending_.reset();
    if (!bicg_) {
      rows_.begin();  // its sums of r come with the first product's
      pending_ = krylov::kStart;
      return;
    }
    rows_.begin_residual();
    if (!r0_) {
      r0_.emplace(rows_.vector());
      t_.emplace(rows_.vector());
      if (rows_.preconditioned()) {
        y_.emplace(rows_.vector());
        z_.emplace(rows_.vector());
      }
    }
    rows_.copy(rows_.r(), *r0_);
    step(krylov::kStart, 0, rows_.template dots<1>({Pair{&rows_.r(), &rows_.r()}})[0]);
    rows_.copy(rows_.r(), rows_.p());
    if (y_) rows_.precondition(rows_.p(), *y_);
  }

  // CG, single reduction: w = A u with its sum, and the pending sums of r,
  // in one exchange.
  void gear_product() {
    if (!running()) return;
    const auto [r_u, w_u, r_r] = rows_.sums();
    if (pending_) step(*pending_, r_u, r_r);
    pending_.reset();
    step(krylov::kGearAlpha, w_u, 0);
  }
  void gear_update() {
    if (!running()) return;
    rows_.update(sc_.alpha, sc_.beta);
    pending_ = krylov::kClose;
  }

  void bicgstab_v() {
    if (!running()) return;
    rows_.multiply(y(), rows_.w());
    step(krylov::kBicgAlpha, rows_.template dots<1>({Pair{&*r0_, &rows_.w()}})[0], 0);
  }
  void bicgstab_s() {
    if (!running()) return;
    rows_.copy(rows_.r(), rows_.s());
    rows_.axpby(-sc_.alpha, rows_.w(), 1, rows_.s());
    if (z_) rows_.precondition(rows_.s(), *z_);
  }
  void bicgstab_t() {
    if (!running()) return;
    rows_.multiply(z(), *t_);
    const auto ts = rows_.template dots<2>({Pair{&*t_, &rows_.s()}, Pair{&*t_, &*t_}});
    step(krylov::kBicgOmega, ts[0], ts[1]);
  }
  void bicgstab_update() {
    if (!running()) return;
    rows_.axpby(sc_.alpha, y(), 1, rows_.x());
    rows_.axpby(sc_.omega, z(), 1, rows_.x());  // x += alpha p_hat + omega s_hat
    rows_.copy(rows_.s(), rows_.r());
    rows_.axpby(-sc_.omega, *t_, 1, rows_.r());  // r = s - omega t
    const auto next = rows_.template dots<2>({Pair{&*r0_, &rows_.r()}, Pair{&rows_.r(), &rows_.r()}});
    step(krylov::kClose, next[0], next[1]);
  }
  void bicgstab_direction() {
    if (!running()) return;
    rows_.axpby(-sc_.omega, rows_.w(), 1, rows_.p());
    rows_.axpby(1, rows_.r(), sc_.beta, rows_.p());  // p = r + beta (p - omega v)
    if (y_) rows_.precondition(rows_.p(), *y_);
  }

  template <class Iteration>
  void prepare(const Iteration&) {}
  template <class Iteration>
  void iterate(const Iteration& iteration) {
    iteration();
  }
  bool stopped() const { return !running(); }
  void after(std::size_t, std::size_t) {}
  KrylovEnd finish(std::vector<double>& history) {
    if (pending_ && running()) {  // the last update's sums (the product comes with them)
      const auto [r_u, w_u, r_r] = rows_.sums();
      (void)w_u;
      step(*pending_, r_u, r_r);
    }
    history.insert(history.end(), history_.begin(), history_.end());
    return KrylovEnd{st_.state, st_.stopped_at, st_.broken_at, sc_.measure};
  }

 private:
  using Pair = std::pair<const Vector*, const Vector*>;
  bool running() const { return st_.state == 0; }
  void step(unsigned which, double s0, double s1) {
    if (!krylov::krylov_scalar_step(which, 0, bicg_, s0, s1, 0.0, &sc_, &st_)) return;
    history_.push_back(sc_.measure);
    ++closed_;
    if (after_iteration_) after_iteration_(closed_);
  }
  Vector& y() { return y_ ? *y_ : rows_.p(); }  // M^-1 p
  Vector& z() { return z_ ? *z_ : rows_.s(); }  // M^-1 s

  Rows& rows_;
  bool bicg_;
  std::function<void(std::size_t)> after_iteration_;
  std::size_t closed_ = 0;  ///< iterations closed over every start
  krylov::krylov_scalars sc_{};
  krylov::krylov_status st_{};
  std::vector<double> history_;
  std::optional<unsigned> pending_;  ///< a reduction's step whose sums come with the next exchange
  std::optional<Vector> r0_, t_, y_, z_;
};

// A solve over Rows, restarted from x where the true residual misses
// (verified_solve.hpp): CG or BiCGStab.
template <class Rows>
SolverResult verified_split_solve(Rows& rows, const SolverOptions& o, bool bicgstab, SolverResult first = {},
                                  std::function<void(std::size_t)> after_iteration = {}) {
  HostScalars<Rows> policy(rows, bicgstab, std::move(after_iteration));
  return verified_solve(
      o, [&](const SolverOptions& run) { return krylov_solve(policy, run, first); },
      [&] {
        const double b_norm = rows.b_norm(), r_norm = rows.residual_norm();
        return b_norm == 0 ? r_norm : r_norm / b_norm;
      });
}

}  // namespace portacl
