// SPDX-License-Identifier: Apache-2.0
// CG and BiCGStab on one device: krylov_loop.hpp's loop over the policy
// below, whose scalars live on the device (kernels/sparse_krylov.cl).
// Every iteration is queued without a host round trip (CG: the product and three launches, or the fused product
// and one in the single-reduction form; BiCGStab: two products and four);
// the host reads the device's state every check_every iterations, without
// draining the queue. The device counts the iterations, so the launches of
// one iteration are the same as the next: the single-reduction form may be
// recorded once and replayed (rule solver.replay-iteration).
#include "portacl/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>
#include <thread>

#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "portacl/buffer.hpp"
#include "../kernel_call.hpp"
#include "runtime/recorded_commands.hpp"
#include "device_arrays.hpp"
#include "sparse_storage.hpp"
#include "spmv_call.hpp"
#include "krylov_checks.hpp"
#include "krylov_loop.hpp"
#include "verified_solve.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/replay_rules.hpp"
#include "rules/sparse_launch_rules.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {
namespace {

// scalars[]: krylov_scalars of kernels/sparse_krylov_step.cl, in order;
// status[]: its krylov_status (the state, the iteration it stopped at, the
// breakdown's step, the iterations closed: the device's count).
enum Slot { kRho, kAlpha, kBeta, kOmega, kMeasure, kThreshold, kScalars };
constexpr std::size_t kStatus = 4;
using namespace krylov;

// One window's check, read without waiting into pinned host memory (a read
// into pageable memory holds the host until the queue drains, on NVIDIA's
// OpenCL): the state after iteration `last` and the residuals of
// iterations first + 1 .. last.
template <class T>
struct WindowCheck {
  std::size_t first = 0, last = 0;
  const cl_uint* state = nullptr;
  const T* history = nullptr;
  cl::Event done;
};

// The one-device policy of krylov_loop.hpp: the solver's device state, its
// vectors and the launches that touch them. Each reducing launch ends in
// the scalar step its last work-group does.
template <class T>
struct Krylov {
  static constexpr bool kPlainCg = true;
  Context& ctx;
  const SparseMatrix<T>& a;
  const Buffer<T>& b;
  Buffer<T>& x;
  const SolverOptions& o;
  const char* op;
  bool bicg;
  // The class the plans are made for (options' plan_as, or the context's).
  DeviceClass device_class = classify(o.plan.plan_as ? *o.plan.plan_as : ctx.info()).device_class;
  std::size_t n = a.rows(), window_ = 1, groups = 1;
  cl_ulong nn = n;
  SpmvMethod method_;
  LaunchPlan spmv_plan;
  cl::Buffer scalars, status, partials, history, ticket, inv_diag;
  const cl::Buffer none;
  PreparedKernel dots, start_kernel, update, direction, s_step;
  // CG's product and p . q in one launch (DIA, ELL, ELLPACK-R): the kernel
  // and the format's arrays it reads.
  bool fused = false;
  PreparedKernel product_dot;
  // CG in the single-reduction form (rule solver.single-reduction-cg): the
  // fused product on z, then gear_update.
  bool gear = false;
  PreparedKernel gear_kernel;
  // The iteration recorded once and replayed (rule solver.replay-iteration);
  // while `recording` is set, launches go into it instead of the queue.
  bool replay = false;
  RecordedCommands* recording = nullptr;
  std::optional<RecordedCommands> recorded;
  RowFormatArrays fused_arrays;
  // The vectors, made at the start: r, p and v (CG: q = A p; single
  // reduction: w = A z); z = M^-1 r; s = A p by recurrence (single
  // reduction); BiCGStab's r0, s, t, p_hat = M^-1 p and s_hat = M^-1 s.
  std::optional<Buffer<T>> r, p, v, z, r0, p_hat, s, s_hat, t;

