// SPDX-License-Identifier: Apache-2.0
// What "converged" means for every Krylov solver (one device, a device
// group, across MPI ranks): the true residual b - A x, recomputed from x at
// the stop, meets the tolerance, not only the recurrence's residual, which
// drifts from it in finite precision. Where the recurrence met the
// tolerance and the true residual did not, the solver starts again from x
// (residual replacement: r = b - A x) with the iterations left, at most
// kMostRestarts times; if the true residual still misses, the result is not
// converged and says by how much. A breakdown after at least one iteration
// (BiCGStab: rho, omega or r0 . v exactly 0) starts again from x too, the
// new start's residual its shadow residual; one at the start (no iteration
// done) would only repeat itself and ends the solve.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>

#include "portacl/sparse.hpp"

namespace portacl {

constexpr std::size_t kMostRestarts = 4;

// `once(options)` solves from the current x with `options` (its result as
// the solvers return it); `measure()` returns the criterion's measure of
// b - A x for the current x (||b - A x|| / ||b|| or max |b - A x|_i).
template <class Once, class Measure>
SolverResult verified_solve(const SolverOptions& o, Once&& once, Measure&& measure) {
  SolverResult result = once(o);
  std::size_t last_run = result.iterations;  // the iterations of the latest start
  for (;;) {
    result.true_residual = measure();
    const bool met = result.true_residual < o.tolerance || result.true_residual == 0;
    if (result.converged && met) return result;
    if (!result.converged && !(result.broke_down && last_run > 0)) return result;
    if (!result.converged) {  // a breakdown past the first iteration: start again while iterations are left
      if (result.iterations >= o.max_iterations || result.restarts == kMostRestarts) return result;
    } else if (result.iterations >= o.max_iterations || result.restarts == kMostRestarts) {
      std::ostringstream why;
      why.precision(3);
      why << "the recurrence's residual met the tolerance " << o.tolerance << " but the true residual of x is "
          << result.true_residual << " after " << result.restarts
          << " restart(s) from x: A may be too ill-conditioned for this precision";
      result.converged = false;
      result.stop_reason = why.str();
      return result;
    }
    SolverOptions rest = o;
    rest.max_iterations = o.max_iterations - result.iterations;
    const SolverResult more = once(rest);
    result.iterations += more.iterations;
    result.history.insert(result.history.end(), more.history.begin(), more.history.end());
    result.residual = more.residual;
    result.converged = more.converged;
    result.broke_down = more.broke_down;
    result.stop_reason = more.stop_reason;
    last_run = more.iterations;
    ++result.restarts;
  }
}

}  // namespace portacl
