// SPDX-License-Identifier: Apache-2.0
// The Krylov loops of the solvers whose scalars the host holds, written
// once over where the rows live: a device group's members (group_cg,
// group_bicgstab) or this MPI rank's block (distributed_cg,
// distributed_bicgstab). A Rows policy is the exchange-and-reduce: it
// multiplies by A (halos exchanged), applies M^-1, updates its part of the
// vectors and sums dot products over every part.
//
// CG takes the single-reduction form of Chronopoulos and Gear: with
// u = M^-1 r and w = A u, an iteration's sums r . u, w . u and r . r are
// taken together (one wait, one exchange), and p . A p = delta - beta
// gamma / alpha. The Rows policy carries out, on its vectors (made once,
// kept over restarts):
//   double b_norm()                 ||b|| over every part (computed once)
//   void zero_x()                   x = 0
//   void begin()                    r = b - A x (kept where residual_norm()
//                                   just computed it: a restart reads A once);
//                                   p = s = 0; u = M^-1 r
//   std::array<double, 3> sums()    w = A u, then r . u, w . u, r . r over
//                                   every part (the exchange-and-reduce)
//   void update(alpha, beta)        SplitCgBlock::update on every part
//   double residual_norm()          ||b - A x|| over every part, into r
// verified_cg runs the loop under verified_solve: converged means the true
// residual ||b - A x|| / ||b||, recomputed at the stop, meets the tolerance.
//
// BiCGStab (van der Vorst), right-preconditioned, takes from the policy:
//   Vector& r(), p(), w(), s()      CG's four vectors, as BiCGStab's r, p,
//                                   v (= A M^-1 p) and s
//   void begin_residual()           r = b - A x (kept where residual_norm()
//                                   just computed it)
//   Vector vector()                 another vector over the rows
//   Vector& x()                     the solution's
//   void multiply(const Vector& in, Vector& out)           out = A in
//   bool preconditioned()
//   void precondition(Vector& in, Vector& out)             out = M^-1 in
//   std::array<double, N> dots(pairs)   the pairs' dot products over every
//                                   part, all enqueued before any is read:
//                                   one wait (and on MPI one exchange) for all N
//   void axpby(double a, const Vector& v, double b, Vector& y)   y = a v + b y
//   void copy(const Vector& from, Vector& to)
// An iteration: two products, two exchanges of sums (t . s, t . t with
// s . s; then r . r with r0 . r, the next rho), and the updates.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "kernels/sparse/verified_solve.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

// One solve from the current x by `iterate(result, b_norm)`, the method's
// iterations: b = 0 is solved by x = 0 at once; the result is converged
// where the residual met the tolerance, or is exactly 0.
template <class Rows, class Iterate>
SolverResult split_solve_once(Rows& rows, const SolverOptions& o, Iterate&& iterate) {
  SolverResult result;
  result.check_every = 1;  // the host has the sums every iteration anyway
  const double b_norm = rows.b_norm();
  if (b_norm == 0) {  // x = 0 solves it exactly
    rows.zero_x();
    result.converged = true;
    result.stop_reason = "converged";
    return result;
  }
  result.stop_reason = "iteration limit (" + std::to_string(o.max_iterations) + ")";
  iterate(result, b_norm);
  if (result.residual < o.tolerance || result.residual == 0) {
    result.converged = true;
    result.stop_reason = "converged";
  }
  return result;
}

// An exact zero residual ends a loop too (tolerance 0 would divide 0 by 0 next).
inline bool keep_iterating(const SolverResult& result, const SolverOptions& o, std::size_t it) {
  return result.residual >= o.tolerance && result.residual > 0 && it < o.max_iterations;
}

// One CG solve from the current x.
template <class Rows>
SolverResult split_cg_once(Rows& rows, const SolverOptions& o) {
  return split_solve_once(rows, o, [&](SolverResult& result, double b_norm) {
    rows.begin();
    auto [gamma, delta, r_r] = rows.sums();
    double alpha = 0, beta = 0;
    result.residual = std::sqrt(r_r) / b_norm;
    for (std::size_t it = 0; keep_iterating(result, o, it); ++it) {
      const double pq = it == 0 ? delta : delta - beta * gamma / alpha;  // p . A p
      if (!(pq > 0) || !std::isfinite(pq)) {
        result.stop_reason = "breakdown: p . A p = " + std::to_string(pq) + ": A may not be positive definite";
        break;
      }
      alpha = gamma / pq;
      rows.update(alpha, beta);
      const auto [next, w_u, next_r_r] = rows.sums();
      beta = next / gamma;
      gamma = next;
      delta = w_u;
      result.residual = std::sqrt(next_r_r) / b_norm;
      result.history.push_back(result.residual);
      result.iterations = it + 1;
      if (!std::isfinite(result.residual)) {
        result.stop_reason = "breakdown: the residual is not finite";
        break;
      }
    }
  });
}

