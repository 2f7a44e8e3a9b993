// SPDX-License-Identifier: Apache-2.0
// SpMV's entry points: operand checks, BLAS's alpha = 0 rule, the choice of
// method (rules, a tuning record, or the caller) and its launch.
#include <algorithm>
#include <thread>

#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "portacl/vectors.hpp"
#include "../kernel_call.hpp"
#include "sparse_storage.hpp"
#include "spmv_call.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_launch_rules.hpp"
#include "rules/sparse_rules.hpp"
#include "../planner.hpp"
#include "kernels/kernel_traits.hpp"
#include "rules/plan_provider.hpp"

namespace portacl {

KernelTraits sparse_kernel_traits(const std::string& kernel, ElementType element, bool barriers) {
  // Rows of any length: one scalar walk per row. Per row, for a typical
  // row of a few entries: its values and column indices, two row pointers,
  // y; x is gathered.
  return kernel_traits(kernel, element, 1, traits::scalar | (barriers ? traits::barriers | traits::barriers_only : 0u),
                       {4.0 * static_cast<double>(size_of(element)) + 16.0, 8}, &csr_spmv_tunables());
}

LaunchPlan krylov_pass_plan(Context& ctx, ElementType element, std::size_t n, const PlanOptions& options, bool jacobi) {
  LaunchPlan plan =
      ctx.plan(sparse_kernel_traits("krylov", element, true), ProblemSize(std::max<std::size_t>(n, 1)), options);
  krylov_passes_launch(plan, jacobi);
  return plan;
}

bool spmv_keeps_preparation(const SpmvMethod& m) {
  return (m.format == SparseFormat::csr && (m.variant == CsrVariant::block || m.variant == CsrVariant::merge)) ||
         m.format == SparseFormat::ell || m.format == SparseFormat::ell_r || m.format == SparseFormat::dia;
}

KernelTraits csr_spmv_traits(ElementType element) { return sparse_kernel_traits("csr_spmv", element); }

const TuningSpace& csr_spmv_tunables() {
  static const TuningSpace space{{knobs::work_group_size(), knobs::groups_per_compute_unit()}, nullptr};
  return space;
}

const TuningSpace& csr_block_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::groups_per_compute_unit(),
       {"BLOCK_PER_ITEM",
        {1, 2, 4, 8, 16},
        std::nullopt,
        "entries staged per work-item; unset, the rules decide (sparse.block-entries)"},
       {"SEGMENT_UNITS",
        {2, 4, 8, 16, 32},
        std::nullopt,
        "a long row's piece per work-group, in staged units; unset, the rules decide (sparse.long-row-segments)"}},
      nullptr};
  return space;
}

const TuningSpace& csr_merge_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::groups_per_compute_unit(),
       {"IPT",
        {3, 5, 7, 9, 11, 15},
        std::nullopt,
        "merge-path items (entries and row ends) per work-item; unset, the rules decide (sparse.merge-path-tiles)"}},
      nullptr};
  return space;
}

SpmvChoice plan_spmv_choice(const Planner& planner, DeviceClass device_class, const SparseShape& shape,
                            ElementType element) {
  SpmvChoice choice = choose_spmv_method(shape, device_class);
  // A tuning record (or the caller's override) for this device and bucket
  // of matrix statistics replaces the rules' method.
  choice.plan = planner.plan(spmv_method_traits(shape, element), ProblemSize(std::max<std::size_t>(shape.nnz, 1)));
  if (const auto value = spmv_method_tunables().chosen(choice.plan, "METHOD")) {
    choice.method = spmv_method_of_value(*value);
    choice.decisions.push_back(tuned_spmv_method(choice.method.name(), choice.plan));
  }
  return choice;
}

namespace {

template <class T>
SpmvChoice make_choice(Context& ctx, const SparseMatrix<T>& a, const PlanOptions& options) {
  const DeviceClass device_class =
      options.plan_as ? classify(*options.plan_as).device_class : ctx.device().classification().device_class;
  return plan_spmv_choice(live_planner(ctx, options), device_class, a.shape(), element_of<T>::value);
}

}  // namespace

