// SPDX-License-Identifier: Apache-2.0
// The one CG loop of the solvers whose scalars the host holds, written once
// over where the rows live: a device group's members (group_cg) or this
// MPI rank's block (distributed_cg). The single-reduction form of
// Chronopoulos and Gear: with u = M^-1 r and w = A u, an iteration's sums
// r . u, w . u and r . r are taken together (one wait, one exchange), and
// p . A p = delta - beta gamma / alpha.
//
// A Rows policy carries out, on its vectors (made once, kept over restarts):
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
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "kernels/sparse/verified_solve.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

// One solve from the current x.
template <class Rows>
SolverResult split_cg_once(Rows& rows, const SolverOptions& o) {
  SolverResult result;
  result.check_every = 1;  // the host reads the sums every iteration anyway
  const double b_norm = rows.b_norm();
  if (b_norm == 0) {  // x = 0 solves it exactly
    rows.zero_x();
    result.converged = true;
    result.stop_reason = "converged";
    return result;
  }
  rows.begin();
  auto [gamma, delta, r_r] = rows.sums();
  double alpha = 0, beta = 0;
  result.residual = std::sqrt(r_r) / b_norm;
  result.stop_reason = "iteration limit (" + std::to_string(o.max_iterations) + ")";
  // An exact zero residual ends it too (tolerance 0 would divide 0 by 0 next).
  for (std::size_t it = 0; result.residual >= o.tolerance && result.residual > 0 && it < o.max_iterations; ++it) {
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
  if (result.residual < o.tolerance || result.residual == 0) {
    result.converged = true;
    result.stop_reason = "converged";
  }
  return result;
}

// The loop, restarted from x where the true residual misses (verified_solve.hpp).
template <class Rows>
SolverResult verified_cg(Rows& rows, const SolverOptions& o) {
  return verified_solve(
      o, [&](const SolverOptions& run) { return split_cg_once(rows, run); },
      [&] {
        const double b_norm = rows.b_norm(), r_norm = rows.residual_norm();
        return b_norm == 0 ? r_norm : r_norm / b_norm;
      });
}

}  // namespace portacl