// One BiCGStab solve from the current x.
template <class Rows>
SolverResult split_bicgstab_once(Rows& rows, const SolverOptions& o) {
  using Vector = typename Rows::Vector;
  using Pair = std::pair<const Vector*, const Vector*>;
  return split_solve_once(rows, o, [&](SolverResult& result, double b_norm) {
    Vector &r = rows.r(), &p = rows.p(), &v = rows.w(), &s = rows.s();
    Vector r0 = rows.vector(), t = rows.vector();
    rows.begin_residual();
    rows.copy(r, r0);
    const bool jacobi = rows.preconditioned();
    std::optional<Vector> y_owned, z_owned;
    if (jacobi) {
      y_owned.emplace(rows.vector());
      z_owned.emplace(rows.vector());
    }
    Vector& y = jacobi ? *y_owned : p;  // M^-1 p
    Vector& z = jacobi ? *z_owned : s;  // M^-1 s
    const std::array<double, 2> start = rows.template dots<2>({Pair{&r0, &r}, Pair{&r, &r}});
    double rho = start[0], previous_rho = 0, alpha = 0, omega = 0;
    result.residual = std::sqrt(start[1]) / b_norm;
    auto broke = [&](const std::string& why) {
      result.stop_reason = "breakdown: " + why;
      return true;
    };
    for (std::size_t it = 0; keep_iterating(result, o, it); ++it) {
      if ((rho == 0 || !std::isfinite(rho)) && broke("rho = r0 . r = " + std::to_string(rho))) break;
      if (it == 0) {
        rows.copy(r, p);
      } else {
        const double beta = (rho / previous_rho) * (alpha / omega);
        rows.axpby(-omega, v, 1, p);  // p - omega v
        rows.axpby(1, r, beta, p);    // p = r + beta (p - omega v)
      }
      if (jacobi) rows.precondition(p, y);
      rows.multiply(y, v);
      const double r0_v = rows.template dots<1>({Pair{&r0, &v}})[0];
      if ((r0_v == 0 || !std::isfinite(r0_v)) && broke("r0 . v = " + std::to_string(r0_v))) break;
      alpha = rho / r0_v;
      rows.copy(r, s);
      rows.axpby(-alpha, v, 1, s);  // s = r - alpha v
      if (jacobi) rows.precondition(s, z);
      rows.multiply(z, t);
      const std::array<double, 3> ts = rows.template dots<3>({Pair{&t, &s}, Pair{&t, &t}, Pair{&s, &s}});
      result.iterations = it + 1;
      if (ts[1] == 0) {  // t = A z = 0: s is 0 (A nonsingular), x + alpha y solves it
        rows.axpby(alpha, y, 1, rows.x());
        rows.copy(s, r);
        result.residual = std::sqrt(ts[2]) / b_norm;
        result.history.push_back(result.residual);
        if (result.residual > 0) broke("t . t = 0 with s . s = " + std::to_string(ts[2]));
        break;
      }
      omega = ts[0] / ts[1];
      rows.axpby(alpha, y, 1, rows.x());
      rows.axpby(omega, z, 1, rows.x());  // x += alpha y + omega z
      rows.copy(s, r);
      rows.axpby(-omega, t, 1, r);  // r = s - omega t
      const std::array<double, 2> next = rows.template dots<2>({Pair{&r, &r}, Pair{&r0, &r}});
      previous_rho = rho;
      rho = next[1];
      result.residual = std::sqrt(next[0]) / b_norm;
      result.history.push_back(result.residual);
      if (!std::isfinite(result.residual) && broke("the residual is not finite")) break;
      if ((omega == 0 || !std::isfinite(omega)) && result.residual >= o.tolerance &&
          broke("omega = t . s / t . t = " + std::to_string(omega)))
        break;
    }
  });
}

// `once`, restarted from x where the true residual misses (verified_solve.hpp).
template <class Rows, class Once>
SolverResult verified_split_solve(Rows& rows, const SolverOptions& o, Once once) {
  return verified_solve(
      o, [&](const SolverOptions& run) { return once(rows, run); },
      [&] {
        const double b_norm = rows.b_norm(), r_norm = rows.residual_norm();
        return b_norm == 0 ? r_norm : r_norm / b_norm;
      });
}

template <class Rows>
SolverResult verified_cg(Rows& rows, const SolverOptions& o) {
  return verified_split_solve(rows, o, split_cg_once<Rows>);
}

template <class Rows>
SolverResult verified_bicgstab(Rows& rows, const SolverOptions& o) {
  return verified_split_solve(rows, o, split_bicgstab_once<Rows>);
}

}  // namespace portacl
