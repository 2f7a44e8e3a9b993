// SPDX-License-Identifier: Apache-2.0
// Conjugate gradients and BiCGStab over a device group: krylov_loop.hpp's
// loops over the members' rows. On every member at once, one pass of the vector
// updates (SplitCgBlock), the product (halos exchanged under the interior
// product) and one pass for the last sum; the members' sums added in
// member order.
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "kernels/sparse/group_sparse_state.hpp"
#include "kernels/sparse/split_cg.hpp"
#include "kernels/sparse/krylov_loop.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

namespace {

template <class T>
void check_solver_inputs(const char* op, const GroupSparseMatrix<T>& a, const GroupVector<T>& b,
                         const GroupVector<T>& x, const SolverOptions& o) {
  const std::string name_of_op(op);
  for (const GroupVector<T>* v : {&b, &x}) {
    const char* name = v == &b ? "b" : "x";
    if (&v->group() != &a.group()) throw Error(name_of_op + ": " + name + " is spread over another device group");
    if (v->size() != a.rows())
      throw Error(name_of_op + ": " + name + " has " + std::to_string(v->size()) + " elements but A has " +
                  std::to_string(a.rows()) + " rows");
  }
  if (&b == &x) throw Error(name_of_op + ": b and x are the same vector; the solver reads b while it writes x");
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw Error(name_of_op + ": the tolerance must be a finite number >= 0, not " + std::to_string(o.tolerance));
  if (o.criterion != SolverOptions::Criterion::relative_residual)
    throw Error(name_of_op +
                ": only the relative_residual criterion is built for device groups (the members' partial "
                "dots give the 2-norm; max |r_i| would need another reduction an iteration)");
}

// The rows of a device group: every member's part, its sums added in
// member order (krylov_loop.hpp's Rows).
template <class T>
class GroupRows : public RowsVectors<GroupVector<T>> {
 public:
  GroupRows(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x, const SolverOptions& o,
            const char* op)
      : RowsVectors<GroupVector<T>>(x, [&group = a.group(), n = a.rows()] { return GroupVector<T>(group, n); }),
        a_(a),
        b_(b),
        group_(a.group()) {
    // Each member's vector work: one pass before the product, one after
    // (a zero diagonal under Jacobi is refused here, before any work).
    const auto& state = a.state();
    for (std::size_t m = 0; m < group_.size(); ++m)
      blocks_.push_back(std::make_unique<SplitCgBlock<T>>(group_.context(m), state.diagonal[m].size(),
                                                          o.jacobi ? &state.diagonal[m] : nullptr, state.offsets[m],
                                                          o.plan, op));
    if (o.jacobi) u_owned_ = std::make_unique<GroupVector<T>>(group_, a.rows());
    b_norm_ = a.rows() ? std::sqrt(group_dot(b, b)) : 0.0;
  }