template <class T, class>
SpmvChoice spmv_choice(Context& ctx, const SparseMatrix<T>& a, const PlanOptions& options) {
  if (!options.leaves_plan_to_device()) return make_choice(ctx, a, options);
  SparseStorage<T>& s = a.storage();
  const std::uint64_t generation = plan_generation();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.choice && s.choice_generation == generation) return *s.choice;
  }
  auto made = std::make_shared<const SpmvChoice>(make_choice(ctx, a, options));
  std::lock_guard<std::mutex> lock(s.mutex);
  s.choice = made;
  s.choice_generation = generation;
  return *made;
}

namespace {

template <class T>
void check_operands(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& x, const Buffer<T>& y) {
  if (&a.context() != &ctx) throw Error("spmv: the sparse matrix A belongs to another context");
  kernel_call::same_context(ctx, x, "spmv", "x");
  kernel_call::same_context(ctx, y, "spmv", "y");
  aliasing::refuse_overlap("spmv", aliasing::whole(y), "y", aliasing::whole(x), "x",
                           "y = alpha A x + beta y reads every element of x while y is written");
  if (x.size() != a.cols())
    throw Error("spmv: x has " + std::to_string(x.size()) + " elements but A has " + std::to_string(a.cols()) +
                " columns");
  if (y.size() != a.rows())
    throw Error("spmv: y has " + std::to_string(y.size()) + " elements but A has " + std::to_string(a.rows()) +
                " rows");
}

// This thread's preparation of `method` for the call's matrix, made on
// first use and again when plan_generation() moves.
template <class T>
std::shared_ptr<const PreparedSpmv> prepared_spmv(const SpmvCall<T>& call, const SpmvMethod& method) {
  SparseStorage<T>& s = call.a.storage();
  const PreparedSpmvKey key{std::this_thread::get_id(), method.format, method.variant};
  const std::uint64_t generation = plan_generation();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto found = s.prepared.find(key);
    if (found != s.prepared.end() && found->second->generation == generation) return found->second;
  }
  // Made outside the lock: preparing takes the storage's lock itself (its
  // conversions and row blocks).
  auto made = std::make_shared<PreparedSpmv>(method.format == SparseFormat::csr ? prepare_csr(call, method.variant)
                                                                                : prepare_format(call, method.format));
  made->generation = generation;
  std::lock_guard<std::mutex> lock(s.mutex);
  s.prepared[key] = made;
  return made;
}

template <class T>
LaunchPlan run(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
               const SpmvMethod& method, const PlanOptions& options) {
  if (alpha == T(0) || a.nnz() == 0) {
    // BLAS: A and x are not read; y = beta y, and beta = 0 does not read y.
    return beta == T(0) ? fill(ctx, y, T(0), options) : scale(ctx, beta, y, options);
  }
  const SpmvCall<T> call{ctx, a, x, alpha, beta, y, options};
  if (options.leaves_plan_to_device() && spmv_keeps_preparation(method)) {
    const std::shared_ptr<const PreparedSpmv> p = prepared_spmv(call, method);
    if (method.format == SparseFormat::csr)
      launch_csr(call, method.variant, *p);
    else
      launch_format(call, method.format, *p);
    return p->plan;
  }
  return method.format == SparseFormat::csr ? run_csr(call, method.variant) : run_format(call, method.format);
}

}  // namespace

template <class T, class>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const PlanOptions& options) {
  check_operands(ctx, a, x, y);
  const SpmvChoice choice = spmv_choice(ctx, a, options);
  LaunchPlan plan = run(ctx, alpha, a, x, beta, y, choice.method, options);
  for (const Decision& d : choice.decisions) plan.decide(d.what, d.value, d.rule, d.why);
  return plan;
}

template <class T, class>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const SpmvMethod& method, const PlanOptions& options) {
  check_operands(ctx, a, x, y);
  LaunchPlan plan = run(ctx, alpha, a, x, beta, y, method, options);
  decide_forced_spmv_method(plan, method.name());
  return plan;
}

#define PORTACL_SPMV(T)                                                                                                \
  template SpmvChoice spmv_choice<T>(Context&, const SparseMatrix<T>&, const PlanOptions&);                            \
  template LaunchPlan spmv<T>(Context&, T, const SparseMatrix<T>&, const Buffer<T>&, T, Buffer<T>&,                    \
                              const PlanOptions&);                                                                     \
  template LaunchPlan spmv<T>(Context&, T, const SparseMatrix<T>&, const Buffer<T>&, T, Buffer<T>&, const SpmvMethod&, \
                              const PlanOptions&);
PORTACL_SPMV(float)
PORTACL_SPMV(double)

}  // namespace portacl