  Krylov(Context& c, const SparseMatrix<T>& m, const Buffer<T>& rhs, Buffer<T>& solution, const SolverOptions& opt,
         const char* name, bool bicgstab)
      : ctx(c), a(m), b(rhs), x(solution), o(opt), op(name), bicg(bicgstab) {
    LaunchPlan plan = krylov_pass_plan(ctx, element_of<T>::value, n, o.plan, o.jacobi);
    krylov_solver_build(plan, o.criterion == SolverOptions::Criterion::max_residual, bicg);
    groups = plan.work_groups;
    const KernelRef file{"sparse_krylov.cl", "", ""};
    auto kernel = [&](const char* entry, const LaunchPlan& p) {
      KernelRef r = file;
      r.entry = entry;
      return ctx.prepare(r, p);
    };
    dots = kernel("krylov_dots", plan);
    start_kernel = kernel("krylov_start", plan);
    update = kernel(bicg ? "bicgstab_update" : "cg_update", plan);
    direction = kernel(bicg ? "bicgstab_direction" : "cg_direction", plan);
    if (bicg) s_step = kernel("bicgstab_s", plan);
    const RuleChoice interval = solver_check_interval(device_class);
    window_ = o.check_every ? *o.check_every : interval.value;
    scalars = device_arrays::make<T>(ctx, kScalars, std::string(op) + " scalars");
    status = device_arrays::make<cl_uint>(ctx, kStatus, std::string(op) + " state");
    partials = device_arrays::make<T>(ctx, 3 * groups, std::string(op) + " partial sums");
    history = device_arrays::make<T>(ctx, window_, std::string(op) + " residual history");
    ticket = device_arrays::make<cl_uint>(ctx, 1, std::string(op) + " ticket");
    device_arrays::zero<cl_uint>(ctx, ticket, 1, std::string(op) + " ticket");
    if (o.jacobi) inv_diag = inverse_diagonal_of(a, a.storage(), op);
    if (o.method) {
      method_ = *o.method;
    } else {
      const SpmvChoice choice = spmv_choice(ctx, a, o.plan);
      method_ = choice.method;
      for (const Decision& d : choice.decisions) spmv_plan.decide(d.what, d.value, d.rule, d.why);
    }
    if (!bicg && n > 0) prepare_fused(plan);
    gear = cg_single_reduction(spmv_plan, fused);
    if (gear) gear_kernel = kernel("cg_gear_update", plan);
    if (!bicg && n > 0) {
      cl_command_queue_properties queue_properties = 0;
      check_cl(ctx.queue().getInfo(CL_QUEUE_PROPERTIES, &queue_properties),
               "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)");
      replay = cg_replays_iteration(spmv_plan, ctx.info(), queue_properties, gear, o.replay_iteration);
    }
  }

  // The fused product where the method allows it; its plan (with the
  // choice's reasons) is the one reported.
  void prepare_fused(LaunchPlan plan) {
    if (!cg_fuses_product_dot(plan, method_)) return;
    fused_arrays = row_format_arrays(a, method_.format, device_class);
    krylov_fused_product_build(plan, method_.format == SparseFormat::dia, fused_arrays.column_major,
                               fused_arrays.row_lengths);
    decide_row_format(plan, method_.format, fused_arrays);
    product_dot = ctx.prepare(KernelRef{"sparse_krylov.cl", "krylov_product_dot", "", ""}, plan);
    for (const Decision& d : spmv_plan.decisions) product_dot.plan.decide(d.what, d.value, d.rule, d.why);
    spmv_plan = product_dot.plan;
    product_recorded = true;
    fused = true;
  }

  // q = A p and its scalar step over p . q (alpha), in one launch.
  void fused_product(Step step, const Buffer<T>& in, Buffer<T>& out) {
    const RowFormatArrays& f = fused_arrays;
    reduce(product_dot, step, nn, f.count, f.pitch, f.index, f.lengths, f.values, in, out);
  }

  // out = A in; the first product's plan, with the choice's reasons, is
  // the one reported.
  void product(const Buffer<T>& in, Buffer<T>& out) {
    LaunchPlan plan = spmv(ctx, T(1), a, in, T(0), out, method_, o.plan);
    if (!product_recorded) {
      for (const Decision& d : spmv_plan.decisions) plan.decide(d.what, d.value, d.rule, d.why);
      spmv_plan = plan;
      product_recorded = true;
    }
  }
  bool product_recorded = false;

  template <class... Args>
  void run(const PreparedKernel& k, const Args&... args) {
    kernel_call::set_args(k, args...);
    submit(k);
  }
  void submit(const PreparedKernel& k) {
    if (recording)
      recording->record(k);
    else
      ctx.launch(k);
  }

  // A reducing kernel: its arguments, then the scalar step its last
  // work-group does, launched or recorded.
  template <class... Args>
  void reduce(const PreparedKernel& k, Step step, const Args&... args) {
    kernel_call::set_args(k, args..., partials, static_cast<cl_uint>(step), static_cast<cl_uint>(window_), scalars,
                          status, history, ticket);
    submit(k);
  }

  // krylov_loop.hpp's policy.
  std::size_t window() const { return window_; }
  bool empty() const { return n == 0; }
  double b_norm() { return n ? double(nrm2(ctx, b, o.plan)) : 0.0; }
  void zero_x() {
    if (n) fill(ctx, x, T(0), o.plan);
  }
  KrylovMethod method() const {
    return bicg ? KrylovMethod::bicgstab : gear ? KrylovMethod::cg_single_reduction : KrylovMethod::cg;
  }
  const cl::Buffer& inv() const { return o.jacobi ? inv_diag : none; }
  // CG's z = M^-1 r (r itself without Jacobi); BiCGStab's p_hat and s_hat.
  Buffer<T>& zr() { return z ? *z : *r; }
  Buffer<T>& ph() { return p_hat ? *p_hat : *p; }
  Buffer<T>& sh() { return s_hat ? *s_hat : *s; }

