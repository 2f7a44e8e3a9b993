// SPDX-License-Identifier: Apache-2.0
/// \file
/// Iterative solvers for A x = b with a SparseMatrix: conjugate gradients
/// (symmetric positive definite A) and BiCGStab (any non-singular A), float
/// and double, optionally Jacobi-preconditioned. Their scalars (alpha,
/// beta, rho, omega, the residual) stay in device memory and the device
/// itself marks convergence; the host reads the state back only every
/// `check_every` iterations, so an iteration costs about its SpMVs and a
/// few fused vector passes. x holds the initial guess on entry and the
/// solution on return.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "portacl/kernels/sparse/matrix.hpp"

namespace portacl {

struct SolverOptions {
  enum class Criterion {
    relative_residual,  ///< ||r|| / ||b|| < tolerance
    max_residual,       ///< max |r_i| < tolerance (the textbook criterion)
  };
  double tolerance = 1e-6;
  Criterion criterion = Criterion::relative_residual;
  std::size_t max_iterations = 1000;
  bool jacobi = false;  ///< precondition with the inverse of A's diagonal
  /// Read the state back every this many iterations; unset: rule
  /// solver.check-interval.
  std::optional<std::size_t> check_every;
  /// The SpMV method; unset: spmv_choice.
  std::optional<SpmvMethod> method;
  /// Record CG's iteration once and enqueue the recording every iteration
  /// (cl_khr_command_buffer) instead of launching its kernels one by one;
  /// unset: rule solver.replay-iteration (where the device offers it and
  /// the product is fused). true where it cannot be done is an error that
  /// says why; false launches kernel by kernel. BiCGStab ignores it.
  std::optional<bool> replay_iteration;
  PlanOptions plan;  ///< for the SpMV and the vector kernels
};

struct SolverResult {
  /// The true residual b - A x of the x returned meets the tolerance (not
  /// only the recurrence's residual, which drifts from it in finite
  /// precision: where that one met the tolerance and the true one did not,
  /// the solver started again from x, see `restarts`).
  bool converged = false;
  std::size_t iterations = 0;  ///< iterations done until the stop, restarts included
  /// The criterion's measure of the recurrence's residual r at the stop:
  /// ||r|| / ||b|| or max |r_i|.
  double residual = 0;
  /// The same measure of b - A x, recomputed from the x returned in the
  /// working precision.
  double true_residual = 0;
  /// Starts again from x (r = b - A x) after the recurrence met the
  /// tolerance and the true residual did not; at most 4.
  std::size_t restarts = 0;
  std::vector<double> history;  ///< the measure after each iteration
  /// "converged", "iteration limit", or which breakdown ended it.
  std::string stop_reason;
  /// Empty, or what makes the method unfit for A: CG on a matrix that is
  /// not symmetric ("A is not symmetric: (3, 7) is 1.5 but (7, 3) is 2 ...
  /// use bicgstab"). Set before the solve; it runs all the same.
  std::string warning;
  std::size_t check_every = 0;  ///< as used
  LaunchPlan spmv_plan;         ///< how the products were done
};

/// Conjugate gradients. A must be symmetric positive definite: on a matrix
/// that is not symmetric (SparseMatrix::asymmetry(), checked once per
/// matrix) CG still runs, but result.warning says so and points to
/// bicgstab, and a stop short of convergence repeats it. b and x must not share memory (the same buffer, a
/// handle to it or an overlapping sub-buffer). Errors, before any launch: a
/// non-square A, b or x of the wrong length or another context, b and x
/// sharing memory, a tolerance that is negative or not a number, check_every
/// 0, a zero on the diagonal with Jacobi.
template <class T, class = only_for<T, float, double>>
SolverResult cg(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                const SolverOptions& options = {});

/// BiCGStab, with the same options, errors and result.
template <class T, class = only_for<T, float, double>>
SolverResult bicgstab(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                      const SolverOptions& options = {});

}  // namespace portacl
