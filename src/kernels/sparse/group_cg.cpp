// SPDX-License-Identifier: Apache-2.0
// Conjugate gradients over a device group, in the single-reduction form
// with the scalars on the host: a product (halos exchanged under the
// interior product), the iteration's dots together (partials added in
// member order), two AXPYs and two AXPBYs an iteration on every member at
// once. The host needs the dots before it can go on, so it checks
// convergence every iteration at no cost.
#include <array>
#include <cmath>
#include <memory>
#include <utility>

#include "kernels/sparse/group_sparse_state.hpp"
#include "portacl/error.hpp"
#include "portacl/kernels/reduce.hpp"
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

// z = D^-1 r on every member: a diagonal matrix's product, exact.
template <class T>
struct Jacobi {
  std::vector<std::unique_ptr<SparseMatrix<T>>> inverse;
  Jacobi(const GroupSparseMatrix<T>& a) {
    auto& s = a.state();
    for (std::size_t m = 0; m < s.diagonal.size(); ++m) {
      const std::vector<T>& d = s.diagonal[m];
      HostCsr<T> inv;
      inv.rows = inv.cols = d.size();
      inv.row_ptr.assign(1, 0);
      for (std::size_t r = 0; r < d.size(); ++r) {
        if (d[r] == T(0))
          throw Error("group_cg: Jacobi preconditioning needs a non-zero diagonal; row " +
                      std::to_string(s.offsets[m] + r) + " has none");
        inv.col.push_back(std::uint32_t(r));
        inv.value.push_back(T(1) / d[r]);
        inv.row_ptr.push_back(inv.col.size());
      }
      inverse.push_back(d.empty() ? nullptr : std::make_unique<SparseMatrix<T>>(a.group().context(m), inv));
    }
  }
  void apply(const GroupVector<T>& r, GroupVector<T>& z) const {
    for (std::size_t m = 0; m < inverse.size(); ++m)
      if (inverse[m]) spmv(r.group().context(m), T(1), *inverse[m], r.part(m), T(0), z.part(m));
  }
};

// y = a x + b y on every member's part.
template <class T>
void group_axpby(T a, const GroupVector<T>& x, T b, GroupVector<T>& y) {
  for (std::size_t m = 0; m < x.group().size(); ++m)
    if (x.part(m).size()) axpby(x.group().context(m), a, x.part(m), b, y.part(m));
}

// Several dots of group vectors: every member's dots enqueued before any is
// read, so each member drains once; partials added in member order.
template <class T, std::size_t N>
std::array<double, N> group_dots(const std::array<std::pair<const GroupVector<T>*, const GroupVector<T>*>, N>& pairs) {
  DeviceGroup& group = pairs[0].first->group();
  std::vector<DeviceValue<T>> values;
  for (std::size_t m = 0; m < group.size(); ++m)
    if (pairs[0].first->part(m).size())
      for (const auto& [x, y] : pairs) values.push_back(dot_async(group.context(m), x->part(m), y->part(m)));
  std::array<double, N> total{};
  for (std::size_t v = 0; v < values.size(); ++v) total[v % N] += double(values[v].get());
  return total;
}

}  // namespace

template <class T, class>
SolverResult group_cg(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                      const SolverOptions& o) {
  check_solver_inputs(a, b, x, o);
  std::unique_ptr<Jacobi<T>> jacobi = o.jacobi ? std::make_unique<Jacobi<T>>(a) : nullptr;
  SolverResult result;
  result.check_every = 1;
  if (!a.asymmetry().empty())
    result.warning = "A is not symmetric: " + a.asymmetry() +
                     "; conjugate gradients needs a symmetric positive definite matrix and may diverge on this one";
  DeviceGroup& group = a.group();
  const std::size_t n = a.rows();
  const double b_norm = n ? std::sqrt(group_dot(b, b)) : 0.0;
  if (n == 0 || b_norm == 0) {
    for (std::size_t m = 0; m < group.size(); ++m)
      if (x.part(m).size()) fill(group.context(m), x.part(m), T(0));
    result.converged = true;
    result.stop_reason = "converged";
    return result;
  }
  // The single-reduction form (Chronopoulos and Gear), as distributed_cg:
  // with u = M^-1 r and w = A u, an iteration's dots r . u, w . u and
  // r . r are taken together, one wait for the members instead of two or
  // three; p . A p = delta - beta gamma / alpha.
  GroupVector<T> r(group, n), w(group, n), p(group, n), s(group, n);
  std::unique_ptr<GroupVector<T>> u_owned = jacobi ? std::make_unique<GroupVector<T>>(group, n) : nullptr;
  GroupVector<T>& u = jacobi ? *u_owned : r;
  for (std::size_t m = 0; m < group.size(); ++m)
    if (r.part(m).size()) copy(group.context(m), b.part(m), r.part(m));
  group_spmv(T(-1), a, x, T(1), r);  // r = b - A x
  auto take_dots = [&] {
    if (jacobi) jacobi->apply(r, u);
    group_spmv(T(1), a, u, T(0), w);
    if (jacobi) {
      const auto d = group_dots<T, 3>({{{&r, &u}, {&w, &u}, {&r, &r}}});
      return std::array<double, 3>{d[0], d[1], d[2]};
    }
    const auto d = group_dots<T, 2>({{{&r, &r}, {&w, &r}}});
    return std::array<double, 3>{d[0], d[1], d[0]};
  };
  const std::array<double, 3> first = take_dots();
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
    for (std::size_t m = 0; m < group.size(); ++m) {
      if (!p.part(m).size()) continue;
      Context& ctx = group.context(m);
      if (it == 0) {
        copy(ctx, u.part(m), p.part(m));
        copy(ctx, w.part(m), s.part(m));
      } else {
        axpby(ctx, T(1), u.part(m), T(beta), p.part(m));  // p = u + beta p
        axpby(ctx, T(1), w.part(m), T(beta), s.part(m));  // s = A p = w + beta s
      }
    }
    group_axpy(T(alpha), p, x);
    group_axpy(T(-alpha), s, r);
    const auto [next, w_u, r_r] = take_dots();
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

template SolverResult group_cg<float>(const GroupSparseMatrix<float>&, const GroupVector<float>&, GroupVector<float>&,
                                      const SolverOptions&);
template SolverResult group_cg<double>(const GroupSparseMatrix<double>&, const GroupVector<double>&,
                                       GroupVector<double>&, const SolverOptions&);

}  // namespace portacl
