// SPDX-License-Identifier: Apache-2.0
// What every one-device Krylov call checks before any launch, and CG's
// warning on a matrix that is not symmetric: shared by the device-held
// loop (krylov.cpp) and the hooked one (hooked_krylov.cpp).
#pragma once

#include <cmath>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

template <class T>
inline void check_inputs(const char* op, Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, const Buffer<T>& x,
                         const SolverOptions& o) {
  if (&a.context() != &ctx) throw Error(std::string(op) + ": the sparse matrix A belongs to another context");
  kernel_call::same_context(ctx, b, op, "b");
  kernel_call::same_context(ctx, x, op, "x");
  aliasing::refuse_overlap(op, aliasing::whole(x), "x", aliasing::whole(b), "b",
                           "the solver reads b while it writes the iterate x");
  if (a.rows() != a.cols())
    throw Error(std::string(op) + ": A is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                "; the solver needs a square matrix");
  if (b.size() != a.rows())
    throw Error(std::string(op) + ": b has " + std::to_string(b.size()) + " elements but A has " +
                std::to_string(a.rows()) + " rows");
  if (x.size() != a.cols())
    throw Error(std::string(op) + ": x has " + std::to_string(x.size()) + " elements but A has " +
                std::to_string(a.cols()) + " columns");
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw Error(std::string(op) + ": the tolerance must be a finite number >= 0, not " + std::to_string(o.tolerance));
  if (o.check_every && *o.check_every == 0) throw Error(std::string(op) + ": check_every must be at least 1");
}

// Empty, or why CG may diverge on A (it runs all the same).
template <class T>
std::string cg_warning(const SparseMatrix<T>& a) {
  if (a.asymmetry().empty()) return "";
  return "A is not symmetric: " + a.asymmetry() +
         "; conjugate gradients needs a symmetric positive definite matrix and may diverge on this one: use bicgstab";
}

}  // namespace portacl