  void start(double threshold) {
    const std::vector<T> initial{0, 0, 0, 0, 0, static_cast<T>(threshold)};
    check_cl(ctx.queue().enqueueWriteBuffer(scalars, CL_FALSE, 0, sizeof(T) * kScalars, initial.data()),
             "clEnqueueWriteBuffer(solver scalars)");
    device_arrays::zero<cl_uint>(ctx, status, kStatus, "solver state");
    r.emplace(ctx, n);  // r = b - A x
    p.emplace(ctx, n);
    v.emplace(ctx, n);
    copy(ctx, b, *r, o.plan);
    spmv(ctx, T(-1), a, x, T(1), *r, method_, o.plan);
    if (o.jacobi && !bicg) z.emplace(ctx, n);
    if (gear) s.emplace(ctx, n);  // A p, by recurrence
    if (bicg) {
      r0.emplace(ctx, n);
      s.emplace(ctx, n);
      t.emplace(ctx, n);
      copy(ctx, *r, *r0, o.plan);
      if (o.jacobi) {
        p_hat.emplace(ctx, n);
        s_hat.emplace(ctx, n);
      }
    }
    // z = M^-1 r (BiCGStab: p_hat = M^-1 r), the first rho and measure.
    Buffer<T>& preconditioned = bicg ? (p_hat ? *p_hat : *r) : zr();
    reduce(start_kernel, kStart, nn, *r, preconditioned, inv());
    if (gear) {  // the first update makes p = z and s = w from beta = 0
      fill(ctx, *p, T(0), o.plan);
      fill(ctx, *s, T(0), o.plan);
    } else {
      copy(ctx, bicg ? *r : preconditioned, *p, o.plan);
    }
    take_check_slots();
    st = state();
    stopped_ = st[0] != 0;
  }

  void gear_product() { fused_product(kGearAlpha, zr(), *v); }
  void gear_update() { reduce(gear_kernel, kClose, nn, x, *r, zr(), *p, *s, *v, inv()); }
  void cg_product() {
    if (fused) {
      fused_product(kCgAlpha, *p, *v);
    } else {
      product(*p, *v);
      reduce(dots, kCgAlpha, nn, *p, *v, none, none);
    }
  }
  void cg_update() { reduce(update, kClose, nn, x, *r, zr(), *p, *v, inv()); }
  void cg_direction() { run(direction, nn, *p, zr(), scalars, status); }
  void bicgstab_v() {
    product(ph(), *v);
    reduce(dots, kBicgAlpha, nn, *r0, *v, none, none);
  }
  void bicgstab_s() { run(s_step, nn, *s, sh(), *r, *v, inv(), scalars, status); }
  void bicgstab_t() {
    product(sh(), *t);
    reduce(dots, kBicgOmega, nn, *t, *s, *t, *t);
  }
  void bicgstab_update() { reduce(update, kClose, nn, x, *r, *r0, ph(), *s, sh(), *t); }
  void bicgstab_direction() { run(direction, nn, *p, ph(), *r, *v, inv(), scalars, status); }

  // The iteration recorded once where the rule says so, then replayed.
  template <class Iteration>
  void prepare(const Iteration& iteration) {
    if (!replay || stopped_) return;
    recorded.emplace(ctx);
    recording = &*recorded;
    iteration();
    recording = nullptr;
    recorded->finalize();
  }
  template <class Iteration>
  void iterate(const Iteration& iteration) {
    if (recorded)
      recorded->enqueue();
    else
      iteration();
  }

  // Each window's state and residuals are read without waiting, and taken
  // while the next window runs: the queue never drains for a check (the
  // device marks convergence itself; the window queued after it does
  // nothing).
  bool stopped() const { return stopped_; }
  void after(std::size_t it, std::size_t last) {
    if (it - window_start != window_ && it != last) return;
    pending.push_back(check(window_start, it));
    window_start = it;
    if (pending.size() > 1) {  // the window before: done while this one ran
      take(pending.front());
      pending.pop_front();
    }
  }
  KrylovEnd finish(std::vector<double>& out) {
    for (WindowCheck<T>& c : pending)  // (each read must finish before its host copy goes)
      if (!stopped_)
        take(c);
      else
        c.done.wait();
    out = std::move(measures);
    const std::vector<T> last = device_arrays::read<T>(ctx, scalars, kScalars, "solver scalars");
    return KrylovEnd{st[0], st[1], st[2], double(last[kMeasure])};
  }

