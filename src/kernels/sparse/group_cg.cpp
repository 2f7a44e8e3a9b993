// SPDX-License-Identifier: Apache-2.0
// Conjugate gradients over a device group, in the single-reduction form
// with the scalars on the host: on every member at once, one pass of the
// vector updates (SplitCgBlock), the product (halos exchanged under the
// interior product) and one pass for the last sum; the members' sums added
// in member order. The host needs the sums before it can go on, so it
// checks convergence every iteration at no cost; the true residual is
// checked at the stop (verified_solve.hpp).
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "kernels/sparse/group_sparse_state.hpp"
#include "kernels/sparse/split_cg.hpp"
#include "kernels/sparse/verified_solve.hpp"
#include "portacl/error.hpp"
#include "portacl/kernels/stream.hpp"

namespace portacl {

namespace {

template <class T>
void check_solver_inputs(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, const GroupVector<T>& x,
                         const SolverOptions& o) {
  for (const GroupVector<T>* v : {&b, &x}) {
    const char* name = v == &b ? "b" : "x";
    if (&v->group() != &a.group())
      throw Error(std::string("group_cg: ") + name + " is spread over another device group");
    if (v->size() != a.rows())
      throw Error(std::string("group_cg: ") + name + " has " + std::to_string(v->size()) + " elements but A has " +
                  std::to_string(a.rows()) + " rows");
  }
  if (&b == &x) throw Error("group_cg: b and x are the same vector; the solver reads b while it writes x");
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw Error("group_cg: the tolerance must be a finite number >= 0, not " + std::to_string(o.tolerance));
  if (o.criterion != SolverOptions::Criterion::relative_residual)
    throw Error(
        "group_cg: only the relative_residual criterion is built for device groups (the members' partial "
        "dots give the 2-norm; max |r_i| would need another reduction an iteration)");
}

template <class T>
SolverResult solve_once(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                        const SolverOptions& o) {
  SolverResult result;
  result.check_every = 1;
  if (!a.asymmetry().empty())
    result.warning = "A is not symmetric: " + a.asymmetry() +
                     "; conjugate gradients needs a symmetric positive definite matrix and may diverge on this one";
  DeviceGroup& group = a.group();
  const std::size_t n = a.rows();
  // Each member's vector work: one pass before the product, one after
  // (a zero diagonal under Jacobi is refused here, before any work).
  const auto& state = a.state();
  std::vector<std::unique_ptr<SplitCgBlock<T>>> blocks;
  for (std::size_t m = 0; m < group.size(); ++m)
    blocks.push_back(std::make_unique<SplitCgBlock<T>>(group.context(m), state.diagonal[m].size(),
                                                       o.jacobi ? &state.diagonal[m] : nullptr, state.offsets[m],
                                                       o.plan, "group_cg"));
  const double b_norm = n ? std::sqrt(group_dot(b, b)) : 0.0;
  if (n == 0 || b_norm == 0) {
    for (std::size_t m = 0; m < group.size(); ++m)
      if (x.part(m).size()) fill(group.context(m), x.part(m), T(0));
    result.converged = true;
    result.stop_reason = "converged";
    return result;
  }
  // The single-reduction form (Chronopoulos and Gear), as distributed_cg:
  // with u = M^-1 r and w = A u, an iteration's sums r . u, w . u and r . r
  // are taken together, one wait for the members instead of two or three;
  // p . A p = delta - beta gamma / alpha.
  GroupVector<T> r(group, n), w(group, n), p(group, n), s(group, n);
  std::unique_ptr<GroupVector<T>> u_owned = o.jacobi ? std::make_unique<GroupVector<T>>(group, n) : nullptr;
  GroupVector<T>& u = o.jacobi ? *u_owned : r;
  for (std::size_t m = 0; m < group.size(); ++m) {
    if (!r.part(m).size()) continue;
    Context& ctx = group.context(m);
    copy(ctx, b.part(m), r.part(m));
    fill(ctx, p.part(m), T(0));  // the first update takes p = u and s = w (beta = 0)
    fill(ctx, s.part(m), T(0));
  }
  group_spmv(T(-1), a, x, T(1), r);  // r = b - A x
  // w = A u, then every member's sums (enqueued on all before any is read).
  auto product_and_sums = [&] {
    group_spmv(T(1), a, u, T(0), w);
    for (std::size_t m = 0; m < group.size(); ++m) blocks[m]->close(w.part(m), u.part(m));
    std::array<double, 3> total{};
    for (std::size_t m = 0; m < group.size(); ++m) {
      const std::array<double, 3> part = blocks[m]->sums();
      for (std::size_t k = 0; k < 3; ++k) total[k] += part[k];
    }
    return total;
  };
  for (std::size_t m = 0; m < group.size(); ++m) blocks[m]->start(r.part(m), u.part(m));
  const std::array<double, 3> first = product_and_sums();
  double gamma = first[0], delta = first[1];
  result.residual = std::sqrt(first[2]) / b_norm;
  double alpha = 0, beta = 0;
  result.stop_reason = "iteration limit (" + std::to_string(o.max_iterations) + ")";
  // An exact zero residual ends it too (tolerance 0 would divide 0 by 0 next).
  for (std::size_t it = 0; result.residual >= o.tolerance && result.residual > 0; ++it) {
    if (it == o.max_iterations) break;
    const double pq = it == 0 ? delta : delta - beta * gamma / alpha;  // p . A p
    if (!(pq > 0) || !std::isfinite(pq)) {
      result.stop_reason = "breakdown: p . A p = " + std::to_string(pq) + ": A may not be positive definite";
      result.iterations = it;
      break;
    }
    alpha = gamma / pq;
    for (std::size_t m = 0; m < group.size(); ++m)
      blocks[m]->update(T(alpha), T(beta), x.part(m), r.part(m), u.part(m), p.part(m), s.part(m), w.part(m));
    const auto [next, w_u, r_r] = product_and_sums();
    beta = next / gamma;
    gamma = next;
    delta = w_u;
    result.residual = std::sqrt(r_r) / b_norm;
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
  if (!result.converged && !result.warning.empty()) result.stop_reason += " (" + result.warning + ")";
  return result;
}

// ||b - A x|| / ||b|| (||b - A x|| where b = 0), in the working precision.
template <class T>
double true_residual(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, const GroupVector<T>& x) {
  if (a.rows() == 0) return 0;
  GroupVector<T> r(a.group(), a.rows());
  for (std::size_t m = 0; m < a.group().size(); ++m)
    if (r.part(m).size()) copy(a.group().context(m), b.part(m), r.part(m));
  group_spmv(T(-1), a, x, T(1), r);
  const double b_norm = std::sqrt(group_dot(b, b)), r_norm = std::sqrt(group_dot(r, r));
  return b_norm == 0 ? r_norm : r_norm / b_norm;
}

}  // namespace

template <class T, class>
SolverResult group_cg(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                      const SolverOptions& o) {
  check_solver_inputs(a, b, x, o);
  return verified_solve(
      o, [&](const SolverOptions& run) { return solve_once(a, b, x, run); }, [&] { return true_residual(a, b, x); });
}

template SolverResult group_cg<float>(const GroupSparseMatrix<float>&, const GroupVector<float>&, GroupVector<float>&,
                                      const SolverOptions&);
template SolverResult group_cg<double>(const GroupSparseMatrix<double>&, const GroupVector<double>&,
                                       GroupVector<double>&, const SolverOptions&);

}  // namespace portacl