  double b_norm() const { return b_norm_; }
  void zero_x() {
    r_is_residual_ = false;
    for (std::size_t m = 0; m < group_.size(); ++m)
      if (x_.part(m).size()) fill(group_.context(m), x_.part(m), T(0));
  }
  void begin_residual() {
    if (!r_is_residual_) residual_into_r();  // a restart's r is the true residual residual_norm() left
    r_is_residual_ = false;                  // the iterations move x and r apart from b - A x
  }
  void begin() {
    begin_residual();
    for (std::size_t m = 0; m < group_.size(); ++m) {
      if (!r_.part(m).size()) continue;
      fill(group_.context(m), p_.part(m), T(0));  // the first update takes p = u and s = w (beta = 0)
      fill(group_.context(m), s_.part(m), T(0));
    }
    for (std::size_t m = 0; m < group_.size(); ++m) blocks_[m]->start(r_.part(m), u().part(m));
  }
  // w = A u, then every member's sums (enqueued on all before any is read).
  std::array<double, 3> sums() {
    group_spmv(T(1), a_, u(), T(0), w_);
    for (std::size_t m = 0; m < group_.size(); ++m) blocks_[m]->close(w_.part(m), u().part(m));
    std::array<double, 3> total{};
    for (std::size_t m = 0; m < group_.size(); ++m) {
      const std::array<double, 3> part = blocks_[m]->sums();
      for (std::size_t k = 0; k < 3; ++k) total[k] += part[k];
    }
    return total;
  }
  void update(double alpha, double beta) {
    for (std::size_t m = 0; m < group_.size(); ++m)
      blocks_[m]->update(T(alpha), T(beta), x_.part(m), r_.part(m), u().part(m), p_.part(m), s_.part(m), w_.part(m));
  }
  // BiCGStab's exchange-and-reduce (krylov_loop.hpp).
  using Vector = GroupVector<T>;
  void multiply(const Vector& in, Vector& out) { group_spmv(T(1), a_, in, T(0), out); }
  bool preconditioned() const { return u_owned_ != nullptr; }
  void precondition(Vector& in, Vector& out) {
    for (std::size_t m = 0; m < group_.size(); ++m) blocks_[m]->start(in.part(m), out.part(m));
  }
  // Every pair's partials enqueued on every member before the first is
  // read (one wait for all N), added in member order as group_dot adds them.
  template <std::size_t N>
  std::array<double, N> dots(const std::array<std::pair<const Vector*, const Vector*>, N>& pairs) {
    std::vector<DeviceValue<T>> partials;
    for (std::size_t k = 0; k < N; ++k)
      for (std::size_t m = 0; m < group_.size(); ++m)
        if (pairs[k].first->part(m).size())
          partials.push_back(dot_async(group_.context(m), pairs[k].first->part(m), pairs[k].second->part(m)));
    std::array<double, N> sums{};
    std::size_t next = 0;
    for (std::size_t k = 0; k < N; ++k)
      for (std::size_t m = 0; m < group_.size(); ++m)
        if (pairs[k].first->part(m).size()) sums[k] += double(partials[next++].get());
    return sums;
  }
  void axpby(double a, const Vector& v, double b, Vector& y) {
    for (std::size_t m = 0; m < group_.size(); ++m)
      if (y.part(m).size()) portacl::axpby(group_.context(m), T(a), v.part(m), T(b), y.part(m));
  }
  void copy(const Vector& from, Vector& to) {
    for (std::size_t m = 0; m < group_.size(); ++m)
      if (to.part(m).size()) portacl::copy(group_.context(m), from.part(m), to.part(m));
  }

  // ||b - A x|| in the working precision, computed into r (begin() recomputes it).
  double residual_norm() {
    if (a_.rows() == 0) return 0;
    residual_into_r();
    r_is_residual_ = true;
    return std::sqrt(group_dot(r_, r_));
  }

 private:
  GroupVector<T>& u() { return u_owned_ ? *u_owned_ : r_; }
  void residual_into_r() {
    for (std::size_t m = 0; m < group_.size(); ++m)
      if (r_.part(m).size()) portacl::copy(group_.context(m), b_.part(m), r_.part(m));
    group_spmv(T(-1), a_, x_, T(1), r_);  // r = b - A x
  }

  using Base = RowsVectors<GroupVector<T>>;
  using Base::x_, Base::r_, Base::w_, Base::p_, Base::s_;
  const GroupSparseMatrix<T>& a_;
  const GroupVector<T>& b_;
  DeviceGroup& group_;
  std::unique_ptr<GroupVector<T>> u_owned_;
  std::vector<std::unique_ptr<SplitCgBlock<T>>> blocks_;
  double b_norm_ = 0;
  bool r_is_residual_ = false;  ///< r holds b - A x of the current x
};

}  // namespace

template <class T, class>
SolverResult group_cg(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                      const SolverOptions& o) {
  check_solver_inputs("group_cg", a, b, x, o);
  GroupRows<T> rows(a, b, x, o, "group_cg");
  SolverResult result = verified_split_solve(rows, o, false);
  if (!a.asymmetry().empty()) {
    result.warning = "A is not symmetric: " + a.asymmetry() +
                     "; conjugate gradients needs a symmetric positive definite matrix and may diverge on this one";
    if (!result.converged) result.stop_reason += " (" + result.warning + ")";
  }
  return result;
}

template <class T, class>
SolverResult group_bicgstab(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                            const SolverOptions& o) {
  check_solver_inputs("group_bicgstab", a, b, x, o);
  GroupRows<T> rows(a, b, x, o, "group_bicgstab");
  return verified_split_solve(rows, o, true);
}

template SolverResult group_cg<float>(const GroupSparseMatrix<float>&, const GroupVector<float>&, GroupVector<float>&,
                                      const SolverOptions&);
template SolverResult group_cg<double>(const GroupSparseMatrix<double>&, const GroupVector<double>&,
                                       GroupVector<double>&, const SolverOptions&);

template SolverResult group_bicgstab<float>(const GroupSparseMatrix<float>&, const GroupVector<float>&,
                                            GroupVector<float>&, const SolverOptions&);
template SolverResult group_bicgstab<double>(const GroupSparseMatrix<double>&, const GroupVector<double>&,
                                             GroupVector<double>&, const SolverOptions&);

}  // namespace portacl