  std::vector<cl_uint> state() { return device_arrays::read<cl_uint>(ctx, status, 3, std::string(op) + " state"); }
  std::vector<cl_uint> st;
  bool stopped_ = false;
  std::size_t window_start = 0;
  std::deque<WindowCheck<T>> pending;
  std::vector<double> measures;  ///< the closed iterations' measures, as taken
  void take(WindowCheck<T>& c) {
    c.done.wait();
    st.assign(c.state, c.state + 3);
    const std::size_t upto = st[0] ? st[1] : c.last;
    for (std::size_t i = c.first; i < upto; ++i) measures.push_back(double(c.history[i - c.first]));
    stopped_ = st[0] != 0;
  }

  // Queues the reads of the window of iterations first + 1 .. last into
  // the next of two pinned slots: a slot is read again two windows later,
  // after its check was taken. The slots are the matrix's, per thread.
  std::shared_ptr<SolverCheckSlots<T>> slots;
  std::size_t next_slot = 0;
  void take_check_slots() {
    SparseStorage<T>& storage = a.storage();
    const auto key = std::make_pair(std::this_thread::get_id(), window_);
    std::lock_guard<std::mutex> lock(storage.mutex);
    auto& kept = storage.check_slots[key];
    if (!kept) kept = std::make_shared<SolverCheckSlots<T>>(ctx, window_);
    slots = kept;
  }
  WindowCheck<T> check(std::size_t first, std::size_t last) {
    const std::size_t slot = next_slot;
    next_slot = 1 - next_slot;
    WindowCheck<T> c;
    c.first = first;
    c.last = last;
    c.state = slots->state.data() + 3 * slot;
    c.history = slots->history.data() + window_ * slot;
    check_cl(ctx.queue().enqueueReadBuffer(status, CL_FALSE, 0, 3 * sizeof(cl_uint), slots->state.data() + 3 * slot),
             "clEnqueueReadBuffer(" + std::string(op) + " state)");
    check_cl(ctx.queue().enqueueReadBuffer(history, CL_FALSE, 0, (last - first) * sizeof(T),
                                           slots->history.data() + window_ * slot, nullptr, &c.done),
             "clEnqueueReadBuffer(" + std::string(op) + " residual history)");
    return c;
  }
};

template <class T>
SolverResult solve(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
                   bool bicg) {
  const char* op = bicg ? "bicgstab" : "cg";
  check_inputs(op, ctx, a, b, x, o);
  SolverResult result;
  if (!bicg) result.warning = cg_warning(a);
  Krylov<T> k(ctx, a, b, x, o, op, bicg);  // before any launch: a bad diagonal stops here
  result = krylov_solve(k, o, result);
  result.spmv_plan = k.spmv_plan;
  return result;
}

// The criterion's measure of b - A x, in the working precision.
template <class T>
double true_residual(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, const Buffer<T>& x,
                     const SolverOptions& o) {
  const std::size_t n = a.rows();
  if (n == 0) return 0;
  Buffer<T> r(ctx, n);
  copy(ctx, b, r, o.plan);
  if (o.method)
    spmv(ctx, T(-1), a, x, T(1), r, *o.method, o.plan);
  else
    spmv(ctx, T(-1), a, x, T(1), r, o.plan);
  if (o.criterion == SolverOptions::Criterion::max_residual) return double(iamax(ctx, r, o.plan).value);
  const double b_norm = double(nrm2(ctx, b, o.plan));
  return b_norm == 0 ? double(nrm2(ctx, r, o.plan)) : double(nrm2(ctx, r, o.plan)) / b_norm;
}

template <class T>
SolverResult verified(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o,
                      bool bicg) {
  return verified_solve(
      o, [&](const SolverOptions& run) { return solve(ctx, a, b, x, run, bicg); },
      [&] { return true_residual(ctx, a, b, x, o); });
}

}  // namespace

template <class T, class>
SolverResult cg(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& o) {
  return verified(ctx, a, b, x, o, false);
}

template <class T, class>
SolverResult bicgstab(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                      const SolverOptions& o) {
  return verified(ctx, a, b, x, o, true);
}

template SolverResult cg<float>(Context&, const SparseMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                const SolverOptions&);
template SolverResult cg<double>(Context&, const SparseMatrix<double>&, const Buffer<double>&, Buffer<double>&,
                                 const SolverOptions&);
template SolverResult bicgstab<float>(Context&, const SparseMatrix<float>&, const Buffer<float>&, Buffer<float>&,
                                      const SolverOptions&);
template SolverResult bicgstab<double>(Context&, const SparseMatrix<double>&, const Buffer<double>&, Buffer<double>&,
                                       const SolverOptions&);

}  // namespace portacl
