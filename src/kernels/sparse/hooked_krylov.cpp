// SPDX-License-Identifier: Apache-2.0
// CG and BiCGStab on one device with the caller's hooks (SolverHooks: a
// preconditioner of its own, a look at each iterate): krylov_loop.hpp's
// loop with the scalars on the host (HostScalars), over this device's
// rows. An iteration is the library's vector calls and the caller's
// preconditioner, and one wait for its sums; where no hook is given, cg()
// and bicgstab() keep the iterations on the device instead.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sparse/krylov_checks.hpp"
#include "kernels/sparse/krylov_loop.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "portacl/vectors.hpp"

namespace portacl {
namespace {

// One device's rows (krylov_loop.hpp's Rows), the preconditioner the
// caller's hook.
template <class T>
class DeviceRows : public RowsVectors<Buffer<T>> {
 public:
  using Vector = Buffer<T>;

  DeviceRows(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
             const SolverHooks<T>& hooks)
      : RowsVectors<Buffer<T>>(x, [&ctx, n = a.rows()] { return Buffer<T>(ctx, n); }),
        ctx_(ctx),
        a_(a),
        b_(b),
        o_(o),
        hooks_(hooks) {
    if (hooks.precondition) u_owned_.emplace(ctx, a.rows());
    b_norm_ = a.rows() ? double(nrm2(ctx, b, o.plan)) : 0.0;
  }

  double b_norm() const { return b_norm_; }
  void zero_x() {
    r_is_residual_ = false;
    if (a_.rows()) fill(ctx_, x_, T(0), o_.plan);
  }
  void begin_residual() {
    if (!r_is_residual_) residual_into_r();  // a restart's r is the true residual residual_norm() left
    r_is_residual_ = false;
  }
  void begin() {
    begin_residual();
    fill(ctx_, p_, T(0), o_.plan);  // the first update takes p = u and s = w (beta = 0)
    fill(ctx_, s_, T(0), o_.plan);
    if (u_owned_) precondition(r_, *u_owned_);
  }
  std::array<double, 3> sums() {
    multiply(u(), w_);
    return dots<3>({Pair{&r_, &u()}, Pair{&w_, &u()}, Pair{&r_, &r_}});
  }
  void update(double alpha, double beta) {
    axpby(1, u(), beta, p_);  // p = u + beta p
    axpby(1, w_, beta, s_);   // s = w + beta s (A p)
    axpby(alpha, p_, 1, x_);
    axpby(-alpha, s_, 1, r_);
    if (u_owned_) precondition(r_, *u_owned_);
  }
  double residual_norm() {
    if (a_.rows() == 0) return 0;
    residual_into_r();
    r_is_residual_ = true;
    return double(nrm2(ctx_, r_, o_.plan));
  }

  void multiply(const Vector& in, Vector& out) { product(T(1), in, T(0), out); }
  bool preconditioned() const { return u_owned_.has_value(); }
  void precondition(const Vector& in, Vector& out) { hooks_.precondition(in, out); }
  using Pair = std::pair<const Vector*, const Vector*>;
  template <std::size_t N>
  std::array<double, N> dots(const std::array<Pair, N>& pairs) {
    std::vector<DeviceValue<T>> values;  // every dot enqueued before the first is read: one wait
    for (const Pair& pair : pairs) values.push_back(dot_async(ctx_, *pair.first, *pair.second, o_.plan));
    std::array<double, N> sums{};
    for (std::size_t k = 0; k < N; ++k) sums[k] = double(values[k].get());
    return sums;
  }
  void axpby(double a, const Vector& v, double b, Vector& y) { portacl::axpby(ctx_, T(a), v, T(b), y, o_.plan); }
  void copy(const Vector& from, Vector& to) { portacl::copy(ctx_, from, to, o_.plan); }
  const LaunchPlan& plan() const { return plan_; }  ///< the last product's

 private:
  Vector& u() { return u_owned_ ? *u_owned_ : r_; }
  void product(T alpha, const Vector& in, T beta, Vector& out) {
    plan_ = o_.method ? spmv(ctx_, alpha, a_, in, beta, out, *o_.method, o_.plan)
                      : spmv(ctx_, alpha, a_, in, beta, out, o_.plan);
  }
  void residual_into_r() {
    portacl::copy(ctx_, b_, r_, o_.plan);
    product(T(-1), x_, T(1), r_);  // r = b - A x
  }

  using Base = RowsVectors<Buffer<T>>;
  using Base::x_, Base::r_, Base::w_, Base::p_, Base::s_;
  Context& ctx_;
  const SparseMatrix<T>& a_;
  const Buffer<T>& b_;
  const SolverOptions& o_;
  const SolverHooks<T>& hooks_;
  std::optional<Buffer<T>> u_owned_;
  LaunchPlan plan_;
  double b_norm_ = 0;
  bool r_is_residual_ = false;  ///< r holds b - A x of the current x
};

template <class T>
SolverResult hooked(const char* op, Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                    const SolverOptions& o, const SolverHooks<T>& hooks, bool bicg) {
  check_inputs(op, ctx, a, b, x, o);
  if (o.jacobi && hooks.precondition)
    throw Error(std::string(op) + ": jacobi and a precondition hook were both given; give one preconditioner");
  if (o.criterion != SolverOptions::Criterion::relative_residual)
    throw Error(std::string(op) +
                ": with hooks only the relative_residual criterion is built (the host takes the 2-norm's sums)");
  SolverResult first;
  if (!bicg) first.warning = cg_warning(a);
  DeviceRows<T> rows(ctx, a, b, x, o, hooks);
  std::function<void(std::size_t)> after;
  if (hooks.after_iteration) after = [&](std::size_t it) { hooks.after_iteration(it, x); };
  SolverResult result = verified_split_solve(rows, o, bicg, first, after);
  result.spmv_plan = rows.plan();
  return result;
}

}  // namespace

template <class T, class>
SolverResult cg(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
                const SolverHooks<T>& hooks) {
  return hooked("cg", ctx, a, b, x, o, hooks, false);
}

template <class T, class>
SolverResult bicgstab(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
                      const SolverHooks<T>& hooks) {
  return hooked("bicgstab", ctx, a, b, x, o, hooks, true);
}

template SolverResult cg<float>(Context&, const SparseMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                const SolverOptions&, const SolverHooks<float>&);
template SolverResult cg<double>(Context&, const SparseMatrix<double>&, const Buffer<double>&, Buffer<double>&,
                                 const SolverOptions&, const SolverHooks<double>&);
template SolverResult bicgstab<float>(Context&, const SparseMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                      const SolverOptions&, const SolverHooks<float>&);
template SolverResult bicgstab<double>(Context&, const SparseMatrix<double>&, const Buffer<double>&, Buffer<double>&,
                                       const SolverOptions&, const SolverHooks<double>&);

}  // namespace portacl
